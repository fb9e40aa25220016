// What each probe of a run costs against what it measures: the estimate `idb score`
// prints, for deciding which probes a selection should keep. A probe's cost is its noise
// (the calibrated cost of each activation, timed or throttled, plus what its slow paths
// measured); its own time is its inclusive time, with a throttled node's untimed
// activations counted at the mean of its timed ones, and a recursive probe's inner levels
// not counted again inside its outer ones. Pure functions: thread-safe, no I/O,
// no throws except std::bad_alloc.
#pragma once

#include "idb/profile.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace idb::analysis {

// keep: the probe costs at most the target share of its own time; prune: more; throttled:
// the runtime stopped timing some of its nodes (it cost more than its threshold there).
enum class Verdict { keep, prune, throttled };

// "keep", "prune", "throttled".
std::string_view verdict_name(Verdict verdict);

// One probe over every rank, thread and CFH of a run (the named CFHs' roots left out, as in
// the per-probe aggregates).
struct ProbeScore {
  std::int32_t probe = 0;
  std::string label;             // the probe's description (node_label's rule)
  std::uint64_t activations = 0; // timed and throttled
  std::uint64_t throttled = 0;
  double mean = 0;       // s per timed activation
  double own = 0;        // s: inclusive (a recursive probe's outermost levels only), each
                         // node's throttled activations at its timed mean
  double exclusive = 0;  // s: inclusive minus the children's (their untimed time included)
  double noise = 0;      // s: the probe's measured cost
  double cost_share = 0; // noise / own; 0 when own is 0
  double run_share = 0;  // noise / Score::run_time
  Verdict verdict = Verdict::keep;
};

struct Score {
  double run_time = 0; // s: the threads' roots summed over every rank and thread
  double noise = 0;    // s: every probe's
  double dilation = 0; // noise / (run_time - noise): the slow-down the probes caused
  std::uint64_t activations = 0;
  std::vector<ProbeScore> probes; // by noise, largest first (then by probe id)
};

// Scores every probe of `run` against `target`, a share (0.05 for 5%).
Score score(const profile::Profile &run, double target);

} // namespace idb::analysis

// A run's dynamics (profile format 1.6): every rank's iterations of the dynamic probe
// reconstructed from its clusters, per probe of the iteration's subtree, and what stands
// out in them: iterations far from those around them (spikes), a shift of level
// (a step), and how much each rank's iterations grew over the run (a drift). What
// `idb dynamics` prints and the GUI draws. Pure functions: thread-safe, no I/O, no throws
// except std::bad_alloc.
#pragma once

#include "idb/profile.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace idb::analysis {

// One CFH's series (a rank's thread).
struct RankSeries {
  std::int32_t rank = 0, thread = 0;
  std::uint64_t clusters = 0;
  // Per probe of the subtree (its nodes added): each iteration's wall seconds and
  // activations; every vector is as long as the CFH's iterations.
  std::map<std::int32_t, std::vector<double>> seconds, visits;
};

struct RunDynamics {
  std::int32_t probe = 0;           // the dynamic probe; 0 when the run has none
  std::uint64_t iterations = 0;     // the most any CFH has
  std::vector<RankSeries> series;   // by rank, then thread
  std::vector<std::int32_t> probes; // the subtree's, the dynamic probe first, then by time
  std::map<std::int32_t, std::string> labels; // each probe's description
  std::map<std::int32_t, double> totals;      // each probe's seconds over every iteration
  std::map<std::int32_t, int> kinds;          // each probe's kind (IDB_PROC, ... IDB_COMM)
  std::vector<std::int32_t> others;           // other dynamic probes the run has
  std::uint64_t dropped = 0, mixed = 0;       // summed over the CFHs
};

// The run's dynamics for `probe`, or for the dynamic probe with the most iterations when
// none is given (ties: the lowest id). Summary CFHs have none.
RunDynamics run_dynamics(const profile::Profile &run, std::optional<std::int32_t> probe = {});

// "rank 3", or "rank 3 thread 1" when any series of `d` is not thread 0: series `k`'s name.
std::string series_name(const RunDynamics &d, std::size_t k);

// Per iteration, over the CFHs that reached it: the least, mean and most seconds of
// `probe`, and the CFH (index into RunDynamics::series) holding the most.
struct Spread {
  std::vector<double> min, mean, max;
  std::vector<std::size_t> max_at;
};
Spread spread_over_ranks(const RunDynamics &d, std::int32_t probe);

// An iteration far from the ones around it: its seconds against the median of the
// `window` iterations centred on it (itself left out).
struct Outlier {
  std::uint64_t iteration = 0;
  double seconds = 0, baseline = 0;
};

// The iterations of `series` more than `factor` times above (or that far below) the
// median around them, in iteration order. A series shorter than 3 has none.
std::vector<Outlier> outliers(const std::vector<double> &series, std::size_t window = 21,
                              double factor = 1.5);

// The single shift of level that splits `series` best (the split that separates the two
// sides' means most, weighted by their sizes, on the series clipped to its 5th and 95th
// percentiles), judged on the sides' medians: found when
// they differ by more than `least` (a share) and each side holds 5% of the series or more.
struct Step {
  bool found = false;
  std::uint64_t iteration = 0;  // the first of the new level
  double before = 0, after = 0; // the sides' medians
};
Step level_shift(const std::vector<double> &series, double least = 0.1);

// How much `series` grew over the run: the median of its last fifth over the median of
// its first fifth, minus 1 (0 for fewer than 10 iterations or a zero start).
double growth(const std::vector<double> &series);

// The series in `series`' rank order whose growth is farthest from the others' median
// growth, and by how much (a share); nullopt with fewer than 3 series or when it differs
// by no more than `least`, than three times the others' spread (the median absolute
// deviation of their growths), or than twice the series' noise (the median over the series of
// the median change from one iteration to the next over the series' median): noisy
// series grow apart by chance.
struct Drift {
  std::size_t at = 0; // index into the series
  double growth = 0, others = 0;
};
std::optional<Drift> drifting(const std::vector<std::vector<double>> &series, double least = 0.1);

// The loop probe of `run` most likely the program's time step, the one to make dynamic:
// of the LOOP probes with a COMM node below one of their nodes, the one with the most wall
// time over every rank and thread (an outer loop holds its inner loops' time, so the
// outermost wins), with its share of the threads' roots. nullopt when no loop holds a
// COMM node.
struct TimeStep {
  std::int32_t probe = 0;
  std::string label;
  double share = 0;
};
std::optional<TimeStep> time_step_candidate(const profile::Profile &run);

} // namespace idb::analysis

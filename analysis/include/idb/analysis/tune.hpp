// One round of `idb tune`'s grow/prune loop, decided from data: the probes a run says to
// prune (they cost more than the target share of their own time, or the runtime throttled
// them) and the candidates to grow into (those inside the nodes that hold a large share of
// the run as exclusive time, one level at a time). The candidates are what the compiler
// wrappers recorded for IDB_CANDIDATES (docs/instrumenter.md). Pure functions: thread-safe,
// no I/O, no throws except std::bad_alloc.
#pragma once

#include "idb/analysis/score.hpp"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace idb::analysis {

// One candidate of a build: one line of an IDB_CANDIDATES file.
struct TuneCandidate {
  std::int32_t id = 0;
  std::string kind;   // PROC, LOOP, CALL or COMM
  std::string status; // placed, - (not selected) or skipped: REASON
  std::string file;
  unsigned line = 0;
  std::string function, callee;
  int depth = 0;
  std::int32_t parent = 0; // the loop holding it, 0 for none
  std::string size;        // "loop", a weight, or "" when unknown (the callee's for a call)
  std::string description;
  bool placed() const { return status == "placed"; }
};

struct CandidatesResult {
  std::vector<TuneCandidate> candidates; // each ID once (a source built twice gives one)
  std::string error;                     // "NAME:LINE: message", "" when the text is valid
};

// Reads the text of an IDB_CANDIDATES file; `name` prefixes error messages.
CandidatesResult parse_candidates(const std::string &text, const std::string &name);

// What the loop has done in earlier rounds.
struct TuneState {
  std::set<std::int32_t> grown;  // included by ID
  std::set<std::int32_t> pruned; // excluded by ID; never grown again
  std::set<std::int32_t> failed; // grown, but the build could not place them
};

struct TuneOptions {
  double target = 0.03; // a probe's cost share, and the run's estimated dilation, to stay under
  double grow = 0.05;   // the exclusive share of the run from which a node is refined
  // The round's measured slow-down against the run without probes (its wall time over
  // round 0's, less 1), or negative when not known. The probes left after the prunes are
  // summed against the run without probes: that run's time is the round's over 1 plus this
  // (kept between the run less the probes' estimated cost and the run itself), for the
  // estimate charges a throttled activation what a back-to-back one costs, up to twice
  // what it costs between real work, and a run of a billion of them looked a third shorter
  // without probes than it was (Quicksilver, docs/PERFORMANCE.md section 13).
  double measured = -1;
};

// A change to the selection, with the probe's description and why.
struct TuneChange {
  std::int32_t probe = 0;
  std::string kind; // of the candidate: the selection rule's kind
  std::string label;
  std::string why;
};

// A node by its exclusive time.
struct HotNode {
  std::int32_t probe = 0;
  std::string label;
  double share = 0; // exclusive time over the run's
};

struct TuneStep {
  std::vector<TuneChange> prune, grow;
  std::vector<HotNode> hot;   // every probe by exclusive share, largest first
  double estimated = 0;       // the run's dilation by the probes' noise
  double estimated_after = 0; // the same without the probes to prune
};

// Decides the next round from a run's score (computed with options.target) and the
// candidates of the build that ran. Never prunes main's PROC; grows a CALL around calls
// whose callee has no PROC candidate (a header's inline function, a library's), else the
// callee's PROC. Inside a loop it grows only what holds an open-ended loop or weighs at
// least kSubstantial: a probe runs there once per iteration, and around a few statements
// it would cost more than it measures (and the next round would prune it); nor a loop of
// a constant trip count or a callee the bounded rule left out, whatever they weigh (their
// work is set by their text).
constexpr int kSubstantial = 8;
TuneStep tune_step(const Score &score, const std::vector<TuneCandidate> &candidates,
                   const TuneState &state, const TuneOptions &options);

// The probe to try without when a build measures slower than the target although its
// probes' cost is estimated under it. The difference is what probes change in the code
// around them (a function no longer inlined, values kept in memory across the calls, fewer
// memory reads in flight), which no estimate from the profile sees and which grows with how
// often a probe runs. So the suspect is the probe with the most activations (then the
// larger noise) among those placed in the build, activated at least kPresenceActivations
// times, not main's PROC and not in `tried`. Probes whose nodes hold `grow` of the run or
// more as their own time come only when no other is left: without one, that time would be
// its parent's, the very node a round grows into, and the selection would show less than
// the rounds found. Its `why` gives the activations and the estimate. nullopt when there
// is none.
constexpr std::uint64_t kPresenceActivations = 10000;

// The loops of `proc`'s function that the instrumenter skipped as the function's whole work
// (docs/instrumenter.md, "The size rule"): with the PROC excluded they would take probes of
// their own, which cost as the PROC did, so they are excluded with it. Empty for anything
// but a PROC.
std::vector<TuneChange> whole_work_loops(std::int32_t proc,
                                         const std::vector<TuneCandidate> &candidates);

std::optional<TuneChange> presence_suspect(const Score &score,
                                           const std::vector<TuneCandidate> &candidates,
                                           const std::set<std::int32_t> &tried, double grow);

} // namespace idb::analysis

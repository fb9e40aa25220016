// One round of `idb tune` (analysis/tune.hpp) on a run written as text and the candidates
// its build recorded: what it prunes (throttled, too costly for its time, not main, not
// what is too rare to matter, the costliest when all together are over the target) and
// what it grows into (a hot node's loops one level at a time, a CALL around a callee
// without a definition, a small callee's PROC), never what it pruned or could not place.
#include "cfh_text.hpp"
#include "idb/analysis/tune.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace idb::test {
namespace {

using analysis::TuneCandidate;
using analysis::TuneChange;

// The candidates of one file, one line each: id, kind, status, function, callee, parent,
// size.
std::string line(int id, const char *kind, const char *status, const char *function,
                 const char *callee = "", int parent = 0, const char *size = "loop") {
  return std::to_string(id) + "\t" + kind + "\t" + status + "\tapp.c\t1\t" + function + "\t" +
         callee + "\t0\t" + std::to_string(parent) + "\t" + size + "\t#" + std::to_string(id) +
         "\n";
}

std::vector<TuneCandidate> candidates(const std::string &text) {
  analysis::CandidatesResult r = analysis::parse_candidates(text, "cands");
  EXPECT_EQ("", r.error);
  return r.candidates;
}

// main (1) calls step (2) once per iteration of main's loop (3). Step holds a loop (4)
// calling the tiny helper digits (5, throttled) and calls the kernel `smooth` (a header's
// inline function: no PROC), and `scale`, a small function of the sources (PROC 9,
// skipped by the size rule). Step's loop holds an inner loop (7) that is not probed yet,
// and calls of every size (13 to 16).
const char *const kRun = "main 1 1.0 0.0001\n"
                         "main;loop3 1 0.99 0.00001\n"
                         "main;loop3;step 100 0.98 0.00002\n"
                         "main;loop3;step;loop4 100 0.30 0.00001\n"
                         "main;loop3;step;loop4;digits 10000 0.0002 0.0003 990000\n";

std::string run_candidates() {
  return line(1, "PROC", "placed", "main") + line(3, "LOOP", "placed", "main") +
         line(2, "PROC", "placed", "step") + line(4, "LOOP", "placed", "step") +
         line(7, "LOOP", "-", "step", "", 4) + line(8, "CALL", "-", "step", "digits", 7) +
         line(5, "PROC", "placed", "digits") + line(6, "CALL", "-", "step", "smooth") +
         line(10, "CALL", "-", "step", "scale") +
         line(9, "PROC", "skipped: small function", "scale", "", 0, "3") +
         line(11, "CALL", "-", "step", "printf", 0, "-") +
         line(12, "COMM", "-", "step", "MPI_Send") +
         // Inside loop 4: a header's kernel with a loop of its own, a library call, a short
         // inner loop, a call to a small function of the sources.
         line(13, "CALL", "-", "step", "kernel2", 4, "loop") +
         line(14, "CALL", "-", "step", "sqrt", 4, "-") + line(15, "LOOP", "-", "step", "", 4, "3") +
         line(16, "CALL", "-", "step", "accessor", 4, "2") +
         line(17, "PROC", "skipped: small function", "accessor", "", 0, "2") +
         // And outside it, a call to a function of the sources with a loop, excluded so far.
         line(18, "CALL", "-", "step", "solve") + line(19, "PROC", "-", "solve", "", 0, "loop") +
         // And a per-element function of the sources that the bounded rule left out.
         line(20, "CALL", "-", "step", "element") +
         line(21, "PROC", "skipped: bounded function (weight 40 under 128)", "element", "", 0,
              "40") +
         // And inside loop 4, a call to another that the bounded rule left out.
         line(22, "CALL", "-", "step", "corner", 4, "40") +
         line(23, "PROC", "skipped: bounded function (weight 40 under 128)", "corner", "", 0,
              "40") +
         // And a loop of eight trips inside loop 4, weighing 24 with every trip.
         line(24, "LOOP", "-", "step", "", 4, "short 24");
}

// A run of `tree` whose probes have the IDs `ids` gives their labels (build_cfh numbers
// them in order of appearance).
profile::Profile renumbered(const std::string &tree,
                            const std::map<std::string, std::int32_t> &ids) {
  profile::Profile p;
  p.cfhs.push_back(build_cfh(p, 1.0, tree));
  std::map<std::int32_t, std::int32_t> renumber;
  for (profile::Probe &probe : p.probes)
    if (auto it = ids.find(probe.description); it != ids.end()) {
      renumber[probe.id] = it->second;
      probe.id = it->second;
    }
  for (profile::Cfh &c : p.cfhs)
    for (profile::Node &n : c.nodes)
      if (auto it = renumber.find(n.probe); it != renumber.end()) n.probe = it->second;
  return p;
}

// Appends `loops` nested loops l0, l1, ... (IDs 30, 31, ...) under `path` in `function`:
// 1000 activations each, l_i's total `first - step * i` seconds, each charged `noise`.
void add_nested_loops(std::string &tree, std::string &cands,
                      std::map<std::string, std::int32_t> &ids, std::string path,
                      const char *function, int loops, double first, double step,
                      const std::string &noise) {
  for (int i = 0; i < loops; ++i) {
    std::string name = "l" + std::to_string(i);
    path += ";" + name;
    tree += path + " 1000 " + std::to_string(first - step * i) + " " + noise + "\n";
    cands += line(30 + i, "LOOP", "placed", function, "", i ? 29 + i : 0);
    ids[name] = 30 + i;
  }
}

const std::map<std::string, std::int32_t> kIds = {
    {"main", 1}, {"loop3", 3}, {"step", 2}, {"loop4", 4}, {"digits", 5}};

bool has(const std::vector<TuneChange> &changes, std::int32_t probe) {
  return std::any_of(changes.begin(), changes.end(),
                     [&](const TuneChange &c) { return c.probe == probe; });
}

analysis::TuneStep step_of(const std::string &tree, const std::string &cands,
                           const analysis::TuneState &state = {}) {
  analysis::TuneOptions options;
  return analysis::tune_step(analysis::score(renumbered(tree, kIds), options.target),
                             candidates(cands), state, options);
}

TEST(Tune, PrunesTheThrottledHelperAndGrowsIntoTheHotFunction) {
  analysis::TuneStep s = step_of(kRun, run_candidates());
  EXPECT_TRUE(has(s.prune, 5)) << "digits was throttled";
  EXPECT_FALSE(has(s.prune, 1)) << "never main";
  EXPECT_EQ(1u, s.prune.size());
  // Step holds 0.68 s of its own: the kernel's call and the small function's PROC grow; so
  // does printf's call (no definition: a probe around it, pruned later if it costs); MPI's
  // are the user's to choose; the call to digits lies in loop 4, not in step's own time.
  EXPECT_TRUE(has(s.grow, 6)) << "a CALL around the header's kernel";
  EXPECT_TRUE(has(s.grow, 10)) << "a CALL at the site of a small callee";
  EXPECT_FALSE(has(s.grow, 9)) << "not its PROC, which would fire at every call site";
  EXPECT_TRUE(has(s.grow, 19)) << "the PROC of a callee that holds a loop";
  EXPECT_FALSE(has(s.grow, 18)) << "not a CALL as well";
  EXPECT_TRUE(has(s.grow, 21)) << "the PROC the bounded rule left out: an ID rule places it";
  EXPECT_FALSE(has(s.grow, 20));
  EXPECT_TRUE(has(s.grow, 11));
  EXPECT_FALSE(has(s.grow, 12));
  // Loop 4 holds 0.3 s of its own (digits' untimed time): its inner loop 7 grows, and the
  // call inside loop 7 waits for it, one level a round.
  EXPECT_TRUE(has(s.grow, 7));
  EXPECT_FALSE(has(s.grow, 8));
  // In a loop only what holds a loop or weighs enough: a probe there runs every iteration.
  EXPECT_TRUE(has(s.grow, 13)) << "the header's kernel with a loop";
  EXPECT_FALSE(has(s.grow, 14)) << "a library call of unknown size";
  EXPECT_FALSE(has(s.grow, 15)) << "a short inner loop";
  EXPECT_FALSE(has(s.grow, 16));
  EXPECT_FALSE(has(s.grow, 17)) << "nor the small callee's PROC";
  EXPECT_FALSE(has(s.grow, 23)) << "a bounded callee in a loop is short, whatever it weighs";
  EXPECT_FALSE(has(s.grow, 22)) << "nor a CALL around it";
  EXPECT_FALSE(has(s.grow, 24)) << "a loop of a constant trip count: its work is set by its text";
  EXPECT_FALSE(s.hot.empty());
  EXPECT_EQ(2, s.hot[0].probe) << "step holds most time of its own";
  EXPECT_GT(s.estimated, s.estimated_after);
}

TEST(Tune, NeverGrowsWhatItPrunedOrCouldNotPlace) {
  analysis::TuneState state;
  state.pruned = {6, 7};
  state.failed = {9};
  analysis::TuneStep s = step_of(kRun, run_candidates(), state);
  EXPECT_FALSE(has(s.grow, 6));
  EXPECT_FALSE(has(s.grow, 7));
  EXPECT_FALSE(has(s.grow, 9));
  // With loop 7 pruned, the call inside it belongs to loop 4; digits keeps its PROC until
  // this round's prune, so no CALL goes around it.
  EXPECT_FALSE(has(s.grow, 8));
}

TEST(Tune, ACallInsideALoopThatCannotBeProbedBelongsToTheLoopAbove) {
  std::string cands = run_candidates();
  cands.replace(cands.find("7\tLOOP\t-"), 8, "7\tLOOP\tskipped: a jump could enter the loop");
  cands.replace(cands.find("5\tPROC\tplaced"), 13, "5\tPROC\t-");
  analysis::TuneState state;
  state.pruned = {5}; // digits' PROC went in an earlier round
  analysis::TuneStep s = step_of(kRun, cands, state);
  // digits has a PROC candidate that was pruned: neither it nor a CALL around it.
  EXPECT_FALSE(has(s.grow, 8));
  EXPECT_FALSE(has(s.grow, 5));
}

TEST(Tune, ALoopLeftToItsProcIsNeverGrownAndGoesWhenThePROCIsPruned) {
  // kern (2) holds most of the run as its own time in its loop (3), which the instrumenter
  // left to kern's PROC as its whole work; the loop holds an inner loop (4) and a call of a
  // header's function with a loop (5). tiny (6) was throttled; its loop (7) is its whole
  // work too.
  const char *tree = "main 1 1.0 0.0001\n"
                     "main;kern 10 0.95 0.00001\n"
                     "main;kern;tiny 10000 0.0002 0.0003 990000\n";
  const std::map<std::string, std::int32_t> ids = {{"main", 1}, {"kern", 2}, {"tiny", 6}};
  const char *whole = "skipped: its function's whole work, which the PROC measures (the rest "
                      "weighs 2 under 128, bounded)";
  std::string cands = line(1, "PROC", "placed", "main") + line(2, "PROC", "placed", "kern") +
                      line(3, "LOOP", whole, "kern") + line(4, "LOOP", "-", "kern", "", 3) +
                      line(5, "CALL", "-", "kern", "heavy", 3, "loop") +
                      line(6, "PROC", "placed", "tiny") + line(7, "LOOP", whole, "tiny");
  analysis::TuneOptions options;
  std::vector<TuneCandidate> built = candidates(cands);
  analysis::TuneStep s = analysis::tune_step(analysis::score(renumbered(tree, ids), options.target),
                                             built, {}, options);
  EXPECT_FALSE(has(s.grow, 3)) << "it would measure what kern's PROC does";
  EXPECT_TRUE(has(s.grow, 4)) << "what the loop holds grows instead";
  EXPECT_TRUE(has(s.grow, 5));
  EXPECT_TRUE(has(s.prune, 6)) << "tiny was throttled";
  EXPECT_TRUE(has(s.prune, 7)) << "without tiny's PROC its loop would take a probe";
  EXPECT_FALSE(has(s.prune, 3));
  EXPECT_TRUE(has(analysis::whole_work_loops(2, built), 3));
  EXPECT_TRUE(analysis::whole_work_loops(3, built).empty()) << "only a PROC has any";
}

TEST(Tune, RareProbesStayWhateverTheirShareAndTheSumIsKeptUnderTheTarget) {
  // `once` costs half its own time but a millionth of the run: kept. Eight nested loops
  // costing 1% of the run each (under the 3% share each) sum over the target: the dearest
  // for their own time go until the estimate is under it.
  std::string tree = "main 1 1.0\nmain;once 1 0.000002 0.000001\n";
  std::string cands = line(1, "PROC", "placed", "main") + line(20, "PROC", "placed", "once");
  std::map<std::string, std::int32_t> ids = {{"main", 1}, {"once", 20}};
  add_nested_loops(tree, cands, ids, "main", "main", 8, 0.9, 0.01, "0.01");
  profile::Profile p = renumbered(tree, ids);
  analysis::TuneOptions options;
  analysis::TuneStep s =
      analysis::tune_step(analysis::score(p, options.target), candidates(cands), {}, options);
  EXPECT_FALSE(has(s.prune, 20)) << "too rare to matter";
  EXPECT_NEAR(0.08 / 0.92, s.estimated, 1e-5);
  EXPECT_LE(s.estimated_after, options.target);
  EXPECT_EQ(6u, s.prune.size()) << "8% down to 2%: six of the 1% loops";
}

TEST(Tune, OverTheTargetTheDearestForWhatTheyMeasureGoFirst) {
  // A kernel costing 2.6% of its own time, the largest cost of the run, holds five nested
  // loops costing 2.8% of theirs each: 10.5% in all, each under the 3% share. The loops go
  // first, and five of them bring the estimate under the target with the kernel kept.
  std::string tree = "main 1 1.0\nmain;kernel 1 0.95 0.025\n";
  std::string cands = line(1, "PROC", "placed", "main") + line(2, "PROC", "placed", "kernel");
  std::map<std::string, std::int32_t> ids = {{"main", 1}, {"kernel", 2}};
  add_nested_loops(tree, cands, ids, "main;kernel", "kernel", 5, 0.5, 0.001, "0.014");
  analysis::TuneOptions options;
  analysis::TuneStep s = analysis::tune_step(analysis::score(renumbered(tree, ids), options.target),
                                             candidates(cands), {}, options);
  EXPECT_FALSE(has(s.prune, 2)) << "the kernel measures the most for its cost";
  EXPECT_EQ(5u, s.prune.size());
  EXPECT_LE(s.estimated_after, options.target);
}

TEST(Tune, TheSumIsTakenAgainstTheRunTheRoundMeasured) {
  // A throttled helper charged 0.45 s of a 1 s run, a kernel and its loop 1.2% each of the
  // run. Against the run less every charge (0.53 s) the two are 4.6% and the loop goes;
  // the round measured the run 20% slower than without probes (0.83 s): 2.9%, both stay.
  std::string tree = "main 1 1.0\n"
                     "main;kernel 1000 0.6 0.012\n"
                     "main;kernel;loop 1000 0.5 0.012\n"
                     "main;kernel;loop;helper 10000 0.001 0.45 990000\n";
  std::string cands = line(1, "PROC", "placed", "main") + line(2, "PROC", "placed", "kernel") +
                      line(3, "LOOP", "placed", "kernel") + line(4, "PROC", "placed", "helper");
  std::map<std::string, std::int32_t> ids = {
      {"main", 1}, {"kernel", 2}, {"loop", 3}, {"helper", 4}};
  analysis::TuneOptions options;
  analysis::Score score = analysis::score(renumbered(tree, ids), options.target);
  analysis::TuneStep unmeasured = analysis::tune_step(score, candidates(cands), {}, options);
  EXPECT_TRUE(has(unmeasured.prune, 4));
  EXPECT_TRUE(has(unmeasured.prune, 3)) << "against 0.53 s";
  EXPECT_FALSE(has(unmeasured.prune, 2));
  options.measured = 0.2;
  analysis::TuneStep measured = analysis::tune_step(score, candidates(cands), {}, options);
  EXPECT_TRUE(has(measured.prune, 4)) << "throttled";
  EXPECT_EQ(1u, measured.prune.size()) << "against 0.83 s";
  EXPECT_NEAR(0.024 / (1.0 / 1.2), measured.estimated_after, 1e-9);
}

TEST(Tune, PresenceSuspectIsTheMostFrequentPlacedProbeNotYetTried) {
  // kern runs most often; big more often than step, but 36% of the run is its own time,
  // which without it would be step's: it comes after step; rare runs under
  // kPresenceActivations; gone was not placed in the build that ran (a stale id), main
  // never.
  std::string tree = "main 1 1.0\n"
                     "main;step 20000 0.98 0.0004\n"
                     "main;step;kern 50000 0.5 0.001\n"
                     "main;step;kern;inner 1000 0.48 0.00002\n"
                     "main;step;big 30000 0.36 0.0006\n"
                     "main;step;rare 5000 0.01 0.0001\n"
                     "main;step;gone 90000 0.1 0.002\n";
  std::string cands = line(1, "PROC", "placed", "main") + line(2, "PROC", "placed", "step") +
                      line(40, "PROC", "placed", "kern") + line(43, "LOOP", "placed", "kern") +
                      line(44, "PROC", "placed", "big") + line(41, "PROC", "placed", "rare") +
                      line(42, "PROC", "-", "gone");
  std::map<std::string, std::int32_t> ids = {{"main", 1}, {"step", 2},  {"kern", 40}, {"inner", 43},
                                             {"big", 44}, {"rare", 41}, {"gone", 42}};
  analysis::Score score = analysis::score(renumbered(tree, ids), 0.03);
  std::vector<TuneCandidate> built = candidates(cands);
  analysis::TuneOptions options;
  std::optional<TuneChange> first = analysis::presence_suspect(score, built, {}, options.grow);
  ASSERT_TRUE(first);
  EXPECT_EQ(40, first->probe);
  EXPECT_EQ("PROC", first->kind);
  EXPECT_EQ("50000 activations, estimated at 0.1% of the run", first->why);
  std::optional<TuneChange> second = analysis::presence_suspect(score, built, {40}, options.grow);
  ASSERT_TRUE(second);
  EXPECT_EQ(2, second->probe) << "big holds more of the run than a round refines from";
  std::optional<TuneChange> third = analysis::presence_suspect(score, built, {40, 2}, options.grow);
  ASSERT_TRUE(third);
  EXPECT_EQ(44, third->probe) << "big when no other is left";
  EXPECT_FALSE(analysis::presence_suspect(score, built, {40, 2, 44}, options.grow))
      << "rare runs too seldom, gone is not in the build, main is never tried, inner too seldom";
}

TEST(Tune, CandidatesFileErrorsNameTheLine) {
  analysis::CandidatesResult r = analysis::parse_candidates("1\tPROC\tplaced\n", "c.tsv");
  EXPECT_EQ("c.tsv:1: expected 11 tab-separated fields, found 3", r.error);
  r = analysis::parse_candidates(line(1, "PROC", "placed", "f") + line(0, "LOOP", "-", "f"), "c");
  EXPECT_EQ("c:2: bad probe ID '0'", r.error);
  r = analysis::parse_candidates(line(1, "LOOPS", "-", "f"), "c");
  EXPECT_EQ("c:1: unknown kind 'LOOPS'", r.error);
  // A source compiled twice: one entry, placed when either build placed it.
  r = analysis::parse_candidates(line(4, "PROC", "-", "f") + line(4, "PROC", "placed", "f"), "c");
  ASSERT_EQ("", r.error);
  ASSERT_EQ(1u, r.candidates.size());
  EXPECT_TRUE(r.candidates[0].placed());
}

} // namespace
} // namespace idb::test

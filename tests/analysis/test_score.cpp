// The per-probe cost estimate (analysis/score.hpp) on runs written as text: a probe's
// nodes summed over ranks and CFHs, its cost share against its own time (a throttled
// node's untimed activations at its timed mean), its verdict against the target, the run's
// estimated slow-down, and the order by cost.
#include "cfh_text.hpp"
#include "idb/analysis/score.hpp"

#include <gtest/gtest.h>

namespace idb::test {
namespace {

using analysis::ProbeScore;
using analysis::Verdict;
using profile::Profile;

// Two ranks of 1 s each. "solve" (1 ms per call, 0.1% of it probe cost), "tiny" (20 ns
// per call, half of it probe cost, on both ranks), "helper" (throttled after 10,000 timed
// activations of 20 ns, 90,000 more counted).
Profile run() {
  Profile p;
  for (int rank = 0; rank < 2; ++rank) {
    profile::Cfh c =
        build_cfh(p, 1.0,
                  "main 1 0.99\n"
                  "main;solve 100 0.1 0.0001\n"
                  "main;solve;tiny 5000 0.0001 0.00005\n" +
                      std::string(rank == 0 ? "main;helper 10000 0.0002 0.0003 90000\n" : ""));
    c.rank = rank;
    p.cfhs.push_back(c);
  }
  return p;
}

const ProbeScore &find(const analysis::Score &s, const std::string &label) {
  for (const ProbeScore &p : s.probes)
    if (p.label == label) return p;
  throw std::out_of_range("no probe " + label);
}

TEST(Score, SumsAProbeOverRanksAndJudgesItsCostAgainstItsOwnTime) {
  analysis::Score s = analysis::score(run(), 0.05);
  const ProbeScore &tiny = find(s, "tiny");
  EXPECT_EQ(10000u, tiny.activations);
  EXPECT_DOUBLE_EQ(0.0002, tiny.own);
  EXPECT_DOUBLE_EQ(0.0001, tiny.noise);
  EXPECT_DOUBLE_EQ(0.5, tiny.cost_share);
  EXPECT_EQ(Verdict::prune, tiny.verdict);
  const ProbeScore &solve = find(s, "solve");
  EXPECT_NEAR(0.001, solve.cost_share, 1e-12);
  EXPECT_EQ(Verdict::keep, solve.verdict);
  EXPECT_NEAR(0.0002 / 2.0, solve.run_share, 1e-12) << "of both ranks' roots";
}

TEST(Score, AThrottledProbesUntimedActivationsCountAtItsTimedMean) {
  analysis::Score s = analysis::score(run(), 0.05);
  const ProbeScore &helper = find(s, "helper");
  EXPECT_EQ(100000u, helper.activations);
  EXPECT_EQ(90000u, helper.throttled);
  EXPECT_DOUBLE_EQ(2e-8, helper.mean);
  EXPECT_DOUBLE_EQ(0.0002 + 90000 * 2e-8, helper.own);
  EXPECT_DOUBLE_EQ(0.0003 / 0.002, helper.cost_share);
  EXPECT_EQ(Verdict::throttled, helper.verdict);
  EXPECT_EQ("throttled", analysis::verdict_name(helper.verdict));
}

TEST(Score, ARecursiveProbesInnerLevelsAreNotCountedAgainInItsOwnTime) {
  Profile p;
  p.cfhs.push_back(build_cfh(p, 1.0,
                             "main 1 0.5\n"
                             "main;walk 1 0.010 0.00001\n"
                             "main;walk;walk 2 0.008 0.00002\n"
                             "main;walk;walk;walk 4 0.006 0.00004\n"
                             "main;other 1 0.1\n"
                             "main;other;walk 1 0.002 0.00001\n"));
  analysis::Score s = analysis::score(p, 0.05);
  const ProbeScore &walk = find(s, "walk");
  EXPECT_EQ(8u, walk.activations);
  EXPECT_DOUBLE_EQ(0.00008, walk.noise) << "every level's activations cost";
  EXPECT_DOUBLE_EQ(0.012, walk.own) << "the outer levels under main and under other";
  EXPECT_DOUBLE_EQ(0.00008 / 0.012, walk.cost_share);
}

TEST(Score, OrdersByCostAndEstimatesTheRunsSlowDown) {
  analysis::Score s = analysis::score(run(), 0.05);
  std::vector<std::string> order;
  for (const ProbeScore &p : s.probes)
    order.push_back(p.label);
  EXPECT_EQ((std::vector<std::string>{"helper", "solve", "tiny", "main"}), order);
  double noise = 0.0003 + 0.0002 + 0.0001;
  EXPECT_DOUBLE_EQ(2.0, s.run_time);
  EXPECT_NEAR(noise, s.noise, 1e-15);
  EXPECT_NEAR(noise / (2.0 - noise), s.dilation, 1e-12);
  EXPECT_EQ(2u + 200 + 10000 + 100000, s.activations);
}

TEST(Score, TheTargetDecidesBetweenKeepAndPrune) {
  EXPECT_EQ(Verdict::keep, find(analysis::score(run(), 0.6), "tiny").verdict);
  EXPECT_EQ(Verdict::prune, find(analysis::score(run(), 0.0005), "solve").verdict);
}

} // namespace
} // namespace idb::test

// What `idb dynamics` finds in a run's iterations (idb/analysis/dynamics.hpp): series
// reconstructed per rank and probe from clusters, spikes against the iterations around
// them, a shift of level, and the rank that drifts.
#include "idb/analysis/dynamics.hpp"

#include <gtest/gtest.h>

namespace idb::analysis {
namespace {

// 200 iterations at 1.0, 2.0 from iteration 120 on, with 5.0 at every 40th from 7.
std::vector<double> stepped_with_spikes() {
  std::vector<double> v;
  for (int i = 0; i < 200; ++i)
    v.push_back(i % 40 == 7 ? 5.0 : i < 120 ? 1.0 : 2.0);
  return v;
}

TEST(Dynamics, OutliersAreTheSpikesNotTheStep) {
  std::vector<Outlier> found = outliers(stepped_with_spikes());
  std::vector<std::uint64_t> at;
  for (const Outlier &o : found)
    at.push_back(o.iteration);
  EXPECT_EQ((std::vector<std::uint64_t>{7, 47, 87, 127, 167}), at);
  EXPECT_DOUBLE_EQ(5.0, found[0].seconds);
  EXPECT_DOUBLE_EQ(1.0, found[0].baseline);
  EXPECT_DOUBLE_EQ(2.0, found[3].baseline);
  EXPECT_TRUE(outliers({1.0, 1.0}).empty());
  EXPECT_TRUE(outliers(std::vector<double>(50, 1.0)).empty());
}

TEST(Dynamics, TheLevelShiftIsFoundWhereItIs) {
  Step s = level_shift(stepped_with_spikes());
  ASSERT_TRUE(s.found);
  EXPECT_EQ(120u, s.iteration);
  EXPECT_DOUBLE_EQ(1.0, s.before);
  EXPECT_DOUBLE_EQ(2.0, s.after);
  std::vector<double> flat(100, 1.0);
  flat[50] = 1.05; // a small bump is not a level shift
  EXPECT_FALSE(level_shift(flat).found);
}

TEST(Dynamics, TheRankThatGrowsUnlikeTheOthersDrifts) {
  std::vector<std::vector<double>> ranks(4, std::vector<double>(100, 1.0));
  for (int i = 0; i < 100; ++i)
    ranks[2][std::size_t(i)] = 1.0 + 0.01 * i; // medians 1.095 and 1.895 of the fifths
  EXPECT_NEAR(1.895 / 1.095 - 1, growth(ranks[2]), 1e-12);
  std::optional<Drift> d = drifting(ranks);
  ASSERT_TRUE(d);
  EXPECT_EQ(2u, d->at);
  EXPECT_NEAR(0.0, d->others, 1e-12);
  ranks[2] = ranks[0];
  EXPECT_FALSE(drifting(ranks));
  EXPECT_FALSE(drifting({ranks[0], ranks[1]})) << "two ranks cannot say which drifts";
  // Series that jump by half their level from one iteration to the next: rank 2's last
  // fifth 40% higher is within what such noise does.
  for (std::size_t k = 0; k < 4; ++k)
    for (std::size_t i = 0; i < 100; ++i)
      ranks[k][i] = (i % 2 ? 0.7 : 1.3) * (k == 2 && i >= 80 ? 1.4 : 1.0);
  EXPECT_FALSE(drifting(ranks));
}

// A profile of two ranks whose dynamic node (probe 10) has a child (probe 11): rank 0's
// ten iterations all alike, rank 1's sixth five times as long.
profile::Profile two_ranks() {
  profile::Profile p;
  p.probes = {{10, 2, "step loop", "s.c", 3, "main"}, {11, 1, "compute", "s.c", 5, "compute"}};
  for (int rank = 0; rank < 2; ++rank) {
    profile::Cfh h;
    h.rank = rank;
    h.nodes.resize(3);
    h.nodes[0].parent = profile::kNoParent;
    h.nodes[1].parent = 0;
    h.nodes[1].probe = 10;
    h.nodes[1].stats.count = 10;
    h.nodes[2].parent = 1;
    h.nodes[2].probe = 11;
    h.nodes[2].stats.count = 10;
    profile::Dynamics d;
    d.node = 1;
    d.members = {1, 2};
    d.iterations = 10;
    if (rank == 0) {
      d.clusters = {{10, {10, 10}, {10.0, 8.0}}};
      d.runs = {{10, 0}};
    } else {
      d.clusters = {{9, {9, 9}, {9.0, 7.2}}, {1, {1, 1}, {5.0, 4.0}}};
      d.runs = {{5, 0}, {1, 1}, {4, 0}};
    }
    h.dynamics.push_back(d);
    p.cfhs.push_back(h);
  }
  return p;
}

TEST(Dynamics, SeriesAreReconstructedPerRankAndProbe) {
  RunDynamics d = run_dynamics(two_ranks());
  EXPECT_EQ(10, d.probe);
  EXPECT_EQ(10u, d.iterations);
  ASSERT_EQ(2u, d.series.size());
  EXPECT_EQ((std::vector<std::int32_t>{10, 11}), d.probes);
  EXPECT_EQ("compute", d.labels[11]);
  EXPECT_DOUBLE_EQ(5.0, d.series[1].seconds[10][5]);
  EXPECT_DOUBLE_EQ(1.0, d.series[1].seconds[10][6]);
  EXPECT_DOUBLE_EQ(0.8, d.series[0].seconds[11][3]);
  EXPECT_DOUBLE_EQ(1.0, d.series[1].visits[11][5]);
  Spread s = spread_over_ranks(d, 10);
  EXPECT_DOUBLE_EQ(1.0, s.min[5]);
  EXPECT_DOUBLE_EQ(3.0, s.mean[5]);
  EXPECT_DOUBLE_EQ(5.0, s.max[5]);
  EXPECT_EQ(1u, s.max_at[5]);
  EXPECT_EQ(0, run_dynamics(two_ranks(), 11).probe) << "probe 11 is not dynamic";
  EXPECT_EQ(0, run_dynamics(profile::Profile{}).probe);
}

TEST(Dynamics, TheTimeStepIsTheLoopOverMpiCallsWithTheMostTime) {
  profile::Profile p;
  p.probes = {{1, 1, "main", "s.c", 1, "main"},           {2, 2, "set-up loop", "s.c", 2, "main"},
              {3, 2, "time-step loop", "s.c", 3, "main"}, {4, 2, "inner loop", "s.c", 4, "main"},
              {5, 4, "MPI_Allreduce", "s.c", 5, "main"},  {6, 2, "busy loop", "s.c", 6, "main"}};
  profile::Cfh h;
  auto node = [&](std::uint32_t parent, std::int32_t probe, double seconds) {
    profile::Node n;
    n.parent = parent;
    n.probe = probe;
    n.stats.count = 1;
    n.stats.sum = seconds;
    h.nodes.push_back(n);
  };
  node(profile::kNoParent, 0, 10.0); // 0: the root
  node(0, 1, 10.0);                  // 1: main
  node(1, 2, 0.5);                   // 2: set-up loop, with an MPI call
  node(2, 5, 0.1);                   // 3
  node(1, 3, 6.0);                   // 4: the time step
  node(4, 4, 5.0);                   // 5: its inner loop, with the MPI call
  node(5, 5, 1.0);                   // 6
  node(1, 6, 3.0);                   // 7: a loop without MPI calls
  p.cfhs = {h, h};
  std::optional<TimeStep> step = time_step_candidate(p);
  ASSERT_TRUE(step);
  EXPECT_EQ(3, step->probe);
  EXPECT_EQ("time-step loop", step->label);
  EXPECT_DOUBLE_EQ(0.6, step->share);
  p.probes[4].kind = 1; // no COMM probe: no candidate
  EXPECT_FALSE(time_step_candidate(p));
}

} // namespace
} // namespace idb::analysis

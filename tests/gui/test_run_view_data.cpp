// The linked run view's values (run_view_data.hpp) on the small profile the GUI tests know
// by heart: each metric of a node, the tree's total, the trees per rank, a node found by
// its probe path on every rank with its least, mean and most, and the tree valued by a
// metric under QAbstractItemModelTester.
#include "fixtures.hpp"

#include "run_view_data.hpp"

#include "idb/histogram.hpp"
#include "idb/wait_states.h"

#include <QAbstractItemModelTester>
#include <QFont>

#include <gtest/gtest.h>

#include <cmath>

using namespace idb;

TEST(RunViewData, ValuesEveryNodeByEachMetric) {
  profile::Profile p = test::gui_profile();
  profile::Cfh &h = p.cfhs[0];
  h.nodes[2].stats.throttled = 7;
  // main() long enough for solve()'s estimate below (20 s), which is never more than what
  // its parent's time leaves.
  h.nodes[0].stats.sum = 40.0;
  h.nodes[1].stats.sum = 30.0;
  profile::Wait late;
  late.pattern = IDB_WAIT_late_sender;
  late.seconds = 0.25;
  late.instances = 2;
  h.nodes[3].waits.push_back(late);
  h.nodes[4].stats.cpu_count = 0; // output(): CPU never measured
  using gui::NodeMetric;
  auto v = [&](NodeMetric m) { return gui::metric_values(h, m); };
  EXPECT_DOUBLE_EQ(v(NodeMetric::inclusive)[2], 6.0);
  EXPECT_DOUBLE_EQ(v(NodeMetric::exclusive)[2], 5.0);
  // Throttled, solve() is valued by its estimate: its 3 timed activations (6 s) and the 7
  // untimed at their mean (2 s, no samples); its child's 1 s taken off the exclusive.
  EXPECT_NEAR(v(NodeMetric::corrected)[2], 6.0 + 7 * 2.0, 1e-12);
  EXPECT_NEAR(v(NodeMetric::corrected_exclusive)[2], 6.0 + 7 * 2.0 - 1.0, 1e-12);
  h.nodes[2].stats.throttled = 0;
  EXPECT_NEAR(v(NodeMetric::corrected)[2], 5.999, 1e-12) << "timed: the noise taken out";
  EXPECT_NEAR(v(NodeMetric::corrected_exclusive)[2], 4.999, 1e-12);
  h.nodes[2].stats.throttled = 7;
  EXPECT_DOUBLE_EQ(v(NodeMetric::cpu)[2], 3.0);
  EXPECT_TRUE(std::isnan(v(NodeMetric::cpu)[4]));
  EXPECT_DOUBLE_EQ(v(NodeMetric::noise)[2], 0.02);
  EXPECT_DOUBLE_EQ(v(NodeMetric::count)[2], 10.0) << "3 timed, 7 throttled";
  EXPECT_DOUBLE_EQ(v(NodeMetric::wait)[3], 0.25);
  EXPECT_TRUE(std::isnan(v(NodeMetric::wait)[2]));
  // Totals: the root's value of an inclusive metric, the nodes' sum of the others.
  EXPECT_NEAR(gui::metric_total(h, NodeMetric::corrected), 39.969, 1e-12);
  EXPECT_DOUBLE_EQ(gui::metric_total(h, NodeMetric::count), 1 + 1 + 10 + 2 + 1);
  EXPECT_DOUBLE_EQ(gui::metric_total(h, NodeMetric::wait), 0.25);
  EXPECT_TRUE(std::isnan(gui::metric_total(profile::Cfh{}, NodeMetric::inclusive)));
  for (const gui::NodeMetricInfo &m : gui::node_metrics())
    EXPECT_EQ(&gui::metric_info(m.metric), &m);
  // Quantiles, from a node's duration histogram: none without one, and never a total.
  EXPECT_TRUE(std::isnan(v(NodeMetric::p50)[2]));
  h.nodes[2].hist = profile::histogram_of({1'000'000'000, 2'000'000'000, 3'000'000'000});
  EXPECT_NEAR(v(NodeMetric::p50)[2], 2.0, 2.0 / 16) << "within a bucket's width";
  EXPECT_GE(v(NodeMetric::p99)[2], v(NodeMetric::p50)[2]);
  EXPECT_TRUE(std::isnan(gui::metric_total(h, NodeMetric::p99)));
  gui::TreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTree(gui::metric_tree(p, h, NodeMetric::p50));
  const QModelIndex solve = model.index(0, 0, model.index(0, 0, model.index(0, 0)));
  EXPECT_EQ(solve.data().toString(), "solve()");
  EXPECT_EQ(solve.siblingAtColumn(2).data().toString(), "") << "no share of a quantile";
  EXPECT_TRUE(solve.data(Qt::BackgroundRole).isValid()) << "the largest p50: tinted";
}

TEST(RunViewData, FindsANodeOnEveryRankByItsProbePath) {
  const profile::Profile p = test::gui_profile();
  const std::vector<gui::RankTree> ranks = gui::rank_trees(p);
  ASSERT_EQ(ranks.size(), 2u);
  EXPECT_EQ(ranks[0].rank, 0);
  EXPECT_EQ(ranks[1].rank, 1);
  const std::vector<std::int32_t> path = gui::probe_path(p.cfhs[0], 3);
  EXPECT_EQ(path, (std::vector<std::int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(gui::find_path(ranks[1].cfh, path), 3u);
  EXPECT_EQ(gui::find_path(ranks[1].cfh, {0, 1, 3}), profile::kNoParent) << "not under main";
  EXPECT_EQ(gui::find_path(ranks[1].cfh, {}), profile::kNoParent);
  // solve(): 6 s on rank 0, 12 on rank 1, largest first.
  gui::RankSpreadView spread =
      gui::rank_spread(ranks, gui::probe_path(p.cfhs[0], 2), gui::NodeMetric::inclusive);
  ASSERT_EQ(spread.values.size(), 2u);
  EXPECT_EQ(spread.values[0].rank, 1);
  EXPECT_DOUBLE_EQ(spread.values[0].value, 12.0);
  EXPECT_DOUBLE_EQ(spread.min, 6.0);
  EXPECT_EQ(spread.min_rank, 0);
  EXPECT_DOUBLE_EQ(spread.max, 12.0);
  EXPECT_EQ(spread.max_rank, 1);
  EXPECT_DOUBLE_EQ(spread.mean, 9.0);
  EXPECT_EQ(spread.ranks, 2u);
  // A node only rank 1 reached.
  profile::Profile q = p;
  q.cfhs[1].nodes.push_back(test::gui_node(1, 4, {2.0}, 0.0));
  q.cfhs[1].nodes.back().probe = 9;
  spread = gui::rank_spread(gui::rank_trees(q), {0, 1, 9}, gui::NodeMetric::inclusive);
  ASSERT_EQ(spread.values.size(), 1u);
  EXPECT_EQ(spread.values[0].rank, 1);
  EXPECT_EQ(spread.ranks, 2u);
}

TEST(RunViewData, MergesEachRanksThreadsAndLeavesNamedCfhsOut) {
  profile::Profile p = test::gui_profile();
  profile::Cfh second = p.cfhs[0];
  second.thread = 1;
  p.cfhs.push_back(second);
  profile::Cfh object = p.cfhs[1];
  object.named = true;
  object.name = "field";
  p.cfhs.push_back(object);
  const std::vector<gui::RankTree> ranks = gui::rank_trees(p);
  ASSERT_EQ(ranks.size(), 2u);
  EXPECT_EQ(ranks[0].cfh.nodes[2].stats.count, 6u) << "rank 0's two threads merged";
  EXPECT_EQ(ranks[1].cfh.nodes[2].stats.count, 3u) << "the named CFH left out";
}

TEST(RunViewData, ValuesTheTreeByAMetricAndMarksItsHotPath) {
  const profile::Profile p = test::gui_profile();
  gui::TreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTree(gui::metric_tree(p, p.cfhs[0], gui::NodeMetric::count));
  EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), "activations");
  EXPECT_EQ(model.headerData(2, Qt::Horizontal).toString(), "% of total");
  const QModelIndex root = model.index(0, 0);
  const QModelIndex main = model.index(0, 0, root);
  const QModelIndex solve = model.index(0, 0, main);
  EXPECT_EQ(solve.data().toString(), "solve()");
  EXPECT_EQ(solve.siblingAtColumn(1).data().toString(), "3");
  EXPECT_NEAR(solve.siblingAtColumn(2).data(gui::kValueRole).toDouble(), 100.0 * 3 / 8, 1e-9);
  EXPECT_EQ(solve.data(gui::kKeyRole).toLongLong(), 2);
  // The hot path (largest inclusive time: program, main, solve, exchange) in bold.
  EXPECT_TRUE(solve.data(Qt::FontRole).value<QFont>().bold());
  const QModelIndex output = model.index(1, 0, main);
  EXPECT_EQ(output.data().toString(), "output()");
  EXPECT_FALSE(output.data(Qt::FontRole).isValid());
  EXPECT_EQ(model.hotPath().size(), 4);
  // Seconds in their unit; a node under 1% of the total is not tinted.
  model.setTree(gui::metric_tree(p, p.cfhs[0], gui::NodeMetric::noise));
  EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), "noise ms");
  const QModelIndex plain = model.index(1, 0, model.index(0, 0, model.index(0, 0)));
  EXPECT_EQ(plain.data().toString(), "output()");
  EXPECT_FALSE(plain.data(Qt::BackgroundRole).isValid()) << "no noise in output()";
  EXPECT_TRUE(
      model.index(0, 0, model.index(0, 0, model.index(0, 0))).data(Qt::BackgroundRole).isValid());
}

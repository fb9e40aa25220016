// The generic tree model over a CFH: structure, columns, sorting and the hot path, under
// QAbstractItemModelTester.
#include "fixtures.hpp"

#include "cfh_tree.hpp"
#include "flat_data.hpp"
#include "tree_model.hpp"

#include "idb/analysis/trees.hpp"

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

using namespace idb;

namespace {

gui::TreeData rank_tree(const profile::Profile &p, std::size_t cfh) {
  return gui::cfh_tree(p, p.cfhs[cfh]);
}

QString cell(const QModelIndex &i, int column) {
  return i.siblingAtColumn(column).data().toString();
}

} // namespace

TEST(TreeModel, ShowsTheCfhWithItsColumns) {
  profile::Profile p = test::gui_profile();
  gui::TreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTree(rank_tree(p, 1));
  ASSERT_EQ(model.rowCount(), 1);
  QModelIndex root = model.index(0, 0);
  EXPECT_EQ(cell(root, 0), "program");
  QModelIndex main = model.index(0, 0, root);
  EXPECT_EQ(cell(main, 0), "main()");
  ASSERT_EQ(model.rowCount(main), 2);
  QModelIndex solve = model.index(0, 0, main);
  EXPECT_EQ(cell(solve, 0), "solve()");
  EXPECT_EQ(cell(solve, 1), "3");                                                    // count
  EXPECT_DOUBLE_EQ(solve.siblingAtColumn(2).data(gui::kValueRole).toDouble(), 12.0); // 2+4+6
  EXPECT_EQ(cell(solve, 3), "") << "never throttled: no estimate";
  EXPECT_DOUBLE_EQ(solve.siblingAtColumn(4).data(gui::kValueRole).toDouble(), 10.0); // - 2
  EXPECT_NEAR(solve.siblingAtColumn(5).data(gui::kValueRole).toDouble(), 12.0 - 0.001, 1e-12);
  EXPECT_EQ(cell(solve, gui::kWaitColumn), "") << "no wait states: blank";
  EXPECT_NEAR(solve.siblingAtColumn(7).data(gui::kValueRole).toDouble(), 100.0 * 12 / 9, 1e-9);
  EXPECT_EQ(solve.data(gui::kKeyRole).toLongLong(), 2);
  EXPECT_EQ(model.parent(solve), main);
  // Seconds in the column's unit, named in its header; CPU never measured is blank.
  EXPECT_EQ(model.headerData(2, Qt::Horizontal).toString(), "inclusive s");
  EXPECT_EQ(cell(solve, 2), "12.00");
  EXPECT_EQ(cell(solve, gui::kCpuColumn), "6.000");
  p.cfhs[1].nodes[2].stats.cpu_count = 0;
  p.cfhs[1].nodes[2].stats.cpu_sum = 0;
  model.setTree(rank_tree(p, 1));
  solve = model.index(0, 0, model.index(0, 0, model.index(0, 0)));
  EXPECT_EQ(cell(solve, gui::kCpuColumn), "") << "no CPU-timed activation: blank, not 0";
}

TEST(TreeModel, ShowsAThrottledNodesUntimedActivations) {
  profile::Profile p = test::gui_profile();
  // Rank 0, whose times nest: solve() 6 s in main() 9 s (rank 1's solve() outlasts it).
  profile::Node &solve = p.cfhs[0].nodes[2];
  ASSERT_EQ(solve.probe, 2); // solve()
  solve.stats.throttled = 7;
  solve.stats.sampled = 2;
  solve.stats.sampled_sum = 0.2; // 0.1 s each
  gui::TreeModel model;
  model.setTree(rank_tree(p, 0));
  QModelIndex main = model.index(0, 0, model.index(0, 0));
  QModelIndex row = model.index(0, 0, main);
  ASSERT_EQ(cell(row, 0), "solve()");
  EXPECT_EQ(model.headerData(10, Qt::Horizontal).toString(), "untimed");
  EXPECT_EQ(cell(row, 1), "10") << "count: every activation, timed or not";
  EXPECT_EQ(cell(row, 10), "7");
  EXPECT_EQ(cell(main, 10), "") << "blank where no activation went untimed";
  EXPECT_DOUBLE_EQ(main.siblingAtColumn(10).data(gui::kValueRole).toDouble(), 0.0);
  // Beside the inclusive time, the estimate: the timed total and each untimed one at the
  // samples' mean; blank for a node that was never throttled.
  EXPECT_EQ(model.headerData(3, Qt::Horizontal).toString(), "estimated s");
  EXPECT_DOUBLE_EQ(row.siblingAtColumn(3).data(gui::kValueRole).toDouble(),
                   solve.stats.sum + 7 * 0.1);
  EXPECT_EQ(cell(main, 3), "");
  // The export writes both as idb report does (ExportsTheRowsTheAnalysisGives).
  std::vector<std::string> exported = gui::tree_export_rows(model, "t")[2];
  EXPECT_EQ(exported[9], "7"); // the column `throttled`
  EXPECT_EQ(exported[13], analysis::number_text(solve.stats.sum + 7 * 0.1)); // `estimated_s`
}

namespace {
// Makes `node` throttled: 7 untimed activations, estimated by 2 samples of `each` seconds.
void throttle(profile::Node &node, double each) {
  node.stats.throttled = 7;
  node.stats.sampled = 2;
  node.stats.sampled_sum = 2 * each;
}
} // namespace

// An estimate past what the parent's time leaves is capped there (profile::NodeTimes::
// capped), and the row's tooltip says it is an upper bound.
TEST(TreeModel, ACappedEstimateSaysSoInItsTooltip) {
  profile::Profile p = test::gui_profile();
  profile::Node &solve = p.cfhs[0].nodes[2];
  throttle(solve, 0.1);
  gui::TreeModel model;
  model.setTree(rank_tree(p, 0));
  QModelIndex main = model.index(0, 0, model.index(0, 0));
  QModelIndex row = model.index(0, 0, main);
  EXPECT_EQ(row.data(Qt::ToolTipRole).toString(), "solve()") << "within its parent's time";
  throttle(solve, 2.0e6); // far past main's time
  model.setTree(rank_tree(p, 0));
  main = model.index(0, 0, model.index(0, 0));
  row = model.index(0, 0, main);
  EXPECT_TRUE(row.data(Qt::ToolTipRole).toString().contains("at most this"))
      << cell(row, 0).toStdString();
  EXPECT_LE(row.siblingAtColumn(3).data(gui::kValueRole).toDouble(),
            main.siblingAtColumn(5).data(gui::kValueRole).toDouble())
      << "no more than main's corrected time";
}

// The Flat tab marks the same bound in a column of its own.
TEST(FlatTable, ACappedEstimateSaysAtMost) {
  profile::Profile p = test::gui_profile();
  throttle(p.cfhs[0].nodes[2], 2.0e6); // solve(), far past main's time
  gui::FlatTable flat = gui::flat_table(p, p.cfhs[0]);
  ASSERT_EQ(flat.table.columns[7], "capped");
  ASSERT_EQ(flat.table.columns[gui::kFlatProbeIdColumn], "probe id");
  std::size_t marked = 0;
  for (const std::vector<store::Cell> &row : flat.table.rows) {
    const bool is_solve = row[0] == std::optional<std::string>("solve()");
    EXPECT_EQ(row[7].has_value(), is_solve) << *row[0];
    if (is_solve) {
      EXPECT_EQ(*row[7], "at most");
    }
    marked += row[7].has_value();
  }
  EXPECT_EQ(marked, 1u);
}

TEST(TreeModel, SortsChildrenWithinEachParent) {
  profile::Profile p = test::gui_profile();
  gui::TreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTree(rank_tree(p, 0));
  QModelIndex main = model.index(0, 0, model.index(0, 0));
  QPersistentModelIndex output = model.index(1, 0, main);
  ASSERT_EQ(cell(output, 0), "output()");
  model.sort(gui::kInclusiveColumn, Qt::AscendingOrder); // output (1 s) before solve (6 s)
  EXPECT_EQ(cell(model.index(0, 0, main), 0), "output()");
  EXPECT_EQ(output.row(), 0); // persistent indexes follow their rows
  model.sort(0, Qt::DescendingOrder);
  EXPECT_EQ(cell(model.index(0, 0, main), 0), "solve()");
}

TEST(TreeModel, HotPathFollowsTheLargestChild) {
  profile::Profile p = test::gui_profile();
  gui::TreeModel model;
  model.setTree(rank_tree(p, 0));
  QModelIndexList path = model.hotPath();
  ASSERT_EQ(path.size(), 4);
  EXPECT_EQ(cell(path[0], 0), "program");
  EXPECT_EQ(cell(path[2], 0), "solve()");
  EXPECT_EQ(cell(path[3], 0), "exchange()");
  model.setTree({});
  EXPECT_TRUE(model.hotPath().isEmpty());
}

TEST(TreeModel, ExportsTheRowsTheAnalysisGives) {
  profile::Profile p = test::gui_profile();
  for (const analysis::Tree &tree : analysis::aggregate_trees(p)) {
    gui::TreeModel model;
    model.setTree(gui::cfh_tree(p, tree.cfh));
    std::vector<std::vector<std::string>> expected;
    for (const analysis::TreeRow &row : analysis::tree_rows(p, tree.cfh))
      expected.push_back(analysis::tree_export_cells(tree.title, row));
    EXPECT_EQ(gui::tree_export_rows(model, tree.title), expected);
    model.sort(gui::kInclusiveColumn, Qt::AscendingOrder); // the export follows the view
    std::vector<std::vector<std::string>> sorted = gui::tree_export_rows(model, tree.title);
    ASSERT_EQ(sorted.size(), expected.size());
    EXPECT_EQ(sorted.back()[1], "program;main();solve();exchange()");
  }
}

// A row's tint colours its background in every column and its note joins the tooltip;
// an untinted row has neither.
TEST(TreeModel, TintsRowsAndAddsTheirNotesToTheTooltip) {
  gui::TreeModel model;
  gui::TreeData data;
  data.columns = {{"n", gui::Format::integer}};
  data.rows = {{gui::kTreeTop, "recv", {1}, 0, 0, 0.5, "waited 50.0% of its time"},
               {0, "plain", {2}, 1, 1, 0.0, {}}};
  model.setTree(data);
  const QModelIndex recv = model.index(0, 0), plain = model.index(0, 0, recv);
  for (int c = 0; c < 2; ++c)
    EXPECT_TRUE(recv.siblingAtColumn(c).data(Qt::BackgroundRole).isValid()) << c;
  EXPECT_EQ(recv.data(Qt::ToolTipRole).toString(), "recv\nwaited 50.0% of its time");
  EXPECT_FALSE(plain.data(Qt::BackgroundRole).isValid());
  EXPECT_EQ(plain.data(Qt::ToolTipRole).toString(), "plain");
}

TEST(TreeModel, TakesRowsWithBadParentsToTheTop) {
  gui::TreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  gui::TreeData data;
  data.columns = {{"n", gui::Format::integer}};
  data.rows = {{gui::kTreeTop, "a", {1}, 0, 0, 0.0, {}},
               {5, "b", {2}, 1, 0, 0.0, {}},
               {1, "c", {}, 2, 0, 0.0, {}}};
  model.setTree(data);
  EXPECT_EQ(model.rowCount(), 2); // a, and b whose parent does not exist
  EXPECT_EQ(model.rowCount(model.index(1, 0)), 1);
  EXPECT_EQ(cell(model.index(0, 0, model.index(1, 0)), 1), "0"); // missing values read 0
  model.setTree({});
  EXPECT_EQ(model.rowCount(), 0);
}

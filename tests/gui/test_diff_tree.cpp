// The diff of two runs, or two groups of runs, as a tree model (diff_tree.hpp), under
// QAbstractItemModelTester: both sides' corrected inclusive times, difference and ratio
// per node matched by label, red for slower and blue for faster, a node of one run only
// with the other side blank, the path of largest change, and the export rows; over groups
// the p and spread columns, and a change that is not significant left plain; the groups
// of repeated runs offered.
#include "fixtures.hpp"

#include "diff_tree.hpp"

#include <QAbstractItemModelTester>
#include <QBrush>

#include <gtest/gtest.h>

#include <cmath>

using namespace idb;

namespace {

QString cell(const QModelIndex &i, int column) {
  return i.siblingAtColumn(column).data().toString();
}

double value(const QModelIndex &i, int column) {
  return i.siblingAtColumn(column).data(gui::kValueRole).toDouble();
}

// A side named `name` of one run per profile, labelled name-1, name-2, ...
gui::DiffSide side_of(const std::string &name, std::vector<profile::Profile> profiles) {
  gui::DiffSide side{name, {}};
  for (profile::Profile &p : profiles)
    side.runs.push_back(std::make_shared<const gui::RunData>(gui::summarize_run(
        profiles.size() == 1 ? name : name + "-" + std::to_string(side.runs.size() + 1),
        std::move(p), {})));
  return side;
}

} // namespace

TEST(DiffTree, SetsTwoRunsSideBySideNodeByNode) {
  const gui::DiffSide a = side_of("base", {test::gui_profile()});
  profile::Profile slower = test::gui_profile(1.5);
  // The other run calls one more function under main().
  slower.probes.push_back({5, 1, "extra()", "small.c", 40, "extra"});
  for (profile::Cfh &h : slower.cfhs)
    h.nodes.push_back(test::gui_node(1, 5, {0.25}, 0.0));
  const gui::DiffSide b = side_of("slow", {slower});
  const gui::RunDiff diff = gui::diff_runs(a, b);
  EXPECT_EQ(diff.baseline, "base");
  EXPECT_EQ(diff.other, "slow");
  EXPECT_EQ(diff.title, a.runs[0]->whole[0].title);
  EXPECT_FALSE(diff.groups());

  gui::TreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTree(gui::diff_tree(diff));
  EXPECT_EQ(model.columnCount(), 7) << "no p or spread columns for two runs";
  EXPECT_EQ(model.headerData(gui::kDiffBaselineColumn, Qt::Horizontal).toString(), "baseline s");
  EXPECT_EQ(model.headerData(gui::kDiffRatioColumn, Qt::Horizontal).toString(), "ratio");
  ASSERT_EQ(model.rowCount(), 1);
  const QModelIndex root = model.index(0, 0);
  const QModelIndex main = model.index(0, 0, root);
  ASSERT_EQ(model.rowCount(main), 3); // solve, output, then the other run's extra
  const QModelIndex solve = model.index(0, 0, main);
  EXPECT_EQ(cell(solve, 0), "solve()");
  // solve over both ranks: 6 + 12 s in the baseline, 1.5 times that in the other, each
  // less exchange's charge (0.001 s per rank).
  EXPECT_NEAR(value(solve, gui::kDiffBaselineColumn), 18 - 0.002, 1e-9);
  EXPECT_NEAR(value(solve, gui::kDiffOtherColumn), 27 - 0.002, 1e-9);
  EXPECT_NEAR(value(solve, gui::kDiffDifferenceColumn), 9, 1e-9);
  EXPECT_EQ(cell(solve, gui::kDiffRatioColumn), QStringLiteral("1.50×"));
  EXPECT_EQ(cell(solve, 5), "6") << "baseline count";
  EXPECT_EQ(solve.data(gui::kKeyRole).toLongLong(), 2);
  // Slower: red; the same: plain.
  const QColor red = solve.data(Qt::BackgroundRole).value<QBrush>().color();
  EXPECT_GT(red.red(), red.blue());
  const QModelIndex output = model.index(1, 0, main);
  EXPECT_EQ(cell(output, 0), "output()");
  EXPECT_EQ(cell(output, gui::kDiffRatioColumn), QStringLiteral("1.00×"));
  EXPECT_FALSE(output.data(Qt::BackgroundRole).isValid());
  const QModelIndex extra = model.index(2, 0, main);
  EXPECT_EQ(cell(extra, 0), "extra()");
  EXPECT_EQ(cell(extra, gui::kDiffBaselineColumn), "") << "not in the baseline: blank";
  EXPECT_EQ(cell(extra, gui::kDiffRatioColumn), "");
  EXPECT_EQ(cell(extra, 5), "");
  EXPECT_EQ(cell(extra, 6), "2");
  EXPECT_TRUE(extra.data(Qt::ToolTipRole).toString().contains("only in slow"));
  // The path of largest change: program, main, solve, exchange.
  const QModelIndexList path = model.hotPath();
  ASSERT_EQ(path.size(), 4);
  EXPECT_EQ(path.back().data().toString(), "exchange()");

  // Faster the other way round: blue.
  model.setTree(gui::diff_tree(gui::diff_runs(b, a)));
  const QModelIndex back = model.index(0, 0, model.index(0, 0, model.index(0, 0)));
  const QColor blue = back.data(Qt::BackgroundRole).value<QBrush>().color();
  EXPECT_GT(blue.blue(), blue.red());
  EXPECT_EQ(cell(back, gui::kDiffRatioColumn), QStringLiteral("0.67×"));

  const auto rows = gui::diff_export_rows(diff);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows[5][0], "program;main();extra()");
  EXPECT_EQ(rows[5][1], "b");
  EXPECT_EQ(rows[5][5], "") << "no ratio without a baseline";
}

TEST(DiffTree, SetsGroupsOfRunsSideBySideWithTheirSpreadAndVerdict) {
  const gui::DiffSide base =
      side_of("base", {test::gui_profile(1.0), test::gui_profile(1.02), test::gui_profile(0.98)});
  const gui::DiffSide slow =
      side_of("slow", {test::gui_profile(1.5), test::gui_profile(1.53), test::gui_profile(1.47)});
  const gui::DiffSide same =
      side_of("same", {test::gui_profile(0.99), test::gui_profile(1.03), test::gui_profile(1.0)});
  const gui::RunDiff diff = gui::diff_runs(base, slow);
  EXPECT_TRUE(diff.tested());
  EXPECT_EQ(diff.baseline_runs, 3u);

  gui::TreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTree(gui::diff_tree(diff));
  ASSERT_EQ(model.columnCount(), gui::kDiffOtherSdColumn + 3) << "then both counts";
  EXPECT_EQ(model.headerData(gui::kDiffOtherSdColumn + 1, Qt::Horizontal).toString(),
            "baseline count");
  EXPECT_EQ(model.headerData(gui::kDiffPColumn, Qt::Horizontal).toString(), "p");
  EXPECT_TRUE(model.headerData(gui::kDiffBaselineSdColumn, Qt::Horizontal)
                  .toString()
                  .startsWith("baseline sd"));
  const QModelIndex solve = model.index(0, 0, model.index(0, 0, model.index(0, 0)));
  ASSERT_EQ(cell(solve, 0), "solve()");
  // solve: 18 s (less 0.002 s of charges) times 1.0, 1.02 and 0.98, then 1.5 times that.
  EXPECT_NEAR(value(solve, gui::kDiffBaselineColumn), 18 - 0.002, 1e-9);
  EXPECT_NEAR(value(solve, gui::kDiffBaselineSdColumn), 18 * 0.02, 1e-9);
  EXPECT_LT(value(solve, gui::kDiffPColumn), 0.001);
  EXPECT_FALSE(cell(solve, gui::kDiffPColumn).isEmpty());
  const QColor red = solve.data(Qt::BackgroundRole).value<QBrush>().color();
  EXPECT_GT(red.red(), red.blue());

  // Within the runs' spread: plain, and the tooltip says why.
  model.setTree(gui::diff_tree(gui::diff_runs(base, same)));
  const QModelIndex level = model.index(0, 0, model.index(0, 0, model.index(0, 0)));
  EXPECT_GT(value(level, gui::kDiffPColumn), 0.05);
  EXPECT_FALSE(level.data(Qt::BackgroundRole).isValid());
  EXPECT_TRUE(level.data(Qt::ToolTipRole).toString().contains("not significant"))
      << level.data(Qt::ToolTipRole).toString().toStdString();

  // A group against one run: spreads but no test, so no p.
  const gui::RunDiff one = gui::diff_runs(base, side_of("slow-1", {test::gui_profile(1.5)}));
  EXPECT_TRUE(one.groups());
  EXPECT_FALSE(one.tested());
  model.setTree(gui::diff_tree(one));
  const QModelIndex top = model.index(0, 0);
  EXPECT_EQ(cell(top, gui::kDiffPColumn), "");
  EXPECT_FALSE(cell(top, gui::kDiffBaselineSdColumn).isEmpty());
  EXPECT_EQ(cell(top, gui::kDiffOtherSdColumn), "");
}

TEST(DiffTree, OffersTheGroupsOfRepeatedRuns) {
  using V = std::vector<std::string>;
  EXPECT_EQ(gui::repeat_groups(
                {"pic-pow-1", "pic-mul-1", "pic-pow-2", "x", "run10", "run11", "a-1", "7"}),
            (V{"pic-pow-*", "run*"}));
  EXPECT_TRUE(gui::repeat_groups({}).empty());
  // "run*" would take "runaway" in too: the group's pattern then asks for a digit.
  const V labels = {"run1", "run2", "runaway", "pic-pow-1", "pic-pow-2"};
  EXPECT_EQ(gui::repeat_groups(labels), (V{"run[0-9]*", "pic-pow-*"}));
  EXPECT_EQ(gui::repeat_group_of(labels, "run2"), "run[0-9]*");
  EXPECT_EQ(gui::repeat_group_of(labels, "pic-pow-1"), "pic-pow-*");
  EXPECT_EQ(gui::repeat_group_of(labels, "runaway"), "");
  EXPECT_EQ(gui::repeat_group_of(labels, "pic-pow-3"), "pic-pow-*") << "the prefix decides";
}

TEST(DiffTree, RunsWithoutTreesGiveNoRows) {
  const gui::DiffSide a = side_of("base", {test::gui_profile()});
  const gui::DiffSide empty = side_of("empty", {profile::Profile{}});
  EXPECT_TRUE(gui::diff_runs(a, empty).rows.empty());
  gui::TreeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTree(gui::diff_tree(gui::diff_runs(empty, a)));
  EXPECT_EQ(model.rowCount(), 0);
}

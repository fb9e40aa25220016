// Trees matched node by node (analysis/diff.hpp), on CFHs written as text: nodes pair by
// label path even where the probe ids differ, nodes of one side only are kept with the
// other side's numbers zero, repeated labels pair in order, and the weight that colours a
// row is the clamped log2 of its ratio above a floor. Over groups of runs: means, spreads
// and Welch's verdict per node, a run without a node counting zero; the labels a side
// names.
#include "cfh_text.hpp"
#include "idb/analysis/diff.hpp"
#include "idb/analysis/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace idb::test {
namespace {

using profile::Cfh;
using profile::Profile;

std::string shape(const std::vector<analysis::DiffRow> &rows) {
  std::string out;
  for (const analysis::DiffRow &r : rows)
    out += r.path + (r.in_a ? " a" : "") + (r.in_b ? " b" : "") + "\n";
  return out;
}

TEST(Diff, MatchesNodesByLabelPathAcrossProbeIds) {
  Profile pa, pb;
  probe_for(pb, "unrelated"); // shifts every probe id of the other run by one
  Cfh a = build_cfh(pa, 10, "main 1 9\nmain;solve 3 6\nmain;solve;halo 2 1\nmain;out 1 1\n");
  Cfh b = build_cfh(pb, 8, "main 1 7\nmain;solve 3 3\nmain;solve;halo 2 1\nmain;io 1 2\n");
  std::vector<analysis::DiffRow> rows = analysis::diff_trees(pa, a, pb, b);
  EXPECT_EQ("prog a b\n"
            "prog;main a b\n"
            "prog;main;solve a b\n"
            "prog;main;solve;halo a b\n"
            "prog;main;out a\n"
            "prog;main;io b\n",
            shape(rows));
  const analysis::DiffRow &solve = rows[2];
  EXPECT_DOUBLE_EQ(solve.a, 6);
  EXPECT_DOUBLE_EQ(solve.b, 3);
  EXPECT_DOUBLE_EQ(solve.difference(), -3);
  EXPECT_DOUBLE_EQ(solve.ratio(), 0.5);
  EXPECT_DOUBLE_EQ(solve.a_self, 5);
  EXPECT_EQ(solve.count_a, 3u);
  EXPECT_EQ(solve.count_b, 3u);
  EXPECT_EQ(solve.parent, 1u);
  EXPECT_EQ(solve.depth, 2u);
  EXPECT_EQ(solve.probe, a.nodes[2].probe) << "the baseline's probe";
  const analysis::DiffRow &io = rows[5];
  EXPECT_FALSE(io.in_a);
  EXPECT_DOUBLE_EQ(io.a, 0);
  EXPECT_DOUBLE_EQ(io.b, 2);
  EXPECT_TRUE(std::isnan(io.ratio()));
  EXPECT_EQ(io.probe, b.nodes[4].probe) << "only the other run has it";
  EXPECT_EQ(io.parent, 1u);
}

TEST(Diff, PairsRepeatedLabelsInOrderAndKeepsEmptyTreesEmpty) {
  Profile pa, pb;
  Cfh a = build_cfh(pa, 4, "main 1 3\n");
  Cfh b = build_cfh(pb, 4, "main 1 3\n");
  // Two children of main with one label (two probes of one description), twice in a and
  // three times in b: the first two pair, the third is b's alone.
  auto add = [](Profile &p, Cfh &c, std::int32_t probe, double seconds) {
    profile::Node n;
    idb_stats_clear(&n.stats);
    idb_stats_add(&n.stats, seconds);
    n.parent = 1;
    n.probe = probe;
    c.nodes.push_back(n);
    if (!p.probe(probe)) p.probes.push_back({probe, 1, "x", "", 0, ""});
  };
  add(pa, a, 10, 1);
  add(pa, a, 11, 1);
  add(pb, b, 20, 0.5);
  add(pb, b, 21, 0.5);
  add(pb, b, 22, 0.5);
  std::vector<analysis::DiffRow> rows = analysis::diff_trees(pa, a, pb, b);
  EXPECT_EQ("prog a b\nprog;main a b\nprog;main;x a b\nprog;main;x a b\nprog;main;x b\n",
            shape(rows));
  EXPECT_EQ(rows[2].probe, 10);
  EXPECT_EQ(rows[3].probe, 11);
  EXPECT_EQ(rows[4].probe, 22);
  EXPECT_TRUE(analysis::diff_trees(pa, Cfh{}, pb, Cfh{}).empty());
  EXPECT_TRUE(analysis::diff_groups({}, {{&pb, &b}}).empty()) << "a side without runs";
  // One side empty: every node is the other's alone.
  EXPECT_EQ("prog a\nprog;main a\nprog;main;x a\nprog;main;x a\n",
            shape(analysis::diff_trees(pa, a, pb, Cfh{})));
}

TEST(Diff, WeighsRowsByTheirClampedLog2RatioAboveAFloor) {
  analysis::DiffRow r;
  r.in_a = r.in_b = true;
  r.a = 1;
  r.b = 1.5;
  EXPECT_NEAR(analysis::diff_weight(r, 10, 10), std::log2(1.5), 1e-12);
  r.b = 8;
  EXPECT_DOUBLE_EQ(analysis::diff_weight(r, 10, 10), 1) << "clamped";
  r.b = 0.25;
  EXPECT_DOUBLE_EQ(analysis::diff_weight(r, 10, 10), -1);
  r.a = 0.01;
  r.b = 0.02;
  EXPECT_DOUBLE_EQ(analysis::diff_weight(r, 10, 10), 0) << "0.01 s of 10 is under 0.5%";
  EXPECT_DOUBLE_EQ(analysis::diff_weight(r, 10, 10, 0.0001), 1);
  r.in_a = false;
  r.a = 0;
  r.b = 1;
  EXPECT_DOUBLE_EQ(analysis::diff_weight(r, 10, 10), 1) << "new in b";
  r.in_a = true;
  r.in_b = false;
  r.a = 1;
  r.b = 0;
  EXPECT_DOUBLE_EQ(analysis::diff_weight(r, 10, 10), -1) << "gone in b";
  EXPECT_DOUBLE_EQ(analysis::diff_weight(r, 0, 0), 0);
}

// Three runs a side: solve is half as slow again in every run of b (significant), io
// differs by no more than its runs spread (not), and extra runs in one run of b only.
TEST(Diff, OverGroupsGivesMeansSpreadsAndWelchsVerdictPerNode) {
  const std::vector<double> solve_a = {6, 6.1, 5.9}, solve_b = {9, 9.2, 8.9};
  const std::vector<double> io_a = {1, 1.3, 0.8}, io_b = {1.1, 0.9, 1.2};
  std::vector<Profile> profiles(6);
  std::vector<Cfh> trees;
  for (int i = 0; i < 6; ++i) {
    const bool b = i >= 3;
    const double solve = (b ? solve_b : solve_a)[std::size_t(i % 3)];
    const double io = (b ? io_b : io_a)[std::size_t(i % 3)];
    std::string lines = "main 1 " + std::to_string(solve + io + 1) + "\nmain;solve 4 " +
                        std::to_string(solve) + "\nmain;io 2 " + std::to_string(io) + "\n";
    if (i == 5) lines += "main;extra 3 0.3\n";
    trees.push_back(build_cfh(profiles[std::size_t(i)], solve + io + 2, lines));
  }
  std::vector<analysis::DiffRun> a, b;
  for (std::size_t i = 0; i < 6; ++i)
    (i < 3 ? a : b).push_back({&profiles[i], &trees[i]});
  std::vector<analysis::DiffRow> rows = analysis::diff_groups(a, b);
  EXPECT_EQ("prog a b\nprog;main a b\nprog;main;solve a b\nprog;main;io a b\nprog;main;extra b\n",
            shape(rows));

  const analysis::DiffRow &solve = rows[2];
  EXPECT_NEAR(solve.a, 6, 1e-9);
  EXPECT_NEAR(solve.b, (9 + 9.2 + 8.9) / 3, 1e-9);
  EXPECT_NEAR(solve.sd_a, 0.1, 1e-9);
  EXPECT_NEAR(solve.sd_b, analysis::sample_sd(solve_b), 1e-9);
  EXPECT_EQ(solve.count_a, 4u);
  ASSERT_TRUE(analysis::welch(solve_a, solve_b));
  EXPECT_NEAR(solve.p, analysis::welch(solve_a, solve_b)->p, 1e-12);
  EXPECT_LT(solve.p, 0.001);
  EXPECT_TRUE(solve.significant);
  EXPECT_GT(analysis::diff_weight(solve, rows[0].a, rows[0].b), 0.5);

  const analysis::DiffRow &io = rows[3];
  EXPECT_NEAR(io.p, analysis::welch(io_a, io_b)->p, 1e-12);
  EXPECT_GT(io.p, 0.5);
  EXPECT_FALSE(io.significant);
  EXPECT_EQ(analysis::diff_weight(io, rows[0].a, rows[0].b, 0), 0) << "not significant: plain";

  const analysis::DiffRow &extra = rows[4];
  EXPECT_FALSE(extra.in_a);
  EXPECT_TRUE(extra.in_b);
  EXPECT_NEAR(extra.b, 0.1, 1e-9) << "0.3 s in one run of three: the others count zero";
  EXPECT_EQ(extra.count_b, 1u) << "3 activations over 3 runs";
  EXPECT_NEAR(extra.sd_b, analysis::sample_sd({0, 0, 0.3}), 1e-9);

  // The export: spreads, p and the verdict; a single run a side leaves them empty.
  const std::vector<std::string> cells = analysis::diff_export_cells(solve);
  ASSERT_EQ(cells.size(), analysis::diff_export_columns().size());
  EXPECT_EQ(analysis::diff_export_columns()[10], "p");
  EXPECT_EQ(cells[11], "yes");
  EXPECT_EQ(analysis::diff_export_cells(io)[11], "no");
  const analysis::DiffRow single = analysis::diff_groups({a[0]}, {b[0]})[2];
  EXPECT_TRUE(std::isnan(single.p));
  EXPECT_TRUE(single.significant) << "nothing to test: every change shows";
  EXPECT_EQ(analysis::diff_export_cells(single)[10], "");
  EXPECT_EQ(analysis::diff_export_cells(single)[11], "");
  // A group against one run: spreads on one side, no test.
  const analysis::DiffRow mixed = analysis::diff_groups(a, {b[0]})[2];
  EXPECT_NEAR(mixed.sd_a, 0.1, 1e-9);
  EXPECT_TRUE(std::isnan(mixed.sd_b));
  EXPECT_TRUE(std::isnan(mixed.p));
}

TEST(Diff, ASideNamesARunByLabelOrAGroupByPattern) {
  const std::vector<std::string> labels = {"pic-pow-1", "pic-mul-1", "pic-pow-2", "odd[1]"};
  using V = std::vector<std::string>;
  EXPECT_EQ(analysis::diff_side_labels(labels, "pic-pow-2"), V{"pic-pow-2"});
  EXPECT_EQ(analysis::diff_side_labels(labels, "pic-pow-*"), (V{"pic-pow-1", "pic-pow-2"}));
  EXPECT_EQ(analysis::diff_side_labels(labels, "pic-[mp]*-1"), (V{"pic-pow-1", "pic-mul-1"}))
      << "in load order";
  EXPECT_EQ(analysis::diff_side_labels(labels, "odd[1]"), V{"odd[1]"}) << "a label first";
  EXPECT_TRUE(analysis::diff_side_labels(labels, "pic-div-*").empty());
  EXPECT_TRUE(analysis::diff_side_labels(labels, "pic-pow").empty()) << "no pattern, no label";
  // What to read: a plain name as it is (its reading says why it names no run), a pattern
  // matching nothing with the reason.
  std::string why;
  EXPECT_EQ(analysis::diff_side_reads(labels, "pic-pow", "db", why), V{"pic-pow"});
  EXPECT_EQ(analysis::diff_side_reads(labels, "pic-pow-*", "db", why),
            (V{"pic-pow-1", "pic-pow-2"}));
  EXPECT_EQ(why, "");
  EXPECT_TRUE(analysis::diff_side_reads(labels, "pic-div-*", "db", why).empty());
  EXPECT_EQ(why, "no run label matches 'pic-div-*' in db");
  EXPECT_TRUE(analysis::is_label_pattern("a[12]"));
  EXPECT_FALSE(analysis::is_label_pattern("pic-pow-1"));
}

} // namespace
} // namespace idb::test

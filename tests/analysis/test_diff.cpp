// Two trees matched node by node (analysis/diff.hpp), on CFHs written as text: nodes
// pair by label path even where the probe ids differ, nodes of one side only are kept
// with the other side's numbers zero, repeated labels pair in order, and the weight that
// colours a row is the clamped log2 of its ratio above a floor.
#include "cfh_text.hpp"
#include "idb/analysis/diff.hpp"

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

} // namespace
} // namespace idb::test

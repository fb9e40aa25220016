// The trees of a run (analysis/trees.hpp) on CFHs written as text: merging by probe path,
// the trees of the run as a whole (threads merged, each named CFH over its instances), one
// rank's, the rows every front end shows (paths, shares, corrected time), the hot path and
// the export's cells.
#include "cfh_text.hpp"
#include "idb/analysis/trees.hpp"
#include "idb/tree.hpp"

#include <gtest/gtest.h>

#include <charconv>

namespace idb::test {
namespace {

using profile::Cfh;
using profile::Profile;

Cfh thread_cfh(Profile &p, int rank, double root, const std::string &lines) {
  Cfh c = build_cfh(p, root, lines);
  c.rank = rank;
  c.name = "main";
  return c;
}

Cfh named_cfh(Profile &p, int rank, const std::string &name, double root,
              const std::string &lines) {
  Cfh c = thread_cfh(p, rank, root, lines);
  c.named = true;
  c.name = name;
  return c;
}

// Two ranks' threads, two instances of a named CFH "field" and one of "ions".
Profile object_run() {
  Profile p;
  p.cfhs.push_back(thread_cfh(p, 0, 10, "main 1 9\nmain;solve 4 6\nmain;io 1 2\n"));
  p.cfhs.push_back(thread_cfh(p, 1, 12, "main 1 11\nmain;solve 4 9\nmain;halo 2 1\n"));
  p.cfhs.push_back(named_cfh(p, 0, "field", 30, "push 5 3\n"));
  p.cfhs.push_back(named_cfh(p, 0, "ions", 30, "push 7 4\n"));
  p.cfhs.push_back(named_cfh(p, 1, "field", 31, "push 5 2\npush;deposit 5 1\n"));
  return p;
}

TEST(Trees, MergeByProbePathAddsEveryStatistic) {
  Profile p = object_run();
  Cfh merged = analysis::merge_cfhs(std::vector<const Cfh *>{&p.cfhs[0], &p.cfhs[1]});
  EXPECT_EQ("main 2\n"
            "main;solve 8\n"
            "main;io 1\n"
            "main;halo 2\n",
            profile::paths_text(p, merged));
  EXPECT_EQ(merged.nodes[0].stats.count, 2u);
  EXPECT_DOUBLE_EQ(merged.nodes[0].stats.sum, 22.0);
  EXPECT_DOUBLE_EQ(merged.nodes[2].stats.sum, 15.0); // solve: 6 + 9
  EXPECT_DOUBLE_EQ(merged.nodes[2].stats.max, 2.25); // 9 / 4
  EXPECT_DOUBLE_EQ(merged.nodes[2].stats.min, 1.5);  // 6 / 4
  EXPECT_TRUE(analysis::merge_cfhs(std::vector<Cfh>{}).nodes.empty());
}

TEST(Trees, TheRunAsAWholeKeepsNamedCfhsApart) {
  Profile p = object_run();
  std::vector<analysis::Tree> trees = analysis::aggregate_trees(p);
  ASSERT_EQ(trees.size(), 3u);
  EXPECT_EQ(trees[0].title, "all 2 thread CFHs merged by probe path");
  EXPECT_EQ(trees[1].title, "CFH \"field\": 2 instances merged by probe path");
  EXPECT_EQ(trees[2].title, "CFH \"ions\": 1 instances merged by probe path");
  // The threads' root holds the run's time: the objects' lives are not added to it.
  EXPECT_DOUBLE_EQ(trees[0].cfh.nodes[0].stats.sum, 22.0);
  EXPECT_EQ("push 10\npush;deposit 5\n", profile::paths_text(p, trees[1].cfh));
  EXPECT_TRUE(trees[1].merged);
}

// OpenMP workers: a worker's CFH starts at the parallel region's probes; summed over
// threads, its nodes lie where the master thread ran the same probe, and the master's
// nodes above hold the workers' time too, so no node's own time goes negative.
TEST(Trees, WorkerThreadsLieWhereTheirMasterRanTheSameProbe) {
  Profile p;
  p.cfhs.push_back(thread_cfh(p, 0, 10,
                              "main 1 9\nmain;sum 1 6\nmain;sum;loop 1 4\nmain;io 1 1\n"
                              "main;a 1 0.5\nmain;a;x 1 0.25\nmain;b 1 0.5\nmain;b;x 1 0.25\n"));
  p.cfhs.push_back(thread_cfh(p, 0, 8, "loop 1 3\nloop;inner 10 2\nalone 1 1\nx 2 0.5\n"));
  p.cfhs.push_back(thread_cfh(p, 0, 8, "loop 1 3.5\n"));
  p.cfhs[1].thread = 1;
  p.cfhs[2].thread = 2;
  std::vector<analysis::Tree> trees = analysis::aggregate_trees(p);
  ASSERT_EQ(trees.size(), 1u);
  EXPECT_EQ(trees[0].title, "all 3 thread CFHs merged by probe path, 2 worker threads' trees "
                            "under their master's nodes");
  const Cfh &merged = trees[0].cfh;
  // `x`, reached by the master at two places, and `alone`, at none, stay at the top.
  EXPECT_EQ("main 1\n"
            "main;sum 1\n"
            "main;sum;loop 3\n"
            "main;sum;loop;inner 10\n"
            "main;io 1\n"
            "main;a 1\n"
            "main;a;x 1\n"
            "main;b 1\n"
            "main;b;x 1\n"
            "alone 1\n"
            "x 2\n"
            "(worker threads outside their probes) 2\n",
            profile::paths_text(p, merged));
  std::vector<analysis::TreeRow> rows = analysis::tree_rows(p, merged);
  auto row = [&](const std::string &path) {
    for (const analysis::TreeRow &r : rows)
      if (r.path == "prog;" + path) return r;
    ADD_FAILURE() << path;
    return analysis::TreeRow{};
  };
  EXPECT_DOUBLE_EQ(row("main;sum;loop").inclusive, 10.5); // 4 + 3 + 3.5
  EXPECT_DOUBLE_EQ(row("main;sum").inclusive, 12.5);      // 6 + 3 + 3.5
  EXPECT_DOUBLE_EQ(row("main;sum").exclusive, 2.0);       // the master's own
  EXPECT_DOUBLE_EQ(row("main").inclusive, 15.5);
  EXPECT_DOUBLE_EQ(row("main").exclusive, 1.0);
  EXPECT_EQ(row("main;sum").count, 1u);
  // The workers' time outside their probes is a node of its own, one activation a worker:
  // 8 - (3 + 1 + 0.5) and 8 - 3.5. The root's own time is then the master's alone.
  EXPECT_DOUBLE_EQ(row("(worker threads outside their probes)").inclusive, 8.0);
  EXPECT_EQ(row("(worker threads outside their probes)").count, 2u);
  EXPECT_DOUBLE_EQ(rows[0].exclusive, 1.0); // 10 - 9
  std::vector<analysis::FlatRow> flat = analysis::flat_rows(p, merged);
  auto own = [&](const std::string &label) {
    for (const analysis::FlatRow &r : flat)
      if (r.label == label) return r.own;
    ADD_FAILURE() << label;
    return -1.0;
  };
  EXPECT_DOUBLE_EQ(own("(worker threads outside their probes)"), 8.0);
  EXPECT_DOUBLE_EQ(own("prog (outside every probe)"), 1.0); // the master's
  // The stored threads are untouched; one thread alone is nobody's worker.
  EXPECT_EQ("loop 1\nloop;inner 10\nalone 1\nx 2\n", profile::paths_text(p, p.cfhs[1]));
  p.cfhs.resize(1);
  EXPECT_EQ(analysis::aggregate_trees(p)[0].title, "all 1 thread CFHs merged by probe path");
}

TEST(Trees, OneRanksCfhsAsStored) {
  Profile p = object_run();
  std::vector<analysis::Tree> rank1 = analysis::cfh_trees(p, 1);
  ASSERT_EQ(rank1.size(), 2u);
  EXPECT_EQ(rank1[0].title, "CFH \"main\" rank 1 thread 0");
  EXPECT_EQ(rank1[1].title, "CFH \"field\" rank 1 thread 0");
  EXPECT_EQ(profile::paths_text(p, rank1[1].cfh), profile::paths_text(p, p.cfhs[4]));
  EXPECT_FALSE(rank1[0].merged);
  EXPECT_EQ(analysis::cfh_trees(p).size(), 5u);
  EXPECT_TRUE(analysis::cfh_trees(p, 7).empty());
}

TEST(Trees, ASummaryRunsSingleCfhKeepsItsSpread) {
  Profile p;
  p.cfhs.push_back(thread_cfh(p, -1, 5, "main 4 4\n"));
  p.cfhs[0].summary = true;
  p.cfhs[0].spread.resize(2);
  p.cfhs[0].spread[1].total.rank_max = 3;
  std::vector<analysis::Tree> trees = analysis::aggregate_trees(p);
  ASSERT_EQ(trees.size(), 1u);
  EXPECT_EQ(trees[0].title, "CFH \"main\" summary of every rank thread 0");
  ASSERT_EQ(trees[0].cfh.spread.size(), 2u);
  EXPECT_EQ(trees[0].cfh.spread[1].total.rank_max, 3);
}

TEST(Trees, RowsGoDepthFirstWithPathsSharesAndCorrectedTime) {
  Profile p;
  Cfh c = build_cfh(p, 10,
                    "main 1 8 0.5\nmain;solve 4 6 0.25\nmain;solve;x 2 1 0.125\n"
                    "main;io 1 1\n");
  std::vector<analysis::TreeRow> rows = analysis::tree_rows(p, c);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].path, "prog");
  EXPECT_EQ(rows[2].path, "prog;main;solve");
  EXPECT_EQ(rows[3].path, "prog;main;solve;x");
  EXPECT_EQ(rows[4].path, "prog;main;io");
  EXPECT_EQ(rows[3].depth, 3u);
  EXPECT_DOUBLE_EQ(rows[0].percent_of_parent, 100.0);
  EXPECT_DOUBLE_EQ(rows[2].percent_of_parent, 75.0); // 6 of 8
  EXPECT_DOUBLE_EQ(rows[2].exclusive, 5.0);
  EXPECT_DOUBLE_EQ(rows[1].corrected, 8.0 - 0.25 - 0.125);
  EXPECT_EQ(rows[2].count, 4u);
}

TEST(Trees, AnUndescribedRootIsTheProgram) {
  Profile p;
  Cfh c = build_cfh(p, 1, "main 1 1\n");
  p.probes.erase(p.probes.begin()); // probe 0 loses its description
  EXPECT_EQ(analysis::node_label(p, c, 0), "program");
  EXPECT_EQ(analysis::node_label(p, c, 1), "main");
  c.nodes[1].probe = 42;
  EXPECT_EQ(analysis::node_label(p, c, 1), "#42");
}

// The flat profile: a probe's own time over every call path it was reached on, its
// inclusive time once where it recurses, the most own time first (ties: the most inclusive).
TEST(Trees, AFlatProfileSumsEachProbeOverItsCallPathsTheMostOwnTimeFirst) {
  Profile p;
  // Binary fractions: ties stay ties. Own: kernel 0.25 + 0.0625, solve 0.25, prog, main
  // and rec (0.0625 on each level) 0.125, io 0.0625.
  Cfh c = build_cfh(p, 1.0,
                    "main 1 0.875\nmain;solve 2 0.5\nmain;solve;kernel 4 0.25\nmain;io 1 0.125\n"
                    "main;io;kernel 2 0.0625\nmain;rec 1 0.125\nmain;rec;rec 1 0.0625\n");
  std::vector<analysis::FlatRow> rows = analysis::flat_rows(p, c);
  std::vector<std::string> order;
  for (const analysis::FlatRow &r : rows)
    order.push_back(r.label);
  EXPECT_EQ((std::vector<std::string>{"kernel", "solve", "prog (outside every probe)", "main",
                                      "rec", "io"}),
            order);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_NEAR(rows[0].own, 0.3125, 1e-12);
  EXPECT_NEAR(rows[0].inclusive, 0.3125, 1e-12);
  EXPECT_NEAR(rows[0].own_percent, 31.25, 1e-9);
  EXPECT_EQ(rows[0].count, 6u);
  EXPECT_EQ(rows[0].paths, 2u);
  EXPECT_NEAR(rows[2].inclusive_percent, 100.0, 1e-9) << "the root: the whole run";
  EXPECT_NEAR(rows[4].own, 0.125, 1e-12) << "rec's own time on both levels";
  EXPECT_NEAR(rows[4].inclusive, 0.125, 1e-12) << "rec inside rec is not counted again";
  EXPECT_EQ(rows[4].paths, 2u);
  double own = 0;
  for (const analysis::FlatRow &r : rows)
    own += r.own;
  EXPECT_NEAR(own, 1.0, 1e-12) << "the own times add up to the run";
  EXPECT_TRUE(analysis::flat_rows(p, Cfh{}).empty());
}

// A throttled probe is weighed by its estimate, which its caller's own time no longer
// holds; a named CFH's root, its object's life, has no row.
TEST(Trees, AFlatProfileTimesAThrottledProbeByItsSamplesAndLeavesOutAnObjectsLife) {
  Profile p;
  Cfh c = sampled_helper_cfh(p); // helper: 0.0041 s estimated of 2,100 activations
  std::vector<analysis::FlatRow> rows = analysis::flat_rows(p, c);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].label, "main");
  EXPECT_NEAR(rows[0].own, 0.0059, 1e-12) << "0.010 less the helper's 0.0041";
  EXPECT_EQ(rows[1].label, "helper");
  EXPECT_NEAR(rows[1].own, 0.0041, 1e-12);
  EXPECT_EQ(rows[1].count, 2'100u);
  EXPECT_EQ(rows[1].untimed, 2'000u);
  c.named = true;
  rows = analysis::flat_rows(p, c);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].label, "main");
  EXPECT_EQ(rows[1].label, "helper");
}

TEST(Trees, HotPathFollowsTheLargestChildTheFirstOfEquals) {
  Profile p;
  Cfh c = build_cfh(p, 10, "a 1 3\nb 1 6\nb;x 1 2\nb;y 1 2\nb;y;z 1 1\n");
  EXPECT_EQ(analysis::hot_path(c), (std::vector<std::uint32_t>{0, 2, 3}));
  EXPECT_TRUE(analysis::hot_path(Cfh{}).empty());
  // The workers' time outside their probes is never on it, however long.
  profile::Node outside{0, profile::kWorkersOutsideProbes, {}, {}, {}};
  idb_stats_clear(&outside.stats);
  idb_stats_add(&outside.stats, 9.0);
  c.nodes[0].stats.sum += 9.0;
  c.nodes.push_back(outside);
  EXPECT_EQ(analysis::hot_path(c), (std::vector<std::uint32_t>{0, 2, 3}));
}

TEST(Trees, ExportCellsReadBackToTheSameNumbers) {
  analysis::TreeRow r;
  r.path = "prog;main";
  r.count = 3;
  r.inclusive = 0.1;
  r.corrected = 1.0 / 3.0;
  r.percent_of_parent = 100;
  std::vector<std::string> cells = analysis::tree_export_cells("t", r);
  ASSERT_EQ(cells.size(), analysis::tree_export_columns().size());
  EXPECT_EQ(cells[0], "t");
  EXPECT_EQ(cells[1], "prog;main");
  EXPECT_EQ(cells[2], "3");
  EXPECT_EQ(cells[3], "0.1");
  EXPECT_EQ(cells[6], "100");
  double back = 0;
  std::from_chars(cells[5].data(), cells[5].data() + cells[5].size(), back);
  EXPECT_EQ(back, 1.0 / 3.0);
}

} // namespace
} // namespace idb::test

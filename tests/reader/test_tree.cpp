// Derived node times and the text forms of a CFH (reader/include/idb/tree.hpp). CFHs are
// built from lines like "main;solve 3 1.5" and compared as text; node_times is checked
// exactly on built trees and by its invariants on every CFH of a real profile.
#include "cfh_text.hpp"
#include "idb/probe.h"
#include "idb/tree.hpp"
#include "support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <iterator>
#include <map>
#include <sstream>

namespace idb::test {
namespace {

using profile::Cfh;
using profile::Profile;

const char *kSolver = "main 1 8 0.5\n"
                      "main;solve 4 5 0.25\n"
                      "main;solve;MPI_Allreduce 8 1 0.125\n"
                      "main;io 2 2\n"
                      "main;io;MPI_Allreduce 2 0.5\n"
                      "cleanup 1 0.5\n";

TEST(PathsText, PrintsEveryNodeBelowTheRootDepthFirst) {
  Profile p;
  Cfh cfh = build_cfh(p, 10, kSolver);
  EXPECT_EQ("main 1\n"
            "main;solve 4\n"
            "main;solve;MPI_Allreduce 8\n"
            "main;io 2\n"
            "main;io;MPI_Allreduce 2\n"
            "cleanup 1\n",
            profile::paths_text(p, cfh));
}

TEST(PathsText, KeepsCreationOrderAmongSiblings) {
  Profile p;
  // Children of main created out of path order: zeta first, then alpha, then zeta's child.
  Cfh cfh = build_cfh(p, 1, "main 1 1\nmain;zeta 1 0.5\nmain;alpha 1 0.25\nmain;zeta;x 3 0.125\n");
  EXPECT_EQ("main 1\nmain;zeta 1\nmain;zeta;x 3\nmain;alpha 1\n", profile::paths_text(p, cfh));
}

TEST(PathsText, LabelsProbesWithoutADescriptionById) {
  Profile p;
  Cfh cfh = build_cfh(p, 1, "main 1 1\nmain;work 2 0.5\n");
  p.probes[2].description.clear();          // "work"
  cfh.nodes.push_back({1, 77, {}, {}, {}}); // a probe the table does not know
  cfh.nodes.back().stats.count = 5;
  EXPECT_EQ("main 1\nmain;#2 2\nmain;#77 5\n", profile::paths_text(p, cfh));
  EXPECT_EQ("#77", profile::probe_label(p, 77));
  EXPECT_EQ("main", profile::probe_label(p, 1));
}

TEST(PathsText, PrintsNothingForARootAlone) {
  Profile p;
  EXPECT_EQ("", profile::paths_text(p, build_cfh(p, 1, "")));
}

TEST(PathsText, PrintsNothingForACfhWithoutNodes) {
  Profile p;
  std::ostringstream out;
  profile::print_tree(out, p, Cfh{});
  EXPECT_EQ("", out.str());
  EXPECT_EQ("", profile::paths_text(p, Cfh{}));
  EXPECT_TRUE(profile::node_times(Cfh{}).empty());
}

TEST(NodeTimes, DerivesExclusiveAndCorrectedTimesExactly) {
  Profile p;
  Cfh cfh = build_cfh(p, 10, kSolver);
  std::vector<profile::NodeTimes> t = profile::node_times(cfh);
  ASSERT_EQ(7u, t.size());
  std::ostringstream text;
  for (const profile::NodeTimes &n : t)
    text << n.inclusive << ' ' << n.exclusive << ' ' << n.descendant_noise << ' ' << n.corrected
         << '\n';
  EXPECT_EQ("10 1.5 0.875 9.125\n" // root: 10 - (8 + 0.5); noise 0.5 + 0.25 + 0.125
            "8 1 0.375 7.625\n"    // main: 8 - (5 + 2)
            "5 4 0.125 4.875\n"    // main;solve
            "1 1 0 1\n"
            "2 1.5 0 2\n"
            "0.5 0.5 0 0.5\n"
            "0.5 0.5 0 0.5\n",
            text.str());
}

TEST(NodeTimes, HoldsItsInvariantsOnARealProfile) {
  profile::ReadResult r = profile::parse_profile(generated_profile());
  ASSERT_TRUE(r.profile) << r.error;
  for (const Cfh &cfh : r.profile->cfhs) {
    SCOPED_TRACE(cfh.name);
    std::vector<profile::NodeTimes> t = profile::node_times(cfh);
    ASSERT_EQ(cfh.nodes.size(), t.size());
    // The children's charge of each node, at most its exclusive time.
    std::vector<double> children(t.size(), 0.0), own(t.size(), 0.0), noise(t.size(), 0.0);
    for (std::size_t i = t.size(); i-- > 1;) {
      children[cfh.nodes[i].parent] += cfh.nodes[i].stats.sum;
      own[cfh.nodes[i].parent] += cfh.nodes[i].stats.noise;
    }
    for (std::size_t i = t.size(); i-- > 0;) {
      noise[i] += std::min(own[i], std::max(0.0, cfh.nodes[i].stats.sum - children[i]));
      if (i > 0) noise[cfh.nodes[i].parent] += noise[i];
    }
    for (std::size_t i = 0; i < t.size(); ++i) {
      double tolerance = 1e-12 * (1.0 + t[i].inclusive);
      EXPECT_EQ(cfh.nodes[i].stats.sum, t[i].inclusive) << "node " << i;
      EXPECT_NEAR(t[i].inclusive - children[i], t[i].exclusive, tolerance) << "node " << i;
      EXPECT_NEAR(noise[i], t[i].descendant_noise, tolerance) << "node " << i;
      EXPECT_NEAR(t[i].inclusive - noise[i], t[i].corrected, tolerance) << "node " << i;
      EXPECT_GE(t[i].inclusive, children[i] - tolerance) << "node " << i;
      EXPECT_GE(t[i].descendant_noise, 0.0) << "node " << i;
      EXPECT_GE(t[i].corrected, -tolerance) << "node " << i;
    }
  }
}

// Tiny children whose calibrated charge exceeds the time it can have been spent in (their
// parent's exclusive time): the parent is charged that time and no more, so its corrected
// time is its children's and never below zero.
TEST(NodeTimes, ChildrenAreChargedAtMostTheirParentsExclusiveTime) {
  Profile p;
  // acc: 1000 activations of 12 ns each, charged 16.9 ns each: 16.9 us of noise in a
  // parent whose exclusive time is 4 us.
  Cfh cfh = build_cfh(p, 1, "get 10 0.000016\nget;acc 1000 0.000012 0.0000169\n");
  std::vector<profile::NodeTimes> t = profile::node_times(cfh);
  ASSERT_EQ(3u, t.size());
  EXPECT_NEAR(t[1].exclusive, 0.000004, 1e-15);
  EXPECT_NEAR(t[1].descendant_noise, 0.000004, 1e-15);
  EXPECT_NEAR(t[1].corrected, 0.000012, 1e-15);
  EXPECT_DOUBLE_EQ(t[2].corrected, 0.000012);
  // A charge within the exclusive time is taken whole.
  Cfh fits = build_cfh(p, 1, "get 10 0.0001\nget;acc 1000 0.000012 0.0000169\n");
  EXPECT_NEAR(profile::node_times(fits)[1].descendant_noise, 0.0000169, 1e-15);
}

// The report of a built CFH whose nodes carry CPU time on "solve" only.
std::string report(const profile::TreeOptions &options, double prune = 0.0) {
  Profile p;
  Cfh cfh = build_cfh(p, 10, kSolver);
  cfh.nodes[2].stats.cpu_count = 4;
  cfh.nodes[2].stats.cpu_sum = 4.5;
  profile::TreeOptions o = options;
  o.prune_percent = prune;
  std::ostringstream out;
  profile::print_tree(out, p, cfh, o);
  return out.str();
}

TEST(PrintTree, PrintsAHeaderAndOneIndentedRowPerNode) {
  // The root's mean (10 s in microseconds) is wider than its column: the column widens.
  EXPECT_EQ(
      R"(probe                    count       incl s       excl s       corr s    %par      mean us     sdev us        cpu s   cpu n      noise s
prog                         1    10.000000     1.500000     9.125000  100.00 10000000.000       0.000            -       0     0.000000
  main                       1     8.000000     1.000000     7.625000   80.00  8000000.000       0.000            -       0     0.500000
    solve                    4     5.000000     4.000000     4.875000   62.50  1250000.000       0.000     4.500000       4     0.250000
      MPI_Allreduce          8     1.000000     1.000000     1.000000   20.00   125000.000       0.000            -       0     0.125000
    io                       2     2.000000     1.500000     2.000000   25.00  1000000.000       0.000            -       0     0.000000
      MPI_Allreduce          2     0.500000     0.500000     0.500000   25.00   250000.000       0.000            -       0     0.000000
  cleanup                    1     0.500000     0.500000     0.500000    5.00   500000.000       0.000            -       0     0.000000
)",
      report({}));
}

TEST(PrintTree, LeavesOutTheCpuColumnsOnRequest) {
  std::string text = report({0.0, false});
  EXPECT_EQ(std::string::npos, text.find("cpu")) << text;
  EXPECT_EQ(std::string::npos, text.find("4.500000")) << text;
  EXPECT_NE(std::string::npos,
            text.find("    solve                    4     5.000000     4.000000     4.875000"))
      << text;
}

// The first word of every row after the header.
std::string labels(const std::string &report) {
  std::istringstream in(report);
  std::string line, word, out;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream(line) >> word;
    out += word + ' ';
  }
  return out;
}

TEST(PrintTree, HidesNodesBelowThePruneShareWithTheirSubtrees) {
  EXPECT_EQ("prog main solve MPI_Allreduce io MPI_Allreduce cleanup ", labels(report({})));
  EXPECT_EQ("prog main solve MPI_Allreduce io MPI_Allreduce cleanup ", labels(report({}, 5)));
  EXPECT_EQ("prog main solve MPI_Allreduce io ", labels(report({}, 10)));
  EXPECT_EQ("prog main solve ", labels(report({}, 50)));
  EXPECT_EQ("prog ", labels(report({}, 100.5)));
}

// A throttled node's inclusive time holds its timed activations alone; its "est s" adds
// each untimed one at the mean of its samples, and --prune judges it by that.
TEST(PrintTree, AThrottledNodeShowsItsEstimateAndThePruneKeepsItByIt) {
  Profile p;
  Cfh cfh = build_cfh(p, 10, "main 1 8\nmain;tiny 1000 0.001\nmain;timed 1 0.5\n");
  idb_stats_t &tiny = cfh.nodes[2].stats;
  ASSERT_EQ(1000u, tiny.count);
  tiny.throttled = 1'000'000;
  tiny.sampled = 4'000;
  tiny.sampled_sum = 0.02; // 5 us each
  profile::TreeOptions options;
  options.prune_percent = 40;
  std::ostringstream out;
  profile::print_tree(out, p, cfh, options);
  EXPECT_EQ("prog main tiny ", labels(out.str())) << out.str();
  EXPECT_NE(std::string::npos, out.str().find("untimed        est s")) << out.str();
  EXPECT_NE(std::string::npos, out.str().find("   1000000     5.001000")) << out.str();
  // Without samples, the timed mean stands in: 1 us each, 1.001 s, 10% of the root.
  tiny.sampled = 0;
  tiny.sampled_sum = 0;
  options.prune_percent = 8;
  std::ostringstream bare;
  profile::print_tree(bare, p, cfh, options);
  EXPECT_EQ("prog main tiny ", labels(bare.str())) << bare.str();
  EXPECT_NE(std::string::npos, bare.str().find("   1000000     1.001000")) << bare.str();
}

// Samples of a throttled node measure their own probe too: over a few nanoseconds of work
// they can say more than the parent ran. The throttled children of a node then share what
// its time leaves after its timed children, in proportion, and the report says "<=".
TEST(PrintTree, EstimatesAreCappedAtWhatTheParentsTimeLeaves) {
  Profile p;
  Cfh cfh = build_cfh(p, 10, "main 1 8\nmain;a 1000 0.001\nmain;b 1000 0.001\nmain;timed 1 0.5\n");
  for (std::uint32_t node : {2u, 3u}) {
    cfh.nodes[node].stats.throttled = 1'000'000;
    cfh.nodes[node].stats.sampled = 1'000;
  }
  cfh.nodes[2].stats.sampled_sum = 0.009; // 9 us each: 9.001 s
  cfh.nodes[3].stats.sampled_sum = 0.003; // 3.001 s
  std::vector<profile::NodeTimes> t = profile::node_times(cfh);
  ASSERT_EQ("main", p.probe(cfh.nodes[1].probe)->description);
  double room = t[1].corrected_all - t[4].corrected; // 7.5 s
  EXPECT_NEAR(7.5, room, 1e-9);
  EXPECT_TRUE(t[2].capped);
  EXPECT_TRUE(t[3].capped);
  EXPECT_NEAR(room * 9.001 / 12.002, t[2].estimated, 1e-9);
  EXPECT_NEAR(room * 3.001 / 12.002, t[3].estimated, 1e-9);
  EXPECT_DOUBLE_EQ(t[2].estimated, t[2].corrected_all);
  EXPECT_FALSE(t[4].capped);
  std::ostringstream out;
  profile::print_tree(out, p, cfh);
  EXPECT_NE(std::string::npos, out.str().find("   <=5.624688")) << out.str();
  // Within the room, an estimate is left as it is.
  cfh.nodes[2].stats.sampled_sum = 0.002;
  t = profile::node_times(cfh);
  EXPECT_FALSE(t[2].capped);
  EXPECT_NEAR(2.001, t[2].estimated, 1e-9);
}

TEST(PrintTree, KeepsEveryColumnOfRowsNestedDeeperThanALine) {
  Profile p;
  std::string lines, path = "f";
  for (int depth = 0; depth < 300; ++depth, path += ";f")
    lines += path + " 1 1\n";
  std::ostringstream out;
  profile::print_tree(out, p, build_cfh(p, 1, lines));
  std::istringstream in(out.str());
  std::string line, deepest;
  int rows = 0;
  std::size_t widest = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::string> fields{std::istream_iterator<std::string>(words), {}};
    // Below depth 40 a row's label also names its depth ("[41] f"): one word more.
    std::size_t expected = rows == 0 ? 19u : rows - 1 > 40 ? 12u : 11u;
    ASSERT_EQ(expected, fields.size()) << "row " << rows << ": " << line;
    widest = std::max(widest, line.size());
    deepest = line;
    ++rows;
  }
  EXPECT_EQ(302, rows); // header, root, 300 nodes
  // The indentation stops at 40 levels: no row is 600 spaces wide.
  EXPECT_LT(widest, 250u);
  EXPECT_EQ(std::string(80, ' ') + "[300] f ", deepest.substr(0, 88));
}

TEST(PrintTree, ALabelWiderThanTheColumnPushesOnlyItsOwnRowRight) {
  Profile p;
  std::string name(200, 'x');
  std::ostringstream out;
  profile::print_tree(out, p, build_cfh(p, 1, "main 1 1\nmain;" + name + " 1 0.5\n"), {0.0, false});
  std::istringstream in(out.str());
  std::string header, root, main, wide;
  std::getline(in, header);
  std::getline(in, root);
  std::getline(in, main);
  std::getline(in, wide);
  EXPECT_EQ(header.size(), main.size()) << "the column is 120 wide, not 204";
  EXPECT_EQ(header.substr(0, 120), std::string("probe") + std::string(115, ' ')) << header;
  EXPECT_EQ("    " + name + " ", wide.substr(0, 205)) << "one space, then its numbers";
  EXPECT_GT(wide.size(), main.size());
}

TEST(PrintProfile, PrintsTheRunHeaderThenEveryCfh) {
  Profile p;
  p.meta = {{"program", "solver"},      {"host", "node01"},
            {"threads", "2"},           {"timer", "tsc"},
            {"timer_hz", "2400000000"}, {"noise_per_activation_s", "2.5e-08"},
            {"cpu_policy", "auto"}};
  p.cfhs.push_back(build_cfh(p, 2, "main 1 1\n"));
  p.cfhs.push_back(build_cfh(p, 1, "work 3 0.5\n"));
  p.cfhs[1].name = "solver[1]";
  p.cfhs[1].thread = 1;
  p.cfhs[1].mismatches = 2;
  std::ostringstream out;
  profile::print_profile(out, p, {0.0, false});
  EXPECT_EQ(R"(program solver  host node01  ranks 1  threads 2  timer tsc (2.400 GHz)
noise per activation 25.0 ns, cpu policy auto

CFH "built" rank 0 thread 0
probe       count       incl s       excl s       corr s    %par     mean us     sdev us      noise s
solver          1     2.000000     1.000000     2.000000  100.00 2000000.000       0.000     0.000000
  main          1     1.000000     1.000000     1.000000   50.00 1000000.000       0.000     0.000000

CFH "solver[1]" rank 0 thread 1  mismatched stops 2
probe       count       incl s       excl s       corr s    %par     mean us     sdev us      noise s
solver          1     1.000000     0.500000     1.000000  100.00 1000000.000       0.000     0.000000
  work          3     0.500000     0.500000     0.500000   50.00  166666.667       0.000     0.000000
)",
            out.str());
}

} // namespace
} // namespace idb::test

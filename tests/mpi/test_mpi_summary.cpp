// The summary mode under mpirun: one CFH for every rank with the merged statistics and
// the cross-rank spread, exact for counts and bytes of the known pattern, agreeing with a
// full-mode run on everything that does not depend on timing, naming the slow rank, and
// the same size whatever the rank count.
#include "mpi_launch.hpp"
#include "mpi_profile.hpp"

#include "idb/profile.hpp"
#include "idb/profile_format.h"
#include "idb/tree.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace {

using idb::profile::Profile;
using idb::test::mpi_run;
using idb::test::MpiRun;

constexpr std::uint64_t kIterations = 10;
constexpr int kSlowRank = 2;

MpiRun start(const char *mode, int ranks) {
  return mpi_run(ranks, IDB_TEST_COMM_PATTERN,
                 {std::to_string(kIterations), std::to_string(kSlowRank)},
                 {{"IDB_MPI_MODE", mode}});
}

Profile read_run(const MpiRun &run) {
  EXPECT_TRUE(run.ok()) << run.output;
  auto r = idb::profile::read_profile(run.profile);
  EXPECT_TRUE(r.profile) << r.error << "\n" << run.output;
  return r.profile ? *r.profile : Profile{};
}

// Node index by path of labels.
std::map<std::string, std::size_t> by_path(const Profile &p, const idb::profile::Cfh &cfh) {
  std::map<std::string, std::size_t> out;
  std::vector<std::string> path(cfh.nodes.size());
  for (std::size_t i = 1; i < cfh.nodes.size(); ++i) {
    std::uint32_t parent = cfh.nodes[i].parent;
    std::string label = idb::profile::probe_label(p, cfh.nodes[i].probe);
    path[i] = parent == 0 ? label : path[parent] + ";" + label;
    out[path[i]] = i;
  }
  return out;
}

TEST(MpiSummary, OneCfhHoldsEveryRankWithExactCountsAndBytes) {
  MpiRun run = start("summary", 4);
  Profile p = read_run(run);
  ASSERT_EQ(p.cfhs.size(), 1u);
  EXPECT_EQ(p.get("mpi_mode"), "summary");
  EXPECT_EQ(p.get("nprocs"), "4");
  const auto &cfh = p.cfhs[0];
  EXPECT_TRUE(cfh.summary);
  EXPECT_EQ(cfh.rank, -1);
  ASSERT_EQ(cfh.spread.size(), cfh.nodes.size());
  auto at = by_path(p, cfh);
  ASSERT_TRUE(at.count("step;MPI_Bcast"));
  std::size_t bcast = at["step;MPI_Bcast"];
  const auto &s = cfh.spread[bcast];
  EXPECT_EQ(cfh.nodes[bcast].stats.count, 4 * kIterations);
  EXPECT_EQ(cfh.nodes[bcast].stats.bytes_sent, 40 * kIterations); // the root's
  EXPECT_EQ(cfh.nodes[bcast].stats.bytes_recv, std::uint64_t(3 * 40) * kIterations);
  EXPECT_EQ(s.ranks, 4u);
  EXPECT_EQ(s.count.min, double(kIterations));
  EXPECT_EQ(s.count.max, double(kIterations));
  EXPECT_EQ(s.sent.max, double(40 * kIterations));
  EXPECT_EQ(s.sent.rank_max, 0);
  EXPECT_EQ(s.received.min, 0.0);
  EXPECT_EQ(s.received.rank_min, 0);
  ASSERT_TRUE(at.count("step;compute"));
  EXPECT_EQ(cfh.spread[at["step;compute"]].total.rank_max, kSlowRank);
}

TEST(MpiSummary, IdbShowPrintsTheSpread) {
  MpiRun run = start("summary", 4);
  ASSERT_TRUE(run.ok()) << run.output;
  auto shown = idb::test::run_command(run.dir, {IDB_TEST_CLI, "show", run.profile});
  ASSERT_EQ(shown.status, 0) << shown.output;
  EXPECT_NE(shown.output.find("mpi mode summary"), std::string::npos) << shown.output;
  EXPECT_NE(shown.output.find("CFH \"thread 0\" summary of every rank"), std::string::npos)
      << shown.output;
  EXPECT_NE(shown.output.find("max/mean"), std::string::npos) << shown.output;
}

TEST(MpiSummary, AgreesWithTheFullModeOnCountsAndBytes) {
  MpiRun summary_run = start("summary", 4), full_run = start("full", 4);
  Profile summary = read_run(summary_run), full = read_run(full_run);
  ASSERT_EQ(summary.cfhs.size(), 1u);
  auto at = by_path(summary, summary.cfhs[0]);
  std::map<std::string, idb_stats_t> merged;
  std::map<std::string, std::uint32_t> ranks;
  for (const auto &cfh : full.cfhs)
    for (const auto &[path, i] : by_path(full, cfh)) {
      if (!merged.count(path)) idb_stats_clear(&merged[path]);
      idb_stats_merge(&merged[path], &cfh.nodes[i].stats);
      ++ranks[path];
    }
  EXPECT_EQ(at.size(), merged.size());
  for (const auto &[path, i] : at) {
    ASSERT_TRUE(merged.count(path)) << path;
    const idb_stats_t &got = summary.cfhs[0].nodes[i].stats;
    EXPECT_EQ(got.count, merged[path].count) << path;
    EXPECT_EQ(got.bytes_sent, merged[path].bytes_sent) << path;
    EXPECT_EQ(got.bytes_recv, merged[path].bytes_recv) << path;
    EXPECT_EQ(summary.cfhs[0].spread[i].ranks, ranks[path]) << path;
  }
}

TEST(MpiSummary, SizeDoesNotGrowWithTheRankCount) {
  MpiRun two = start("summary", 2), four = start("summary", 4);
  ASSERT_TRUE(two.ok()) << two.output;
  ASSERT_TRUE(four.ok()) << four.output;
  auto a = idb::test::section_bytes(two.profile);
  auto b = idb::test::section_bytes(four.profile);
  a.erase(1); // META: numbers of different lengths
  b.erase(1);
  // The histograms hold the durations seen, within a bound the structure sets.
  ASSERT_GT(a[IDB_SECTION_HIST], 0u);
  EXPECT_LE(a[IDB_SECTION_HIST], idb::test::hist_bound(two.profile));
  EXPECT_LE(b[IDB_SECTION_HIST], idb::test::hist_bound(four.profile));
  a.erase(IDB_SECTION_HIST);
  b.erase(IDB_SECTION_HIST);
  // So do the waits: which patterns a call waits in depends on timing.
  EXPECT_LE(a[IDB_SECTION_WAIT], idb::test::wait_bound(two.profile));
  EXPECT_LE(b[IDB_SECTION_WAIT], idb::test::wait_bound(four.profile));
  EXPECT_LE(a[IDB_SECTION_WAIT_SPREAD], idb::test::wait_spread_bound(two.profile));
  EXPECT_LE(b[IDB_SECTION_WAIT_SPREAD], idb::test::wait_spread_bound(four.profile));
  for (std::uint32_t type : {IDB_SECTION_WAIT, IDB_SECTION_WAIT_SPREAD}) {
    a.erase(type);
    b.erase(type);
  }
  EXPECT_EQ(a, b);
}

} // namespace

// The summary merge against the full mode's aggregates: synthetic ranks whose trees
// overlap but differ, summarized by the summary mode's own code (summary_driver.hpp) and
// read back through the reader, agree node by node with what the reader's full profile of
// the same ranks gives: merged statistics (count, bytes, min and max exactly; sums, mean
// and M2 up to rounding) and the spread of the per-rank values with the ranks of their
// minimum and maximum.
#include "summary_driver.hpp"
#include "synthetic_ranks.hpp"

#include "idb/profile.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace {

using idb::profile::Cfh;
using idb::profile::Profile;
using idb::test::RankSections;

constexpr int kRanks = 7;

// Per CFH name and path of probe ids: the node's per-rank statistics.
using PerRank = std::map<std::string, std::map<std::string, std::map<int, idb_stats_t>>>;

std::vector<std::string> paths(const Cfh &cfh) {
  std::vector<std::string> out(cfh.nodes.size());
  for (std::size_t i = 1; i < cfh.nodes.size(); ++i)
    out[i] = out[cfh.nodes[i].parent] + "/" + std::to_string(cfh.nodes[i].probe);
  return out;
}

Profile read_bytes(const std::string &bytes) {
  auto r = idb::profile::parse_profile(bytes);
  EXPECT_TRUE(r.profile) << r.error;
  return r.profile ? *r.profile : Profile{};
}

struct Fixture {
  std::vector<RankSections> ranks;
  Profile full, summary;
};

Fixture make() {
  Fixture f;
  idb::test::SyntheticShape shape;
  std::string all;
  std::uint32_t count = 0;
  for (int r = 0; r < kRanks; ++r) {
    f.ranks.push_back(idb::test::synthetic_rank(r, shape));
    all += f.ranks.back().bytes;
    count += f.ranks.back().count;
  }
  f.full = read_bytes(idb::test::profile_file(all, count, kRanks, "full"));
  auto s = idb::test::summarize(
      kRanks, [&](int r) -> const RankSections & { return f.ranks[std::size_t(r)]; });
  EXPECT_EQ(s.error, "");
  f.summary = read_bytes(idb::test::profile_file(s.sections, s.count, kRanks, "summary"));
  return f;
}

PerRank per_rank(const Profile &full) {
  PerRank out;
  for (const Cfh &cfh : full.cfhs) {
    std::vector<std::string> p = paths(cfh);
    for (std::size_t i = 0; i < cfh.nodes.size(); ++i)
      out[cfh.name][p[i]][cfh.rank] = cfh.nodes[i].stats;
  }
  return out;
}

void expect_near(double expected, double actual, const std::string &what) {
  EXPECT_NEAR(expected, actual, 1e-9 * std::max(1.0, std::fabs(expected))) << what;
}

void check_node(const std::map<int, idb_stats_t> &ranks, const idb::profile::Node &node,
                const idb::profile::NodeSpread &spread, const std::string &where) {
  idb_stats_t merged;
  idb_stats_clear(&merged);
  double min = 1e300, max = -1e300, sum = 0;
  int rank_min = -1, rank_max = -1;
  for (const auto &[rank, s] : ranks) {
    idb_stats_merge(&merged, &s);
    if (s.sum < min) min = s.sum, rank_min = rank;
    if (s.sum > max) max = s.sum, rank_max = rank;
    sum += s.sum;
  }
  double mean = sum / double(ranks.size()), m2 = 0;
  for (const auto &entry : ranks)
    m2 += (entry.second.sum - mean) * (entry.second.sum - mean);
  const idb_stats_t &got = node.stats;
  EXPECT_EQ(got.count, merged.count) << where;
  EXPECT_EQ(got.bytes_sent, merged.bytes_sent) << where;
  EXPECT_EQ(got.bytes_recv, merged.bytes_recv) << where;
  EXPECT_EQ(got.min, merged.min) << where;
  EXPECT_EQ(got.max, merged.max) << where;
  expect_near(merged.sum, got.sum, where + " sum");
  expect_near(merged.mean, got.mean, where + " mean");
  expect_near(merged.m2, got.m2, where + " m2");
  EXPECT_EQ(spread.ranks, ranks.size()) << where;
  EXPECT_EQ(spread.total.min, min) << where;
  EXPECT_EQ(spread.total.max, max) << where;
  EXPECT_EQ(spread.total.rank_min, rank_min) << where;
  EXPECT_EQ(spread.total.rank_max, rank_max) << where;
  expect_near(mean, spread.total.mean, where + " spread mean");
  expect_near(m2, spread.total.m2, where + " spread m2");
}

TEST(SummaryMerge, AgreesWithTheFullModesAggregates) {
  Fixture f = make();
  PerRank expected = per_rank(f.full);
  ASSERT_EQ(f.summary.cfhs.size(), 2u); // "thread 0" and "solver"
  std::size_t nodes = 0;
  for (const Cfh &cfh : f.summary.cfhs) {
    EXPECT_TRUE(cfh.summary);
    EXPECT_EQ(cfh.rank, -1);
    ASSERT_EQ(cfh.spread.size(), cfh.nodes.size());
    std::vector<std::string> p = paths(cfh);
    const auto &by_path = expected[cfh.name];
    EXPECT_EQ(by_path.size(), cfh.nodes.size()) << cfh.name << ": the union of the ranks' nodes";
    for (std::size_t i = 0; i < cfh.nodes.size(); ++i) {
      auto it = by_path.find(p[i]);
      ASSERT_NE(it, by_path.end()) << cfh.name << p[i];
      check_node(it->second, cfh.nodes[i], cfh.spread[i], cfh.name + p[i]);
      ++nodes;
    }
  }
  EXPECT_GT(nodes, 100u);
}

TEST(SummaryMerge, SolverExistsOnEvenRanksOnly) {
  Fixture f = make();
  for (const Cfh &cfh : f.summary.cfhs)
    if (cfh.name == "solver") {
      EXPECT_TRUE(cfh.named);
      EXPECT_EQ(cfh.spread[0].ranks, 4u); // ranks 0, 2, 4, 6
    }
}

TEST(SummaryMerge, SizeFollowsTheTreeNotTheRankCount) {
  idb::test::SyntheticShape shape;
  shape.named_cfh = false;
  std::vector<RankSections> ranks;
  ranks.reserve(512);
  for (int r = 0; r < 512; ++r)
    ranks.push_back(idb::test::synthetic_rank(r, shape));
  auto source = [&](int r) -> const RankSections & { return ranks[std::size_t(r)]; };
  auto few = idb::test::summarize(64, source);
  auto many = idb::test::summarize(512, source);
  // Every node of the global tree is kept by some rank once there are enough ranks.
  EXPECT_EQ(few.sections.size(), many.sections.size());
}

} // namespace

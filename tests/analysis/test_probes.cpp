// Per-probe aggregates and imbalance (analysis/probes.hpp) on a run written as text: a
// probe's nodes on a rank merged over every CFH and parent, named CFHs' roots left out,
// and the slow rank named.
#include "cfh_text.hpp"
#include "idb/analysis/probes.hpp"

#include <gtest/gtest.h>

namespace idb::test {
namespace {

using analysis::Metric;
using profile::Cfh;
using profile::Profile;

const analysis::ProbeRank *find(const std::vector<analysis::ProbeRank> &records, std::int32_t probe,
                                std::int32_t rank) {
  for (const analysis::ProbeRank &r : records)
    if (r.probe == probe && r.rank == rank) return &r;
  return nullptr;
}

Profile two_ranks() {
  Profile p;
  for (int rank : {0, 1}) {
    double slow = rank == 1 ? 3.0 : 1.0;
    Cfh c = build_cfh(p, 10,
                      "main 1 9\nmain;solve 2 " + std::to_string(2 * slow) +
                          " 0.5\nmain;io 1 1\nmain;io;solve 1 " + std::to_string(slow) + "\n");
    c.rank = rank;
    p.cfhs.push_back(c);
  }
  Cfh object = build_cfh(p, 50, "solve 1 1\n");
  object.named = true;
  object.name = "field";
  p.cfhs.push_back(object);
  return p;
}

TEST(Probes, OneRecordPerProbeAndRankOverEveryParent) {
  Profile p = two_ranks();
  std::vector<analysis::ProbeRank> records = analysis::probe_ranks(p);
  std::int32_t solve = probe_for(p, "solve");
  const analysis::ProbeRank *r0 = find(records, solve, 0);
  ASSERT_TRUE(r0);
  EXPECT_EQ(r0->stats.count, 4u); // 2 under main, 1 under io, 1 in the object's CFH
  EXPECT_DOUBLE_EQ(r0->stats.sum, 4.0);
  EXPECT_DOUBLE_EQ(r0->corrected, 4.0);
  const analysis::ProbeRank *main1 = find(records, probe_for(p, "main"), 1);
  ASSERT_TRUE(main1);
  EXPECT_DOUBLE_EQ(main1->corrected, 9.0 - 0.5);
  // The named CFH's root (its object's life, 50 s) is not the program's time.
  const analysis::ProbeRank *root0 = find(records, 0, 0);
  ASSERT_TRUE(root0);
  EXPECT_DOUBLE_EQ(root0->stats.sum, 10.0);
  EXPECT_EQ(analysis::ranks_of(records), (std::vector<std::int32_t>{0, 1}));
  for (std::size_t i = 1; i < records.size(); ++i)
    EXPECT_LT(std::pair(records[i - 1].probe, records[i - 1].rank),
              std::pair(records[i].probe, records[i].rank));
}

TEST(Probes, ImbalanceNamesTheSlowRank) {
  Profile p = two_ranks();
  std::vector<analysis::Imbalance> all =
      analysis::imbalance(analysis::probe_ranks(p), Metric::total);
  std::int32_t solve = probe_for(p, "solve");
  const analysis::Imbalance *b = nullptr;
  for (const analysis::Imbalance &i : all)
    if (i.probe == solve) b = &i;
  ASSERT_TRUE(b);
  EXPECT_EQ(b->ranks, 2u);
  EXPECT_EQ(b->rank_of_max, 1);
  EXPECT_DOUBLE_EQ(b->max, 9.0);  // 6 + 3
  EXPECT_DOUBLE_EQ(b->mean, 6.5); // (4 + 9) / 2
  ASSERT_TRUE(b->ratio);
  EXPECT_DOUBLE_EQ(*b->ratio, 9.0 / 6.5);
}

TEST(Probes, AZeroMeanHasNoRatioAndTiesGoToTheLowerRank) {
  analysis::Aggregator a;
  idb_stats_t empty;
  idb_stats_clear(&empty);
  a.add(2, 7, empty, 0);
  a.add(0, 7, empty, 0);
  std::vector<analysis::Imbalance> b = analysis::imbalance(a.take(), Metric::total);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].rank_of_max, 0);
  EXPECT_FALSE(b[0].ratio);
}

} // namespace
} // namespace idb::test

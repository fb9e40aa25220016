// combine_ranks: per-rank profiles into one run's profile; valid and invalid inputs side
// by side.
#include "idb/combine.hpp"

#include <gtest/gtest.h>

namespace {

using idb::profile::combine_ranks;
using idb::profile::Profile;

Profile rank_profile(int rank, const std::string &program = "app") {
  Profile p;
  p.meta = {{"program", program}, {"rank", std::to_string(rank)}, {"nprocs", "1"}};
  p.probes.push_back({1, 1, "shared", "a.c", 3, "f"});
  p.probes.push_back({100 + rank, 4, "rank " + std::to_string(rank), "", 0, ""});
  idb::profile::Cfh cfh;
  cfh.rank = rank;
  cfh.name = "thread 0";
  cfh.nodes.resize(1);
  cfh.nodes[0].parent = idb::profile::kNoParent;
  p.cfhs.push_back(cfh);
  return p;
}

TEST(CombineRanks, PutsCfhsInRankOrderAndUnitesTheProbes) {
  auto r = combine_ranks({rank_profile(2), rank_profile(0), rank_profile(1)});
  ASSERT_TRUE(r.profile) << r.error;
  const Profile &p = *r.profile;
  ASSERT_EQ(p.cfhs.size(), 3u);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(p.cfhs[std::size_t(i)].rank, i);
  EXPECT_EQ(p.get("rank"), "0");
  EXPECT_EQ(p.get("nprocs"), "3");
  ASSERT_EQ(p.probes.size(), 4u); // "shared" once, one per rank
  EXPECT_NE(p.probe(101), nullptr);
}

TEST(CombineRanks, KeepsALargerNprocsFromTheMetadata) {
  Profile only = rank_profile(0);
  only.meta["nprocs"] = "8"; // the other seven ranks left no file
  auto r = combine_ranks({only});
  ASSERT_TRUE(r.profile) << r.error;
  EXPECT_EQ(r.profile->get("nprocs"), "8");
}

TEST(CombineRanks, RefusesEmptyDuplicateAndMixedInput) {
  EXPECT_EQ(combine_ranks({}).error, "no profile to combine");
  EXPECT_EQ(combine_ranks({rank_profile(1), rank_profile(1)}).error, "two profiles of rank 1");
  auto mixed = combine_ranks({rank_profile(0), rank_profile(1, "other")});
  EXPECT_FALSE(mixed.profile);
  EXPECT_EQ(mixed.error, "profiles of different programs: app and other");
}

} // namespace

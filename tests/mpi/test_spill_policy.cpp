// IDB_MPI_SPILL's reading and its `auto` rule (spill_policy.h), without MPI: jobs of up to
// kAutoSpillRanks ranks spill, larger ones do not, the per-rank mode always does; `0` and
// `1` force; anything else is invalid and stands for `auto`.
#include "spill_policy.h"

#include <gtest/gtest.h>

namespace {

using idb::mpi::kAutoSpillRanks;
using idb::mpi::parse_spill;
using idb::mpi::spill_enabled;
using idb::mpi::SpillSetting;

TEST(SpillPolicy, ReadsAutoZeroAndOne) {
  EXPECT_EQ(parse_spill(nullptr).setting, SpillSetting::Auto);
  EXPECT_EQ(parse_spill("").setting, SpillSetting::Auto);
  EXPECT_EQ(parse_spill("auto").setting, SpillSetting::Auto);
  EXPECT_EQ(parse_spill("0").setting, SpillSetting::Off);
  EXPECT_EQ(parse_spill("1").setting, SpillSetting::On);
  for (const char *valid : {"", "auto", "0", "1"})
    EXPECT_TRUE(parse_spill(valid).valid) << valid;
}

TEST(SpillPolicy, AnythingElseIsInvalidAndReadAsAuto) {
  for (const char *invalid : {"yes", "2", "AUTO", " 1", "true"}) {
    EXPECT_FALSE(parse_spill(invalid).valid) << invalid;
    EXPECT_EQ(parse_spill(invalid).setting, SpillSetting::Auto) << invalid;
  }
}

TEST(SpillPolicy, AutoSpillsUpToTheThresholdOnly) {
  EXPECT_TRUE(spill_enabled(SpillSetting::Auto, false, 1));
  EXPECT_TRUE(spill_enabled(SpillSetting::Auto, false, kAutoSpillRanks));
  EXPECT_FALSE(spill_enabled(SpillSetting::Auto, false, kAutoSpillRanks + 1));
  EXPECT_FALSE(spill_enabled(SpillSetting::Auto, false, 100000));
}

TEST(SpillPolicy, AutoAlwaysWritesInThePerRankMode) {
  EXPECT_TRUE(spill_enabled(SpillSetting::Auto, true, 100000));
  EXPECT_FALSE(spill_enabled(SpillSetting::Off, true, 4));
}

TEST(SpillPolicy, ZeroAndOneForce) {
  EXPECT_FALSE(spill_enabled(SpillSetting::Off, false, 4));
  EXPECT_TRUE(spill_enabled(SpillSetting::On, false, 100000));
}

} // namespace

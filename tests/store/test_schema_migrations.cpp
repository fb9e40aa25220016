// Schema evolution: a database that an earlier schema version made (a fixture per version
// and engine, tests/store/fixtures) opens, is brought up to the current version in one
// step, keeps every run it held, reads them back with the new fields at their neutral
// value, and takes new runs. Compiled into both engines' test programs.
#include "idb/profile.hpp"
#include "idb/store.hpp"
#include "support.hpp"
#include "test_database.hpp"

#include <gtest/gtest.h>

namespace idb::test {
namespace {

std::string scalar(store::Database &db, const std::string &sql) {
  store::QueryResult r = store::query(db, sql);
  if (r.rows.size() != 1 || r.columns.size() != 1) return "<not one value>";
  return r.rows[0][0].value_or("NULL");
}

TEST(SchemaMigrations, ADatabaseOfEveryEarlierVersionIsBroughtUpToDate) {
  ASSERT_GE(store::schema_version(), 2);
  for (int version = 1; version < store::schema_version(); ++version) {
    SCOPED_TRACE("a database made by schema version " + std::to_string(version));
    std::unique_ptr<TestDatabase> old = database_of_version(version);
    {
      auto db = store::open(old->url());
      EXPECT_EQ(store::schema_version(), db->version());
      EXPECT_EQ(std::to_string(store::schema_version()),
                scalar(*db, "SELECT version FROM idb_schema"));
      // The run the old version stored is all there (every fixture holds jacobi-v1: the
      // jacobi example's two thread CFHs), with the fields added since at their default.
      std::vector<store::RunInfo> runs = store::runs(*db);
      ASSERT_EQ(1u, runs.size());
      EXPECT_EQ("jacobi-v1", runs[0].label);
      profile::Profile run = store::read_run(*db, "jacobi-v1");
      ASSERT_EQ(2u, run.cfhs.size());
      std::size_t nodes = 0;
      for (const profile::Cfh &cfh : run.cfhs) {
        nodes += cfh.nodes.size();
        for (const profile::Node &n : cfh.nodes) {
          EXPECT_EQ(0u, n.stats.throttled);
          EXPECT_EQ(0u, n.stats.sampled);
          EXPECT_GT(n.stats.count, 0u);
          EXPECT_TRUE(n.hist.empty()); // no histogram: empty, not a histogram of zeros
        }
      }
      EXPECT_EQ(10u, nodes);
      EXPECT_EQ("0", scalar(*db, "SELECT count(*) FROM throttled_probes"));
      // Its quantiles are empty, not zero; its counts and maxima are there.
      EXPECT_EQ("0", scalar(*db, "SELECT count(*) FROM probe_quantiles WHERE p50 IS NOT NULL "
                                 "OR p99 IS NOT NULL OR count = 0 OR max IS NULL"));
      EXPECT_NE("0", scalar(*db, "SELECT count(*) FROM probe_quantiles"));
      // The old run's tree still reads as it was stored.
      EXPECT_EQ("jacobi", scalar(*db, "SELECT program FROM runs WHERE label = 'jacobi-v1'"));
      // A new run loads beside it and reads back bit for bit.
      profile::Profile fresh = profile::parse_profile(generated_profile()).profile.value();
      store::LoadOptions options;
      options.label = "fresh";
      store::load(*db, fresh, options);
      profile::Profile back = store::read_run(*db, "fresh");
      ASSERT_EQ(fresh.cfhs.size(), back.cfhs.size());
      for (std::size_t c = 0; c < fresh.cfhs.size(); ++c)
        for (std::size_t i = 0; i < fresh.cfhs[c].nodes.size(); ++i) {
          EXPECT_TRUE(same_stats(fresh.cfhs[c].nodes[i].stats, back.cfhs[c].nodes[i].stats));
          EXPECT_EQ(fresh.cfhs[c].nodes[i].hist, back.cfhs[c].nodes[i].hist);
        }
    }
    // Opening it again finds nothing to do.
    auto again = store::open(old->url());
    EXPECT_EQ(store::schema_version(), again->version());
    EXPECT_EQ(2u, store::runs(*again).size());
  }
}

} // namespace
} // namespace idb::test

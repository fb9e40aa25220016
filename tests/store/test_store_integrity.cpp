// The keys between the tables hold on both engines (the same source in both test
// programs, test_database.hpp): SQLite enforces them with foreign keys checked at commit;
// PostgreSQL with per-statement triggers on the two bulk tables (schema/sql/postgresql).
// Deleting a run deletes every row it owns and nothing of another run; a node or a
// statistics row naming a CFH that does not exist is refused; so is renumbering a CFH
// that rows still name.
#include "store_support.hpp"
#include "test_database.hpp"

#include <gtest/gtest.h>

namespace idb::test {
namespace {

class StoreIntegrity : public ::testing::Test {
protected:
  void SetUp() override {
    db = store::open(database->url());
    for (const char *label : {"first", "second"}) {
      store::LoadOptions options;
      options.label = label;
      store::load(*db, generated(), options);
    }
  }

  // Rows of each table that belong to run `label`, as "table=count ...".
  std::string owned(const std::string &label) {
    std::string text;
    const char *run = "(SELECT run_id FROM runs WHERE label = :l)";
    const char *cfhs = "(SELECT cfh_id FROM cfh_instances WHERE run_id IN "
                       "(SELECT run_id FROM runs WHERE label = :l))";
    for (const char *table : {"run_attributes", "run_meta", "probe_sites", "cfh_instances"})
      text += std::string(table) + "=" +
              scalar(*db, std::string("SELECT count(*) FROM ") + table + " WHERE run_id IN " + run,
                     {{"l", label}}) +
              " ";
    for (const char *table : {"nodes", "node_stats"})
      text += std::string(table) + "=" +
              scalar(*db, std::string("SELECT count(*) FROM ") + table + " WHERE cfh_id IN " + cfhs,
                     {{"l", label}}) +
              " ";
    return text;
  }

  std::string count(const char *table) {
    return scalar(*db, std::string("SELECT count(*) FROM ") + table);
  }

  std::unique_ptr<TestDatabase> database = fresh_database();
  std::unique_ptr<store::Database> db;
};

TEST_F(StoreIntegrity, DeletingARunDeletesEverythingItOwnsAndNothingElse) {
  std::string second = owned("second");
  EXPECT_EQ(second, owned("first")) << "the same profile twice";
  store::query(*db, "DELETE FROM runs WHERE label = :l", {{"l", "first"}});
  EXPECT_EQ("run_attributes=0 run_meta=0 probe_sites=0 cfh_instances=0 nodes=0 node_stats=0 ",
            owned("first"));
  EXPECT_EQ(second, owned("second"));
  EXPECT_EQ("1", count("runs"));
  std::string nodes = count("nodes");
  store::query(*db, "DELETE FROM cfh_instances WHERE cfh_id = (SELECT min(cfh_id) FROM "
                    "cfh_instances)");
  EXPECT_GT(std::stoll(nodes), std::stoll(count("nodes"))) << "a CFH's nodes go with it";
  EXPECT_EQ(count("nodes"), count("node_stats"));
}

TEST_F(StoreIntegrity, RowsNamingAMissingCfhAreRefused) {
  std::string nodes = count("nodes"), stats = count("node_stats");
  EXPECT_THROW(store::query(*db, "INSERT INTO nodes (cfh_id, node, parent, probe_id, depth) "
                                 "VALUES (999999, 0, NULL, 1, 0)"),
               store::Error);
  EXPECT_THROW(store::query(*db, "INSERT INTO node_stats (cfh_id, node, count, total, min, max, "
                                 "mean, m2, cpu_count, cpu_total, cpu_min, cpu_max, noise, "
                                 "exclusive, descendant_noise) "
                                 "VALUES (999999, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0)"),
               store::Error);
  EXPECT_EQ(nodes, count("nodes"));
  EXPECT_EQ(stats, count("node_stats"));
}

TEST_F(StoreIntegrity, RenumberingACfhThatRowsNameIsRefused) {
  std::string first = scalar(*db, "SELECT min(cfh_id) FROM cfh_instances");
  EXPECT_THROW(store::query(*db, "UPDATE cfh_instances SET cfh_id = 999999 WHERE cfh_id = "
                                 "(SELECT min(cfh_id) FROM cfh_instances)"),
               store::Error);
  EXPECT_EQ(first, scalar(*db, "SELECT min(cfh_id) FROM cfh_instances"));
}

// The field table's columns (idb/stats_fields.h) are node_stats's: every field has its
// column on this engine, and read_stats reads the record back bit for bit.
TEST_F(StoreIntegrity, EveryFieldOfTheRecordHasItsColumn) {
  const profile::Cfh &h = generated().cfhs.front();
  std::vector<idb_stats_t> read;
  std::vector<std::string> columns = store::query_rows(
      *db,
      "SELECT " + store::stats_columns("s") +
          " FROM runs r JOIN cfh_instances c ON c.run_id = r.run_id JOIN node_stats s ON "
          "s.cfh_id = c.cfh_id WHERE r.label = 'first' AND c.cfh_id = (SELECT min(cfh_id) FROM "
          "cfh_instances) ORDER BY s.node",
      {}, [&](const store::Row &row) { read.push_back(store::read_stats(row, 0)); });
  ASSERT_EQ(columns.size(), std::size_t(IDB_STATS_FIELD_COUNT));
  for (std::size_t i = 0; i < columns.size(); ++i)
    EXPECT_EQ(columns[i], store::stats_column_names()[i]);
  ASSERT_EQ(read.size(), h.nodes.size());
  for (std::size_t i = 0; i < read.size(); ++i)
    EXPECT_TRUE(same_stats(read[i], h.nodes[i].stats)) << "node " << i;
}

} // namespace
} // namespace idb::test

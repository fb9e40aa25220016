// Commands that only read never change a database: SQL that would is refused unless
// `idb query --write`, and a database an earlier schema version made is refused (both
// versions named) rather than migrated, until `idb migrate` or a load brings it up to date.
// Compiled into both engines' test programs.
#include "store_support.hpp"
#include "test_database.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace idb::test {
namespace {

TEST(ReadOnly, QueryChangesNothingUnlessToldToWrite) {
  std::unique_ptr<TestDatabase> db = fresh_database();
  {
    auto opened = store::open(db->url());
    store::LoadOptions options;
    options.label = "kept";
    store::load(*opened, generated(), options);
  }
  for (const char *sql : {"DROP TABLE run_attributes", "DELETE FROM run_attributes",
                          "UPDATE runs SET label = 'renamed'"}) {
    SCOPED_TRACE(sql);
    RunResult r = idb({"query", "--db", db->url(), sql});
    EXPECT_EQ(1, r.status);
    EXPECT_NE(std::string::npos, r.err.find("read-only")) << r.err;
    EXPECT_NE(std::string::npos, r.err.find("(--write allows it)")) << r.err;
  }
  auto opened = store::open(db->url(), {.read_only = true});
  EXPECT_EQ("kept", scalar(*opened, "SELECT label FROM runs"));
  std::string attributes = scalar(*opened, "SELECT count(*) FROM run_attributes");
  EXPECT_NE("0", attributes);
  // The library refuses as the command does, whatever the statement.
  EXPECT_THROW(store::query(*opened, "DELETE FROM run_attributes"), store::ReadOnlyError);
  EXPECT_THROW(store::load(*opened, generated()), store::ReadOnlyError);
  RunResult r = idb({"query", "--db", db->url(), "--write", "DELETE FROM run_attributes"});
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_EQ("0", scalar(*opened, "SELECT count(*) FROM run_attributes"));
}

TEST(ReadOnly, AnOlderDatabaseIsReadAsItIsOnlyAfterMigrate) {
  std::unique_ptr<TestDatabase> old = database_of_version(1);
  std::string expected =
      "has schema version 1, older than this idb's " + std::to_string(store::schema_version());
  for (std::vector<std::string> command : {std::vector<std::string>{"runs"},
                                           {"report", "jacobi-v1"},
                                           {"score", "jacobi-v1"},
                                           {"query", "SELECT count(*) FROM runs"},
                                           {"export", "SELECT 1"}}) {
    SCOPED_TRACE(command[0]);
    command.insert(command.end(), {"--db", old->url()});
    RunResult r = idb(command);
    EXPECT_EQ(1, r.status);
    EXPECT_NE(std::string::npos, r.err.find(expected)) << r.err;
    EXPECT_NE(std::string::npos, r.err.find("'idb migrate --db DB' brings it up to date")) << r.err;
  }
  // Still version 1: a read-only open refuses it as before.
  EXPECT_THROW(store::open(old->url(), {.read_only = true}), store::Error);
  RunResult r = idb({"migrate", "--db", old->url()});
  ASSERT_EQ(0, r.status) << r.err;
  EXPECT_NE(std::string::npos,
            r.out.find(": schema version 1 -> " + std::to_string(store::schema_version())))
      << r.out;
  r = idb({"runs", "--db", old->url(), "--format", "csv"});
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_NE(std::string::npos, r.out.find("\njacobi-v1,")) << r.out;
  r = idb({"migrate", "--db", old->url()});
  EXPECT_EQ(0, r.status) << r.err;
  EXPECT_NE(std::string::npos, r.out.find(": nothing to do")) << r.out;
}

TEST(ReadOnly, ANewerDatabaseIsRefusedWithBothVersions) {
  std::unique_ptr<TestDatabase> db = fresh_database();
  {
    auto opened = store::open(db->url());
    store::query(*opened, "UPDATE idb_schema SET version = 99");
  }
  std::string expected = "has schema version 99, newer than this idb knows (" +
                         std::to_string(store::schema_version()) + ")";
  for (const char *command : {"runs", "migrate"}) {
    RunResult r = idb({command, "--db", db->url()});
    EXPECT_EQ(1, r.status) << command;
    EXPECT_NE(std::string::npos, r.err.find(expected)) << r.err;
  }
}

TEST(ReadOnly, MigrateAndWaitRefuseBadInput) {
  test::TempDir dir;
  std::string missing = dir.file("none.db");
  RunResult r = idb({"migrate", "--db", missing});
  EXPECT_EQ(1, r.status);
  EXPECT_EQ("idb migrate: no database at " + missing + " (idb load creates one)\n", r.err);
  EXPECT_FALSE(std::filesystem::exists(missing)) << "migrate creates nothing";
  r = idb({"migrate", "--bogus"});
  EXPECT_EQ(2, r.status);
  EXPECT_NE(std::string::npos, r.err.find("unexpected argument --bogus")) << r.err;
  for (const char *command : {"runs", "migrate", "query", "load", "report"}) {
    for (const char *bad : {"abc", "-1", "inf"}) {
      std::vector<std::string> line = {command, "--wait", bad};
      if (std::string(command) == "query") line.push_back("SELECT 1");
      if (std::string(command) == "report") line.push_back("run");
      if (std::string(command) == "load") line.push_back("x.idbprof");
      r = idb(line);
      EXPECT_EQ(2, r.status) << command << " --wait " << bad;
      EXPECT_NE(std::string::npos, r.err.find("--wait takes seconds, 0 or more")) << r.err;
    }
  }
}

} // namespace
} // namespace idb::test

// A load is all of a run or nothing: a taken label, a CFH that breaks a constraint halfway,
// a bad parent link, an unknown probe kind and a progress callback that throws mid-load
// all leave the database file byte-for-byte as it was, with no journal left beside it.
// Also: query() binds parameters and refuses what it cannot run safely.
#include "store_support.hpp"
#include "synthetic.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace idb::test {
namespace {

class StoreFailure : public ::testing::Test {
protected:
  // A database holding one run ("first"), closed, and its bytes.
  void SetUp() override {
    {
      auto db = store::open(path);
      store::LoadOptions options;
      options.label = "first";
      store::load(*db, generated(), options);
    }
    before = file_state(path);
    ASSERT_FALSE(before.bytes.empty());
    // Closed: everything is in the file itself. WAL mode's side files stay, the log empty
    // (so that readers who cannot create files in the folder can open it).
    ASSERT_FALSE(before.journal);
    ASSERT_TRUE(before.wal && before.shm);
    ASSERT_EQ(0u, std::filesystem::file_size(path + "-wal"));
  }

  // Loads `p` as `label` expecting an Error; checks the file while the connection is still
  // open and again after it is closed. Returns the error text.
  std::string failed_load(const profile::Profile &p, const store::LoadOptions &options,
                          int cache_pages = 0) {
    std::string error = "no error";
    {
      auto db = store::open(path);
      if (cache_pages) store::query(*db, "PRAGMA cache_size = " + std::to_string(cache_pages));
      try {
        store::load(*db, p, options);
      } catch (const store::Error &e) {
        error = e.what();
      }
      EXPECT_EQ(before.bytes, read_file(path)) << "while open, after " << error;
      EXPECT_EQ("1", scalar(*db, "SELECT count(*) FROM runs"));
    }
    EXPECT_TRUE(before == file_state(path)) << "after close, after " << error;
    return error;
  }

  TempDir dir;
  std::string path = dir.file("idb.db");
  FileState before;
};

TEST_F(StoreFailure, TakenLabelIsRefusedByName) {
  store::LoadOptions options;
  options.label = "first";
  std::string error = failed_load(generated(), options);
  EXPECT_NE(std::string::npos, error.find("a run labelled 'first' is already in")) << error;
}

TEST_F(StoreFailure, SecondCfhBreakingAConstraintRollsBackTheFirst) {
  profile::Profile p = synthetic_profile(3, 500);
  p.cfhs[1].rank = -2; // CHECK (rank >= -1)
  store::LoadOptions options;
  options.label = "broken";
  std::string error = failed_load(p, options);
  EXPECT_NE(std::string::npos, error.find("CHECK constraint failed")) << error;
}

TEST_F(StoreFailure, ParentThatDoesNotPrecedeItsChildIsRefused) {
  profile::Profile p = synthetic_profile(2, 50);
  p.cfhs[1].nodes[10].parent = 20;
  store::LoadOptions options;
  options.label = "bad parent";
  std::string error = failed_load(p, options);
  EXPECT_EQ("CFH 1 node 10: parent 20 does not precede it", error);
}

TEST_F(StoreFailure, UnknownProbeKindIsRefused) {
  profile::Profile p = synthetic_profile(1, 10);
  p.probes.back().kind = 9;
  store::LoadOptions options;
  options.label = "bad kind";
  std::string error = failed_load(p, options);
  EXPECT_EQ("probe 63 has an unknown kind 9", error);
}

// With a small page cache SQLite writes pages of the open transaction out before the
// failure (the cache spills into the write-ahead log, checked below): the rollback must
// still leave every byte of the database as it was. And once more with the loader's own
// large cache.
TEST_F(StoreFailure, ProgressCallbackThrowingMidLoadLeavesTheFileAsItWas) {
  profile::Profile p = synthetic_profile(20, 2000);
  for (int cache_pages : {16, 0}) {
    store::LoadOptions options;
    options.label = "abandoned";
    std::uintmax_t size_at_throw = 0;
    options.progress = [&](std::size_t done, std::size_t total) {
      if (done <= total / 2) return;
      std::error_code no_log;
      std::uintmax_t log = std::filesystem::file_size(path + "-wal", no_log);
      size_at_throw = std::filesystem::file_size(path) + (no_log ? 0 : log);
      throw store::Error("stopped by the test");
    };
    EXPECT_EQ("stopped by the test", failed_load(p, options, cache_pages));
    if (cache_pages) {
      EXPECT_GT(size_at_throw, before.bytes.size()) << "the cache never spilled";
    }
  }
}

TEST(StoreQuery, BindsNamedParametersAndRefusesWhatItCannotRun) {
  TempDir dir;
  auto db = store::open(dir.file("idb.db"));
  store::QueryResult r = store::query(*db, "SELECT :a || @b AS ab, $c + 1 AS c1, NULL AS n, 0.1",
                                      {{"a", "x'"}, {"b", ";y"}, {"c", "41"}});
  EXPECT_EQ((std::vector<std::string>{"ab", "c1", "n", "0.1"}), r.columns);
  ASSERT_EQ(1u, r.rows.size());
  EXPECT_EQ((std::vector<store::Cell>{"x';y", "42", std::nullopt, "0.1"}), r.rows[0]);
  EXPECT_EQ((std::vector<bool>{false, true, true, true}), r.numeric);
  auto error = [&](const std::string &sql, const store::KeyValues &params) {
    try {
      store::query(*db, sql, params);
    } catch (const store::Error &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ("no value for parameter :a", error("SELECT :a", {}));
  EXPECT_EQ("the statement has no parameter named z", error("SELECT :a", {{"a", "1"}, {"z", "2"}}));
  EXPECT_EQ("give one SQL statement at a time", error("SELECT 1; DROP TABLE runs", {}));
  EXPECT_EQ("parameter 1 has no name: use :name", error("SELECT ?", {}));
  EXPECT_NE(std::string::npos, error("SELEC 1", {}).find("SQL error: ")) << error("SELEC 1", {});
  EXPECT_EQ("1", scalar(*db, "SELECT count(*) FROM sqlite_master WHERE name = 'runs';  "));
}

} // namespace
} // namespace idb::test

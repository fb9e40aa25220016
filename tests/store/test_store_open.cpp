// store::open: the URL forms it accepts and the ones it refuses with one clear line, the
// migration that turns an empty file into schema version 1, and the databases it refuses
// (a newer schema, someone else's SQLite file, a file that is not a database).
#include "store_support.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>

namespace idb::test {
namespace {

// Runs `sql` on `path` with the plain SQLite API, outside the store.
void raw_exec(const std::string &path, const std::string &sql) {
  sqlite3 *db = nullptr;
  ASSERT_EQ(SQLITE_OK, sqlite3_open(path.c_str(), &db));
  char *error = nullptr;
  EXPECT_EQ(SQLITE_OK, sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error)) << error;
  sqlite3_free(error);
  sqlite3_close(db);
}

// The message of the Error that open(url) throws, or "no error".
std::string open_error(const std::string &url, store::OpenOptions options = {}) {
  try {
    store::open(url, options);
  } catch (const store::Error &e) {
    return e.what();
  }
  return "no error";
}

TEST(StoreOpen, EmptyFileIsMigratedToTheCurrentVersion) {
  TempDir dir;
  write_file(dir.file("empty.db"), "");
  auto db = store::open(dir.file("empty.db"));
  EXPECT_EQ(7, store::schema_version());
  EXPECT_EQ(7, db->version());
  EXPECT_EQ("1", scalar(*db, "SELECT count(*) FROM idb_schema"));
  for (const char *table : {"runs", "run_attributes", "run_meta", "probe_sites", "cfh_instances",
                            "nodes", "node_stats"})
    EXPECT_EQ("1",
              scalar(*db, "SELECT count(*) FROM sqlite_master WHERE name = :t", {{"t", table}}))
        << table;
  EXPECT_EQ("1", scalar(*db, "PRAGMA foreign_keys"));
}

TEST(StoreOpen, PathAndBothSqliteUrlFormsOpenTheSameFile) {
  TempDir dir;
  std::string path = dir.file("same.db");
  store::open(path);
  raw_exec(path, "INSERT INTO runs (label, program, command_line, nprocs, threads, loaded_at) "
                 "VALUES ('marker', 'p', '', 1, 1, 'now')");
  for (const std::string &url : {path, "sqlite:" + path, "sqlite://" + path}) {
    auto db = store::open(url);
    EXPECT_EQ("marker", scalar(*db, "SELECT label FROM runs")) << url;
    EXPECT_EQ(path, db->location());
  }
}

TEST(StoreOpen, UnknownSchemeIsRefusedInOneLine) {
  std::string error = open_error("mysql://host/db");
  EXPECT_EQ("unknown database URL scheme 'mysql': use a path, sqlite:PATH or sqlite://PATH", error);
}

TEST(StoreOpen, PostgresqlConnectFailureDoesNotEchoThePassword) {
  std::string error = open_error("postgresql://user:secret@localhost:5432/idb");
  EXPECT_EQ(0u, error.find("cannot connect to PostgreSQL at localhost:5432: ")) << error;
  EXPECT_EQ(std::string::npos, error.find("secret")) << error;
  EXPECT_EQ(std::string::npos, error.find('\n'));
}

// Whatever the password holds, unescaped '@', '/' or '?' included, no part of it is printed.
TEST(StoreOpen, PostgresqlPasswordsWithUrlDelimitersAreNeverPrinted) {
  for (std::string password : {"se/cret7", "se?cret7", "se@cret7", "p@ss/wo?rd7"}) {
    std::string error = open_error("postgresql://user:" + password + "@localhost:5432/idb");
    EXPECT_NE(std::string::npos, error.find("PostgreSQL")) << error;
    for (const char *piece : {"cret7", "ss/wo", "rd7", "wo?rd"})
      EXPECT_EQ(std::string::npos, error.find(piece)) << password << ": " << error;
  }
}

TEST(StoreOpen, NewerSchemaVersionIsRefused) {
  TempDir dir;
  std::string path = dir.file("newer.db");
  store::open(path);
  raw_exec(path, "UPDATE idb_schema SET version = 99");
  std::string error = open_error(path);
  EXPECT_NE(std::string::npos, error.find("schema version 99, newer than this idb knows (7)"))
      << error;
}

TEST(StoreOpen, SomeoneElsesSqliteFileIsRefusedAndLeftAlone) {
  TempDir dir;
  std::string path = dir.file("other.db");
  raw_exec(path, "CREATE TABLE t (x)");
  FileState before = file_state(path);
  std::string error = open_error(path);
  EXPECT_NE(std::string::npos, error.find("not an IDB one")) << error;
  EXPECT_TRUE(before == file_state(path));
}

TEST(StoreOpen, FileThatIsNotADatabaseIsRefused) {
  TempDir dir;
  std::string path = dir.file("text.db");
  write_file(path, std::string(4096, 'x'));
  std::string error = open_error(path);
  EXPECT_NE(std::string::npos, error.find("not a database")) << error;
  EXPECT_EQ(std::string(4096, 'x'), read_file(path));
}

TEST(StoreOpen, MissingFileWithoutCreateIsRefusedAndNotCreated) {
  TempDir dir;
  std::string error = open_error(dir.file("missing.db"), {.create = false});
  EXPECT_EQ("no database at " + dir.file("missing.db") + " (idb load creates one)", error);
  EXPECT_FALSE(std::filesystem::exists(dir.file("missing.db")));
}

} // namespace
} // namespace idb::test

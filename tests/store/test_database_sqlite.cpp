// fresh_database() for the SQLite test program: idb.db in a temporary folder.
#include "support.hpp"
#include "test_database.hpp"

#include <sqlite3.h>

#include <stdexcept>

namespace idb::test {

namespace {

class SqliteTestDatabase final : public TestDatabase {
public:
  const std::string &url() const override { return url_; }

private:
  TempDir dir_;
  std::string url_ = dir_.file("idb.db");
};

} // namespace

std::unique_ptr<TestDatabase> fresh_database() {
  return std::make_unique<SqliteTestDatabase>();
}

std::shared_ptr<void> hold_write_lock(const TestDatabase &db) {
  sqlite3 *c = nullptr;
  if (sqlite3_open(db.url().c_str(), &c) != SQLITE_OK ||
      sqlite3_exec(c, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
    std::string why = sqlite3_errmsg(c);
    sqlite3_close(c);
    throw std::runtime_error("cannot lock " + db.url() + ": " + why);
  }
  return std::shared_ptr<void>(c, [](void *p) {
    auto *h = static_cast<sqlite3 *>(p);
    sqlite3_exec(h, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(h);
  });
}

std::shared_ptr<void> hold_read(const TestDatabase &db) {
  sqlite3 *c = nullptr;
  sqlite3_stmt *read = nullptr;
  if (sqlite3_open(db.url().c_str(), &c) != SQLITE_OK ||
      sqlite3_exec(c, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK ||
      sqlite3_prepare_v2(c, "SELECT count(*) FROM runs", -1, &read, nullptr) != SQLITE_OK ||
      sqlite3_step(read) != SQLITE_ROW) {
    std::string why = sqlite3_errmsg(c);
    sqlite3_finalize(read);
    sqlite3_close(c);
    throw std::runtime_error("cannot read " + db.url() + ": " + why);
  }
  sqlite3_finalize(read);
  return std::shared_ptr<void>(c, [](void *p) {
    auto *h = static_cast<sqlite3 *>(p);
    sqlite3_exec(h, "COMMIT", nullptr, nullptr, nullptr);
    sqlite3_close(h);
  });
}

std::unique_ptr<TestDatabase> database_of_version(int version) {
  std::string fixture =
      std::string(IDB_TEST_FIXTURES) + "/schema-v" + std::to_string(version) + ".sqlite.sql";
  std::string sql = read_file(fixture);
  auto db = std::make_unique<SqliteTestDatabase>();
  sqlite3 *c = nullptr;
  int rc = sqlite3_open(db->url().c_str(), &c);
  char *error = nullptr;
  if (rc == SQLITE_OK) rc = sqlite3_exec(c, sql.c_str(), nullptr, nullptr, &error);
  std::string why = error ? error : sqlite3_errmsg(c);
  sqlite3_free(error);
  sqlite3_close(c);
  if (rc != SQLITE_OK) throw std::runtime_error(fixture + ": " + why);
  return db;
}

} // namespace idb::test

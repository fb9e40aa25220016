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

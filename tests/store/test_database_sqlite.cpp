// fresh_database() for the SQLite test program: idb.db in a temporary folder.
#include "support.hpp"
#include "test_database.hpp"

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

} // namespace idb::test

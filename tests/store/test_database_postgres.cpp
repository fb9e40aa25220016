// fresh_database() for the PostgreSQL test program: a schema of its own (search_path in
// the URL) on the throwaway cluster of tests/pg/pg_cluster.sh, dropped again by the
// destructor, so that tests may run in parallel. IDB_TEST_PG_DIR names the cluster's
// folder, which holds `url` and `password`; the password goes to PGPASSWORD, where libpq
// (and every child process, `idb` among them) finds it.
#include "support.hpp"
#include "test_database.hpp"

#include <pqxx/pqxx>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>

namespace idb::test {

namespace {

std::string cluster_file(const char *name) {
  const char *dir = std::getenv("IDB_TEST_PG_DIR");
  if (!dir) throw std::runtime_error("IDB_TEST_PG_DIR is not set: run through ctest");
  std::string text = read_file(std::string(dir) + "/" + name);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
    text.pop_back();
  if (text.empty()) throw std::runtime_error(std::string("no ") + name + " in " + dir);
  return text;
}

class PostgresTestDatabase final : public TestDatabase {
public:
  PostgresTestDatabase() : base_(cluster_file("url")) {
    ::setenv("PGPASSWORD", cluster_file("password").c_str(), 1);
    static std::atomic<int> serial{0};
    schema_ = "t" + std::to_string(::getpid()) + "_" + std::to_string(serial++);
    pqxx::connection c(base_);
    pqxx::nontransaction(c).exec("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE; CREATE SCHEMA " +
                                 schema_);
    url_ = base_ + "?options=-csearch_path%3D" + schema_;
  }
  ~PostgresTestDatabase() override {
    try {
      pqxx::connection c(base_);
      pqxx::nontransaction(c).exec("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
    } catch (const std::exception &) {
      // The cluster is removed after the tests anyway.
    }
  }
  const std::string &url() const override { return url_; }

private:
  std::string base_, schema_, url_;
};

} // namespace

std::unique_ptr<TestDatabase> fresh_database() {
  return std::make_unique<PostgresTestDatabase>();
}

std::shared_ptr<void> hold_write_lock(const TestDatabase &db) {
  struct Hold {
    explicit Hold(const std::string &url) : c(url), w(c) {
      w.exec("LOCK TABLE runs IN EXCLUSIVE MODE");
    }
    pqxx::connection c;
    pqxx::work w; // rolled back when destroyed
  };
  return std::make_shared<Hold>(db.url());
}

std::shared_ptr<void> hold_read(const TestDatabase &db) {
  struct Hold {
    explicit Hold(const std::string &url) : c(url), r(c) { r.exec("SELECT count(*) FROM runs"); }
    pqxx::connection c;
    pqxx::transaction<pqxx::isolation_level::repeatable_read> r;
  };
  return std::make_shared<Hold>(db.url());
}

std::unique_ptr<TestDatabase> database_of_version(int version) {
  std::string fixture =
      std::string(IDB_TEST_FIXTURES) + "/schema-v" + std::to_string(version) + ".postgresql.sql";
  std::string sql = read_file(fixture);
  auto db = std::make_unique<PostgresTestDatabase>();
  try {
    pqxx::connection c(db->url());
    pqxx::nontransaction(c).exec(sql);
  } catch (const std::exception &e) {
    throw std::runtime_error(fixture + ": " + e.what());
  }
  return db;
}

} // namespace idb::test

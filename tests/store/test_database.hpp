// A fresh, empty database for one test, on the engine the test program is built for: a
// SQLite file in a temporary folder (test_database_sqlite.cpp), or a PostgreSQL schema of
// its own on the throwaway test server (test_database_postgres.cpp; IDB_TEST_PG_DIR names
// the cluster's folder). The same test source then checks both engines.
#pragma once

#include "idb/store.hpp"

#include <memory>
#include <string>

namespace idb::test {

class TestDatabase {
public:
  virtual ~TestDatabase() = default;
  // What store::open takes: a file path or a postgresql:// URL.
  virtual const std::string &url() const = 0;
};

// Throws std::runtime_error when the engine is not reachable.
std::unique_ptr<TestDatabase> fresh_database();

// A database as schema version `version` made it: a fresh one holding the engine's fixture
// tests/store/fixtures/schema-v<version>.<engine>.sql (each file says what it holds).
// Throws std::runtime_error when there is no such fixture or it does not apply.
std::unique_ptr<TestDatabase> database_of_version(int version);

} // namespace idb::test

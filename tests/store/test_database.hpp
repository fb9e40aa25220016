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

// Another user's write lock on `db` (which must hold IDB's tables), held until the
// returned object is destroyed: SQLite's write lock (BEGIN IMMEDIATE on a connection of
// its own), PostgreSQL's EXCLUSIVE lock on the runs table. Readers go on meanwhile; a
// load waits.
std::shared_ptr<void> hold_write_lock(const TestDatabase &db);

// Another user's long read of `db`: a transaction that has read the runs table, held open
// until the returned object is destroyed.
std::shared_ptr<void> hold_read(const TestDatabase &db);

// A database as schema version `version` made it: a fresh one holding the engine's fixture
// tests/store/fixtures/schema-v<version>.<engine>.sql (each file says what it holds).
// Throws std::runtime_error when there is no such fixture or it does not apply.
std::unique_ptr<TestDatabase> database_of_version(int version);

} // namespace idb::test

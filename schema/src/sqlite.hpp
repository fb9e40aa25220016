// The thin RAII layer over the SQLite C API that the rest of the store uses: a connection,
// prepared statements, transactions, and check(), the one place where SQLite return codes
// become idb::store::Error. Internal to the store library.
#pragma once

#include "idb/store.hpp"

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace idb::store::detail {

// Throws Error("<what>: <SQLite's message>") unless rc is SQLITE_OK, _ROW or _DONE: for a
// lock held past the wait, a sentence saying so; ReadOnlyError for a write refused on a
// read-only connection.
void check(sqlite3 *db, int rc, std::string_view what);

// One open SQLite connection with foreign keys on, read-only or not as `options` say, that
// waits `options.wait_seconds` for other connections' locks. Closed by the destructor.
class Connection {
public:
  Connection(const std::string &path, const OpenOptions &options);
  ~Connection();
  Connection(const Connection &) = delete;
  Connection &operator=(const Connection &) = delete;

  sqlite3 *handle() const { return db_; }
  const std::string &path() const { return path_; }
  // The rowid of the last row inserted on this connection.
  std::int64_t last_insert_id() const;
  // Runs one or more statements that return no rows.
  void exec(std::string_view sql, std::string_view what);

private:
  sqlite3 *db_ = nullptr;
  std::string path_;
};

// A prepared statement, reusable with reset(). Bind indexes start at 1, columns at 0.
class Statement {
public:
  Statement(Connection &db, std::string_view sql);
  ~Statement();
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;

  Statement &bind(int index, std::int64_t value);
  Statement &bind(int index, double value);
  Statement &bind(int index, std::string_view value);
  Statement &bind_null(int index);
  // Steps once: true when a row is ready, false when done.
  bool step();
  // Steps to the end, then resets for the next use.
  void run();
  void reset();

  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  bool is_null(int column) const;
  sqlite3_stmt *handle() const { return stmt_; }

private:
  sqlite3 *db_;
  sqlite3_stmt *stmt_ = nullptr;
};

// BEGIN IMMEDIATE on construction; rolls back in the destructor unless committed.
class Transaction {
public:
  explicit Transaction(Connection &db);
  ~Transaction();
  Transaction(const Transaction &) = delete;
  Transaction &operator=(const Transaction &) = delete;
  void commit();

private:
  Connection &db_;
  bool open_ = true;
};

// The SQLite implementation of Database.
class SqliteDatabase final : public Database {
public:
  SqliteDatabase(const std::string &path, const OpenOptions &options)
      : connection(path, options), read_only_(options.read_only) {}
  std::string engine() const override { return "sqlite"; }
  std::string location() const override { return connection.path(); }
  int version() override;
  bool read_only() const override { return read_only_; }
  void set_version_at_open(int version) { version_at_open_ = version; }
  std::vector<std::string> for_each_row(const std::string &sql, const KeyValues &params,
                                        const RowCallback &each) override;
  std::unique_ptr<LoadSession> begin_load() override;

  Connection connection;

private:
  bool read_only_;
};

// `value` in its shortest exact decimal form ("0.1", "1e-05"), as query() shows numbers.
std::string number_text(double value);

} // namespace idb::store::detail

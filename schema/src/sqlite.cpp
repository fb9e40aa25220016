// The RAII layer over the SQLite C API (see sqlite.hpp): every SQLite return code the
// store looks at goes through check().
#include "sqlite.hpp"
#include "sqlite_functions.hpp"

#include <sqlite3.h>

#include <algorithm>

namespace idb::store::detail {

void check(sqlite3 *db, int rc, std::string_view what) {
  if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
  std::string message(what);
  message += ": ";
  if ((rc & 0xff) == SQLITE_BUSY) {
    message += "another process held the database past the time this command waits for it "
               "(--wait SECONDS sets it)";
    throw Error(message);
  }
  message += db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  if ((rc & 0xff) == SQLITE_READONLY) throw ReadOnlyError(message);
  throw Error(message);
}

namespace {

// SQLite counts every allocation under a global mutex unless told not to, before its
// first use in the process (afterwards the call fails harmlessly and the count stays on).
// IDB never reads those counts; a load makes millions of allocations.
void configure_once() {
  static const bool configured = [] {
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    return true;
  }();
  (void)configured;
}

} // namespace

Connection::Connection(const std::string &path, const OpenOptions &options) : path_(path) {
  configure_once();
  int flags = SQLITE_OPEN_NOMUTEX;
  if (options.read_only)
    flags |= SQLITE_OPEN_READONLY;
  else
    flags |= SQLITE_OPEN_READWRITE | (options.create ? SQLITE_OPEN_CREATE : 0);
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message =
        "cannot open database " + path + ": " + (db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc));
    sqlite3_close(db_);
    throw Error(message);
  }
  sqlite3_extended_result_codes(db_, 1);
  // Wait for another writer rather than failing at once (SQLite sleeps and retries).
  double wait_ms = std::clamp(options.wait_seconds, 0.0, 86400.0 * 24) * 1000;
  sqlite3_busy_timeout(db_, int(wait_ms));
  if (!options.read_only) {
    // WAL mode's side files stay when the last connection closes, emptied: a reader who
    // may not create files in the database's folder can then still open it (SQLite needs
    // the -shm file to exist, or to be able to create it).
    int persist = 1;
    sqlite3_file_control(db_, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  }
  try {
    if (!options.read_only)
      exec("PRAGMA journal_size_limit = 0", "cannot limit the log of " + path);
    exec("PRAGMA foreign_keys = ON", "cannot enable foreign keys on " + path);
    register_functions(db_);
  } catch (...) {
    sqlite3_close(db_);
    throw;
  }
}

Connection::~Connection() {
  sqlite3_close_v2(db_);
}

std::int64_t Connection::last_insert_id() const {
  return sqlite3_last_insert_rowid(db_);
}

void Connection::exec(std::string_view sql, std::string_view what) {
  std::string text(sql);
  check(db_, sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr), what);
}

Statement::Statement(Connection &db, std::string_view sql) : db_(db.handle()) {
  check(db_,
        sqlite3_prepare_v3(db_, sql.data(), int(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt_,
                           nullptr),
        "cannot prepare statement");
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement &Statement::bind(int index, std::int64_t value) {
  check(db_, sqlite3_bind_int64(stmt_, index, value), "cannot bind a value");
  return *this;
}

Statement &Statement::bind(int index, double value) {
  check(db_, sqlite3_bind_double(stmt_, index, value), "cannot bind a value");
  return *this;
}

Statement &Statement::bind(int index, std::string_view value) {
  check(
      db_,
      sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
      "cannot bind a value");
  return *this;
}

Statement &Statement::bind_null(int index) {
  check(db_, sqlite3_bind_null(stmt_, index), "cannot bind a value");
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  check(db_, rc, "statement failed");
  return rc == SQLITE_ROW;
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
}

std::int64_t Statement::integer(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double Statement::real(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string Statement::text(int column) const {
  const auto *p = sqlite3_column_text(stmt_, column);
  return p ? std::string(reinterpret_cast<const char *>(p),
                         std::size_t(sqlite3_column_bytes(stmt_, column)))
           : std::string();
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

Transaction::Transaction(Connection &db) : db_(db) {
  db_.exec("BEGIN IMMEDIATE", "cannot start a transaction on " + db_.path());
}

Transaction::~Transaction() {
  // Rolling back cannot usefully fail here; SQLite has already undone a failed statement.
  if (open_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec("COMMIT", "cannot commit to " + db_.path());
  open_ = false;
}

int SqliteDatabase::version() {
  Statement s(connection, "SELECT version FROM idb_schema");
  return s.step() ? int(s.integer(0)) : 0;
}

} // namespace idb::store::detail

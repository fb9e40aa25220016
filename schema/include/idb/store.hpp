// The store library: opens an IDB database (a SQLite file or a PostgreSQL server, behind
// one Database interface), brings its schema up to date, loads profiles as runs and
// answers queries as plain structs. Every function reports failure by throwing
// idb::store::Error with one line of text; none prints. A Database is not thread-safe:
// use one per thread.
#pragma once

#include "idb/profile.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idb::store {

// The one error type of the store: what failed, in one line, naming the label, the path
// or the SQL engine's message.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A statement that would change a database opened read-only (OpenOptions::read_only).
class ReadOnlyError : public Error {
public:
  using Error::Error;
};

// The schema version this build knows (the number of migration scripts).
int schema_version();

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// One row of a result, valid only during the callback it is passed to. Columns count
// from 0; reading a column past size() is undefined.
class Row {
public:
  enum class Kind { null, integer, real, text };
  virtual std::size_t size() const = 0;
  virtual Kind kind(std::size_t column) const = 0;
  bool is_null(std::size_t column) const { return kind(column) == Kind::null; }
  // The value as a number; NULL, and text that is not a number, read as 0.
  virtual std::int64_t integer(std::size_t column) const = 0;
  virtual double real(std::size_t column) const = 0;
  // The value as text: "" for NULL, numbers in their shortest exact decimal form.
  virtual std::string text(std::size_t column) const = 0;

protected:
  ~Row() = default;
};
using RowCallback = std::function<void(const Row &)>;

namespace detail {
class LoadSession;
}

// An open connection. Obtain one with open(); destroying it closes the connection.
class Database {
public:
  Database() = default;
  virtual ~Database() = default;
  Database(const Database &) = delete;
  Database &operator=(const Database &) = delete;

  // The engine ("sqlite" or "postgresql") and where the data lives (a file path, or the
  // URL without its password).
  virtual std::string engine() const = 0;
  virtual std::string location() const = 0;
  // The schema version stored in the database.
  virtual int version() = 0;
  // Whether it was opened read-only (OpenOptions::read_only).
  virtual bool read_only() const = 0;
  // The schema version it had when opened, before any migration (0: a new database).
  int version_at_open() const { return version_at_open_; }

  // The engine's side of query_rows() and load(): call those instead.
  virtual std::vector<std::string> for_each_row(const std::string &sql, const KeyValues &params,
                                                const RowCallback &each) = 0;
  virtual std::unique_ptr<detail::LoadSession> begin_load() = 0;

protected:
  int version_at_open_ = 0;
};

// How long a connection waits for another one's lock before it gives up, by default: long
// enough for any load another user may be running into the same database.
inline constexpr double kDefaultWaitSeconds = 600;

struct OpenOptions {
  bool create = true; // create a missing SQLite file; false: a missing file is an error
  // Read-only: nothing is created or migrated, and a statement that would change the
  // database throws ReadOnlyError (SQLite: a read-only connection; PostgreSQL: every
  // statement in a READ ONLY transaction). A schema older than this build's is refused,
  // naming both versions.
  bool read_only = false;
  // Seconds to wait for another connection's lock (SQLite's busy handler, PostgreSQL's
  // lock_timeout); past it the statement fails with Error saying so.
  double wait_seconds = kDefaultWaitSeconds;
};

// Opens `url`: a path, `sqlite:PATH` or `sqlite://PATH`, or a postgresql:// URL. Unless
// read-only, applies any migrations the database lacks in one transaction, and puts a
// SQLite file in WAL mode (readers and one writer at a time never wait for each other).
// Throws Error for another scheme, a file that is not an IDB database, or a schema newer
// than this build knows (or older, read-only).
std::unique_ptr<Database> open(const std::string &url, const OpenOptions &options = {});

struct LoadOptions {
  std::string label;    // empty: default_label(profile)
  KeyValues attributes; // win over the profile's IDB_ATTR_* on the same key
  // Called now and then with the node rows written so far and their total (two per node:
  // its place in the tree, then its statistics); may throw to abandon the load (the
  // transaction rolls back).
  std::function<void(std::size_t done, std::size_t total)> progress;
};

struct LoadResult {
  std::int64_t run_id = 0;
  std::string label;
  std::size_t cfhs = 0, nodes = 0;
};

// "<program>-<start, ISO-8601 UTC>-<pid>", e.g. jacobi-2026-11-22T05:01:02Z-4242.
std::string default_label(const profile::Profile &profile);

// Why `label` cannot name a run, or "": a label is 1 to 200 bytes, without control
// characters but tab (a newline would break every table that lists it) and not starting
// with '-' (no command line could name it again).
std::string label_problem(const std::string &label);

// Stores `profile` as one run in one transaction: all of it or nothing. Throws Error for a
// label that is bad (label_problem) or taken (naming it), bad profile content, or an engine
// failure; the database is then as it was.
LoadResult load(Database &db, const profile::Profile &profile, const LoadOptions &options = {});

struct RunInfo {
  std::int64_t run_id = 0;
  std::string label, program;
  int nprocs = 0, threads = 0;
  std::optional<double> start_time, wall_seconds; // Unix seconds; seconds
  std::int64_t attributes = 0, nodes = 0;
  std::string mode; // "full" (a CFH per rank) or "summary" (MPI summary mode: all ranks in one)
};

// Every run, in load order.
std::vector<RunInfo> runs(Database &db);

// A cell is text (numbers as their shortest exact decimal form) or NULL.
using Cell = std::optional<std::string>;

struct QueryResult {
  std::vector<std::string> columns;
  std::vector<bool> numeric; // per column: every non-NULL value was an integer or a real
  std::vector<std::vector<Cell>> rows;
};

// Runs one SQL statement. `params` bind named parameters (:name, @name or $name) as
// text; every parameter the statement names must be given, and no other. Throws Error
// for SQL errors, a missing or unknown parameter, or more than one statement.
QueryResult query(Database &db, const std::string &sql, const KeyValues &params = {});

// The same statement, rows handed to `each` one at a time with their values typed: the
// way to read a large result without holding it as text. Returns the column names. What
// `each` throws passes through (the statement is abandoned).
std::vector<std::string> query_rows(Database &db, const std::string &sql, const KeyValues &params,
                                    const RowCallback &each);

// The node_stats columns of the statistics record (idb/stats_fields.h), in the table's
// order. Never throws.
const std::vector<std::string_view> &stats_column_names();
// The same as a select list, each column qualified by `alias` ("s.count, s.total, ...").
std::string stats_columns(std::string_view alias);
// The record from the columns of `row` that a select list of stats_columns() gave,
// starting at column `first`. Never throws; reading past the row is undefined.
idb_stats_t read_stats(const Row &row, std::size_t first);

// The run labelled `label` read back as a Profile: metadata from run_meta (verbatim, as
// loaded), probes from probe_sites, and every CFH in load order with its nodes and
// statistics, or only the CFHs of `rank` when given (possibly none). The statistics are
// bit for bit those of the loaded profile, so whatever prints or analyses a profile file
// does the same for a stored run. Throws Error "no run labelled 'X' in LOCATION" for an
// unknown label, or the engine's error.
profile::Profile read_run(Database &db, const std::string &label,
                          std::optional<int> rank = std::nullopt);

// Unix seconds as "2026-11-22T05:01:02Z".
std::string iso_utc(double unix_seconds);

} // namespace idb::store

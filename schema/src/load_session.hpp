// What a load needs of an engine, so that the mapping from a profile to rows (load.cpp)
// is written once: a session (one transaction that rolls back unless committed), new keys
// for runs and CFH instances, and tables filled row by row, field by field in column
// order (prepared INSERTs on SQLite, COPY on PostgreSQL). Internal to the store library.
#pragma once

#include "idb/store.hpp"

#include <cmath>
#include <cstdint>
#include <string_view>
#include <vector>

namespace idb::store::detail {

// A table's column names, in the order rows give their fields.
using Columns = std::vector<std::string_view>;

// Rows going into one table. Throws Error when the engine refuses a row; on PostgreSQL
// that may surface only at finish().
class TableRows {
public:
  virtual ~TableRows() = default;
  virtual TableRows &null() = 0;
  virtual TableRows &integer(std::int64_t value) = 0;
  virtual TableRows &real(double value) = 0;
  virtual TableRows &text(std::string_view value) = 0;
  virtual void end_row() = 0;
  // Sends what is buffered; the table's rows are in the transaction after it returns.
  virtual void finish() = 0;

  // NULL for an empty text, or for NaN.
  TableRows &text_or_null(std::string_view value) { return value.empty() ? null() : text(value); }
  TableRows &real_or_null(double value) { return std::isnan(value) ? null() : real(value); }
};

enum class Key { run, cfh };

// One load's transaction on one engine. The destructor rolls back unless commit() ran.
// Only one TableRows may be open at a time (PostgreSQL's COPY holds the connection).
class LoadSession {
public:
  virtual ~LoadSession() = default;
  virtual bool label_taken(const std::string &label) = 0;
  // `count` new keys for runs.run_id or cfh_instances.cfh_id, unused by any other load.
  virtual std::vector<std::int64_t> new_keys(Key key, std::size_t count) = 0;
  virtual std::unique_ptr<TableRows> rows(std::string_view table, const Columns &columns) = 0;
  virtual void commit() = 0;
};

// "table (a, b)": the table with its column list, for INSERT and COPY statements.
std::string column_list(std::string_view table, const Columns &columns);

} // namespace idb::store::detail

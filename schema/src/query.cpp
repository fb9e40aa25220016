// Reading: the list of runs, and one user statement with bound named parameters whose
// result comes back as text cells (numbers in their shortest exact decimal form).
#include "postgres.hpp"
#include "sqlite.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <map>

namespace idb::store {

namespace {

using detail::Statement;

std::optional<double> optional_real(const Statement &s, int column) {
  if (s.is_null(column)) return std::nullopt;
  return s.real(column);
}

// The cell at `column`, and whether it was a number.
Cell cell(const Statement &s, int column, bool &numeric) {
  switch (sqlite3_column_type(s.handle(), column)) {
  case SQLITE_NULL:
    return std::nullopt;
  case SQLITE_INTEGER:
    return std::to_string(s.integer(column));
  case SQLITE_FLOAT: {
    std::array<char, 32> text{};
    auto [end, ec] = std::to_chars(text.data(), text.data() + text.size(), s.real(column));
    return std::string(text.data(), ec == std::errc() ? end : text.data());
  }
  default:
    numeric = false;
    return s.text(column);
  }
}

// Binds every named parameter of `s` from `params`; each must be given, and used.
void bind_params(Statement &s, const KeyValues &params) {
  std::map<std::string, bool> used;
  for (const auto &[name, value] : params)
    used[name] = false;
  int count = sqlite3_bind_parameter_count(s.handle());
  for (int i = 1; i <= count; ++i) {
    const char *name = sqlite3_bind_parameter_name(s.handle(), i);
    if (!name || !*name || !std::strchr(":@$", name[0]))
      throw Error("parameter " + std::to_string(i) + " has no name: use :name");
    auto it = std::find_if(params.rbegin(), params.rend(),
                           [&](const auto &p) { return p.first == name + 1; });
    if (it == params.rend()) throw Error(std::string("no value for parameter ") + name);
    s.bind(i, std::string_view(it->second));
    used[it->first] = true;
  }
  for (const auto &[name, was_used] : used)
    if (!was_used) throw Error("the statement has no parameter named " + name);
}

// Throws unless `tail` (what follows the first statement) is only space and semicolons.
void refuse_second_statement(const char *tail) {
  for (; tail && *tail; ++tail)
    if (!std::isspace(static_cast<unsigned char>(*tail)) && *tail != ';')
      throw Error("give one SQL statement at a time");
}

} // namespace

std::vector<RunInfo> runs(Database &db) {
  if (auto *pg = detail::as_postgres(db)) return detail::postgres_runs(*pg);
  Statement s(detail::sqlite_connection(db),
              "SELECT r.run_id, r.label, r.program, r.nprocs, r.threads, r.start_time, "
              "r.wall_seconds, (SELECT count(*) FROM run_attributes a WHERE a.run_id = r.run_id), "
              "(SELECT count(*) FROM cfh_instances h JOIN nodes n ON n.cfh_id = h.cfh_id "
              "WHERE h.run_id = r.run_id) FROM runs r ORDER BY r.run_id");
  std::vector<RunInfo> list;
  while (s.step()) {
    RunInfo r;
    r.run_id = s.integer(0);
    r.label = s.text(1);
    r.program = s.text(2);
    r.nprocs = int(s.integer(3));
    r.threads = int(s.integer(4));
    r.start_time = optional_real(s, 5);
    r.wall_seconds = optional_real(s, 6);
    r.attributes = s.integer(7);
    r.nodes = s.integer(8);
    list.push_back(std::move(r));
  }
  return list;
}

QueryResult query(Database &db, const std::string &sql, const KeyValues &params) {
  if (auto *pg = detail::as_postgres(db)) return detail::postgres_query(*pg, sql, params);
  detail::Connection &c = detail::sqlite_connection(db);
  sqlite3_stmt *raw = nullptr;
  const char *tail = nullptr;
  detail::check(c.handle(), sqlite3_prepare_v2(c.handle(), sql.c_str(), -1, &raw, &tail),
                "SQL error");
  sqlite3_finalize(raw);
  refuse_second_statement(tail);
  Statement s(c, std::string_view(sql.c_str(), std::size_t(tail - sql.c_str())));
  bind_params(s, params);
  QueryResult result;
  int columns = sqlite3_column_count(s.handle());
  for (int i = 0; i < columns; ++i)
    result.columns.emplace_back(sqlite3_column_name(s.handle(), i));
  result.numeric.assign(std::size_t(columns), true);
  while (s.step()) {
    std::vector<Cell> row;
    for (int i = 0; i < columns; ++i) {
      bool numeric = true;
      row.push_back(cell(s, i, numeric));
      if (!numeric) result.numeric[std::size_t(i)] = false;
    }
    result.rows.push_back(std::move(row));
  }
  return result;
}

} // namespace idb::store

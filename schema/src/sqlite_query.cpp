// The SQLite side of reading (Database::for_each_row): one user statement prepared, its
// named parameters bound as text, and each result row handed over with its values as
// SQLite stored them.
#include "sqlite.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

namespace idb::store::detail {

namespace {

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

class SqliteRow final : public Row {
public:
  SqliteRow(sqlite3_stmt *stmt, std::size_t size) : stmt_(stmt), size_(size) {}
  std::size_t size() const override { return size_; }
  Kind kind(std::size_t column) const override {
    switch (sqlite3_column_type(stmt_, int(column))) {
    case SQLITE_NULL:
      return Kind::null;
    case SQLITE_INTEGER:
      return Kind::integer;
    case SQLITE_FLOAT:
      return Kind::real;
    default:
      return Kind::text;
    }
  }
  std::int64_t integer(std::size_t column) const override {
    return sqlite3_column_int64(stmt_, int(column));
  }
  double real(std::size_t column) const override {
    return sqlite3_column_double(stmt_, int(column));
  }
  std::string text(std::size_t column) const override {
    switch (kind(column)) {
    case Kind::null:
      return {};
    case Kind::integer:
      return std::to_string(integer(column));
    case Kind::real:
      return number_text(real(column));
    default:
      break;
    }
    const auto *p = sqlite3_column_text(stmt_, int(column));
    return std::string(reinterpret_cast<const char *>(p),
                       std::size_t(sqlite3_column_bytes(stmt_, int(column))));
  }

private:
  sqlite3_stmt *stmt_;
  std::size_t size_;
};

} // namespace

std::vector<std::string> SqliteDatabase::for_each_row(const std::string &sql,
                                                      const KeyValues &params,
                                                      const RowCallback &each) {
  sqlite3 *db = connection.handle();
  sqlite3_stmt *raw = nullptr;
  const char *tail = nullptr;
  check(db, sqlite3_prepare_v2(db, sql.c_str(), -1, &raw, &tail), "SQL error");
  sqlite3_finalize(raw);
  refuse_second_statement(tail);
  Statement s(connection, std::string_view(sql.c_str(), std::size_t(tail - sql.c_str())));
  if (read_only_ && !sqlite3_stmt_readonly(s.handle()))
    throw ReadOnlyError("SQL error: the statement would change " + connection.path() +
                        ", which this command opens read-only");
  bind_params(s, params);
  auto columns = std::size_t(sqlite3_column_count(s.handle()));
  std::vector<std::string> names;
  for (std::size_t i = 0; i < columns; ++i)
    names.emplace_back(sqlite3_column_name(s.handle(), int(i)));
  SqliteRow row(s.handle(), columns);
  while (s.step())
    each(row);
  return names;
}

} // namespace idb::store::detail

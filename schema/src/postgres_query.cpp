// Reading from PostgreSQL (Database::for_each_row): one user statement whose named
// parameters (:name, @name, $name, as on SQLite) are rewritten to PostgreSQL's $1, $2, ...
// and bound as text; its rows typed by their columns' types. The server's text form of a
// double is already its shortest exact decimal (extra_float_digits defaults to 1).
#include "postgres.hpp"

#include <pqxx/pqxx>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>

namespace idb::store::detail {

namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// `sql` with its named parameters numbered in order of first use.
struct Numbered {
  std::string sql;
  std::vector<std::string> names; // names[n - 1] is $n
};

// Where the quoted text, comment or dollar-quoted string that starts at `i` ends (one past
// it), or `i` when none starts there.
std::size_t skip_quoted(const std::string &s, std::size_t i) {
  auto upto = [&](const std::string &close, std::size_t from) {
    std::size_t end = s.find(close, from);
    return end == std::string::npos ? s.size() : end + close.size();
  };
  if (s[i] == '\'') {
    bool escapes = i > 0 && (s[i - 1] == 'E' || s[i - 1] == 'e');
    for (std::size_t j = i + 1; j < s.size(); ++j) {
      // A backslash (in E'...') or a doubled quote escapes the next character.
      bool escape =
          (escapes && s[j] == '\\') || (s[j] == '\'' && j + 1 < s.size() && s[j + 1] == '\'');
      if (escape)
        ++j;
      else if (s[j] == '\'')
        return j + 1;
    }
    return s.size();
  }
  if (s[i] == '"') return upto("\"", i + 1);
  if (s.compare(i, 2, "--") == 0) return upto("\n", i);
  if (s.compare(i, 2, "/*") == 0) return upto("*/", i + 2);
  if (s[i] == '$' && (i == 0 || !ident_char(s[i - 1]))) {
    std::size_t j = i + 1;
    if (j < s.size() && ident_start(s[j]))
      while (j < s.size() && ident_char(s[j]))
        ++j;
    if (j < s.size() && s[j] == '$') return upto(s.substr(i, j + 1 - i), j + 1);
  }
  return i;
}

Numbered number_parameters(const std::string &sql) {
  Numbered out;
  for (std::size_t i = 0; i < sql.size();) {
    if (std::size_t end = skip_quoted(sql, i); end != i) {
      out.sql.append(sql, i, end - i);
      i = end;
      continue;
    }
    char c = sql[i];
    if (c == ':' && i + 1 < sql.size() && sql[i + 1] == ':') { // a cast
      out.sql += "::";
      i += 2;
      continue;
    }
    if (c == '$' && i + 1 < sql.size() && std::isdigit(static_cast<unsigned char>(sql[i + 1])))
      throw Error("parameter " + sql.substr(i, 2) + " has no name: use :name");
    if (c == ';') {
      if (sql.find_first_not_of(" \t\r\n;", i) != std::string::npos)
        throw Error("give one SQL statement at a time");
      break;
    }
    bool named =
        (c == ':' || c == '@' || c == '$') && i + 1 < sql.size() && ident_start(sql[i + 1]);
    if (!named || (i > 0 && ident_char(sql[i - 1]) && c != ':')) {
      out.sql += c;
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    while (end < sql.size() && ident_char(sql[end]))
      ++end;
    std::string name = sql.substr(i + 1, end - i - 1);
    auto it = std::find(out.names.begin(), out.names.end(), name);
    if (it == out.names.end()) it = out.names.insert(out.names.end(), name);
    out.sql += "$" + std::to_string(it - out.names.begin() + 1);
    i = end;
  }
  return out;
}

// The value of each numbered parameter; every one must be given, and every given one used.
std::vector<std::string> parameter_values(const Numbered &numbered, const KeyValues &params) {
  std::vector<std::string> values;
  for (const std::string &name : numbered.names) {
    auto it = std::find_if(params.rbegin(), params.rend(),
                           [&](const auto &p) { return p.first == name; });
    if (it == params.rend()) throw Error("no value for parameter :" + name);
    values.push_back(it->second);
  }
  for (const auto &[name, value] : params)
    if (std::find(numbered.names.begin(), numbered.names.end(), name) == numbered.names.end())
      throw Error("the statement has no parameter named " + name);
  return values;
}

enum class Type { integer, real, numeric, text };

// int2, int4, int8 and oid; float4 and float8; numeric (an integer or a fraction, told by
// its text); anything else is text.
Type type_of(pqxx::oid oid) {
  switch (oid) {
  case 20:
  case 21:
  case 23:
  case 26:
    return Type::integer;
  case 700:
  case 701:
    return Type::real;
  case 1700:
    return Type::numeric;
  default:
    return Type::text;
  }
}

template <typename T> T parse(const pqxx::field &f) {
  T value{};
  if (!f.is_null()) std::from_chars(f.c_str(), f.c_str() + f.size(), value);
  return value;
}

class PostgresRow final : public Row {
public:
  PostgresRow(const pqxx::row &row, const std::vector<Type> &types) : row_(row), types_(types) {}
  std::size_t size() const override { return types_.size(); }
  Kind kind(std::size_t column) const override {
    const pqxx::field f = row_[pqxx::row::size_type(column)];
    if (f.is_null()) return Kind::null;
    switch (types_[column]) {
    case Type::integer:
      return Kind::integer;
    case Type::real:
      return Kind::real;
    case Type::numeric:
      return std::strpbrk(f.c_str(), ".eEN") ? Kind::real : Kind::integer;
    default:
      return Kind::text;
    }
  }
  std::int64_t integer(std::size_t column) const override {
    const pqxx::field f = row_[pqxx::row::size_type(column)];
    if (types_[column] == Type::integer || kind(column) == Kind::integer)
      return parse<std::int64_t>(f);
    return std::int64_t(parse<double>(f));
  }
  double real(std::size_t column) const override {
    return parse<double>(row_[pqxx::row::size_type(column)]);
  }
  std::string text(std::size_t column) const override {
    const pqxx::field f = row_[pqxx::row::size_type(column)];
    return f.is_null() ? std::string() : std::string(f.c_str(), f.size());
  }

private:
  const pqxx::row &row_;
  const std::vector<Type> &types_;
};

} // namespace

namespace {

// Hands the rows of one result to `each`; the column names and types come from the first.
class RowFeed {
public:
  explicit RowFeed(const RowCallback &each) : each_(each) {}
  void feed(const pqxx::result &r) {
    if (!described_) {
      for (pqxx::row::size_type i = 0; i < r.columns(); ++i) {
        names_.emplace_back(r.column_name(i));
        types_.push_back(type_of(r.column_type(i)));
      }
      described_ = true;
    }
    for (const pqxx::row &row : r)
      each_(PostgresRow(row, types_));
  }
  std::vector<std::string> names() { return std::move(names_); }

private:
  const RowCallback &each_;
  bool described_ = false;
  std::vector<std::string> names_;
  std::vector<Type> types_;
};

// Whether the statement's first word is SELECT or WITH: a query a cursor can walk.
bool cursor_candidate(const std::string &sql) {
  std::size_t i = 0;
  while (i < sql.size()) {
    if (std::isspace(static_cast<unsigned char>(sql[i])))
      ++i;
    else if (sql.compare(i, 2, "--") == 0 || sql.compare(i, 2, "/*") == 0)
      i = skip_quoted(sql, i);
    else
      break;
  }
  auto word = [&](const char *w) {
    std::size_t n = std::strlen(w);
    if (sql.size() < i + n) return false;
    for (std::size_t k = 0; k < n; ++k)
      if (std::toupper(static_cast<unsigned char>(sql[i + k])) != w[k]) return false;
    return sql.size() == i + n || !ident_char(sql[i + n]);
  };
  return word("SELECT") || word("WITH");
}

constexpr int kFetch = 10000;

// Walks a query through a cursor, kFetch rows at a time, so a large result never sits in
// memory whole. False (the transaction back as it was) when the server will not make a
// cursor of it, e.g. a WITH holding an INSERT.
bool through_cursor(pqxx::transaction_base &w, const std::string &sql,
                    const std::vector<std::string> &values, RowFeed &feed) {
  w.exec("SAVEPOINT idb_cursor");
  try {
    w.exec_params("DECLARE idb_rows NO SCROLL CURSOR FOR " + sql,
                  pqxx::prepare::make_dynamic_params(values));
  } catch (const pqxx::sql_error &) {
    w.exec("ROLLBACK TO SAVEPOINT idb_cursor");
    return false;
  }
  for (;;) {
    pqxx::result chunk = w.exec("FETCH FORWARD " + std::to_string(kFetch) + " FROM idb_rows");
    feed.feed(chunk);
    if (chunk.size() < pqxx::result::size_type(kFetch)) break;
  }
  w.exec("CLOSE idb_rows");
  return true;
}

} // namespace

// What `each` throws passes through pg_check unchanged and the transaction rolls back.
std::vector<std::string> PostgresDatabase::for_each_row(const std::string &sql,
                                                        const KeyValues &params,
                                                        const RowCallback &each) {
  Numbered numbered = number_parameters(sql);
  std::vector<std::string> values = parameter_values(numbered, params);
  RowFeed feed(each);
  auto run = [&](pqxx::transaction_base &w) {
    if (!cursor_candidate(numbered.sql) || !through_cursor(w, numbered.sql, values, feed))
      feed.feed(w.exec_params(numbered.sql, pqxx::prepare::make_dynamic_params(values)));
    w.commit();
  };
  pg_check(*this, "SQL error", [&] {
    if (read_only()) {
      pqxx::read_transaction w(connection());
      run(w);
    } else {
      pqxx::work w(connection());
      run(w);
    }
  });
  return feed.names();
}

} // namespace idb::store::detail

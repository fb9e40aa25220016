// Reading from PostgreSQL: the list of runs, and one user statement whose named
// parameters (:name, @name, $name, as on SQLite) are rewritten to PostgreSQL's $1, $2, ...
// and bound as text, with the result returned as text cells like the SQLite path.
#include "postgres.hpp"

#include <pqxx/pqxx>

#include <algorithm>
#include <cctype>
#include <map>

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

// int2, int4, int8, oid, float4, float8, numeric.
bool numeric_type(pqxx::oid type) {
  return type == 20 || type == 21 || type == 23 || type == 26 || type == 700 || type == 701 ||
         type == 1700;
}

std::optional<double> optional_real(const pqxx::field &f) {
  if (f.is_null()) return std::nullopt;
  return f.as<double>();
}

} // namespace

std::vector<RunInfo> postgres_runs(PostgresDatabase &db) {
  return pg_check(db, "cannot list the runs in " + db.location(), [&] {
    pqxx::work w(db.connection());
    pqxx::result r =
        w.exec("SELECT r.run_id, r.label, r.program, r.nprocs, r.threads, r.start_time, "
               "r.wall_seconds, (SELECT count(*) FROM run_attributes a WHERE a.run_id = r.run_id), "
               "(SELECT count(*) FROM cfh_instances h JOIN nodes n ON n.cfh_id = h.cfh_id "
               "WHERE h.run_id = r.run_id) FROM runs r ORDER BY r.run_id");
    std::vector<RunInfo> list;
    for (const pqxx::row &row : r) {
      RunInfo info;
      info.run_id = row[0].as<std::int64_t>();
      info.label = row[1].as<std::string>();
      info.program = row[2].as<std::string>();
      info.nprocs = row[3].as<int>();
      info.threads = row[4].as<int>();
      info.start_time = optional_real(row[5]);
      info.wall_seconds = optional_real(row[6]);
      info.attributes = row[7].as<std::int64_t>();
      info.nodes = row[8].as<std::int64_t>();
      list.push_back(std::move(info));
    }
    return list;
  });
}

QueryResult postgres_query(PostgresDatabase &db, const std::string &sql, const KeyValues &params) {
  Numbered numbered = number_parameters(sql);
  std::vector<std::string> values = parameter_values(numbered, params);
  return pg_check(db, "SQL error", [&] {
    pqxx::work w(db.connection());
    pqxx::result r = w.exec_params(numbered.sql, pqxx::prepare::make_dynamic_params(values));
    w.commit();
    QueryResult result;
    for (pqxx::row::size_type i = 0; i < r.columns(); ++i) {
      result.columns.emplace_back(r.column_name(i));
      result.numeric.push_back(numeric_type(r.column_type(i)));
    }
    for (const pqxx::row &row : r) {
      std::vector<Cell> cells;
      for (const pqxx::field &f : row)
        cells.push_back(f.is_null() ? Cell() : Cell(std::string(f.c_str(), f.size())));
      result.rows.push_back(std::move(cells));
    }
    return result;
  });
}

} // namespace idb::store::detail

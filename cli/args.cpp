// Small argument parsers the subcommands share.
#include "args.hpp"

#include "idb/queries.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace idb::cli {

bool parse_percent(const char *text, double &percent) {
  char *end = nullptr;
  double value = std::strtod(text, &end);
  if (end == text || *end || !std::isfinite(value) || value < 0) return false;
  percent = value;
  return true;
}

bool parse_count(const std::string &text, int low, int high, int &value) {
  char *end = nullptr;
  errno = 0;
  long n = std::strtol(text.c_str(), &end, 10);
  if (end == text.c_str() || *end || errno || n < low || n > high) return false;
  value = int(n);
  return true;
}

std::optional<int> parse_rank(const char *text) {
  char *end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (end == text || *end || value < 0 || value > 0x7fffffffL) return std::nullopt;
  return int(value);
}

bool parse_wait(const std::string &text, double &seconds) {
  return parse_percent(text.c_str(), seconds);
}

std::optional<std::string> resolve_query_text(const std::string &command, const std::string &text,
                                              const store::KeyValues &params) {
  if (!queries::looks_like_name(text)) return text;
  if (const queries::CannedQuery *q = queries::find_canned_query(text)) {
    if (std::string problem = queries::parameter_problem(*q, params); !problem.empty()) {
      std::cerr << "idb " << command << ": " << problem << '\n';
      return std::nullopt;
    }
    return q->sql;
  }
  std::cerr << "idb " << command << ": no canned query named '" << text
            << "'; the canned queries are: " << queries::canned_query_names() << '\n';
  return std::nullopt;
}

void check_run_parameter(store::Database &db, const store::KeyValues &params) {
  for (const auto &[key, value] : params) {
    if (key != "run") continue;
    store::QueryResult found =
        store::query(db, "SELECT 1 FROM runs WHERE label = :run", {{"run", value}});
    if (found.rows.empty())
      throw store::Error("no run labelled '" + value + "' in " + db.location() +
                         " (see 'idb runs')");
  }
}

} // namespace idb::cli

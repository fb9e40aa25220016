// The canned query catalogue (see idb/queries.hpp): parses the header comments of
// the embedded queries/ files once.
#include "idb/queries.hpp"

#include "idb_canned_queries.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace idb::queries {

namespace {

// The text after "-- KEY:" on the first header line that has it, trimmed.
std::string header_field(std::string_view sql, std::string_view key) {
  std::istringstream lines{std::string(sql)};
  std::string prefix = "-- " + std::string(key) + ":";
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("--", 0) != 0) break; // the header ends at the first non-comment line
    if (line.rfind(prefix, 0) != 0) continue;
    std::string value = line.substr(prefix.size());
    value.erase(0, value.find_first_not_of(' '));
    while (!value.empty() && (value.back() == ' ' || value.back() == '\r'))
      value.pop_back();
    return value;
  }
  return {};
}

std::vector<CannedQuery> parse_all() {
  std::vector<CannedQuery> all;
  all.reserve(store::detail::kCannedQueries.size());
  for (std::string_view sql : store::detail::kCannedQueries)
    all.push_back({header_field(sql, "name"), header_field(sql, "answers"),
                   header_field(sql, "parameters"), std::string(sql)});
  std::sort(all.begin(), all.end(),
            [](const CannedQuery &a, const CannedQuery &b) { return a.name < b.name; });
  return all;
}

} // namespace

const std::vector<CannedQuery> &canned_queries() {
  static const std::vector<CannedQuery> all = parse_all();
  return all;
}

const CannedQuery *find_canned_query(std::string_view name) {
  for (const CannedQuery &q : canned_queries())
    if (q.name == name) return &q;
  return nullptr;
}

std::string canned_query_names() {
  std::string names;
  for (const CannedQuery &q : canned_queries())
    names += (names.empty() ? "" : ", ") + q.name;
  return names;
}

bool looks_like_name(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

std::optional<std::pair<std::string, std::string>> parse_param(std::string_view text) {
  std::size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) return std::nullopt;
  return std::pair{std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

} // namespace idb::queries

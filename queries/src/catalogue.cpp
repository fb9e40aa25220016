// The canned query catalogue (see idb/queries.hpp): parses the header comments of
// the embedded queries/ files once.
#include "idb/queries.hpp"

#include "idb_canned_queries.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
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
  for (std::string_view sql : store::detail::kCannedQueries) {
    std::string parameters = header_field(sql, "parameters");
    all.push_back({header_field(sql, "name"), header_field(sql, "answers"), parameters,
                   std::string(sql), parse_declarations(parameters)});
  }
  std::sort(all.begin(), all.end(),
            [](const CannedQuery &a, const CannedQuery &b) { return a.name < b.name; });
  return all;
}

bool is_integer(const std::string &text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  char *end = nullptr;
  errno = 0;
  (void)std::strtoll(text.c_str(), &end, 10);
  return *end == '\0' && errno == 0;
}

bool is_real(const std::string &text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  return *end == '\0' && std::isfinite(value);
}

} // namespace

std::vector<Parameter> parse_declarations(std::string_view header) {
  std::vector<Parameter> declared;
  int depth = 0; // inside parentheses the text explains, and a ':' there is no name
  for (std::size_t i = 0; i < header.size(); ++i) {
    char c = header[i];
    if (c == '(') ++depth;
    if (c == ')' && depth > 0) --depth;
    if (c != ':' || depth > 0) continue;
    auto word_end = [&](std::size_t from) {
      while (from < header.size() &&
             (std::isalnum(static_cast<unsigned char>(header[from])) || header[from] == '_'))
        ++from;
      return from;
    };
    std::size_t end = word_end(i + 1);
    if (end == i + 1) continue;
    Parameter p{std::string(header.substr(i + 1, end - i - 1))};
    std::size_t type_start = header.find_first_not_of(' ', end);
    if (type_start != std::string_view::npos) {
      std::string_view type = header.substr(type_start, word_end(type_start) - type_start);
      if (type == "integer") p.type = ParamType::integer;
      if (type == "real") p.type = ParamType::real;
    }
    declared.push_back(std::move(p));
    i = end - 1;
  }
  return declared;
}

std::string parameter_problem(const CannedQuery &q, const store::KeyValues &params) {
  for (const auto &[name, value] : params) {
    for (const Parameter &p : q.declared) {
      if (p.name != name) continue;
      const char *wanted = nullptr;
      if (p.type == ParamType::integer && !is_integer(value)) wanted = "a whole number";
      if (p.type == ParamType::real && !is_real(value)) wanted = "a number";
      if (!wanted) continue;
      std::string problem = "parameter ";
      problem.append(name).append(" of ").append(q.name).append(" takes ").append(wanted);
      return problem.append(", not '").append(value).append("'");
    }
  }
  return "";
}

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

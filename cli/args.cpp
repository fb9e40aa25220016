// Small argument parsers the subcommands share.
#include "args.hpp"

#include "idb/queries.hpp"

#include <cmath>
#include <cstdlib>
#include <iostream>

namespace idb::cli {

bool parse_percent(const char *text, double &percent) {
  char *end = nullptr;
  double value = std::strtod(text, &end);
  if (end == text || *end || !std::isfinite(value) || value < 0) return false;
  percent = value;
  return true;
}

std::optional<std::string> resolve_query_text(const std::string &command, const std::string &text) {
  if (!queries::looks_like_name(text)) return text;
  if (const queries::CannedQuery *q = queries::find_canned_query(text)) return q->sql;
  std::cerr << "idb " << command << ": no canned query named '" << text
            << "'; the canned queries are: " << queries::canned_query_names() << '\n';
  return std::nullopt;
}

} // namespace idb::cli

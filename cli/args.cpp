// Small argument parsers the subcommands share.
#include "args.hpp"

#include <cmath>
#include <cstdlib>

namespace idb::cli {

bool parse_percent(const char *text, double &percent) {
  char *end = nullptr;
  double value = std::strtod(text, &end);
  if (end == text || *end || !std::isfinite(value) || value < 0) return false;
  percent = value;
  return true;
}

} // namespace idb::cli

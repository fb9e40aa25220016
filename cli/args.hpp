// Small argument parsers the subcommands share.
#pragma once

#include <optional>
#include <string>

namespace idb::cli {

// Reads a percentage: a finite number, 0 or more, and nothing after it. Returns false
// (leaving `percent` alone) otherwise.
bool parse_percent(const char *text, double &percent);

// The SQL to run for the argument of `idb COMMAND`: `text` itself when it is not a name,
// the canned query's SQL when it is one; nullopt after printing one error line listing the
// names when it looks like a name but no canned query has it.
std::optional<std::string> resolve_query_text(const std::string &command, const std::string &text);

} // namespace idb::cli

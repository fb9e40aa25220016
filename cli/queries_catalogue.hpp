// The canned queries of `idb query` and `idb export`: the SQL files of queries/, compiled
// into the program at build time, with the name, description and parameters read from
// each file's header comment. Also the argument handling the two subcommands share.
#pragma once

#include "idb/store.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idb::cli {

struct CannedQuery {
  std::string name;       // `-- name:`
  std::string answers;    // `-- answers:`, one line
  std::string parameters; // `-- parameters:`, e.g. ":run (run label), :limit (...)"
  std::string sql;        // the whole file, header included
};

// Every canned query, sorted by name. Never fails (the files are checked at build time by
// the tests); thread-safe after the first call.
const std::vector<CannedQuery> &canned_queries();

// The canned query called `name`, or nullptr.
const CannedQuery *find_canned_query(std::string_view name);

// Every name, comma-separated, for error messages.
std::string canned_query_names();

// True when `text` looks like a name rather than SQL: letters, digits and '_' only.
bool looks_like_name(std::string_view text);

// Splits "key=value" for --param; nullopt when there is no '=' or the key is empty.
std::optional<std::pair<std::string, std::string>> parse_param(std::string_view text);

// The SQL to run for the argument of `idb COMMAND`: `text` itself when it is not a name,
// the canned query's SQL when it is one; nullopt after printing one error line listing the
// names when it looks like a name but no canned query has it.
std::optional<std::string> resolve_query_text(const std::string &command, const std::string &text);

} // namespace idb::cli

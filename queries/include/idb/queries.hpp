// The canned queries (queries/*.sql), compiled into the library at build time, with the
// name, description and parameters read from each file's header comment; `idb query`,
// `idb export` and the GUI's SQL console all take them from here. Also the reading of a
// "key=value" parameter they share.
#pragma once

#include "idb/store.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idb::queries {

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

} // namespace idb::queries

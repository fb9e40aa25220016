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

// What a canned query's parameter takes: any text, a whole number, or a finite number.
enum class ParamType { text, integer, real };

struct Parameter {
  std::string name; // without the ':'
  ParamType type = ParamType::text;
};

struct CannedQuery {
  std::string name;       // `-- name:`
  std::string answers;    // `-- answers:`, one line
  std::string parameters; // `-- parameters:`, e.g. ":run text (run label), :limit integer (...)"
  std::string sql;        // the whole file, header included
  std::vector<Parameter> declared; // read from `parameters`: ":NAME TYPE (what it is)", ...
};

// Every canned query, sorted by name. Never fails (the files are checked at build time by
// the tests); thread-safe after the first call.
const std::vector<CannedQuery> &canned_queries();

// The canned query called `name`, or nullptr.
const CannedQuery *find_canned_query(std::string_view name);

// The parameters a `-- parameters:` header declares, in order: each ":NAME TYPE" with TYPE
// text, integer or real (text when missing or unknown); what parentheses hold explains
// and declares nothing.
std::vector<Parameter> parse_declarations(std::string_view header);

// "" when each of `params` that `q` declares holds a value of its type; otherwise one line
// naming the first that does not: "parameter limit of hottest_procedures takes a whole
// number, not 'x'". Parameters `q` does not declare are left to the engine.
std::string parameter_problem(const CannedQuery &q, const store::KeyValues &params);

// Every name, comma-separated, for error messages.
std::string canned_query_names();

// True when `text` looks like a name rather than SQL: letters, digits and '_' only.
bool looks_like_name(std::string_view text);

// Splits "key=value" for --param; nullopt when there is no '=' or the key is empty.
std::optional<std::pair<std::string, std::string>> parse_param(std::string_view text);

} // namespace idb::queries

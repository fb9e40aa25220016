// The parameters of the SQL console: the names a canned query's header lists, values to
// start from for them (the shown run, its top probe, ...), and the "key=value; ..." text
// the user edits, parsed back into store::KeyValues.
#pragma once

#include "run_data.hpp"

#include "idb/store.hpp"

#include <optional>
#include <string>
#include <vector>

namespace idb::gui {

// The names in a `-- parameters:` header line: ":run (run label), :limit (...)" gives
// run, limit.
std::vector<std::string> parameter_names(const std::string &header);

// A value for each name: run = the run's label, probe = its largest probe's id, rank and
// thread 0, limit 20, and the thresholds of queries/README.md's examples. `run` may be
// null (no run shown yet): run is then empty.
store::KeyValues default_params(const std::vector<std::string> &names, const RunData *run);

// "key=value; key=value" (the console's text form).
std::string params_text(const store::KeyValues &params);

// Parses params_text's form; nullopt with `error` set for a part without '=' or a key.
// Blank parts are skipped.
std::optional<store::KeyValues> parse_params(const std::string &text, std::string &error);

} // namespace idb::gui

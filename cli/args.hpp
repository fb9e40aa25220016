// Small argument parsers the subcommands share.
#pragma once

#include "idb/output_file.hpp"
#include "idb/store.hpp"

#include <optional>
#include <string>

namespace idb::cli {

// Reads a percentage: a finite number, 0 or more, and nothing after it. Returns false
// (leaving `percent` alone) otherwise.
bool parse_percent(const char *text, double &percent);

// Reads a whole number from `low` to `high` and nothing after it. Returns false (leaving
// `value` alone) otherwise.
bool parse_count(const std::string &text, int low, int high, int &value);

// A rank: an integer, 0 or more, and nothing after it; nullopt otherwise.
std::optional<int> parse_rank(const char *text);

// Reads the SECONDS of --wait: a finite number, 0 or more, and nothing after it. Returns
// false (leaving `seconds` alone) otherwise.
bool parse_wait(const std::string &text, double &seconds);

// The help line of --wait, for every command that opens a database (a literal, so that
// the commands' help texts can hold it).
#define IDB_CLI_WAIT_HELP                                                                          \
  "  --wait SECONDS   how long to wait while another process holds the database (600)\n"

// The SQL to run for the argument of `idb COMMAND`: `text` itself when it is not a name,
// the canned query's SQL when it is one; nullopt after printing one error line listing the
// names when it looks like a name but no canned query has it, or naming the parameter of
// `params` whose value is not of the type the canned query declares.
std::optional<std::string> resolve_query_text(const std::string &command, const std::string &text,
                                              const store::KeyValues &params);

// Throws store::Error ("no run labelled 'X' in DB") when `params` hold a `run` that names
// no run of `db`: a canned query's typo must not read as an empty answer.
void check_run_parameter(store::Database &db, const store::KeyValues &params);

// Writes an output file whole (a temporary file renamed over it; a device or FIFO in
// place): idb/output_file.hpp.
using files::write_output_file;

} // namespace idb::cli

// Output of tabular results for every subcommand that prints rows (runs today; query and
// export later): an aligned table for people, CSV (RFC 4180 quoting) and JSON (an array of
// objects, numbers unquoted) for scripts.
#pragma once

#include "idb/analysis/exports.hpp"
#include "idb/store.hpp"

#include <optional>
#include <ostream>
#include <string_view>

namespace idb::cli {

enum class Format { table, csv, json };

// "table", "csv" or "json"; nullopt for anything else.
std::optional<Format> parse_format(std::string_view name);

// Writes `rows` in `format`. A NULL cell is blank in a table and in CSV, null in JSON.
void write_rows(std::ostream &out, const store::QueryResult &rows, Format format);

// `text` as a CSV field: quoted when it holds a comma, quote, line break or edge space.
std::string csv_field(std::string_view text);
// `text` as a JSON string literal, quotes included (the analysis library's, which the
// tree exports use too).
using analysis::json_string;

} // namespace idb::cli

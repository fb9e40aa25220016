// Small argument parsers the subcommands share.
#pragma once

namespace idb::cli {

// Reads a percentage: a finite number, 0 or more, and nothing after it. Returns false
// (leaving `percent` alone) otherwise.
bool parse_percent(const char *text, double &percent);

} // namespace idb::cli

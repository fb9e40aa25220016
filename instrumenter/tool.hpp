// Runs Clang over source files and returns one FileResult per file. Flags come from a
// compilation database (`-p build-dir`) or are given directly (what follows `--`); the
// Clang resource directory found at build time is added, so the builtin headers are found
// whatever clang the user has installed.
#pragma once

#include "candidate.hpp"
#include "selection.hpp"
#include "unit.hpp"

#include <string>
#include <vector>

namespace idb::instr {

struct ToolOptions {
  std::vector<std::string> files;
  std::string build_dir;          // with compile_commands.json; "" to use `flags`
  std::vector<std::string> flags; // compiler flags without the file names
  Selection selection;
  bool apply = false;
  // Clang's diagnostics are kept quiet (the compiler wrappers: the real compiler speaks
  // for the code); a file that does not parse has its first error in FileResult::error.
  bool quiet = false;
  // The output keeps every original token at its line and column (see Edits::apply).
  bool keep_columns = false;
  // The user's headers too (unit.hpp; the include graph is the tool's to fill in).
  HeaderOptions headers;
};

// One result per file, in the order given. A file that does not parse gets an error;
// Clang's own diagnostics go to stderr. Not thread-safe (Clang's tool state).
std::vector<FileResult> run_tool(const ToolOptions &options);

// Processes `code` as if it were the file `file` (C or C++ by its extension), with
// `flags`; what the tests and the compiler wrappers use. `for_compiler`: the wrappers'
// settings, quiet and keeping columns.
// `headers`: also the user's headers (HeaderOptions without the graph).
FileResult run_on_text(const std::string &code, const std::string &file,
                       const std::vector<std::string> &flags, const Selection &selection,
                       bool apply, bool for_compiler = false, const HeaderOptions &headers = {});

// The Clang resource directory this build uses.
const char *resource_dir();

} // namespace idb::instr

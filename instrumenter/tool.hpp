// Runs Clang over source files and returns one FileResult per file. Flags come from a
// compilation database (`-p build-dir`) or are given directly (what follows `--`); the
// Clang resource directory found at build time is added, so the builtin headers are found
// whatever clang the user has installed.
#pragma once

#include "candidate.hpp"
#include "program_index.hpp"
#include "selection.hpp"
#include "unit.hpp"

#include <optional>
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
  // What the program's other files tell the size rule (program_index.hpp), or none.
  const ProgramIndex *program = nullptr;
};

// One result per file, in the order given. A file that does not parse gets an error;
// Clang's own diagnostics go to stderr. Not thread-safe (Clang's tool state). Several files
// without `program` are the program: a first pass summarizes them all, and each file's
// size rule knows the others (unless IDB_INDEX=0).
std::vector<FileResult> run_tool(const ToolOptions &options);

// Processes `code` as if it were the file `file` (C or C++ by its extension), with
// `flags`; what the tests and the compiler wrappers use. `for_compiler`: the wrappers'
// settings, quiet and keeping columns.
// `headers`: also the user's headers (HeaderOptions without the graph). `program`: the
// other files' summaries (FileResult::summary is then this file's).
FileResult run_on_text(const std::string &code, const std::string &file,
                       const std::vector<std::string> &flags, const Selection &selection,
                       bool apply, bool for_compiler = false, const HeaderOptions &headers = {},
                       const ProgramIndex *program = nullptr);

// The program index's summary of `file` (an absolute path) parsed with `flags`; none when
// it does not parse. Clang stays quiet.
std::optional<UnitSummary> summarize_file(const std::string &file,
                                          const std::vector<std::string> &flags);

// The Clang resource directory this build uses.
const char *resource_dir();

} // namespace idb::instr

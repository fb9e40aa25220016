// One translation unit through the rules: every function definition written in the main
// file (and, when asked, in the user's own headers; never in system headers; templates
// once in their source) gives its candidates; the selected ones get probes; the edited
// text is assembled with the prelude and the registration constructor, and each header
// that got probes becomes an instrumented copy that the unit's copy includes instead.
#pragma once

#include "candidate.hpp"
#include "selection.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/Basic/FileEntry.h>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace idb::instr {

class ProgramIndex;

// The #include directives of a translation unit, as the preprocessor met them
// (tool.cpp's callbacks record them).
struct IncludeGraph {
  struct Inclusion {
    clang::FileID from;             // the file holding the directive (invalid: command line)
    clang::CharSourceRange name;    // the file name with its quotes or brackets
    const clang::FileEntry *target; // the header it resolved to
    bool next = false;              // #include_next
  };
  std::vector<Inclusion> inclusions;
  std::map<const clang::FileEntry *, int> entered; // how often each file was entered
};

// The macros that Clang, which parses the code here, and GCC, which may compile it, can
// define differently: those defined inside a conditional block whose condition names a
// macro only Clang defines (`__clang__`, `__llvm__`, ...) or GCC's version (`__GNUC__`
// other than in `defined`, whose value Clang gives as 4), or one of these macros in turn.
// tool.cpp's callbacks record them.
using CompilerMacros = std::set<std::string>;

// The identifiers of a piece of C or C++ text, in order, outside comments and literals.
std::vector<std::string> identifiers_in(std::string_view text);

// Whether and where the user's headers are instrumented.
struct HeaderOptions {
  bool enabled = false;
  std::string copy_folder;             // where the copies go (apply only)
  bool copy_all = false;               // copy the user's headers even without probes in them
  std::vector<std::string> excluded;   // folders whose headers are never the user's
  const IncludeGraph *graph = nullptr; // required when enabled
};

// `file` is the path as the user gave it (it names the probes and the #line directive).
// With `apply` false only the candidates are filled in (and whether each would be
// placed). With `keep_columns` every original token keeps its line and column in the
// output (Edits::apply). Fails (FileResult::error) on an ID collision. (The refusal of an
// instrumented file comes before parsing, in tool.cpp.) With `program`, the size rule also
// knows the other files' functions and calls (program_index.hpp), and FileResult::summary
// holds this unit's. A function declared through one of `compiler_macros` gets no probe.
FileResult instrument_unit(clang::ASTContext &ast, const std::string &file,
                           const Selection &selection, bool apply, bool keep_columns = false,
                           const HeaderOptions &headers = {}, const ProgramIndex *program = nullptr,
                           const CompilerMacros *compiler_macros = nullptr);

} // namespace idb::instr

// One translation unit through the rules: every function definition written in the main
// file (not in headers, not in system headers, templates once in their source) gives its
// candidates; the selected ones get probes; the edited text is assembled with the prelude
// and the registration constructor.
#pragma once

#include "candidate.hpp"
#include "selection.hpp"

#include <clang/AST/ASTContext.h>

#include <string>

namespace idb::instr {

// `file` is the path as the user gave it (it names the probes and the #line directive).
// With `apply` false only the candidates are filled in (and whether each would be
// placed). With `keep_columns` every original token keeps its line and column in the
// output (Edits::apply). Fails (FileResult::error) on an ID collision. (The refusal of an
// instrumented file comes before parsing, in tool.cpp.)
FileResult instrument_unit(clang::ASTContext &ast, const std::string &file,
                           const Selection &selection, bool apply, bool keep_columns = false);

} // namespace idb::instr

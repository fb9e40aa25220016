// The program index: what the other files of a program tell one translation unit's size
// rule. One unit sees the functions it defines and the headers' inline ones; a helper
// defined in another file is unknown to it (so its callers are not bounded), and so are
// the loops of another file that call its functions (so it cannot tell a per-element helper
// from a phase). Each file's summary says what its own functions are (open-ended loops,
// bounded work and the other files' functions that rests on) and which functions they
// call in a loop; the index puts the summaries of a program's files together and answers
// across them. The compiler wrappers build it from the sources beside the one they compile
// (wrapper.cpp, "The program index" in docs/instrumenter.md).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace idb::instr {

struct UnitSummary {
  struct Function {
    std::string usr;
    bool loops = false;   // it holds an open-ended loop: never bounded; keeps a probe of its own
    bool bounded = false; // its work is bounded if that of every function of `rests_on` is
    std::vector<std::string> rests_on; // functions of other files it reaches
  };
  struct Call {
    std::string caller, callee;
    bool in_loop = false;
  };
  std::vector<Function> functions; // those the main file defines
  std::vector<Call> calls;         // those of the functions written in the user's files
  std::vector<std::string> inputs; // the user's files the unit read (the main file first)
};

// Clang's unified symbol resolution name of `decl`, the same in every unit that declares
// it (a static function's names its file); "" when Clang gives none.
std::string usr_of(const clang::Decl &decl);

// The summary of `ast`'s main file.
UnitSummary summarize_unit(clang::ASTContext &ast);

// A summary as text, one line per function, callee and call, and back; parse_summary
// returns false on text it did not write.
std::string summary_text(const UnitSummary &summary);
bool parse_summary(const std::string &text, UnitSummary &summary);

// False when IDB_INDEX=0: each file alone, for the wrappers and idb-instrument alike.
bool program_index_wanted();

class ProgramIndex {
public:
  // A function defined by several files (variants of one routine) is bounded only when
  // every definition is, and holds a loop when one does.
  void add(const UnitSummary &unit);

  // Whether a file of the index defines the function `usr` with bounded work, through the
  // functions of other files it calls. Unknown functions are not.
  bool bounded(const std::string &usr) const;
  // Whether a file of the index defines the function with an open-ended loop.
  bool loops(const std::string &usr) const;
  // How deeply loops nest around its calls over all the files' calls: 0, 1 or 2, as
  // CallNesting counts within one unit.
  int nesting(const std::string &usr) const;

private:
  struct Entry {
    bool loops = false, bounded = true;
    std::set<std::string> rests_on;
  };
  std::map<std::string, Entry> functions_;
  std::set<std::tuple<std::string, std::string, bool>> calls_;
  mutable std::map<std::string, bool> bounded_; // decided; absent while open
  mutable std::set<std::string> open_;
  mutable std::optional<std::map<std::string, int>> nesting_;

  bool bounded_at(const std::string &usr, int depth) const;
};

} // namespace idb::instr

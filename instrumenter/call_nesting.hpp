// How deeply loops nest around the calls of each function in one translation unit: 0 when
// no call of it lies in a loop, 1 when one does, 2 when one lies in a loop of a function
// that is itself called in a loop, or deeper. XSBench's calculate_micro_xs is called in the
// nuclide loop of calculate_macro_xs, which is called in the lookup loop: 2, once per
// nuclide of every lookup. A time-step loop's phases are 1. Only calls written in the
// unit's own code count (not a system header's); a function called from another unit
// alone is 0, so the count is a lower bound of what the whole program does.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <map>

namespace idb::instr {

class CallNesting {
public:
  // Scans every function definition of `ast` outside system headers.
  explicit CallNesting(clang::ASTContext &ast);

  // 0, 1 or 2 (see above) for `function`'s definition.
  int nesting(const clang::FunctionDecl &function) const;

private:
  std::map<const clang::FunctionDecl *, int> nesting_;
};

} // namespace idb::instr

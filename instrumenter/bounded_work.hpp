// Whether a function's work per call is bounded by its text: it holds no open-ended loop,
// jumps back nowhere, and every call it makes reaches code of the same kind (a definition
// the translation unit holds, itself bounded, or a math builtin such as sqrt or fabs).
// Such a function takes a short, fixed time per call: LULESH's AreaFace or a stencil's
// per-cell helper, called from a loop millions of times. The selection's bounded rule keeps
// probes out of it (docs/instrumenter.md, "The size rule"). Anything the analysis cannot
// see through makes a function unbounded: a call through a pointer or a virtual call,
// `new`, `delete`, `throw`, a library function (MPI, I/O, allocation), recursion, a call
// chain deeper than kBoundedDepth.
//
// Given `probed`, the analysis tells whether a function's *own* work is bounded: a callee
// that `probed` accepts (a function of the sources with a loop, which holds a probe of its
// own) counts as bounded, since its time is measured apart.
//
// Given `external`, a callee declared in the user's code (outside system headers) but not
// defined in the unit is asked about rather than taken as unbounded: the program index
// (program_index.hpp) knows it from the other files of the program. Each answer it gives
// true is remembered with the functions whose result rests on it (`rests_on`).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <functional>
#include <map>
#include <set>
#include <vector>

namespace idb::instr {

// How deep a call chain is followed before the analysis gives up (unbounded).
constexpr int kBoundedDepth = 12;

class BoundedWork {
public:
  using Probed = std::function<bool(const clang::FunctionDecl &)>;
  using External = std::function<bool(const clang::FunctionDecl &)>;
  explicit BoundedWork(const clang::ASTContext &ast, Probed probed = nullptr,
                       External external = nullptr)
      : ast_(ast), probed_(std::move(probed)), external_(std::move(external)) {}

  // True when `function`'s work is bounded (see above). Memoised per definition.
  bool bounded(const clang::FunctionDecl &function);
  // True when the calls and jumps of statement `s` are: every call reaches bounded code,
  // no jump goes back. Its loops are the caller's to weigh (this does not look at them).
  // With `rests`, the callees `external` answered for that the result rests on go there.
  bool bounded_calls(const clang::Stmt &s, std::set<const clang::FunctionDecl *> *rests = nullptr);
  // The declarations of the callees `external` answered for that `function`'s result
  // rests on, through every definition it reaches (after `bounded`).
  const std::set<const clang::FunctionDecl *> &rests_on(const clang::FunctionDecl &function);

private:
  enum class State { Open, Bounded, Unbounded };
  const clang::ASTContext &ast_;
  Probed probed_;
  External external_;
  std::map<const clang::FunctionDecl *, State> known_;
  std::map<const clang::FunctionDecl *, std::set<const clang::FunctionDecl *>> rests_;
  std::vector<std::set<const clang::FunctionDecl *> *> open_; // the definitions being weighed
  int depth_ = 0;

  bool user_declared(const clang::FunctionDecl &callee) const;

  bool function(const clang::FunctionDecl &function);
  bool callee(const clang::FunctionDecl *callee);
  bool statement(const clang::Stmt *s);
};

} // namespace idb::instr

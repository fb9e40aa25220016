// One walk over a function body that finds what the rules need: its loops (with nesting
// depth and ordinal), its calls (with callee name, ordinal, and the statement a probe
// could wrap), and how much work it holds. Lambda bodies and local classes are left
// out: a lambda is not a procedure of its own here (docs/instrumenter.md). So are calls
// that are never evaluated or evaluated at compile time (sizeof, decltype, noexcept,
// typeid, _Generic, constant expressions, constexpr initialisers, builtins' arguments).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include <map>
#include <string>
#include <vector>

namespace idb::instr {

struct LoopSite {
  const clang::Stmt *loop = nullptr;
  const clang::Stmt *body = nullptr;
  int depth = 1;              // 1 = outermost loop of the function
  unsigned ordinal = 0;       // 1-based, source order within the function
  unsigned parent = 0;        // the enclosing loop's ordinal, 0 at the function's level
  bool in_expression = false; // inside a GNU statement expression
  bool sealed = false;     // a `simd` loop or `collapse`d nest: whole or not at all, body unscanned
  int trips = -1;          // the trip count when a constant of at most kShortTrips, else -1
  unsigned weight = 0;     // the work estimate of the whole loop (see FunctionScan)
  bool holds_loop = false; // an open-ended loop is nested in it
};

// A loop whose trip count is a constant up to this is counted as its body repeated, not as
// a loop of unknown length: `for (d = 0; d < 3; ++d)` is three copies of its body.
constexpr unsigned kShortTrips = 16;

// A loop that halves an interval each trip (a binary search: `mid = lo + (hi - lo) / 2`,
// then `lo` or `hi` set from `mid`, under a condition on them) runs as many trips as the
// logarithm of its data: it counts as its body this many times (a table of a million
// entries), not as open-ended work.
constexpr unsigned kBisectionTrips = 20;

// How a probe around a call can be placed without changing what the code means.
enum class CallForm {
  Expression, // inside a larger expression: `__extension__ ({ probe; f(x); })`
  Wrap,       // `f(x);`, `y = f(x);`, `return f(x);`: wrapped as `{ probe; stmt }`
  Bracket,    // `T y = f(x);` in a block: start before, stop after
};

struct CallSite {
  const clang::CallExpr *call = nullptr;
  const clang::Stmt *statement = nullptr; // what Wrap or Bracket surround
  std::string callee;
  unsigned ordinal = 0; // 1-based among the function's calls to the same callee
  unsigned loop = 0;    // the ordinal of the innermost loop holding it, 0 for none
  // The callee's size when its definition is in the translation unit (a header's inline
  // function, say): its weight, and whether it holds an open-ended loop; -1 when unknown.
  int callee_weight = -1;
  bool callee_loops = false;
  CallForm form = CallForm::Expression;
};

// The size estimate the small-function rule weighs: every statement of the whole body
// (nested blocks, branches and loop bodies included) and every call count one; a short
// loop's body counts once per trip, a binary search's kBisectionTrips times. A loop of any
// other length is open-ended work, so a function holding one is never small, whatever it
// weighs.
struct FunctionScan {
  std::vector<LoopSite> loops;
  std::vector<CallSite> calls;
  unsigned weight = 0;
  unsigned long_loops = 0;    // loops of unknown length but binary searches
  unsigned bisections = 0;    // binary searches (kBisectionTrips), not in long_loops
  bool returns_twice = false; // it calls setjmp (or another function that returns twice)
  // Statements a directive or attribute governs: the loop of `#pragma omp for` (also when a
  // macro or _Pragma spells it), the statement of `omp atomic`, a `[[likely]]` branch. A
  // probe may go inside them, never around: it would come between.
  // Each governed statement with the directive or attributed statement that governs it.
  std::map<const clang::Stmt *, const clang::Stmt *> governed;
};

// Scans `function`'s body; with `callees`, also the definitions its calls reach (one level:
// their size, for CallSite::callee_weight).
FunctionScan scan_function(const clang::FunctionDecl &function, bool callees = true);

// True for a check: an `if` without `else` whose branch only reports and gives up, every
// statement of it (through braces and `do { } while (0)`) a call to a function that never
// returns (`abort`, `exit`), a message (`printf`, `fprintf`, `puts`, `fputs`, `perror`,
// `fflush`, `MPI_Abort`, or `<<` into a `std::ostream`) whose arguments call nothing else,
// or a `return` of a value computed without a call. Its branch is not the function's work:
// the size rule does not weigh it and the bounded rule does not follow it (an assertion
// macro that prints instead of aborting, as Quicksilver's `qs_assert`, made a 4 ns
// accessor weigh over the size rule; docs/instrumenter.md).
bool is_check(const clang::IfStmt &s);

// The qualified name without "(anonymous namespace)::", which says nothing to a reader.
std::string readable_name(const clang::NamedDecl &decl);

// The name a call is known by: the function, method or unresolved name.
std::string callee_name(const clang::CallExpr &call);

// True when a jump from outside `stmt` could land inside it: it holds a `case`/`default` of
// a switch outside it, or a label that a `goto` outside it names (or the function has a
// computed goto). Wrapping it in a block would let that jump bypass the probe's start.
bool has_jump_target(const clang::Stmt &stmt, const clang::FunctionDecl &function);

} // namespace idb::instr

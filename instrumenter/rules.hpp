// The probe rules, one small class per kind (PROC, LOOP, CALL, COMM). Each finds its
// candidates in a function and, for a selected one, adds the insertions that place the
// probe, or says why it cannot. The translation unit pass (unit.cpp) drives them.
#pragma once

#include "candidate.hpp"
#include "edits.hpp"
#include "function_scan.hpp"
#include "selection.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include <memory>
#include <string>
#include <vector>

namespace idb::instr {

// What the rules know about the function being instrumented.
struct FunctionContext {
  const clang::FunctionDecl *decl = nullptr;
  clang::ASTContext *ast = nullptr;
  const std::string *file = nullptr; // the path as given (a header's as the preprocessor named it)
  const std::string *text = nullptr; // that file's text
  clang::FileID fid;                 // the file the function is written in
  std::string name;                  // qualified name
  std::string signature;             // name and type: the ID's function part
  FunctionScan scan;
  // Its work per call is bounded (BoundedWork) and it weighs under the selection's
  // bounded-weight: the bounded rule's PROC and LOOP skip, unless an `id=` rule forces one.
  bool bounded = false;
  // Not bounded, but its own work is (its callees are bounded or hold loops, and probes,
  // of their own), it weighs under bounded-weight, and it is called in a loop of a
  // function called in a loop (CallNesting): the bounded rule's second case.
  bool nested_helper = false;
  // The function's one open-ended loop when it is the function's whole work: a statement of
  // the body itself, everything else bounded (its calls reach bounded code or functions
  // that hold probes of their own) and weighing `rest_weight`, under bounded-weight. Its
  // black box measures what the function's PROC does, so it is skipped when the PROC is
  // placed (`proc_placed`, known before any LOOP site is placed). Never in main.
  const LoopSite *whole_loop = nullptr;
  unsigned rest_weight = 0;
  // The bounded rule's verdict (`bounded`, `nested_helper`) or the whole-work loop rests
  // on what the program index says of the other files: their reasons say so.
  bool through_index = false;
  bool proc_placed = false;
  bool cxx = false;
  std::string no_probes; // why no probe may go in this function at all ("" if any may)
};

// A candidate and the scan entry it stands for: `loop` for LOOP, `call` for CALL and COMM
// (entries of ctx.scan), neither for PROC.
struct Site {
  Candidate candidate;
  const LoopSite *loop = nullptr;
  const CallSite *call = nullptr;
};

class ProbeRule {
public:
  virtual ~ProbeRule() = default;
  virtual Kind kind() const = 0;
  virtual void collect(const FunctionContext &ctx, std::vector<Site> &out) const = 0;
  // Adds the insertions for `site`; returns "" or the reason it was skipped.
  virtual std::string place(const FunctionContext &ctx, const Site &site, const Selection &sel,
                            Edits &edits) const = 0;
};

std::unique_ptr<ProbeRule> make_proc_rule();
std::unique_ptr<ProbeRule> make_loop_rule();
std::unique_ptr<ProbeRule> make_call_rule();
std::unique_ptr<ProbeRule> make_comm_rule();
// The CALL rule's placement for calls of `kind` (CALL: any but MPI; COMM: MPI only).
std::unique_ptr<ProbeRule> make_call_rule_of_kind(Kind kind);

// ---- Helpers the rules share (probe_text.cpp).

// A candidate with ID, location and function filled in; `key` completes the ID.
Candidate make_candidate(const FunctionContext &ctx, Kind kind, clang::SourceLocation loc,
                         const std::string &key);

// The ID of the function's loop with `ordinal` (LoopSite::ordinal), 0 for ordinal 0: what
// a candidate inside that loop names as its parent.
int loop_probe_id(const FunctionContext &ctx, unsigned ordinal);

// The declaration that opens a probe until the end of the enclosing block: the cleanup
// scope of probe.h in C (volatile in a function that calls setjmp), idb::Scope in C++.
std::string scope_text(const Candidate &c, const FunctionContext &ctx);
// `idb_open_(...);` and `idb_close_(id);` for the bracket form.
std::string start_text(const Candidate &c);
std::string stop_text(const Candidate &c);

// Whether `loc` is written in the function's own file (not a macro, not another file).
bool in_own_file(const FunctionContext &ctx, clang::SourceLocation loc);

// The file offsets [begin, end) of a statement including its closing `;`, or an
// error naming why it cannot be edited (macro, other file, no `;` found).
struct StmtRange {
  unsigned begin = 0, end = 0;
  std::string error;
};
StmtRange statement_range(const FunctionContext &ctx, const clang::Stmt &stmt);
// The same for an expression, without looking for a `;`.
StmtRange expression_range(const FunctionContext &ctx, const clang::Expr &expr);

// True when the line before `offset` is a `#pragma` or `_Pragma` (omp, unroll, ivdep, ...),
// also with preprocessor conditionals (`#ifdef _OPENMP` ... `#endif`) or comments between,
// or a pragma continued by backslashes: it applies to the statement that follows, which
// must stay right after it, whichever way the conditionals go.
bool follows_pragma(const std::string &text, unsigned offset);

// The offset of the line that starts the directives governing the statement at `offset`
// (what follows_pragma looks through), taking in whole the conditionals around them; npos
// when no pragma governs it.
size_t pragma_group_start(const std::string &text, unsigned offset);

// Wraps a statement that a pragma governs together with its directives, so the probe is
// around the whole construct, never between: `{ probe;` on a line of its own before the
// directives (with `#line` after it), or before a macro that spells the pragma, and `}`
// after the statement. A `#pragma omp parallel for` whose clauses can be dealt is split
// into `#pragma omp parallel` with `{ probe;` and `#pragma omp for` inside (also under a
// guard that holds the directive alone), so the probe opens on every thread of the team
// (docs/instrumenter.md, OpenMP). Returns "" or why not.
std::string wrap_construct(const FunctionContext &ctx, const clang::Stmt &stmt, const Candidate &c,
                           int rank, Edits &edits);

// Wraps a statement as `{ probe; stmt }` (around the construct when a pragma governs it).
// Returns "" or why not.
std::string wrap_statement(const FunctionContext &ctx, const clang::Stmt &stmt, const Candidate &c,
                           int rank, Edits &edits);

// Opens the probe's scope right after the block's `{`, so it closes with the block.
// Returns "" or why not (a macro's or another file's brace, a probe already there).
std::string open_after_brace(const FunctionContext &ctx, const clang::CompoundStmt &block,
                             const Candidate &c, int rank, Edits &edits);

// Ranks of insertions at one offset: outer probes open first and close last.
constexpr int kRankProc = 0;
constexpr int rank_loop(int depth) {
  return 2 * depth;
}
constexpr int kRankCall = 1000;

} // namespace idb::instr

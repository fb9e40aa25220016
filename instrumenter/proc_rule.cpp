// PROC: one probe per function definition, opened first thing in the body and closed on
// every way out by the scope (cleanup attribute in C, RAII in C++), so `return f(x);`
// still counts f inside the caller. Small functions are skipped by the selection's size
// rule, because a probe in a tiny body costs more than the body: small by what the whole
// body holds (FunctionScan's weight, and no open-ended loop), not by the `inline` keyword,
// which only counts when the selection asks for it (`set skip-inline on`). So are
// functions whose work per call is bounded and under the bounded rule's weight: a
// per-element helper called from a loop, where a probe measures a near constant and
// its calls inside the caller's loop body cost more than the helper's own time; and so
// are functions of bounded own work called in nested loops (CallNesting).
#include "probe_id.hpp"
#include "rules.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/Stmt.h>

namespace idb::instr {

using namespace clang;

namespace {

bool is_inline(const FunctionDecl &fd) {
  if (fd.isInlineSpecified()) return true;
  // A member function defined inside its class is inline too.
  auto *method = dyn_cast<CXXMethodDecl>(&fd);
  return method && !fd.isOutOfLine() && fd.getLexicalDeclContext()->isRecord();
}

class ProcRule final : public ProbeRule {
public:
  Kind kind() const override { return Kind::Proc; }

  void collect(const FunctionContext &ctx, std::vector<Site> &out) const override {
    Site site;
    site.candidate = make_candidate(ctx, Kind::Proc, ctx.decl->getLocation(), "");
    site.candidate.description = ctx.name + "(...) [" + base_name(*ctx.file) + ":" +
                                 std::to_string(site.candidate.line) + "]";
    site.candidate.size = ctx.scan.long_loops ? "loop" : std::to_string(ctx.scan.weight);
    out.push_back(site);
  }

  std::string place(const FunctionContext &ctx, const Site &site, const Selection &sel,
                    Edits &edits) const override {
    const FunctionDecl &fd = *ctx.decl;
    bool is_main = fd.isMain();
    if (!is_main && !site.candidate.forced && sel.skip_inline && is_inline(fd))
      return kInlineReason;
    bool small = ctx.scan.long_loops == 0 && ctx.scan.weight < sel.min_statements;
    // These functions hold no loop of unknown length; loops of a constant trip count count
    // as their bodies repeated, binary searches as theirs kBisectionTrips times, and the
    // reason says so.
    std::size_t searches = ctx.scan.bisections, loop_count = ctx.scan.loops.size();
    const char *loops = loop_count == 0         ? "no loop"
                        : searches == 0         ? "short loops only"
                        : searches < loop_count ? "short loops and binary searches only"
                        : searches == 1         ? "a binary search only"
                                                : "binary searches only";
    if (!is_main && !site.candidate.forced && small)
      return std::string(kSmallReason) + " (weight " + std::to_string(ctx.scan.weight) + " under " +
             std::to_string(sel.min_statements) + ", " + loops + ")";
    if (!site.candidate.forced && ctx.bounded)
      return std::string(kBoundedReason) + " (weight " + std::to_string(ctx.scan.weight) +
             " under " + std::to_string(sel.bounded_weight) + ", " + loops +
             ", calls only bounded code" + (ctx.through_index ? kThroughIndex : "") + ")";
    if (!site.candidate.forced && ctx.nested_helper)
      return std::string(kNestedReason) + " (weight " + std::to_string(ctx.scan.weight) +
             " under " + std::to_string(sel.bounded_weight) + ", " + loops +
             ", its own work bounded" + (ctx.through_index ? kThroughIndex : "") + ")";
    auto *body = dyn_cast<CompoundStmt>(fd.getBody());
    if (!body) return "function-try-block body";
    return open_after_brace(ctx, *body, site.candidate, kRankProc, edits);
  }
};

} // namespace

std::unique_ptr<ProbeRule> make_proc_rule() {
  return std::make_unique<ProcRule>();
}

} // namespace idb::instr

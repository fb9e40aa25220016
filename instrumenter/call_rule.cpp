// CALL and COMM: a probe around one call site, placed so that no expression changes its
// value, type, value category or order of evaluation. A call that is a whole statement is
// wrapped in a block (`f(x);`, `y = f(x);`, `return f(x);`) or bracketed by start and stop
// (`T y = f(x);`); a call inside a larger expression or condition becomes a statement
// expression when its value is void or a scalar. COMM is the same rule for MPI calls: the
// PMPI layer adds the bytes of the call to the COMM node that is open around it.
#include "probe_id.hpp"
#include "rules.hpp"

#include <algorithm>

#include <clang/AST/Attr.h>
#include <clang/AST/Expr.h>
#include <clang/Basic/SourceManager.h>

namespace idb::instr {

using namespace clang;

namespace {

bool is_mpi(const std::string &name) {
  return name.rfind("MPI_", 0) == 0 || name.rfind("PMPI_", 0) == 0;
}

bool is_builtin(const std::string &name) {
  return name.rfind("__builtin", 0) == 0;
}

// `__extension__ ({ probe; f(x); })`: a GNU statement expression whose value is the
// call's, with the probe closed once the value is computed. Only for calls whose value is
// void or a scalar prvalue: anything else would be copied out of the statement expression,
// changing its value category or type.
std::string place_in_expression(const FunctionContext &ctx, const CallSite &call, const Site &site,
                                Edits &edits) {
  QualType type = call.call->getType();
  if (!call.call->isPRValue() || !(type->isVoidType() || type->isScalarType()))
    return "inside an expression, returning an object or a reference";
  StmtRange range = expression_range(ctx, *call.call);
  if (!range.error.empty()) return range.error;
  if (!edits.claim(range.begin, range.end)) return "the call already holds a probe";
  // Calls nested in one another's range open outermost first: rank by length.
  int rank =
      kRankCall + 1 + (1 << 24) - static_cast<int>(std::min(range.end - range.begin, 1U << 23));
  edits.insert(range.begin, rank, "__extension__ ({ " + scope_text(site.candidate, ctx) + " ");
  edits.insert(range.end, -rank - 1, "; })");
  return "";
}

class CallRule : public ProbeRule {
public:
  explicit CallRule(Kind kind) : kind_(kind) {}
  Kind kind() const override { return kind_; }

  void collect(const FunctionContext &ctx, std::vector<Site> &out) const override {
    const auto &sm = ctx.ast->getSourceManager();
    for (const CallSite &call : ctx.scan.calls) {
      if (is_builtin(call.callee) || is_mpi(call.callee) != (kind_ == Kind::Comm)) continue;
      // A system header's macro (isupper, ...) expands to calls the user never wrote.
      if (sm.isInSystemMacro(call.call->getBeginLoc())) continue;
      Site site;
      site.call = &call;
      site.candidate = make_candidate(ctx, kind_, call.call->getBeginLoc(),
                                      call.callee + "#" + std::to_string(call.ordinal));
      site.candidate.callee = call.callee;
      site.candidate.parent = loop_probe_id(ctx, call.loop);
      if (call.callee_weight >= 0)
        site.candidate.size = call.callee_loops ? "loop" : std::to_string(call.callee_weight);
      std::string where =
          "[" + base_name(*ctx.file) + ":" + std::to_string(site.candidate.line) + "]";
      site.candidate.description = kind_ == Kind::Comm
                                       ? call.callee + "(...) " + where
                                       : call.callee + "(...) in " + ctx.name + " " + where;
      out.push_back(site);
    }
  }

  std::string place(const FunctionContext &ctx, const Site &site, const Selection &,
                    Edits &edits) const override {
    const CallSite &call = *site.call;
    if (const FunctionDecl *callee = call.call->getDirectCallee();
        callee && callee->hasAttr<ReturnsTwiceAttr>())
      return "the callee returns twice (setjmp)";
    // exit(), abort(), longjmp(): the probe around them could never close.
    if (const FunctionDecl *callee = call.call->getDirectCallee(); callee && callee->isNoReturn())
      return "the callee does not return";
    if (call.call->getBeginLoc().isMacroID() || call.call->getEndLoc().isMacroID())
      return "inside a macro expansion";
    if (call.form == CallForm::Expression) return place_in_expression(ctx, call, site, edits);
    if (call.form == CallForm::Wrap)
      return wrap_statement(ctx, *call.statement, site.candidate, kRankCall, edits);
    // C90 allows no statement before a declaration.
    if (!ctx.cxx && !ctx.ast->getLangOpts().C99) return "a declaration in C90";
    StmtRange range = statement_range(ctx, *call.statement);
    if (!range.error.empty()) return range.error;
    if (!edits.claim(range.begin, range.end)) return "the statement already holds a probe";
    edits.insert(range.begin, kRankCall, start_text(site.candidate));
    edits.insert(range.end, -kRankCall - 1, stop_text(site.candidate));
    return "";
  }

private:
  Kind kind_;
};

} // namespace

std::unique_ptr<ProbeRule> make_call_rule_of_kind(Kind kind) {
  return std::make_unique<CallRule>(kind);
}

std::unique_ptr<ProbeRule> make_call_rule() {
  return make_call_rule_of_kind(Kind::Call);
}

} // namespace idb::instr

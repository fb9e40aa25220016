// LOOP: a black-box probe wraps the whole loop (`{ probe; for (...) ... }`, one activation
// per execution of the loop); a white-box probe opens at the top of the body (one
// activation per iteration) and closes on continue, break, return and goto through the
// scope. A loop that a jump could enter from outside (a label a goto outside names, or a
// case of an enclosing switch, inside it) is left alone: the jump would bypass the
// probe's initialisation.
#include "probe_id.hpp"
#include "rules.hpp"

#include <clang/AST/Stmt.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

namespace idb::instr {

using namespace clang;

namespace {

const char *loop_word(const Stmt &s) {
  if (isa<ForStmt>(s)) return "for";
  if (isa<WhileStmt>(s)) return "while";
  if (isa<DoStmt>(s)) return "do-while";
  return "range-for";
}

// Opens the probe at the top of the body: after its `{`, or around an unbraced body.
std::string place_whitebox(const FunctionContext &ctx, const LoopSite &loop, const Candidate &c,
                           Edits &edits) {
  int rank = rank_loop(loop.depth) + 1;
  auto *block = dyn_cast<CompoundStmt>(loop.body);
  if (!block) return wrap_statement(ctx, *loop.body, c, rank, edits);
  return open_after_brace(ctx, *block, c, rank, edits);
}

class LoopRule final : public ProbeRule {
public:
  Kind kind() const override { return Kind::Loop; }

  void collect(const FunctionContext &ctx, std::vector<Site> &out) const override {
    const auto &sm = ctx.ast->getSourceManager();
    for (const LoopSite &loop : ctx.scan.loops) {
      if (sm.isInSystemMacro(loop.loop->getBeginLoc())) continue;
      Site site;
      site.loop = &loop;
      site.candidate = make_candidate(ctx, Kind::Loop, loop.loop->getBeginLoc(),
                                      "loop#" + std::to_string(loop.ordinal));
      site.candidate.depth = loop.depth;
      site.candidate.parent = loop_probe_id(ctx, loop.parent);
      // A loop of a constant trip count does work set by its text: `short` says so.
      site.candidate.size = loop.holds_loop   ? "loop"
                            : loop.trips >= 0 ? "short " + std::to_string(loop.weight)
                                              : std::to_string(loop.weight);
      site.candidate.description = std::string(loop_word(*loop.loop)) + " loop in " + ctx.name +
                                   " [" + base_name(*ctx.file) + ":" +
                                   std::to_string(site.candidate.line) + "]";
      out.push_back(site);
    }
  }

  std::string place(const FunctionContext &ctx, const Site &site, const Selection &sel,
                    Edits &edits) const override {
    const LoopSite &loop = *site.loop;
    // The size rule of functions, for loops: a short loop of little work is a few
    // statements, not a place a probe pays for itself. Open-ended loops always qualify.
    if (!site.candidate.forced && loop.trips >= 0 && loop.weight < sel.min_statements)
      return std::string(kShortLoopReason) + " (" + std::to_string(loop.trips) + " trips, weight " +
             std::to_string(loop.weight) + " under " + std::to_string(sel.min_statements) + ")";
    if (!site.candidate.forced && ctx.bounded)
      return std::string(kInBoundedReason) + " (weight " + std::to_string(ctx.scan.weight) +
             " under " + std::to_string(sel.bounded_weight) + ")";
    if (!site.candidate.forced && ctx.nested_helper)
      return std::string(kInNestedReason) + " (weight " + std::to_string(ctx.scan.weight) +
             " under " + std::to_string(sel.bounded_weight) + ")";
    if (!site.candidate.forced && ctx.whole_loop == &loop && ctx.proc_placed &&
        site.candidate.loop_mode == LoopMode::blackbox)
      return std::string(kWholeWorkReason) + " (the rest weighs " +
             std::to_string(ctx.rest_weight) + " under " + std::to_string(sel.bounded_weight) +
             ", bounded" + (ctx.through_index ? kThroughIndex : "") + ")";
    if (loop.in_expression) return "inside a statement expression";
    if (!loop.body) return "no body";
    if (site.candidate.loop_mode != LoopMode::blackbox) { // white box, or dynamic
      if (loop.sealed) return "a simd loop or collapsed nest: a probe inside would break it";
      if (has_jump_target(*loop.body, *ctx.decl)) return "a jump could enter its body";
      return place_whitebox(ctx, loop, site.candidate, edits);
    }
    if (has_jump_target(*loop.loop, *ctx.decl)) return "a jump could enter the loop";
    return wrap_statement(ctx, *loop.loop, site.candidate, rank_loop(loop.depth), edits);
  }
};

} // namespace

std::unique_ptr<ProbeRule> make_loop_rule() {
  return std::make_unique<LoopRule>();
}

} // namespace idb::instr

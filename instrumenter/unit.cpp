// The translation-unit pass behind instrument_unit.
#include "unit.hpp"

#include "manifest.hpp"
#include "rules.hpp"

#include <clang/AST/Attr.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace idb::instr {

using namespace clang;

namespace {

// Why no probe may go into this function at all, or "".
std::string no_probes_reason(const FunctionDecl &fd) {
  if (fd.isConstexpr()) return fd.isConsteval() ? "consteval function" : "constexpr function";
  if (fd.hasAttr<NakedAttr>()) return "naked function";
  if (isa<CoroutineBodyStmt>(fd.getBody())) return "coroutine";
  if (fd.getBody()->getBeginLoc().isMacroID() || fd.getLocation().isMacroID())
    return "defined by a macro expansion";
  return "";
}

class Unit : public RecursiveASTVisitor<Unit> {
public:
  Unit(ASTContext &ast, const std::string &file, const Selection &sel, bool apply,
       bool keep_columns)
      : ast_(ast), file_(file), sel_(sel), apply_(apply), keep_columns_(keep_columns),
        text_(ast.getSourceManager().getBufferData(ast.getSourceManager().getMainFileID())) {
    rules_.push_back(make_proc_rule());
    rules_.push_back(make_loop_rule());
    rules_.push_back(make_comm_rule());
    rules_.push_back(make_call_rule());
  }

  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (wanted(*fd)) function(*fd);
    return true;
  }

  FileResult finish() {
    FileResult result;
    result.file = file_;
    std::sort(candidates_.begin(), candidates_.end(), [](const Candidate &a, const Candidate &b) {
      return std::tie(a.line, a.column, a.kind) < std::tie(b.line, b.column, b.kind);
    });
    result.error = check_ids();
    result.candidates = std::move(candidates_);
    if (apply_ && result.error.empty())
      result.output = prelude(file_) + edits_.apply(text_, keep_columns_ ? &file_ : nullptr) +
                      registration(result.candidates);
    return result;
  }

private:
  ASTContext &ast_;
  const std::string &file_;
  const Selection &sel_;
  bool apply_;
  bool keep_columns_;
  std::string text_;
  std::vector<std::unique_ptr<ProbeRule>> rules_;
  std::vector<Candidate> candidates_;
  Edits edits_;

  bool wanted(const FunctionDecl &fd) const {
    if (!fd.doesThisDeclarationHaveABody() || !fd.getBody() || fd.isImplicit() ||
        fd.isDefaulted() || fd.isDeleted() || fd.isTemplateInstantiation())
      return false;
    const SourceManager &sm = ast_.getSourceManager();
    SourceLocation at = sm.getExpansionLoc(fd.getBeginLoc());
    return sm.isWrittenInMainFile(at) && !sm.isInSystemHeader(at);
  }

  void function(const FunctionDecl &fd) {
    FunctionContext ctx;
    ctx.decl = &fd;
    ctx.ast = &ast_;
    ctx.file = &file_;
    ctx.text = &text_;
    ctx.signature = fd.getQualifiedNameAsString() + " " + fd.getType().getAsString();
    ctx.name = readable_name(fd);
    ctx.scan = scan_function(fd);
    ctx.cxx = ast_.getLangOpts().CPlusPlus;
    ctx.no_probes = no_probes_reason(fd);
    std::vector<std::pair<const ProbeRule *, Site>> sites;
    for (const auto &rule : rules_) {
      std::vector<Site> found;
      rule->collect(ctx, found);
      for (Site &site : found)
        sites.emplace_back(rule.get(), std::move(site));
    }
    tell_apart(sites);
    for (auto &[rule, site] : sites) {
      select(sel_, site.candidate);
      if (site.candidate.selected)
        site.candidate.skipped =
            ctx.no_probes.empty() ? rule->place(ctx, site, sel_, edits_) : ctx.no_probes;
      candidates_.push_back(std::move(site.candidate));
    }
  }

  // Two probes of one line with the same description (`f(g(x)) + g(y)`) get the column in
  // their location, "[file.c:12:9]", so the profile tells them apart.
  static void tell_apart(std::vector<std::pair<const ProbeRule *, Site>> &sites) {
    std::map<std::string, int> count;
    for (const auto &entry : sites)
      ++count[entry.second.candidate.description];
    for (auto &entry : sites) {
      Candidate &c = entry.second.candidate;
      if (count[c.description] < 2 || c.description.back() != ']') continue;
      c.description.insert(c.description.size() - 1, ":" + std::to_string(c.column));
    }
  }

  std::string check_ids() const {
    std::map<int, const Candidate *> seen;
    for (const Candidate &c : candidates_) {
      auto [it, fresh] = seen.emplace(c.id, &c);
      if (!fresh)
        return "probe ID " + std::to_string(c.id) + " of " + c.description + " collides with " +
               it->second->description;
    }
    return "";
  }
};

} // namespace

FileResult instrument_unit(ASTContext &ast, const std::string &file, const Selection &selection,
                           bool apply, bool keep_columns) {
  Unit unit(ast, file, selection, apply, keep_columns);
  unit.TraverseDecl(ast.getTranslationUnitDecl());
  return unit.finish();
}

} // namespace idb::instr

#include "call_nesting.hpp"

#include "function_scan.hpp"

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <vector>

namespace idb::instr {

using namespace clang;

namespace {

struct Call {
  const FunctionDecl *caller = nullptr, *callee = nullptr;
  bool in_loop = false;
};

// Every call of the unit's own function definitions, with whether a loop holds it.
class CallCollector : public RecursiveASTVisitor<CallCollector> {
public:
  explicit CallCollector(const SourceManager &sm) : sm_(sm) {}
  std::vector<Call> calls;

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (!fd->doesThisDeclarationHaveABody() || !fd->getBody() || fd->isImplicit()) return true;
    SourceLocation at = sm_.getExpansionLoc(fd->getBeginLoc());
    if (at.isInvalid() || sm_.isInSystemHeader(at)) return true;
    for (const CallSite &site : scan_function(*fd, false).calls) {
      const FunctionDecl *callee = site.call->getDirectCallee();
      if (callee && (callee = callee->getDefinition()))
        calls.push_back({fd, callee, site.loop != 0});
    }
    return true;
  }

private:
  const SourceManager &sm_;
};

} // namespace

CallNesting::CallNesting(ASTContext &ast) {
  CallCollector collector(ast.getSourceManager());
  collector.TraverseDecl(ast.getTranslationUnitDecl());
  // Each function's count only grows, up to 2: the passes end after at most two rounds of
  // growth per function.
  for (bool grew = true; grew;) {
    grew = false;
    for (const Call &call : collector.calls) {
      auto caller = nesting_.find(call.caller);
      int through = std::min(2, (caller == nesting_.end() ? 0 : caller->second) + call.in_loop);
      int &mine = nesting_[call.callee];
      if (through > mine) {
        mine = through;
        grew = true;
      }
    }
  }
}

int CallNesting::nesting(const FunctionDecl &function) const {
  const FunctionDecl *definition = function.getDefinition();
  auto it = nesting_.find(definition ? definition : &function);
  return it == nesting_.end() ? 0 : it->second;
}

} // namespace idb::instr

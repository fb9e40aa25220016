#include "bounded_work.hpp"

#include "function_scan.hpp"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/Builtins.h>
#include <clang/Basic/SourceManager.h>

namespace idb::instr {

using namespace clang;

bool BoundedWork::bounded(const FunctionDecl &function) {
  const FunctionDecl *definition = function.getDefinition();
  return definition && this->function(*definition);
}

const std::set<const FunctionDecl *> &BoundedWork::rests_on(const FunctionDecl &function) {
  const FunctionDecl *definition = function.getDefinition();
  return rests_[definition ? definition : &function];
}

bool BoundedWork::bounded_calls(const Stmt &s, std::set<const FunctionDecl *> *rests) {
  std::set<const FunctionDecl *> mine;
  open_.push_back(&mine);
  bool result = statement(&s);
  open_.pop_back();
  if (rests) rests->insert(mine.begin(), mine.end());
  return result;
}

bool BoundedWork::function(const FunctionDecl &definition) {
  auto known = known_.find(&definition);
  if (known != known_.end()) { // Open: recursion
    if (known->second == State::Bounded && !open_.empty()) {
      const auto &mine = rests_[&definition];
      open_.back()->insert(mine.begin(), mine.end());
    }
    return known->second == State::Bounded;
  }
  if (!definition.hasBody() || depth_ >= kBoundedDepth) return false;
  known_[&definition] = State::Open;
  std::set<const FunctionDecl *> &rests = rests_[&definition];
  open_.push_back(&rests);
  ++depth_;
  bool result = scan_function(definition, false).long_loops == 0 && statement(definition.getBody());
  if (result) // a constructor's member and base initialisers run before its body
    if (auto *ctor = dyn_cast<CXXConstructorDecl>(&definition))
      for (const CXXCtorInitializer *init : ctor->inits())
        if (!statement(init->getInit())) result = false;
  --depth_;
  open_.pop_back();
  known_[&definition] = result ? State::Bounded : State::Unbounded;
  if (result && !open_.empty()) open_.back()->insert(rests.begin(), rests.end());
  return result;
}

// Declared in the user's code: a function of another file of the program, not a
// library's (whose headers are system headers).
bool BoundedWork::user_declared(const FunctionDecl &callee) const {
  const SourceManager &sm = ast_.getSourceManager();
  SourceLocation at = sm.getExpansionLoc(callee.getLocation());
  return at.isValid() && !sm.isInSystemHeader(at) && !callee.isTemplateInstantiation();
}

bool BoundedWork::callee(const FunctionDecl *callee) {
  if (!callee) return false;
  // A call that never returns ends the path (abort, exit, a failed assert).
  if (callee->isNoReturn()) return true;
  if (unsigned id = callee->getBuiltinID())
    return ast_.BuiltinInfo.isConst(id) || ast_.BuiltinInfo.isConstWithoutErrno(id);
  const FunctionDecl *definition = callee->getDefinition();
  if (definition && probed_ && probed_(*definition)) return true;
  if (definition) return function(*definition);
  if (!external_ || !user_declared(*callee) || !external_(*callee)) return false;
  if (!open_.empty()) open_.back()->insert(callee->getCanonicalDecl());
  return true;
}

// The destructor an object of `type` runs at the end of its life, when it does anything.
static const CXXDestructorDecl *destructor_of(QualType type, const ASTContext &ast) {
  const CXXRecordDecl *record = ast.getBaseElementType(type)->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition() || record->hasTrivialDestructor()) return nullptr;
  return record->getDestructor();
}

bool BoundedWork::statement(const Stmt *s) {
  if (!s) return true;
  // Not run here (a lambda runs where it is called: operator() is a callee), or not run
  // at all.
  if (isa<LambdaExpr, BlockExpr, UnaryExprOrTypeTraitExpr, CXXNoexceptExpr, ConstantExpr>(s))
    return true;
  if (isa<CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, IndirectGotoStmt>(s)) return false;
  if (auto *check = dyn_cast<IfStmt>(s); check && is_check(*check)) // its report ends the path
    return statement(check->getInit()) && statement(check->getConditionVariableDeclStmt()) &&
           statement(check->getCond());
  if (auto *jump = dyn_cast<GotoStmt>(s)) { // a jump back is a loop
    const LabelStmt *label = jump->getLabel()->getStmt();
    const SourceManager &sm = ast_.getSourceManager();
    if (!label || !sm.isBeforeInTranslationUnit(jump->getBeginLoc(), label->getBeginLoc()))
      return false;
  }
  if (auto *call = dyn_cast<CallExpr>(s)) {
    if (auto *member = dyn_cast<CXXMemberCallExpr>(call)) {
      const CXXMethodDecl *method = member->getMethodDecl();
      if (method && method->isVirtual() && !method->hasAttr<FinalAttr>() &&
          !method->getParent()->hasAttr<FinalAttr>())
        return false;
    }
    if (!callee(call->getDirectCallee())) return false;
  } else if (auto *construct = dyn_cast<CXXConstructExpr>(s)) {
    const CXXConstructorDecl *ctor = construct->getConstructor();
    if (!ctor->isTrivial() && !callee(ctor)) return false;
  } else if (auto *temporary = dyn_cast<CXXBindTemporaryExpr>(s)) {
    if (!callee(temporary->getTemporary()->getDestructor())) return false;
  } else if (auto *decls = dyn_cast<DeclStmt>(s)) {
    for (const Decl *d : decls->decls())
      if (auto *var = dyn_cast<VarDecl>(d)) {
        if (const CXXDestructorDecl *dtor = destructor_of(var->getType(), ast_);
            dtor && !callee(dtor))
          return false;
        if (var->hasInit() && !var->isConstexpr() && !statement(var->getInit())) return false;
      }
    return true;
  }
  for (const Stmt *child : s->children())
    if (!statement(child)) return false;
  return true;
}

} // namespace idb::instr

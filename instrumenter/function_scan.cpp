// The body walk behind FunctionScan. Statement positions (a block's items, the branches of
// an if, a loop or switch body, a label's statement) are tracked explicitly, because only
// a call that is a whole statement can take a probe without touching the expression.
#include "function_scan.hpp"

#include <clang/AST/Attr.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/AST/StmtOpenMP.h>
#include <clang/Basic/OpenMPKinds.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace idb::instr {

using namespace clang;

namespace {

const Expr *strip(const Expr *e) {
  while (true) {
    e = e->IgnoreParenImpCasts();
    if (auto *cleanups = dyn_cast<ExprWithCleanups>(e))
      e = cleanups->getSubExpr();
    else if (auto *bind = dyn_cast<CXXBindTemporaryExpr>(e))
      e = bind->getSubExpr();
    else if (auto *mat = dyn_cast<MaterializeTemporaryExpr>(e))
      e = mat->getSubExpr();
    else if (auto *cast = dyn_cast<CStyleCastExpr>(e); cast && cast->getType()->isVoidType())
      e = cast->getSubExpr();
    else
      return e;
  }
}

// Whether `s` or anything below it calls a function (operators on builtin types are not
// calls).
bool calls_anything(const Stmt *s) {
  if (!s || isa<UnaryExprOrTypeTraitExpr, LambdaExpr>(s)) return false;
  if (isa<CallExpr, CXXConstructExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr>(s)) return true;
  for (const Stmt *child : s->children())
    if (calls_anything(child)) return true;
  return false;
}

bool in_std_or_global(const FunctionDecl &f) {
  const DeclContext *context = f.getDeclContext()->getRedeclContext();
  return context->isTranslationUnit() || context->isStdNamespace() ||
         (context->isExternCContext() || context->isExternCXXContext());
}

bool is_ostream(QualType type) {
  const CXXRecordDecl *record = type.getNonReferenceType()->getAsCXXRecordDecl();
  if (!record) return false;
  if (record->getName() == "basic_ostream" && record->isInStdNamespace()) return true;
  if (!record->hasDefinition()) return false;
  for (const CXXBaseSpecifier &base : record->bases())
    if (is_ostream(base.getType())) return true;
  return false;
}

// A message or the end of the program, with arguments that call nothing else.
bool is_report(const Expr *e) {
  e = strip(e);
  if (auto *op = dyn_cast<CXXOperatorCallExpr>(e)) {
    if (op->getOperator() != OO_LessLess || op->getNumArgs() != 2) return false;
    const Expr *stream = strip(op->getArg(0));
    bool chained = isa<CXXOperatorCallExpr>(stream)
                       ? is_report(stream)
                       : is_ostream(stream->getType()) && !calls_anything(stream);
    return chained && is_ostream(op->getType()) &&
           (!calls_anything(op->getArg(1)) || is_report(op->getArg(1)));
  }
  auto *call = dyn_cast<CallExpr>(e);
  const FunctionDecl *f = call ? call->getDirectCallee() : nullptr;
  if (!f) return false;
  if (!f->isNoReturn()) {
    static const std::set<std::string> kMessages = {
        "printf", "fprintf", "dprintf", "vprintf", "vfprintf", "puts",     "fputs",
        "fputc",  "putc",    "putchar", "perror",  "fflush",   "MPI_Abort"};
    if (!f->getIdentifier() || !kMessages.count(f->getName().str()) || !in_std_or_global(*f))
      return false;
  }
  for (const Expr *arg : call->arguments())
    if (calls_anything(arg)) return false;
  return true;
}

// Whether `s` only reports and gives up (is_check's branch).
bool reports_only(const Stmt *s) {
  if (!s || isa<NullStmt>(s)) return true;
  if (auto *block = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt *item : block->body())
      if (!reports_only(item)) return false;
    return true;
  }
  if (auto *loop = dyn_cast<DoStmt>(s)) { // a macro's `do { ... } while (0)`
    auto *zero = dyn_cast<IntegerLiteral>(strip(loop->getCond()));
    return zero && zero->getValue() == 0 && reports_only(loop->getBody());
  }
  if (auto *attributed = dyn_cast<AttributedStmt>(s)) return reports_only(attributed->getSubStmt());
  if (auto *ret = dyn_cast<ReturnStmt>(s)) return !calls_anything(ret->getRetValue());
  if (auto *e = dyn_cast<Expr>(s)) return is_report(e);
  return false;
}

// The call a statement consists of, with the form a probe around it takes.
const CallExpr *top_call(const Stmt *s, const Stmt *parent, CallForm &form) {
  const Expr *value = nullptr;
  form = CallForm::Wrap;
  if (auto *ret = dyn_cast<ReturnStmt>(s)) {
    value = ret->getRetValue();
  } else if (auto *e = dyn_cast<Expr>(s)) {
    value = strip(e);
    if (auto *assign = dyn_cast<BinaryOperator>(value); assign && assign->isAssignmentOp())
      value = assign->getRHS();
  } else if (auto *decl = dyn_cast<DeclStmt>(s); decl && decl->isSingleDecl()) {
    auto *var = dyn_cast<VarDecl>(decl->getSingleDecl());
    // A static local is initialised once: a probe around its declaration would count
    // every pass.
    if (!var || !var->getInit() || var->isStaticLocal() || !isa_and_nonnull<CompoundStmt>(parent))
      return nullptr;
    value = var->getInit();
    form = CallForm::Bracket;
  }
  if (!value) return nullptr;
  auto *call = dyn_cast<CallExpr>(strip(value));
  if (call && isa<CXXOperatorCallExpr>(call)) return nullptr;
  return call;
}

// The statement an OpenMP directive governs, as written (with -fopenmp Clang wraps it in
// captured regions): a worksharing loop's `for`, a parallel region's block, an atomic's
// expression. nullptr where nothing below may be probed: standalone directives (barrier,
// flush), `simd` loops and `collapse`d nests (a probe would break the loop's form: see
// sealed_loop), and `target` regions (code for another device).
const Stmt *openmp_block(const OMPExecutableDirective &omp) {
  OpenMPDirectiveKind kind = omp.getDirectiveKind();
  if (omp.isStandaloneDirective() || !omp.hasAssociatedStmt()) return nullptr;
  if (isOpenMPSimdDirective(kind) || isOpenMPTargetExecutionDirective(kind)) return nullptr;
  if (auto *loop = dyn_cast<OMPLoopBasedDirective>(&omp); loop && loop->getLoopsNumber() > 1)
    return nullptr;
  return omp.getRawStmt();
}

// The loop of a `simd` or `collapse`d directive (not a `target` one): a probe may go around
// the whole construct, never inside.
const Stmt *sealed_loop(const OMPExecutableDirective &omp) {
  if (omp.isStandaloneDirective() || !omp.hasAssociatedStmt()) return nullptr;
  if (isOpenMPTargetExecutionDirective(omp.getDirectiveKind())) return nullptr;
  const Stmt *raw = omp.getRawStmt();
  return isa_and_nonnull<ForStmt, CXXForRangeStmt>(raw) ? raw : nullptr;
}

// The value of an integer constant expression, or nothing.
std::optional<std::int64_t> constant(const Expr *e, const ASTContext &ast) {
  if (!e || e->isValueDependent() || e->isTypeDependent()) return std::nullopt;
  Expr::EvalResult result;
  if (!e->EvaluateAsInt(result, ast)) return std::nullopt;
  const llvm::APSInt &v = result.Val.getInt();
  if (v.getMinSignedBits() > 63) return std::nullopt;
  return v.getExtValue();
}

const VarDecl *variable(const Expr *e) {
  auto *ref = e ? dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()) : nullptr;
  return ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
}

// A loop bound as a base and a constant offset: `C` (no base), `V`, `V + C`, `V - C` or
// `C + V`, V a variable; nothing for any other form.
struct Bound {
  const VarDecl *base = nullptr;
  std::int64_t offset = 0;
};
std::optional<Bound> bound(const Expr *e, const ASTContext &ast) {
  if (!e) return std::nullopt;
  if (std::optional<std::int64_t> c = constant(e, ast)) return Bound{nullptr, *c};
  if (const VarDecl *v = variable(e)) return Bound{v, 0};
  auto *b = dyn_cast<BinaryOperator>(e->IgnoreParenImpCasts());
  if (!b || (b->getOpcode() != BO_Add && b->getOpcode() != BO_Sub)) return std::nullopt;
  const VarDecl *v = variable(b->getLHS());
  std::optional<std::int64_t> c = constant(b->getRHS(), ast);
  if (v && c) return Bound{v, b->getOpcode() == BO_Add ? *c : -*c};
  v = variable(b->getRHS());
  c = constant(b->getLHS(), ast);
  if (v && c && b->getOpcode() == BO_Add) return Bound{v, *c};
  return std::nullopt;
}

// Whether `s` may change `v`: assigns it, increments or decrements it, or takes its address.
bool may_change(const Stmt *s, const VarDecl *v) {
  if (!s) return false;
  if (auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp() && variable(b->getLHS()) == v)
    return true;
  if (auto *u = dyn_cast<UnaryOperator>(s);
      u && (u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) &&
      variable(u->getSubExpr()) == v)
    return true;
  for (const Stmt *child : s->children())
    if (may_change(child, v)) return true;
  return false;
}

// The trip count of `for (i = A; i < B; ++i)` and its forms (`<=`, `!=`, `i += 1`,
// counting down with `>`/`>=`) when A and B are constants, or offsets of one variable the
// loop never changes (`i = x - 1; i <= x + 1`: 3 trips), or of a range-for over an
// array of constant size, or of a loop whose condition is a constant false: `do { ... }
// while (0)`, the statement a function-like macro expands to, runs once, `while (0)`
// never. Nothing when it is not known while compiling.
std::optional<std::int64_t> trip_count(const Stmt *s, const ASTContext &ast) {
  if (auto *d = dyn_cast<DoStmt>(s)) {
    std::optional<std::int64_t> c = constant(d->getCond(), ast);
    return c && *c == 0 ? std::optional<std::int64_t>(1) : std::nullopt;
  }
  if (auto *w = dyn_cast<WhileStmt>(s)) {
    std::optional<std::int64_t> c =
        w->getConditionVariable() ? std::nullopt : constant(w->getCond(), ast);
    return c && *c == 0 ? std::optional<std::int64_t>(0) : std::nullopt;
  }
  if (auto *r = dyn_cast<CXXForRangeStmt>(s)) {
    const Expr *range = r->getRangeInit();
    if (!range || range->isTypeDependent()) return std::nullopt;
    if (auto *array = ast.getAsConstantArrayType(range->getType()))
      return std::int64_t(array->getSize().getLimitedValue(1u << 30));
    return std::nullopt;
  }
  auto *f = dyn_cast<ForStmt>(s);
  if (!f || !f->getInit() || !f->getCond() || !f->getInc()) return std::nullopt;
  const VarDecl *var = nullptr;
  std::optional<Bound> start;
  if (auto *ds = dyn_cast<DeclStmt>(f->getInit()); ds && ds->isSingleDecl()) {
    var = dyn_cast<VarDecl>(ds->getSingleDecl());
    if (var) start = bound(var->getInit(), ast);
  } else if (auto *assign = dyn_cast<BinaryOperator>(f->getInit());
             assign && assign->getOpcode() == BO_Assign) {
    var = variable(assign->getLHS());
    start = bound(assign->getRHS(), ast);
  }
  if (!var || !start) return std::nullopt;
  int step = 0;
  const Expr *inc = f->getInc()->IgnoreParenImpCasts();
  if (auto *u = dyn_cast<UnaryOperator>(inc); u && variable(u->getSubExpr()) == var)
    step = u->isIncrementOp() ? 1 : u->isDecrementOp() ? -1 : 0;
  else if (auto *c = dyn_cast<CompoundAssignOperator>(inc); c && variable(c->getLHS()) == var) {
    std::optional<std::int64_t> by = constant(c->getRHS(), ast);
    if (by && *by == 1)
      step = c->getOpcode() == BO_AddAssign ? 1 : c->getOpcode() == BO_SubAssign ? -1 : 0;
  }
  auto *cond = dyn_cast<BinaryOperator>(f->getCond()->IgnoreParenImpCasts());
  if (!step || !cond || variable(cond->getLHS()) != var) return std::nullopt;
  std::optional<Bound> end = bound(cond->getRHS(), ast);
  if (!end || end->base != start->base || end->base == var) return std::nullopt;
  // A base the loop could change (a global a call may write, too) bounds nothing.
  if (const VarDecl *base = end->base;
      base && (!base->hasLocalStorage() || base->getType().isVolatileQualified() ||
               may_change(f->getBody(), base) || may_change(f->getInc(), base)))
    return std::nullopt;
  std::int64_t from = start->offset, to = end->offset, trips = -1;
  switch (cond->getOpcode()) {
  case BO_LT:
  case BO_NE:
    if (step > 0) trips = to - from;
    break;
  case BO_LE:
    if (step > 0) trips = to - from + 1;
    break;
  case BO_GT:
    if (step < 0) trips = from - to;
    break;
  case BO_GE:
    if (step < 0) trips = from - to + 1;
    break;
  default:
    break;
  }
  if (trips < 0) return std::nullopt;
  return trips;
}

// The local variables `s` reads or writes.
void variables_in(const Stmt *s, std::set<const VarDecl *> &out) {
  if (!s || isa<UnaryExprOrTypeTraitExpr, LambdaExpr>(s)) return;
  if (auto *ref = dyn_cast<DeclRefExpr>(s))
    if (auto *v = dyn_cast<VarDecl>(ref->getDecl()); v && v->hasLocalStorage()) out.insert(v);
  for (const Stmt *child : s->children())
    variables_in(child, out);
}

// Each local variable `s` gives a value, with what it gives it: an assignment's right-hand
// side, an initialiser, or the whole expression of a compound assignment, an increment or
// a decrement (which read the variable too).
void assignments_in(const Stmt *s, std::multimap<const VarDecl *, const Stmt *> &out) {
  if (!s || isa<UnaryExprOrTypeTraitExpr, LambdaExpr>(s)) return;
  if (auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp()) {
    if (const VarDecl *v = variable(b->getLHS()); v && v->hasLocalStorage())
      out.emplace(v, b->isCompoundAssignmentOp() ? static_cast<const Stmt *>(b) : b->getRHS());
  } else if (auto *u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) {
    if (const VarDecl *v = variable(u->getSubExpr()); v && v->hasLocalStorage()) out.emplace(v, u);
  } else if (auto *ds = dyn_cast<DeclStmt>(s)) {
    for (const Decl *d : ds->decls())
      if (auto *v = dyn_cast<VarDecl>(d); v && v->getInit()) out.emplace(v, v->getInit());
  }
  for (const Stmt *child : s->children())
    assignments_in(child, out);
}

// Whether `s` halves something in `changed`: an integer `x / 2` or `x >> 1` anywhere in it
// (a midpoint's `lo + (hi - lo) / 2`), or `x /= 2`, `x >>= 1`, whose `x` reads a variable
// the loop changes. `x + n / 2` with `n` left alone is a step, not a half.
bool halves(const Stmt *s, const std::multimap<const VarDecl *, const Stmt *> &changed,
            const ASTContext &ast) {
  if (!s || isa<UnaryExprOrTypeTraitExpr, LambdaExpr>(s)) return false;
  if (auto *b = dyn_cast<BinaryOperator>(s); b && b->getType()->isIntegerType()) {
    BinaryOperatorKind op = b->getOpcode();
    std::int64_t by = op == BO_Div || op == BO_DivAssign   ? 2
                      : op == BO_Shr || op == BO_ShrAssign ? 1
                                                           : 0;
    if (by && constant(b->getRHS(), ast) == by) {
      std::set<const VarDecl *> read;
      variables_in(b->getLHS(), read);
      for (const VarDecl *v : read)
        if (changed.count(v)) return true;
    }
  }
  for (const Stmt *child : s->children())
    if (halves(child, changed, ast)) return true;
  return false;
}

// Whether `loop` halves an interval each trip (a binary search), so that its trips grow
// with the logarithm of its data: it computes a half (`halves`) of what it changes, and
// every variable of its condition that it changes it sets from that half, directly or
// through variables set from it (XSBench's `upper = mid; ... length = upper - lower;`
// under `while (length > 1)`). Any other loop of unknown length is open-ended.
bool is_bisection(const Stmt *loop, const ASTContext &ast) {
  const Stmt *cond = nullptr, *body = nullptr, *inc = nullptr;
  if (auto *f = dyn_cast<ForStmt>(loop))
    cond = f->getCond(), body = f->getBody(), inc = f->getInc();
  else if (auto *w = dyn_cast<WhileStmt>(loop); w && !w->getConditionVariable())
    cond = w->getCond(), body = w->getBody();
  else if (auto *d = dyn_cast<DoStmt>(loop))
    cond = d->getCond(), body = d->getBody();
  if (!cond || !body) return false;
  std::multimap<const VarDecl *, const Stmt *> set;
  assignments_in(body, set);
  assignments_in(inc, set);
  std::set<const VarDecl *> halved; // set from a half, or from what was
  for (const auto &[v, value] : set)
    if (halves(value, set, ast)) halved.insert(v);
  if (halved.empty()) return false;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto &[v, value] : set) {
      if (halved.count(v)) continue;
      std::set<const VarDecl *> read;
      variables_in(value, read);
      for (const VarDecl *r : read)
        if (halved.count(r)) {
          halved.insert(v);
          grew = true;
          break;
        }
    }
  }
  std::set<const VarDecl *> tested;
  variables_in(cond, tested);
  bool any = false;
  for (const VarDecl *v : tested) {
    if (!set.count(v)) continue; // a bound the loop does not change
    if (!halved.count(v)) return false;
    any = true;
  }
  return any;
}

class Walker {
public:
  Walker(const ASTContext &ast, bool callees) : ast_(ast), callees_(callees) {}

  FunctionScan scan;

  void statement(const Stmt *s, const Stmt *parent, int depth) {
    if (!s) return;
    if (isa_and_nonnull<OMPExecutableDirective, AttributedStmt>(parent)) scan.governed[s] = parent;
    if (!isa<CompoundStmt>(s) && !isa<NullStmt>(s)) ++scan.weight;
    CallForm form = CallForm::Wrap;
    if (const CallExpr *call = top_call(s, parent, form)) placements_[call] = {s, form};
    if (isa<Expr>(s)) return expression(s, depth, false);
    if (auto *ds = dyn_cast<DeclStmt>(s)) return declaration(ds, depth, false);
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(s)) return loop(s, depth, false);
    children(s, depth);
  }

private:
  const ASTContext &ast_;
  bool callees_; // size up the definitions the calls reach
  std::map<const FunctionDecl *, std::pair<int, bool>> callee_sizes_;
  std::map<const CallExpr *, std::pair<const Stmt *, CallForm>> placements_;
  std::map<std::string, unsigned> call_ordinals_;
  unsigned loop_ = 0; // the ordinal of the loop being walked, 0 outside loops

  void children(const Stmt *s, int depth) {
    if (auto *c = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt *item : c->body())
        statement(item, s, depth);
    } else if (auto *i = dyn_cast<IfStmt>(s)) {
      expression(i->getInit(), depth, false);
      declaration(i->getConditionVariableDeclStmt(), depth, false);
      expression(i->getCond(), depth, false);
      unsigned weight = scan.weight;
      statement(i->getThen(), s, depth);
      if (is_check(*i)) scan.weight = weight; // a check's report is not work
      statement(i->getElse(), s, depth);
    } else if (auto *sw = dyn_cast<SwitchStmt>(s)) {
      expression(sw->getInit(), depth, false);
      expression(sw->getCond(), depth, false);
      statement(sw->getBody(), s, depth);
    } else if (auto *l = dyn_cast<LabelStmt>(s)) {
      statement(l->getSubStmt(), s, depth);
    } else if (auto *sc = dyn_cast<SwitchCase>(s)) {
      statement(sc->getSubStmt(), s, depth);
    } else if (auto *a = dyn_cast<AttributedStmt>(s)) {
      statement(a->getSubStmt(), s, depth);
    } else if (auto *omp = dyn_cast<OMPExecutableDirective>(s)) {
      if (const Stmt *block = openmp_block(*omp))
        statement(block, s, depth);
      else if (const Stmt *whole = sealed_loop(*omp))
        sealed(whole, s, depth);
    } else if (auto *t = dyn_cast<CXXTryStmt>(s)) {
      statement(t->getTryBlock(), s, depth);
      for (unsigned h = 0; h < t->getNumHandlers(); ++h)
        statement(t->getHandler(h)->getHandlerBlock(), s, depth);
    } else {
      for (const Stmt *child : s->children())
        expression(child, depth, false);
    }
  }

  // A loop a probe may only go around: a candidate, governed by `directive`, its inside
  // not scanned.
  void sealed(const Stmt *s, const Stmt *directive, int depth) {
    LoopSite site;
    site.loop = s;
    site.body = isa<ForStmt>(s) ? cast<ForStmt>(s)->getBody() : cast<CXXForRangeStmt>(s)->getBody();
    site.depth = depth + 1;
    site.ordinal = static_cast<unsigned>(scan.loops.size() + 1);
    site.parent = loop_;
    site.sealed = true;
    scan.loops.push_back(site);
    scan.governed[s] = directive;
    ++scan.weight;
    ++scan.long_loops;
  }

  void loop(const Stmt *s, int depth, bool in_expression) {
    LoopSite site;
    site.loop = s;
    site.depth = depth + 1;
    site.ordinal = static_cast<unsigned>(scan.loops.size() + 1);
    site.parent = loop_;
    site.in_expression = in_expression;
    std::size_t index = scan.loops.size();
    scan.loops.push_back(site);
    unsigned outer = loop_;
    loop_ = site.ordinal;
    unsigned long_before = scan.long_loops;
    unsigned before = scan.weight; // the loop's own statement was counted by its parent
    if (auto *f = dyn_cast<ForStmt>(s)) {
      site.body = f->getBody();
      expression(f->getInit(), depth + 1, in_expression);
      expression(f->getCond(), depth + 1, in_expression);
      expression(f->getInc(), depth + 1, in_expression);
    } else if (auto *w = dyn_cast<WhileStmt>(s)) {
      site.body = w->getBody();
      expression(w->getCond(), depth + 1, in_expression);
    } else if (auto *d = dyn_cast<DoStmt>(s)) {
      site.body = d->getBody();
      expression(d->getCond(), depth + 1, in_expression);
    } else if (auto *r = dyn_cast<CXXForRangeStmt>(s)) {
      site.body = r->getBody();
      expression(r->getInit(), depth + 1, in_expression);
      expression(r->getRangeInit(), depth + 1, in_expression);
    }
    scan.loops[index].body = site.body;
    if (in_expression)
      expression(site.body, depth + 1, true);
    else
      statement(site.body, s, depth + 1);
    loop_ = outer;
    unsigned once = scan.weight - before; // the condition, step and body of one trip
    std::optional<std::int64_t> trips = trip_count(s, ast_);
    LoopSite &done = scan.loops[index];
    done.holds_loop = scan.long_loops > long_before;
    if (trips && *trips <= std::int64_t(kShortTrips)) {
      done.trips = int(*trips);
      done.weight = 1 + once * unsigned(*trips);
      scan.weight = before + once * unsigned(*trips);
    } else if (!done.holds_loop && is_bisection(s, ast_)) {
      done.weight = 1 + once * kBisectionTrips;
      scan.weight = before + once * kBisectionTrips;
      ++scan.bisections;
    } else {
      done.weight = 1 + once;
      ++scan.long_loops;
    }
  }

  // The initialisers of a declaration, except constexpr ones (evaluated while compiling).
  void declaration(const DeclStmt *ds, int depth, bool nested) {
    if (!ds) return;
    for (const Decl *d : ds->decls())
      if (auto *var = dyn_cast<VarDecl>(d); var && var->getInit() && !var->isConstexpr())
        expression(var->getInit(), depth, nested);
  }

  // Everything below an expression: calls and loops are found; loops cannot be wrapped.
  void expression(const Stmt *s, int depth, bool nested) {
    if (!s || isa<LambdaExpr, BlockExpr>(s)) return;
    // Operands that are never evaluated, or evaluated by the compiler.
    if (isa<UnaryExprOrTypeTraitExpr, CXXNoexceptExpr, CXXTypeidExpr, GenericSelectionExpr,
            ConstantExpr>(s))
      return;
    if (nested && isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(s)) return loop(s, depth, true);
    if (auto *ds = dyn_cast<DeclStmt>(s)) return declaration(ds, depth, nested);
    if (auto *call = dyn_cast<CallExpr>(s); call && !isa<CXXOperatorCallExpr>(call)) {
      ++scan.weight;
      record(call);
      // __builtin_constant_p, __builtin_choose_expr, ...: arguments not evaluated as written.
      if (callee_name(*call).rfind("__builtin", 0) == 0) return;
    }
    for (const Stmt *child : s->children())
      expression(child, depth, true);
  }

  void record(const CallExpr *call) {
    if (const FunctionDecl *callee = call->getDirectCallee();
        callee && callee->hasAttr<ReturnsTwiceAttr>())
      scan.returns_twice = true;
    CallSite site;
    site.call = call;
    site.callee = callee_name(*call);
    if (site.callee.empty()) return; // a call through a pointer expression: no stable name
    site.ordinal = ++call_ordinals_[site.callee];
    site.loop = loop_;
    if (const FunctionDecl *callee = call->getDirectCallee(); callee && callees_) {
      const FunctionDecl *definition = callee->getDefinition();
      if (definition && definition->hasBody()) {
        auto [it, fresh] = callee_sizes_.try_emplace(definition, -1, false);
        if (fresh) {
          FunctionScan inner = scan_function(*definition, false);
          it->second = {int(inner.weight), inner.long_loops > 0};
        }
        site.callee_weight = it->second.first;
        site.callee_loops = it->second.second;
      }
    }
    if (auto it = placements_.find(call); it != placements_.end()) {
      site.statement = it->second.first;
      site.form = it->second.second;
    }
    scan.calls.push_back(site);
  }
};

// Labels defined in `s`; true in `outer_case` when it holds a case of a switch outside it.
void labels_in(const Stmt *s, bool inside_switch, std::set<const LabelDecl *> &labels,
               bool &outer_case) {
  if (!s || isa<LambdaExpr>(s)) return;
  if (auto *label = dyn_cast<LabelStmt>(s)) labels.insert(label->getDecl());
  if (isa<SwitchCase>(s) && !inside_switch) outer_case = true;
  bool nested = inside_switch || isa<SwitchStmt>(s);
  for (const Stmt *child : s->children())
    labels_in(child, nested, labels, outer_case);
}

// Whether code outside `skip` jumps to one of `labels` (any computed goto counts).
bool jumps_to(const Stmt *s, const Stmt *skip, const std::set<const LabelDecl *> &labels) {
  if (!s || s == skip || isa<LambdaExpr>(s)) return false;
  if (auto *jump = dyn_cast<GotoStmt>(s); jump && labels.count(jump->getLabel())) return true;
  if (isa<IndirectGotoStmt>(s)) return true;
  for (const Stmt *child : s->children())
    if (jumps_to(child, skip, labels)) return true;
  return false;
}

} // namespace

FunctionScan scan_function(const FunctionDecl &function, bool callees) {
  Walker walker(function.getASTContext(), callees);
  walker.statement(function.getBody(), nullptr, 0);
  // The body's own braces are not a statement of the function.
  return std::move(walker.scan);
}

bool is_check(const IfStmt &s) {
  return !s.getElse() && reports_only(s.getThen());
}

std::string callee_name(const CallExpr &call) {
  if (const FunctionDecl *fd = call.getDirectCallee()) return readable_name(*fd);
  const Expr *callee = call.getCallee()->IgnoreParenImpCasts();
  if (auto *ul = dyn_cast<OverloadExpr>(callee)) return ul->getName().getAsString();
  if (auto *dm = dyn_cast<CXXDependentScopeMemberExpr>(callee))
    return dm->getMember().getAsString();
  if (auto *ref = dyn_cast<DeclRefExpr>(callee)) return ref->getDecl()->getNameAsString();
  if (auto *member = dyn_cast<MemberExpr>(callee))
    return member->getMemberDecl()->getNameAsString();
  return "";
}

std::string readable_name(const NamedDecl &decl) {
  std::string name = decl.getQualifiedNameAsString();
  const std::string anonymous = "(anonymous namespace)::";
  for (auto at = name.find(anonymous); at != std::string::npos; at = name.find(anonymous))
    name.erase(at, anonymous.size());
  return name;
}

bool has_jump_target(const Stmt &stmt, const FunctionDecl &function) {
  std::set<const LabelDecl *> labels;
  bool outer_case = false;
  labels_in(&stmt, false, labels, outer_case);
  if (outer_case) return true;
  return !labels.empty() && jumps_to(function.getBody(), &stmt, labels);
}

} // namespace idb::instr

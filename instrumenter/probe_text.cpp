// The text the rules insert, and the statement ranges they insert around. Everything a
// probe adds goes through these helpers, so the probe's form is decided in one place.
#include "probe_id.hpp"
#include "rules.hpp"

#include <algorithm>
#include <cctype>
#include <clang/AST/OpenMPClause.h>
#include <clang/AST/StmtCXX.h>
#include <clang/AST/StmtOpenMP.h>
#include <clang/Lex/Lexer.h>

#include <optional>

namespace idb::instr {

using namespace clang;

namespace {

// kind, id, "description", "file", line, "function"
std::string probe_args(const Candidate &c) {
  return std::string(kind_macro(c.kind)) + ", " + std::to_string(c.id) + ", \"" +
         c_string(c.description) + "\", \"" + c_string(c.file) + "\", " + std::to_string(c.line) +
         ", \"" + c_string(c.function) + "\"";
}

// Whether the statement's last token is not its end: `x++`, `return y`, `do ... while (c)`.
bool needs_semicolon(const Stmt *s) {
  if (!s) return false;
  if (isa<CompoundStmt, NullStmt, DeclStmt, CXXTryStmt>(s)) return false;
  if (auto *f = dyn_cast<ForStmt>(s)) return needs_semicolon(f->getBody());
  if (auto *w = dyn_cast<WhileStmt>(s)) return needs_semicolon(w->getBody());
  if (auto *r = dyn_cast<CXXForRangeStmt>(s)) return needs_semicolon(r->getBody());
  if (auto *i = dyn_cast<IfStmt>(s))
    return needs_semicolon(i->getElse() ? i->getElse() : i->getThen());
  if (auto *sw = dyn_cast<SwitchStmt>(s)) return needs_semicolon(sw->getBody());
  if (auto *l = dyn_cast<LabelStmt>(s)) return needs_semicolon(l->getSubStmt());
  if (auto *sc = dyn_cast<SwitchCase>(s)) return needs_semicolon(sc->getSubStmt());
  if (auto *a = dyn_cast<AttributedStmt>(s)) return needs_semicolon(a->getSubStmt());
  return true;
}

} // namespace

const char *kind_macro(Kind kind) {
  switch (kind) {
  case Kind::Proc:
    return "IDB_PROC";
  case Kind::Loop:
    return "IDB_LOOP";
  case Kind::Call:
    return "IDB_CALL";
  case Kind::Comm:
    return "IDB_COMM";
  }
  return "IDB_PROC";
}

const char *kind_name(Kind kind) {
  switch (kind) {
  case Kind::Proc:
    return "PROC";
  case Kind::Loop:
    return "LOOP";
  case Kind::Call:
    return "CALL";
  case Kind::Comm:
    return "COMM";
  }
  return "PROC";
}

Candidate make_candidate(const FunctionContext &ctx, Kind kind, SourceLocation loc,
                         const std::string &key) {
  const SourceManager &sm = ctx.ast->getSourceManager();
  SourceLocation at = sm.getExpansionLoc(loc);
  Candidate c;
  c.kind = kind;
  c.file = *ctx.file;
  c.line = sm.getExpansionLineNumber(at);
  c.column = sm.getExpansionColumnNumber(at);
  c.function = ctx.name;
  c.id = probe_id(*ctx.file, ctx.signature, kind_name(kind), key);
  return c;
}

int loop_probe_id(const FunctionContext &ctx, unsigned ordinal) {
  if (ordinal == 0) return 0;
  return probe_id(*ctx.file, ctx.signature, kind_name(Kind::Loop),
                  "loop#" + std::to_string(ordinal));
}

std::string scope_text(const Candidate &c, const FunctionContext &ctx) {
  std::string name = "idb_probe_" + std::to_string(c.id);
  if (ctx.cxx) return "::idb::Scope " + name + "(" + probe_args(c) + ");";
  // In a function that calls setjmp, a volatile scope: its fields in memory, which GCC does
  // not warn a longjmp may clobber (-Wclobbered).
  const char *quals = ctx.scan.returns_twice ? "volatile " : "";
  const char *close = ctx.scan.returns_twice ? "idb_scope_close_volatile_" : "idb_scope_close_";
  return std::string(quals) + "idb_scope_t " + name + " __attribute__((cleanup(" + close +
         "), unused)) = idb_scope_open_(0, " + probe_args(c) + ");";
}

std::string start_text(const Candidate &c) {
  return "idb_open_(" + probe_args(c) + "); ";
}

std::string stop_text(const Candidate &c) {
  return " idb_close_(" + std::to_string(c.id) + ");";
}

namespace {

StmtRange source_range(const FunctionContext &ctx, const Stmt &stmt, bool statement) {
  const SourceManager &sm = ctx.ast->getSourceManager();
  const LangOptions &lo = ctx.ast->getLangOpts();
  StmtRange range;
  SourceLocation begin = stmt.getBeginLoc(), end = stmt.getEndLoc();
  // The statement may end in a whole macro invocation (`m = MAX(m, a[i])`): its text ends
  // where the invocation does. One that starts in a macro, or ends inside one, is the
  // macro's.
  CharSourceRange text;
  if (begin.isValid() && end.isValid() && !begin.isMacroID())
    text = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(begin, end), sm, lo);
  if (text.isInvalid()) {
    range.error = "inside a macro expansion";
    return range;
  }
  SourceLocation after = text.getEnd();
  if (!in_own_file(ctx, begin) || !in_own_file(ctx, after)) {
    range.error = "not in the file being instrumented";
    return range;
  }
  range.begin = sm.getFileOffset(begin);
  size_t stop = sm.getFileOffset(after);
  if (statement && needs_semicolon(&stmt)) stop = semicolon_after(*ctx.text, stop);
  if (stop == std::string::npos) {
    range.error = "the end of the statement is not a plain ';'";
    return range;
  }
  range.end = static_cast<unsigned>(stop);
  return range;
}

} // namespace

namespace {

// The start of the logical line that holds text[at - 1]: lines joined by a backslash
// before their newline count as one.
size_t logical_line_start(const std::string &text, size_t at) {
  size_t line = at == 0 ? std::string::npos : text.rfind('\n', at - 1);
  while (line != std::string::npos && line > 0) {
    size_t end = line; // the newline ending the physical line before
    if (end > 0 && text[end - 1] == '\r') --end;
    if (end == 0 || text[end - 1] != '\\') break;
    line = text.rfind('\n', end - 1);
  }
  return line == std::string::npos ? 0 : line + 1;
}

// The directive a line starts with ("pragma", "ifdef", ...), or "" when it is none.
std::string directive_of(const std::string &text, size_t first) {
  if (text[first] != '#') return "";
  size_t word = text.find_first_not_of(" \t", first + 1);
  if (word == std::string::npos) return "";
  size_t end = word;
  while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end])))
    ++end;
  return text.substr(word, end - word);
}

bool is_conditional(const std::string &directive) {
  return directive == "if" || directive == "ifdef" || directive == "ifndef" ||
         directive == "elif" || directive == "else" || directive == "endif";
}

} // namespace

size_t pragma_group_start(const std::string &text, unsigned offset) {
  size_t at = offset, best = std::string::npos;
  bool pragma = false;
  int depth = 0; // conditionals closed below minus opened: the group must balance them
  for (;;) {
    while (at > 0 && std::isspace(static_cast<unsigned char>(text[at - 1])))
      --at;
    if (at == 0) return best;
    if (at >= 2 && text.compare(at - 2, 2, "*/") == 0) { // a block comment between
      size_t open = text.rfind("/*", at - 2);
      if (open == std::string::npos) return best;
      at = open;
      continue;
    }
    size_t line = logical_line_start(text, at);
    size_t first = text.find_first_not_of(" \t", line);
    if (first == std::string::npos || first >= at) return best;
    std::string directive = directive_of(text, first);
    if (directive == "pragma" || text.compare(first, 7, "_Pragma") == 0) {
      pragma = true;
    } else if (directive == "endif") {
      ++depth;
    } else if (directive == "if" || directive == "ifdef" || directive == "ifndef") {
      if (--depth < 0) return best; // the statement sits inside this conditional
    } else if (((directive == "else" || directive == "elif") && depth == 0) ||
               (!is_conditional(directive) && text.compare(first, 2, "//") != 0)) {
      // Code ends the group above here; so does a branch of the conditional the statement
      // sits in (the block may not open in another branch).
      return best;
    }
    if (pragma && depth == 0) best = line;
    at = line;
  }
}

bool follows_pragma(const std::string &text, unsigned offset) {
  return pragma_group_start(text, offset) != std::string::npos;
}

namespace {

// The clauses of a `#pragma omp parallel for`, dealt to the two constructs it combines, as
// written: the team's (if, num_threads, default(shared), shared, copyin, proc_bind) and
// the loop's (private, firstprivate, lastprivate, reduction without a modifier, schedule,
// collapse, ordered, linear, order). The data-sharing clauses all go to the loop, so a
// variable both firstprivate and lastprivate keeps its meaning. Nothing when a clause is
// of another kind (default(none) among them: the team would need every variable the loop
// names) or is not written in the function's file as such.
struct TeamAndLoop {
  std::string team, loop;
};

// A clause's text from its keyword at `from`: the keyword and, when a parenthesis follows
// (blanks and continued lines between), through the one that closes it. Read from the text,
// since Clang ends a clause without one (`ordered`) where the next clause begins. Empty when
// the parentheses do not close on the directive's line.
std::string clause_text(const std::string &text, size_t from) {
  size_t at = from;
  while (at < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[at])) || text[at] == '_'))
    ++at;
  size_t keyword = at;
  // Blanks, and line continuations (a backslash before LF or CRLF).
  for (;;) {
    if (at < text.size() && (text[at] == ' ' || text[at] == '\t')) {
      ++at;
    } else if (text.compare(at, 2, "\\\n") == 0) {
      at += 2;
    } else if (text.compare(at, 3, "\\\r\n") == 0) {
      at += 3;
    } else {
      break;
    }
  }
  if (at >= text.size() || text[at] != '(') return text.substr(from, keyword - from);
  int depth = 0;
  for (; at < text.size(); ++at) {
    if (text[at] == '(') ++depth;
    if (text[at] == ')' && --depth == 0) return text.substr(from, at + 1 - from);
    if (text[at] == '\n' && text[at - 1] != '\\' &&
        !(text[at - 1] == '\r' && at >= 2 && text[at - 2] == '\\'))
      break;
  }
  return "";
}

std::optional<TeamAndLoop> deal_clauses(const FunctionContext &ctx,
                                        const OMPExecutableDirective &directive) {
  const SourceManager &sm = ctx.ast->getSourceManager();
  TeamAndLoop out;
  for (const OMPClause *clause : directive.clauses()) {
    if (clause->isImplicit()) continue;
    SourceLocation first = clause->getBeginLoc();
    if (!in_own_file(ctx, first)) return std::nullopt;
    std::string written = clause_text(*ctx.text, sm.getFileOffset(first));
    if (written.empty()) return std::nullopt;
    std::string *into = &out.loop;
    switch (clause->getClauseKind()) {
    case llvm::omp::OMPC_default:
      if (cast<OMPDefaultClause>(clause)->getDefaultKind() != llvm::omp::OMP_DEFAULT_shared)
        return std::nullopt;
      into = &out.team;
      break;
    case llvm::omp::OMPC_if:
    case llvm::omp::OMPC_num_threads:
    case llvm::omp::OMPC_shared:
    case llvm::omp::OMPC_copyin:
    case llvm::omp::OMPC_proc_bind:
      into = &out.team;
      break;
    case llvm::omp::OMPC_reduction:
      if (cast<OMPReductionClause>(clause)->getModifier() != OMPC_REDUCTION_unknown)
        return std::nullopt;
      break;
    case llvm::omp::OMPC_private:
    case llvm::omp::OMPC_firstprivate:
    case llvm::omp::OMPC_lastprivate:
    case llvm::omp::OMPC_schedule:
    case llvm::omp::OMPC_collapse:
    case llvm::omp::OMPC_ordered:
    case llvm::omp::OMPC_linear:
    case llvm::omp::OMPC_order:
      break;
    default:
      return std::nullopt;
    }
    *into += " " + written;
  }
  return out;
}

// The offset just past the newline that ends the logical line starting at `line` (its
// backslash continuations included), or npos.
size_t logical_line_end(const std::string &text, size_t line) {
  for (size_t at = line;;) {
    size_t newline = text.find('\n', at);
    if (newline == std::string::npos) return newline;
    size_t end = newline;
    if (end > at && text[end - 1] == '\r') --end;
    if (end == at || text[end - 1] != '\\') return newline + 1;
    at = newline + 1;
  }
}

unsigned line_at(const std::string &text, size_t offset) {
  return 1 + unsigned(std::count(text.begin(), text.begin() + std::ptrdiff_t(offset), '\n'));
}

// `#line N "file"` and a newline: the line that starts at `offset` keeps its number.
std::string line_directive(const FunctionContext &ctx, size_t offset) {
  return "#line " + std::to_string(line_at(*ctx.text, offset)) + " \"" + c_string(*ctx.file) +
         "\"\n";
}

// `#pragma omp parallel for` on a line of its own, the only directive before the loop (a guard
// around it aside), as the two constructs it combines, so the probe opens on every thread
// of the team:
//   #pragma omp parallel TEAM
//   { probe;
//   #line P                           (the directive's line)
//   #pragma omp for LOOP
//   #if 0
//   #pragma omp parallel for ...      (the line as written, left out)
//   #endif
//   #line L                           (the line after it)
//     for (...) ... }
// The two are the combined construct by the OpenMP specification's definition. Returns
// nothing when the directive is not such, or its clauses are not dealt (deal_clauses),
// and the caller wraps the whole construct as for any other pragma.
std::optional<std::string> wrap_team_loop(const FunctionContext &ctx, const Stmt &stmt,
                                          const Candidate &c, int rank, Edits &edits, size_t begin,
                                          const StmtRange &range) {
  auto governed = ctx.scan.governed.find(&stmt);
  if (governed == ctx.scan.governed.end()) return std::nullopt;
  const auto *directive = dyn_cast<OMPExecutableDirective>(governed->second);
  if (!directive || directive->getDirectiveKind() != llvm::omp::OMPD_parallel_for)
    return std::nullopt;
  const SourceManager &sm = ctx.ast->getSourceManager();
  const std::string &text = *ctx.text;
  SourceLocation hash = directive->getBeginLoc();
  if (!in_own_file(ctx, hash)) return std::nullopt;
  size_t at = sm.getFileOffset(hash), line = logical_line_start(text, at);
  size_t end = logical_line_end(text, line);
  // The directive starts its line and the loop follows it. Above it the group holds
  // comments, and at most one conditional that opens there and closes right after the
  // directive (`#ifdef _OPENMP` ... `#endif`): a guard.
  if (text.find_first_not_of(" \t", line) != at || text[at] != '#' || end == std::string::npos ||
      end > range.begin)
    return std::nullopt;
  size_t guard = std::string::npos;
  for (size_t above = begin; above < line; above = logical_line_end(text, above)) {
    size_t first = text.find_first_not_of(" \t", above);
    if (first >= line || (text[first] != '#' && text.compare(first, 7, "_Pragma") != 0)) continue;
    std::string kind = directive_of(text, first);
    if (guard != std::string::npos || (kind != "if" && kind != "ifdef" && kind != "ifndef"))
      return std::nullopt;
    guard = above;
  }
  size_t after = end; // the start of the line after the construct's directives
  if (guard != std::string::npos) {
    size_t first = text.find_first_not_of(" \t", end);
    if (first == std::string::npos || directive_of(text, first) != "endif") return std::nullopt;
    after = logical_line_end(text, end);
    if (after == std::string::npos || after > range.begin) return std::nullopt;
  }
  std::optional<TeamAndLoop> clauses = deal_clauses(ctx, *directive);
  if (!clauses) return std::nullopt;
  begin = line;
  if (!edits.claim(unsigned(begin), range.end)) return "the statement already holds a probe";
  // Under a guard, the team's directive closes it before the block opens, and the loop's
  // directive opens it again (its line as written), so that the braces balance however the
  // condition goes: false, the probe is around the loop, run on one thread.
  std::string team = "#pragma omp parallel" + clauses->team + "\n";
  std::string reopen;
  if (guard != std::string::npos) {
    team += "#endif\n";
    reopen = text.substr(guard, logical_line_end(text, guard) - guard);
  }
  edits.insert(unsigned(begin), rank,
               team + "{ " + scope_text(c, ctx) + "\n" + reopen + line_directive(ctx, begin) +
                   "#pragma omp for" + clauses->loop + "\n#if 0\n");
  edits.insert(unsigned(end), rank, "#endif\n");
  edits.insert(unsigned(after), rank, line_directive(ctx, after));
  edits.insert(range.end, -rank - 1, " }");
  return "";
}

} // namespace

std::string wrap_construct(const FunctionContext &ctx, const Stmt &stmt, const Candidate &c,
                           int rank, Edits &edits) {
  StmtRange range = statement_range(ctx, stmt);
  if (!range.error.empty()) return range.error;
  size_t begin = pragma_group_start(*ctx.text, range.begin);
  if (begin != std::string::npos)
    if (std::optional<std::string> done = wrap_team_loop(ctx, stmt, c, rank, edits, begin, range))
      return *done;
  std::string open = "{ " + scope_text(c, ctx);
  if (begin != std::string::npos) {
    // The directives start a line: the block opens on a line of its own, and `#line`
    // gives the directives their own number back.
    open += "\n" + line_directive(ctx, begin);
  } else {
    // A directive only Clang's AST shows (a macro that spells it): before the outermost
    // directive in the chain, where its macro is written.
    auto it = ctx.scan.governed.find(&stmt);
    if (it == ctx.scan.governed.end()) return wrap_statement(ctx, stmt, c, rank, edits);
    const Stmt *outer = it->second;
    for (auto up = ctx.scan.governed.find(outer); up != ctx.scan.governed.end();
         up = ctx.scan.governed.find(outer))
      outer = up->second;
    const SourceManager &sm = ctx.ast->getSourceManager();
    SourceLocation at = sm.getExpansionLoc(outer->getBeginLoc());
    if (at.isInvalid() || !in_own_file(ctx, at)) return "a #pragma applies to it";
    begin = sm.getFileOffset(at);
    if ((*ctx.text)[begin] == '#') {
      // A directive written as such, which the group scan did not take (code shares its
      // conditional): the block opens on the line before it, as the wrappers' line
      // keeping would put it, and the directive keeps its line.
      begin = logical_line_start(*ctx.text, begin);
      open += "\n" + line_directive(ctx, begin);
    } else {
      open += " ";
    }
  }
  if (!edits.claim(unsigned(begin), range.end)) return "the statement already holds a probe";
  edits.insert(unsigned(begin), rank, open);
  edits.insert(range.end, -rank - 1, " }");
  return "";
}

bool in_own_file(const FunctionContext &ctx, SourceLocation loc) {
  return loc.isFileID() && ctx.ast->getSourceManager().getFileID(loc) == ctx.fid;
}

StmtRange statement_range(const FunctionContext &ctx, const Stmt &stmt) {
  return source_range(ctx, stmt, true);
}

StmtRange expression_range(const FunctionContext &ctx, const Expr &expr) {
  return source_range(ctx, expr, false);
}

std::string wrap_statement(const FunctionContext &ctx, const Stmt &stmt, const Candidate &c,
                           int rank, Edits &edits) {
  StmtRange range = statement_range(ctx, stmt);
  if (!range.error.empty()) return range.error;
  // `#pragma omp atomic` or `critical` before `x = f(x);`: the block goes around both.
  if (ctx.scan.governed.count(&stmt) || follows_pragma(*ctx.text, range.begin))
    return wrap_construct(ctx, stmt, c, rank, edits);
  if (!edits.claim(range.begin, range.end)) return "the statement already holds a probe";
  edits.insert(range.begin, rank, "{ " + scope_text(c, ctx) + " ");
  edits.insert(range.end, -rank - 1, " }");
  return "";
}

std::string open_after_brace(const FunctionContext &ctx, const CompoundStmt &block,
                             const Candidate &c, int rank, Edits &edits) {
  const SourceManager &sm = ctx.ast->getSourceManager();
  SourceLocation brace = block.getLBracLoc();
  if (brace.isMacroID() || !in_own_file(ctx, brace)) return "inside a macro expansion";
  unsigned offset = sm.getFileOffset(brace) + 1;
  if (!edits.claim(offset, offset)) return "the body already holds a probe";
  edits.insert(offset, rank, " " + scope_text(c, ctx));
  return "";
}

} // namespace idb::instr

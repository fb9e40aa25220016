// Small rewriting cases as raw strings: the instrumented text of each input, with the
// probes' long declarations abbreviated to <KIND description> so the cases stay readable.
#include "manifest.hpp"
#include "pragma_macros.hpp"
#include "selection.hpp"
#include "tool.hpp"

#include <gtest/gtest.h>

#include <map>
#include <regex>

using namespace idb::instr;

namespace {

std::string abbreviate(std::string text) {
  static const std::regex c_scope(
      R"re(idb_scope_t idb_probe_\d+ __attribute__\(\(cleanup\(idb_scope_close_\), unused\)\) = )re"
      R"re(idb_scope_open_\(0, IDB_(\w+), \d+, "([^"]*)", [^;]*\);)re");
  static const std::regex cxx_scope(
      R"re(::idb::Scope idb_probe_\d+\(IDB_(\w+), \d+, "([^"]*)", [^;]*\);)re");
  static const std::regex start(R"re(idb_open_\(IDB_(\w+), \d+, "([^"]*)", [^;]*\);)re");
  static const std::regex stop(R"re(idb_close_\(\d+\);)re");
  text = std::regex_replace(text, c_scope, "<$1 $2>");
  text = std::regex_replace(text, cxx_scope, "<$1 $2>");
  text = std::regex_replace(text, start, "<start $1 $2>");
  return std::regex_replace(text, stop, "<stop>");
}

// The instrumented body of `code` (without prelude and registration), or the error.
std::string instrument(const std::string &code, const std::string &selection,
                       const std::string &file = "t.c",
                       const std::vector<std::string> &flags = {}) {
  auto sel = parse_selection(selection, "sel");
  EXPECT_EQ("", sel.error);
  FileResult r = run_on_text(code, file, flags, sel.selection, true);
  if (!r.error.empty()) return "error: " + r.error;
  std::string out = r.output.substr(prelude(file).size());
  auto reg = out.find("\n/* idb-instrument: this file's probes");
  return abbreviate(out.substr(0, reg));
}

} // namespace

TEST(Rewrite, CallsKeepEveryStatementsMeaning) {
  const char *input = R"(int f(int);
void g(void);
int h(int c) {
  int y = f(c);
  if (c) g(); else y = f(y);
  if (f(c) > 2) g();
  return f(y);
}
)";
  const char *expected = R"(int f(int);
void g(void);
int h(int c) {
  <start CALL f(...) in h [t.c:4]> int y = f(c); <stop>
  if (c) { <CALL g(...) in h [t.c:5]> g(); } else { <CALL f(...) in h [t.c:5]> y = f(y); }
  if (__extension__ ({ <CALL f(...) in h [t.c:6]> f(c); }) > 2) { <CALL g(...) in h [t.c:6]> g(); }
  { <CALL f(...) in h [t.c:7]> return f(y); }
}
)";
  EXPECT_EQ(expected, instrument(input, "include call"));
}

TEST(Rewrite, CallsInsideExpressionsBecomeStatementExpressions) {
  const char *input = R"(int f(int);
int *p(void);
int k(int c) {
  int n = sizeof(f(c)) + f(f(c) + 1);
  *p() = c ? f(1) : f(2);
  for (n = 0; n < f(c); n++) {}
  return f(c) + 1;
}
)";
  const char *expected = R"(int f(int);
int *p(void);
int k(int c) {
  int n = sizeof(f(c)) + __extension__ ({ <CALL f(...) in k [t.c:4:26]> f(__extension__ ({ <CALL f(...) in k [t.c:4:28]> f(c); }) + 1); });
  *__extension__ ({ <CALL p(...) in k [t.c:5]> p(); }) = c ? __extension__ ({ <CALL f(...) in k [t.c:5:14]> f(1); }) : __extension__ ({ <CALL f(...) in k [t.c:5:21]> f(2); });
  for (n = 0; n < __extension__ ({ <CALL f(...) in k [t.c:6]> f(c); }); n++) {}
  return __extension__ ({ <CALL f(...) in k [t.c:7]> f(c); }) + 1;
}
)";
  EXPECT_EQ(expected, instrument(input, "include call"));
}

TEST(Rewrite, CxxCallsReturningObjectsOrReferencesStayOutOfExpressions) {
  const char *input = R"(#include <string>
int &at(int i);
std::string name(int i);
constexpr int twice(int x) { return 2 * x; }
int use(int i) {
  constexpr int k = twice(3);
  static int once = twice(i);
  at(i) = k + once;
  return static_cast<int>(name(i).size()) + noexcept(twice(i));
}
)";
  auto sel = parse_selection("include call", "sel");
  FileResult r = run_on_text(input, "t.cpp", {}, sel.selection, true);
  ASSERT_EQ("", r.error);
  std::vector<std::string> seen;
  for (const auto &c : r.candidates)
    if (c.kind == Kind::Call) seen.push_back(c.callee + ": " + c.skipped);
  std::vector<std::string> expected = {
      "twice: ", // the static local's initialiser, evaluated once; not constexpr k's
      "at: inside an expression, returning an object or a reference",
      "std::basic_string<char>::size: ", // a scalar: fine inside the expression
      "name: inside an expression, returning an object or a reference"};
  EXPECT_EQ(expected, seen);
}

TEST(Rewrite, WhiteBoxLoopsOpenPerIterationAndMacrosAreLeftAlone) {
  const char *input = R"(#define TWICE(x) do { x; x; } while (0)
void k(int n, int *a) {
  for (int i = 0; i < n; i++) a[i] = i;
  while (n--) { if (n == 3) continue; a[n] += 1; }
  TWICE(a[0]++);
}
)";
  const char *expected = R"(#define TWICE(x) do { x; x; } while (0)
void k(int n, int *a) {
  for (int i = 0; i < n; i++) { <LOOP for loop in k [t.c:3]> a[i] = i; }
  while (n--) { <LOOP while loop in k [t.c:4]> if (n == 3) continue; a[n] += 1; }
  TWICE(a[0]++);
}
)";
  EXPECT_EQ(expected, instrument(input, "include loop mode=whitebox"));
}

TEST(Rewrite, ProceduresSkipSmallFunctionsByWhatTheyHoldButNotMain) {
  // Weights: sq 3, one 1, eight 8 (statements and calls), nest holds an open-ended loop,
  // dot3 six (its loop's body three times) and the loop itself four.
  const char *input = R"(static inline int sq(int x) { int y = x * x; x = y; return y; }
static int one(void) { return 1; }
static int eight(int a) { a++; a++; a++; a++; a++; a++; a++; return a; }
static inline void nest(double *a, int n) { for (int i = 0; i < n; ++i) a[i] = 0; }
static double dot3(const double *a) { double s = 0; for (int d = 0; d < 3; ++d) s += a[d]; return s; }
int main(void) { return 0; }
)";
  const char *expected = R"(static inline int sq(int x) { int y = x * x; x = y; return y; }
static int one(void) { return 1; }
static int eight(int a) { <PROC eight(...) [t.c:3]> a++; a++; a++; a++; a++; a++; a++; return a; }
static inline void nest(double *a, int n) { <PROC nest(...) [t.c:4]> { <LOOP for loop in nest [t.c:4]> for (int i = 0; i < n; ++i) a[i] = 0; } }
static double dot3(const double *a) { double s = 0; for (int d = 0; d < 3; ++d) s += a[d]; return s; }
int main(void) { <PROC main(...) [t.c:6]> return 0; }
)";
  // eight's work is bounded too: the bounded rule, lifted here, is tested below.
  EXPECT_EQ(expected, instrument(input, "default\nset bounded-weight 0\n"));
  // The inline keyword decides only when the selection asks for it; min-statements 0
  // lifts the size rule.
  const char *skip_inline =
      R"(static inline void nest(double *a, int n) { for (int i = 0; i < n; ++i) a[i] = 0; }
static int one(void) { return 1; }
)";
  const char *inline_skipped =
      R"(static inline void nest(double *a, int n) { { <LOOP for loop in nest [t.c:1]> for (int i = 0; i < n; ++i) a[i] = 0; } }
static int one(void) { <PROC one(...) [t.c:2]> return 1; }
)";
  EXPECT_EQ(inline_skipped,
            instrument(skip_inline, "default\nset skip-inline on\nset min-statements 0\n"
                                    "set bounded-weight 0\n"));
}

TEST(Rewrite, BoundedFunctionsAndTheirLoopsGetNoProbesUnderTheirWeight) {
  // Each weighs 8 or more. face calls only a math builtin and elem only face, in a short
  // loop: bounded. The others are not: a library call, a call through a pointer,
  // recursion, a jump back.
  const char *input = R"(double sqrt(double);
int printf(const char *, ...);
static double face(double a, double b) { double s = a + b; double t = b - a; s *= t; t *= s; s += t; t -= s; return sqrt(s * s + t); }
static double elem(const double *p) { double r = 0; for (int i = 0; i < 4; ++i) r += face(p[i], p[i + 1]); return r; }
static double said(double s) { s += 1; s *= 2; s -= 3; s += 4; s *= 5; s -= 6; printf("%g", s); return s; }
static double (*hook)(double);
static double through(double s) { s += 1; s *= 2; s -= 3; s += 4; s *= 5; s -= 6; return hook(s); }
static int down(int n) { int s = n + 1; s *= 2; s -= 3; s += 4; s *= 5; s -= 6; return n > 0 ? s + down(n - 1) : s; }
static int again(int n) { int s = 0; back: s += n; s *= 2; s -= 1; s += 3; if (--n > 0) goto back; return s; }
)";
  std::string bounded_out = instrument(input, "default");
  EXPECT_NE(std::string::npos, bounded_out.find("face(double a, double b) { double s"))
      << bounded_out;
  EXPECT_NE(std::string::npos, bounded_out.find("elem(const double *p) { double r = 0; for"))
      << bounded_out;
  for (const char *kept : {"said", "through", "down", "again"})
    EXPECT_NE(std::string::npos, bounded_out.find(std::string("<PROC ") + kept + "(...)"))
        << kept << " is not bounded:\n"
        << bounded_out;
  // Its weight: elem (11) reaches 9 and gets its PROC and LOOP back; an `id=` rule forces
  // one (face's PROC), as idb tune grows.
  std::string weighed =
      instrument(input, "default\nset bounded-weight 9\ninclude proc id=1986147723\n");
  EXPECT_NE(std::string::npos, weighed.find("<PROC elem(...) [t.c:4]> double r = 0; { <LOOP for "))
      << weighed;
  EXPECT_NE(std::string::npos, weighed.find("<PROC face(...) [t.c:3]>")) << weighed;
}

TEST(Rewrite, AChecksReportIsNotTheFunctionsWork) {
  // get's two checks print and go on (an assertion macro that does not abort): without
  // them it weighs 5, small. scale's check prints and exits: bounded. works assigns in its
  // branch, and logs prints what a call computes: their branches are work, their fprintf
  // and printf library calls, so both keep their probes.
  const char *input = R"(int printf(const char *, ...);
int fprintf(void *, const char *, ...);
void exit(int) __attribute__((noreturn));
double sqrt(double);
extern void *err;
#define CHECK(c) do { if (!(c)) { printf("check failed: %s:%d\n", __FILE__, __LINE__); } } while (0)
static double get(const double *v, int i, int n) { CHECK(i >= 0); CHECK(i < n); return v[i]; }
static double scale(double f, int n) { if (n <= 0) { fprintf(err, "bad n %d\n", n); exit(1); } double s = f * 2; s += 1; s *= f; s -= 2; s += f; s *= 3; return s; }
static double works(double *v, double f, int n) { if (n <= 0) { fprintf(err, "n %d\n", n); v[0] = f; } double s = f * 2; s += 1; s *= f; s -= 2; s += f; s *= 3; return s; }
static double logs(double s, int verbose) { s += 1; s *= 2; s -= 3; s += 4; s *= 5; s -= 6; if (verbose) printf("%g\n", sqrt(s)); return s; }
)";
  std::string out = instrument(input, "default");
  for (const char *skipped : {"get", "scale"})
    EXPECT_EQ(std::string::npos, out.find(std::string("<PROC ") + skipped + "(...)"))
        << skipped << " is not its checks:\n"
        << out;
  for (const char *kept : {"works", "logs"})
    EXPECT_NE(std::string::npos, out.find(std::string("<PROC ") + kept + "(...)"))
        << kept << "'s branch is work:\n"
        << out;
  // In C++, a message into std::cerr and abort() make a check too.
  const char *cxx = R"(#include <cstdlib>
#include <iostream>
struct Table {
  double *v; int n;
  double at(int i) const {
    if (i < 0 || i >= n) { std::cerr << "index " << i << " out of " << n << std::endl; std::abort(); }
    double x = v[i]; x *= 2; x += 1; x *= 3; x -= 2; x += v[0]; x *= x; return x;
  }
  double sum() const { double s = 0; for (int i = 0; i < n; ++i) s += at(i); return s; }
};
double total(const Table &t) { return t.sum(); }
)";
  std::string cxx_out = instrument(cxx, "default", "t.cpp");
  EXPECT_EQ(std::string::npos, cxx_out.find("<PROC Table::at(...)")) << cxx_out;
  EXPECT_NE(std::string::npos, cxx_out.find("<PROC Table::sum(...)")) << cxx_out;
}

TEST(Rewrite, HelpersCalledInNestedLoopsGetNoProbesWhenTheirOwnWorkIsBounded) {
  // micro is called in macro's loop, which lookups calls in its loop: nested. Its own work
  // is bounded: search holds a loop, and a probe of its own. phase is called in one loop
  // only; noisy in nested loops too, but it prints.
  const char *input = R"(int printf(const char *, ...);
static int search(const double *a, int n, double v) { int lo = 0; while (lo < n && a[lo] < v) ++lo; return lo; }
static double micro(const double *a, int n, double v) { double s = v; s *= 2; s += 1; s *= v; s -= 3; int i = search(a, n, s); return a[i] * s; }
static double noisy(double v) { double s = v; s *= 2; s += 1; s *= v; s -= 3; s += 4; printf("%g", s); return s; }
static double macro(const double *a, int n, double v) { double s = 0; for (int k = 0; k < n; ++k) s += micro(a, n, v + k) + noisy(v); return s; }
static double phase(const double *a, int n, double v) { double s = v; s *= 2; s += 1; s *= v; s -= 3; s += 4; return s + search(a, n, s); }
double lookups(const double *a, int n) { double s = 0; for (int l = 0; l < n; ++l) s += macro(a, n, l); return s; }
double run(const double *a, int n) { double s = 0; for (int t = 0; t < n; ++t) s += phase(a, n, t); return s; }
)";
  std::string out = instrument(input, "default");
  EXPECT_EQ(std::string::npos, out.find("<PROC micro")) << out;
  for (const char *kept : {"search", "noisy", "macro", "phase", "lookups", "run"})
    EXPECT_NE(std::string::npos, out.find(std::string("<PROC ") + kept + "(...)")) << kept << ":\n"
                                                                                   << out;
  EXPECT_NE(std::string::npos,
            instrument(input, "default\nset bounded-weight 0\n").find("<PROC micro"));
}

TEST(Rewrite, ALoopThatIsItsFunctionsWholeWorkIsLeftToItsProc) {
  // dot's loop is all it does; so is calls', whose call of dot is measured by dot's PROC.
  // two has two loops; told prints after its loop; guarded's loop is inside an if; main's
  // loop is the program's time step.
  const char *input = R"(int printf(const char *, ...);
static double dot(const double *a, int n) { double s = 0; for (int i = 0; i < n; ++i) s += a[i] * a[i]; return s; }
static double two(const double *a, int n) { double s = 0; for (int i = 0; i < n; ++i) s += a[i]; for (int i = 0; i < n; ++i) s -= a[i] / 2; return s; }
static double told(const double *a, int n) { double s = 0; for (int i = 0; i < n; ++i) s += a[i]; printf("%g", s); return s; }
static double guarded(const double *a, int n) { double s = 0; if (n > 0) { for (int i = 0; i < n; ++i) s += a[i]; } return s; }
static double calls(const double *a, int n) { double s = dot(a, n); for (int i = 0; i < n; ++i) s += a[i]; return s; }
int main(void) { double a[4] = {1, 2, 3, 4}, s = 0; for (int t = 0; t < 4; ++t) s += dot(a, 4) + two(a, 4) + told(a, 4) + guarded(a, 4) + calls(a, 4); return s > 0 ? 0 : 1; }
)";
  auto loop_in = [](const std::string &out, const std::string &function) {
    return out.find("<LOOP for loop in " + function + " ") != std::string::npos;
  };
  std::string out = instrument(input, "default");
  EXPECT_FALSE(loop_in(out, "dot")) << out;
  EXPECT_FALSE(loop_in(out, "calls")) << out;
  for (const char *kept : {"two", "told", "guarded", "main"})
    EXPECT_TRUE(loop_in(out, kept)) << kept << ":\n" << out;
  EXPECT_NE(std::string::npos, out.find("<PROC dot(...) [t.c:2]>")) << out;

  // The reason, and the ways back: without the PROC, as a white box, by ID, or with the
  // bounded rule lifted.
  auto sel = parse_selection("default", "sel");
  FileResult listed = run_on_text(input, "t.c", {}, sel.selection, false);
  const Candidate *dot_loop = nullptr;
  for (const Candidate &c : listed.candidates)
    if (c.kind == Kind::Loop && c.description.rfind("for loop in dot ", 0) == 0) dot_loop = &c;
  ASSERT_NE(nullptr, dot_loop) << listed.error;
  EXPECT_EQ("its function's whole work, which the PROC measures (the rest weighs 2 under 128, "
            "bounded)",
            dot_loop->skipped);
  EXPECT_TRUE(skipped_by_size_rule(dot_loop->skipped));
  EXPECT_TRUE(loop_in(instrument(input, "default\nexclude proc function=dot"), "dot"));
  EXPECT_NE(std::string::npos, instrument(input, "default\ninclude loop function=dot mode=whitebox")
                                   .find("++i) { <LOOP for loop in dot"));
  EXPECT_TRUE(loop_in(instrument(input, "default\ninclude loop id=" + std::to_string(dot_loop->id)),
                      "dot"));
  EXPECT_TRUE(loop_in(instrument(input, "default\nset bounded-weight 0"), "dot"));

  // A worksharing loop that is the whole function: its directive is the body's statement.
  const char *omp = R"(void scale(double *a, int n) {
  double f = 2;
#pragma omp parallel for
  for (int i = 0; i < n; ++i) a[i] *= f;
}
)";
  std::string omp_out = instrument(omp, "default", "t.c", {"-fopenmp"});
  EXPECT_NE(std::string::npos, omp_out.find("<PROC scale(...)")) << omp_out;
  EXPECT_EQ(std::string::npos, omp_out.find("<LOOP")) << omp_out;
}

TEST(Rewrite, BoundedWorkSeesThroughMembersButNotVirtualCallsOrAllocation) {
  const char *input =
      R"(struct V { double x, y; double dot(const V &o) const { return x * o.x + y * o.y; } };
struct Shape { virtual double area() const = 0; };
static double norm2(const V &a) { double s = a.dot(a); s += 1; s *= 2; s -= 3; s += 4; s *= 5; return s; }
static double areas(const Shape &h) { double s = h.area(); s += 1; s *= 2; s -= 3; s += 4; s *= 5; return s; }
static double *fresh(int m) { m += 1; m *= 2; m -= 3; m += 4; m *= 5; m -= 6; m += 7; return new double[m]; }
)";
  std::string out = instrument(input, "default", "t.cpp");
  EXPECT_EQ(std::string::npos, out.find("<PROC norm2")) << out;
  EXPECT_NE(std::string::npos, out.find("<PROC areas")) << out;
  EXPECT_NE(std::string::npos, out.find("<PROC fresh")) << out;
}

TEST(Rewrite, ALoopBetweenOffsetsOfOneVariableIsShort) {
  // f's loop runs from ix - 1 to ix + 1: 3 trips. h changes ix inside, and k's bound is a
  // global a call could change: both open-ended.
  const char *input = R"(int g;
int f(const int *grid, int ix, int *out) { int c = 0; for (int i = ix - 1; i <= ix + 1; i++) out[c++] = grid[i]; return c; }
int h(const int *grid, int ix, int *out) { int c = 0; for (int i = ix - 1; i <= ix + 1; i++) { out[c++] = grid[i]; ix++; } return c; }
int k(const int *grid, int *out) { int c = 0; for (int i = g - 1; i < 2 + g; i++) out[c++] = grid[i]; return c; }
)";
  auto sel = parse_selection("default", "sel");
  FileResult r = run_on_text(input, "t.c", {}, sel.selection, false);
  ASSERT_EQ("", r.error);
  std::map<std::string, std::string> loop_size, proc;
  for (const Candidate &c : r.candidates)
    (c.kind == Kind::Loop ? loop_size[c.function] : proc[c.function]) =
        c.kind == Kind::Loop ? c.size : c.skipped;
  EXPECT_EQ("short 4", loop_size["f"]);
  EXPECT_EQ("small function (weight 6 under 8, short loops only)", proc["f"]);
  EXPECT_EQ(std::string::npos, loop_size["h"].find("short")) << loop_size["h"];
  EXPECT_EQ(std::string::npos, loop_size["k"].find("short")) << loop_size["k"];
  EXPECT_EQ("", proc["h"]);
  EXPECT_EQ("", proc["k"]);
}

TEST(Rewrite, DoWhileZeroRunsOnceAndIsNoOpenEndedLoop) {
  // A function-like macro's `do { ... } while (0)` is its body once, and `while (0)` is
  // nothing: order is bounded (weight 8 or more, no loop of unknown length); spin's
  // do-while runs until its condition fails, so spin keeps its probe.
  const char *input = R"(#define CLAMP(v) do { if ((v) < 0) (v) = 0; } while (0)
#define SWAP(a, b) do { int t_ = (a); (a) = (b); (b) = t_; } while (0)
static int order(int a, int b, int c) { CLAMP(a); CLAMP(b); CLAMP(c); if (a > b) SWAP(a, b); if (b > c) SWAP(b, c); while (0) a = b; return a * 100 + b * 10 + c; }
static int spin(int n) { int s = 0; do { s += n--; } while (n > 0); return s; }
int main(void) { return order(3, 1, 2) + spin(3) > 0 ? 0 : 1; }
)";
  auto sel = parse_selection("default", "sel");
  FileResult r = run_on_text(input, "t.c", {}, sel.selection, false);
  ASSERT_EQ("", r.error);
  std::map<std::string, std::string> proc;
  for (const Candidate &c : r.candidates)
    if (c.kind == Kind::Proc) proc[c.function] = c.skipped;
  EXPECT_EQ(0u, proc["order"].rfind("bounded function", 0)) << proc["order"];
  EXPECT_EQ("", proc["spin"]);
  std::string out = instrument(input, "default");
  EXPECT_EQ(std::string::npos, out.find("<PROC order")) << out;
  EXPECT_NE(std::string::npos, out.find("<PROC spin")) << out;
}

TEST(Rewrite, BinarySearchesAreBoundedWork) {
  // grid (XSBench's form), lower (std::lower_bound's) and halve each halve what their
  // condition tests: their loops are binary searches, their body counted 20 times, so the
  // three are bounded. big's body weighs it over 128. walk's counter is not halved,
  // eight halves a constant, stride steps by half of what the loop leaves alone, and scan's
  // search holds a loop of unknown length: open-ended.
  const char *input = R"(static long grid(long n, double q, const double *a) {
  long lower = 0, upper = n - 1, mid, length = upper - lower;
  while (length > 1) { mid = lower + (length / 2); if (a[mid] > q) upper = mid; else lower = mid; length = upper - lower; }
  return lower;
}
static long lower(const double *a, long len, double v) {
  long first = 0;
  while (len > 0) { long half = len >> 1; if (a[first + half] < v) { first += half; ++first; len -= half + 1; } else len = half; }
  return first;
}
static int halve(unsigned n) { int s = 0; while (n > 1) { n /= 2; ++s; } return s; }
static long big(long n, double q, const double *a) {
  long lo = 0, hi = n;
  while (lo < hi) { long mid = (lo + hi) / 2; double x = a[mid]; x *= 2; x += 1; x *= q; x -= 3; if (x < q) lo = mid + 1; else hi = mid; }
  return lo;
}
static long walk(const double *a, long n) { long i = 0, lo = 0, hi = n, s = 0; while (i < n) { long mid = (lo + hi) / 2; s += (long)a[mid]; ++i; } return s; }
static long eight(long n) { long i = 0; while (i < n) i += 16 / 2; return i; }
static long stride(long n, long limit) { long x = 0, k = 0; while (x < limit) { x = x + n / 2 + 1; ++k; } return k; }
static long scan(const double *a, long n, double q) {
  long lo = 0, hi = n; double s = 0;
  while (lo < hi) { long mid = lo + (hi - lo) / 2; for (long j = 0; j < n; ++j) s += a[j]; if (a[mid] < q + s) lo = mid + 1; else hi = mid; }
  return lo;
}
double run(const double *a, long n) { double s = 0; for (long t = 0; t < n; ++t) s += grid(n, t, a) + lower(a, n, t) + halve(t) + big(n, t, a) + walk(a, n) + eight(n) + stride(n, t) + scan(a, n, t); return s; }
)";
  auto sel = parse_selection("default", "sel");
  FileResult r = run_on_text(input, "t.c", {}, sel.selection, false);
  ASSERT_EQ("", r.error);
  std::map<std::string, std::string> proc, loop;
  for (const Candidate &c : r.candidates)
    (c.kind == Kind::Proc ? proc : loop)[c.function] = c.skipped;
  EXPECT_EQ(
      "bounded function (weight 103 under 128, a binary search only, calls only bounded code)",
      proc["grid"]);
  EXPECT_EQ("in a bounded function (weight 103 under 128)", loop["grid"]);
  for (const char *search : {"lower", "halve"})
    EXPECT_EQ(0u, proc[search].rfind("bounded function (weight ", 0))
        << search << ": " << proc[search];
  EXPECT_NE(std::string::npos, proc["halve"].find("a binary search only")) << proc["halve"];
  for (const char *kept : {"big", "walk", "eight", "stride", "scan", "run"})
    EXPECT_EQ("", proc[kept]) << kept;
  std::string out = instrument(input, "default");
  for (const char *kept : {"big", "walk", "eight", "stride", "scan"})
    EXPECT_NE(std::string::npos, out.find(std::string("<PROC ") + kept + "(...)")) << kept << ":\n"
                                                                                   << out;
  EXPECT_EQ(std::string::npos, out.find("<PROC grid")) << out;
  // The ways back: the bounded rule lifted, or the function by name.
  EXPECT_NE(std::string::npos,
            instrument(input, "default\nset bounded-weight 0").find("<PROC grid"));
}

TEST(Rewrite, ShortLoopsCountAsTheirBodyRepeated) {
  // 16 trips of one statement weigh 17 (probed); 3 and 0 trips weigh 4 and 1 (skipped);
  // counting down and `<=` are short too; 17 trips are open-ended.
  const char *input = R"(int f(double *a) {
  for (int i = 0; i < 16; ++i) a[i] = 1;
  for (int i = 0; i < 3; ++i) a[i] = 2;
  for (int i = 5; i < 5; ++i) a[i] = 3;
  for (int i = 2; i >= 0; i--) a[i] += 1;
  for (int i = 1; i <= 17; i += 1) a[i] = 4;
  return 0;
}
)";
  const char *expected = R"(int f(double *a) { <PROC f(...) [t.c:1]>
  { <LOOP for loop in f [t.c:2]> for (int i = 0; i < 16; ++i) a[i] = 1; }
  for (int i = 0; i < 3; ++i) a[i] = 2;
  for (int i = 5; i < 5; ++i) a[i] = 3;
  for (int i = 2; i >= 0; i--) a[i] += 1;
  { <LOOP for loop in f [t.c:6]> for (int i = 1; i <= 17; i += 1) a[i] = 4; }
  return 0;
}
)";
  EXPECT_EQ(expected, instrument(input, "default"));
  // The candidates say which loops are short (what idb tune reads): `short` and the weight.
  auto sel = parse_selection("default", "sel");
  FileResult r = run_on_text(input, "t.c", {}, sel.selection, false);
  std::vector<std::string> sizes;
  for (const Candidate &c : r.candidates)
    if (c.kind == Kind::Loop) sizes.push_back(c.size);
  EXPECT_EQ((std::vector<std::string>{"short 17", "short 4", "short 1", "short 4", "2"}), sizes);
}

TEST(Rewrite, CxxUsesScopesAndSkipsConstexprLambdasAndTemplateInstances) {
  const char *input =
      R"(template <class T> T twice(T x) { T y = x; for (int i = 0; i < x; ++i) y += x; return y; }
constexpr int cube(int x) { int y = x * x; y *= x; return y; }
int run(int n) {
  auto add = [](int a) { int b = a; b++; return b; };
  int s = 0;
  for (int i = 0; i < n; i++) s += add(i);
  return twice(s) + twice(1.0) + cube(2);
}
)";
  const char *expected =
      R"(template <class T> T twice(T x) { <PROC twice(...) [t.cpp:1]> T y = x; { <LOOP for loop in twice [t.cpp:1]> for (int i = 0; i < x; ++i) y += x; } return y; }
constexpr int cube(int x) { int y = x * x; y *= x; return y; }
int run(int n) { <PROC run(...) [t.cpp:3]>
  auto add = [](int a) { int b = a; b++; return b; };
  int s = 0;
  { <LOOP for loop in run [t.cpp:6]> for (int i = 0; i < n; i++) s += add(i); }
  return twice(s) + twice(1.0) + cube(2);
}
)";
  // Each loop is its function's whole work: the bounded rule would leave it to the PROC.
  EXPECT_EQ(expected, instrument(input, "default\nset bounded-weight 0", "t.cpp"));
}

TEST(Rewrite, LoopsThatAJumpCouldEnterAreLeftAlone) {
  const char *input = R"(int d(int n, int *a) {
  int i = 0;
  switch (n % 2) {
  case 0:
    while (i < n) {
  case 1:
      a[i++] = 0;
    }
  }
  return i;
}
)";
  auto sel = parse_selection("include loop", "sel");
  FileResult r = run_on_text(input, "t.c", {}, sel.selection, false);
  ASSERT_EQ("", r.error);
  ASSERT_EQ(2u, r.candidates.size()); // the PROC, not selected, and the loop
  EXPECT_EQ(Kind::Loop, r.candidates[1].kind);
  EXPECT_EQ("a jump could enter the loop", r.candidates[1].skipped);
}

TEST(Rewrite, LoopsAfterAPragmaAndC90DeclarationsAreLeftAlone) {
  const char *input = R"(int f(int);
int p(int n, int *a) {
  int i;
#pragma GCC unroll 4
  for (i = 0; i < n; i++) a[i] = 0;
  while (n > 0) n--;
  return n;
}
int q(int c) {
  int y = f(c);
  return y;
}
)";
  const char *expected = R"(int f(int);
int p(int n, int *a) {
  int i;
{ <LOOP for loop in p [t.c:5]>
#line 4 "t.c"
#pragma GCC unroll 4
  for (i = 0; i < n; i++) a[i] = 0; }
  { <LOOP while loop in p [t.c:6]> while (n > 0) n--; }
  return n;
}
int q(int c) {
  int y = f(c);
  return y;
}
)";
  auto sel = parse_selection("include loop\ninclude call", "sel");
  FileResult r = run_on_text(input, "t.c", {"-std=c89"}, sel.selection, true);
  ASSERT_EQ("", r.error);
  std::string out = r.output.substr(prelude("t.c").size());
  EXPECT_EQ(expected, abbreviate(out.substr(0, out.find("\n/* idb-instrument: this file"))));
}

// A pragma governs the statement after it also through #ifdef ... #endif, comments and a
// backslash-continued line: wrapping only that statement in a block would hand the pragma
// the block (GCC: "for, while or do statement expected"), however the conditionals go; so
// the block takes in the directives too.
TEST(Rewrite, APragmaKeepsItsStatementThroughConditionalsAndComments) {
  const char *input = R"(int f(int);
int p(int n, int *a) {
  int i, s = 0;
#ifdef USE_UNROLL
#pragma GCC unroll 4
#endif
  for (i = 0; i < n; i++) a[i] = 0;
  /* a comment */
#pragma GCC ivdep
  // and another
  for (i = 0; i < n; i++) a[i] += 1;
#pragma omp parallel for \
    schedule(static)
  for (i = 0; i < n; i++) a[i] += 2;
#ifdef _OPENMP
#pragma omp critical
#endif
  s = f(s);
#if 0
#else
  for (i = 0; i < n; i++) a[i] += 3;
#endif
  return s;
}
)";
  auto sel = parse_selection("include loop\ninclude call", "sel");
  FileResult r = run_on_text(input, "t.c", {}, sel.selection, true);
  ASSERT_EQ("", r.error);
  std::string out = r.output.substr(prelude("t.c").size());
  out = abbreviate(out.substr(0, out.find("\n/* idb-instrument: this file")));
  // Each probe goes around its whole construct: its block opens on a line of its own
  // before the directives (before the conditionals that hold them), `#line` gives them
  // back their number, and the block closes after the statement.
  const char *expected = R"(int f(int);
int p(int n, int *a) {
  int i, s = 0;
{ <LOOP for loop in p [t.c:7]>
#line 4 "t.c"
#ifdef USE_UNROLL
#pragma GCC unroll 4
#endif
  for (i = 0; i < n; i++) a[i] = 0; }
  /* a comment */
{ <LOOP for loop in p [t.c:11]>
#line 9 "t.c"
#pragma GCC ivdep
  // and another
  for (i = 0; i < n; i++) a[i] += 1; }
{ <LOOP for loop in p [t.c:14]>
#line 12 "t.c"
#pragma omp parallel for \
    schedule(static)
  for (i = 0; i < n; i++) a[i] += 2; }
{ <CALL f(...) in p [t.c:18]>
#line 15 "t.c"
#ifdef _OPENMP
#pragma omp critical
#endif
  s = f(s); }
#if 0
#else
  { <LOOP for loop in p [t.c:21]> for (i = 0; i < n; i++) a[i] += 3; }
#endif
  return s;
}
)";
  EXPECT_EQ(expected, out);
  for (const Candidate &c : r.candidates)
    EXPECT_EQ("", c.skipped) << c.description;
}

// The block before a pragma never opens in another branch of a conditional than the one
// its statement is in: here it opens after `#else`, not before it.
TEST(Rewrite, ThePragmaBlockStaysInItsStatementsBranch) {
  const char *input = R"(void g(void);
void p(int n, int *a) {
#if USE_G
  g();
#else
#pragma GCC ivdep
  for (int i = 0; i < n; i++) a[i] = 0;
#endif
}
)";
  const char *expected = R"(void g(void);
void p(int n, int *a) {
#if USE_G
  g();
#else
{ <LOOP for loop in p [t.c:7]>
#line 6 "t.c"
#pragma GCC ivdep
  for (int i = 0; i < n; i++) a[i] = 0; }
#endif
}
)";
  EXPECT_EQ(expected, instrument(input, "include loop"));
}

TEST(Rewrite, OpenMpRegionsKeepTheirCandidates) {
  const char *input = R"(double g(double);
double p(int n, double *a) {
  double s = 0;
  int i, j;
#pragma omp parallel for reduction(+ : s)
  for (i = 0; i < n; i++) {
    for (j = 0; j < 4; j++) a[i] += g(a[j]);
    s += a[i];
  }
#pragma omp simd
  for (i = 0; i < n; i++) a[i] = g(a[i]);
#pragma omp parallel for collapse(2)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) a[i] += g(a[j]);
  return s;
}
)";
  std::string out = instrument(input, "include loop\ninclude call", "t.c", {"-fopenmp"});
  const char *expected = R"(double g(double);
double p(int n, double *a) {
  double s = 0;
  int i, j;
#pragma omp parallel
{ <LOOP for loop in p [t.c:6]>
#line 5 "t.c"
#pragma omp for reduction(+ : s)
#if 0
#pragma omp parallel for reduction(+ : s)
#endif
#line 6 "t.c"
  for (i = 0; i < n; i++) {
    { <LOOP for loop in p [t.c:7]> for (j = 0; j < 4; j++) { <CALL g(...) in p [t.c:7]> a[i] += g(a[j]); } }
    s += a[i];
  } }
{ <LOOP for loop in p [t.c:11]>
#line 10 "t.c"
#pragma omp simd
  for (i = 0; i < n; i++) a[i] = g(a[i]); }
#pragma omp parallel
{ <LOOP for loop in p [t.c:13]>
#line 12 "t.c"
#pragma omp for collapse(2)
#if 0
#pragma omp parallel for collapse(2)
#endif
#line 13 "t.c"
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) a[i] += g(a[j]); }
  return s;
}
)";
  EXPECT_EQ(expected, out);
  // White boxes: inside the worksharing loop's body, never inside the simd loop or the nest.
  std::string white = instrument(input, "include loop depth=1 mode=whitebox", "t.c", {"-fopenmp"});
  EXPECT_NE(std::string::npos,
            white.find("  for (i = 0; i < n; i++) { <LOOP for loop in p [t.c:6]>"));
  EXPECT_NE(std::string::npos, white.find("  for (i = 0; i < n; i++) a[i] = g(a[i]);\n"));
}

// `#pragma omp parallel for` is the team and the loop it combines: split in two, its probe
// opens on every thread of the team, each its share of the iterations. The clauses go to
// the construct they belong to (the data-sharing ones to the loop, so a variable both
// firstprivate and lastprivate keeps its meaning), the line as written is left out by
// `#if 0`, and `#line` keeps the numbers. Comments above stay above. Where a clause would
// need more (default(none): the team would have to name what the loop uses), another
// directive or a conditional is in the group, a macro spells the pragma, or the loop is
// also simd, the probe goes around the whole construct as before: the encountering
// thread's alone.
TEST(Rewrite, ParallelLoopsAreSplitSoTheirProbeOpensOnEveryThread) {
  const char *input = R"(double g(double);
double p(int n, double *a, int t) {
  double s = 0;
  int i, last = 0;
  /* two lines of clauses */
  #pragma omp parallel for if(n > 100) reduction(+ : s) schedule(dynamic, 4) \
      num_threads(t) firstprivate(last) lastprivate(last) shared(a) proc_bind(close)
  for (i = 0; i < n; i++) { s += g(a[i]); last = i; }
  return s + last;
}
)";
  const char *expected = R"(double g(double);
double p(int n, double *a, int t) {
  double s = 0;
  int i, last = 0;
  /* two lines of clauses */
#pragma omp parallel if(n > 100) num_threads(t) shared(a) proc_bind(close)
{ <LOOP for loop in p [t.c:8]>
#line 6 "t.c"
#pragma omp for reduction(+ : s) schedule(dynamic, 4) firstprivate(last) lastprivate(last)
#if 0
  #pragma omp parallel for if(n > 100) reduction(+ : s) schedule(dynamic, 4) \
      num_threads(t) firstprivate(last) lastprivate(last) shared(a) proc_bind(close)
#endif
#line 8 "t.c"
  for (i = 0; i < n; i++) { s += g(a[i]); last = i; } }
  return s + last;
}
)";
  EXPECT_EQ(expected, instrument(input, "include loop", "t.c", {"-fopenmp"}));
  // A clause without a parenthesis is its keyword alone (Clang ends it at the next one).
  std::string ordered = instrument("void p(int n, double *a) {\n"
                                   "#pragma omp parallel for ordered schedule(static)\n"
                                   "  for (int i = 0; i < n; i++) a[i] *= 2;\n}\n",
                                   "include loop", "t.c", {"-fopenmp"});
  EXPECT_NE(std::string::npos, ordered.find("\n#pragma omp for ordered schedule(static)\n"))
      << ordered;
  // Under a guard that holds the directive alone, the team's directive closes the guard
  // and the loop's opens it again, so the braces balance whichever way it goes.
  std::string guarded = instrument("void p(int n, double *a) {\n"
                                   "#ifdef _OPENMP\n"
                                   "#pragma omp parallel for schedule(static)\n"
                                   "#endif\n"
                                   "  for (int i = 0; i < n; i++) a[i] *= 2;\n}\n",
                                   "include loop", "t.c", {"-fopenmp"});
  EXPECT_EQ("void p(int n, double *a) {\n"
            "#ifdef _OPENMP\n"
            "#pragma omp parallel\n"
            "#endif\n"
            "{ <LOOP for loop in p [t.c:5]>\n"
            "#ifdef _OPENMP\n"
            "#line 3 \"t.c\"\n"
            "#pragma omp for schedule(static)\n"
            "#if 0\n"
            "#pragma omp parallel for schedule(static)\n"
            "#endif\n"
            "#endif\n"
            "#line 5 \"t.c\"\n"
            "  for (int i = 0; i < n; i++) a[i] *= 2; }\n}\n",
            guarded);
  // A parenthesis on the next line, in a file with CRLF line ends: the clause continues.
  std::string crlf = instrument("void p(int n, double *a) {\r\n"
                                "#pragma omp parallel for schedule \\\r\n  (static)\r\n"
                                "  for (int i = 0; i < n; i++) a[i] *= 2;\r\n}\r\n",
                                "include loop", "t.c", {"-fopenmp"});
  EXPECT_NE(std::string::npos, crlf.find("#pragma omp for schedule \\\r\n  (static)\n")) << crlf;

  for (const char *whole : {
           "#pragma omp parallel for default(none) shared(a, n)\n",
           "#pragma omp parallel for reduction(task, + : s)\n",
           "#pragma omp parallel for simd\n",
           "#ifdef _OPENMP\n  int t = 2;\n#pragma omp parallel for num_threads(t)\n#endif\n",
           "#ifdef _OPENMP\n#pragma omp parallel for\n#else\n#pragma GCC ivdep\n#endif\n",
           "#pragma GCC ivdep\n#pragma omp parallel for\n",
           "#define PFOR _Pragma(\"omp parallel for\")\nPFOR\n",
       }) {
    std::string code = std::string("void p(int n, double *a) {\n  double s = 0;\n") + whole +
                       "  for (int i = 0; i < n; i++) a[i] *= 2;\n  (void)s;\n}\n";
    std::string out = instrument(code, "include loop", "t.c", {"-fopenmp"});
    EXPECT_EQ(std::string::npos, out.find("#pragma omp for")) << out;
    EXPECT_NE(std::string::npos, out.find("<LOOP for loop in p")) << out;
  }
}

// A pragma that a macro spells (`_Pragma` in a macro, as codes write `OMP_FOR for (...)`)
// governs the loop after the macro just as a written one does: Clang's directive says so
// where the text shows none, so the probe goes before the macro. The loop inside the
// worksharing loop still takes its probe; the atomic statement has none to take.
TEST(Rewrite, PragmasSpelledByMacrosStillGovernTheirLoop) {
  const char *input = R"src(#define OMP_FOR _Pragma("omp for schedule(static)")
#define OMP_ATOMIC _Pragma("omp atomic")
double g(double);
void p(int n, double *a, double *total) {
#pragma omp parallel
  {
    OMP_FOR
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) a[i] += g(a[j]);
      OMP_ATOMIC
      *total += a[i];
    }
  }
}
)src";
  std::string out = instrument(input, "include loop\ninclude call", "t.c", {"-fopenmp"});
  std::string expected = input;
  std::string inner = "      for (int j = 0; j < n; j++) a[i] += g(a[j]);";
  expected.replace(expected.find(inner), inner.size(),
                   "      { <LOOP for loop in p [t.c:9]> for (int j = 0; j < n; j++) "
                   "{ <CALL g(...) in p [t.c:9]> a[i] += g(a[j]); } }");
  // The worksharing construct whole, from its macro: one activation per thread.
  expected.replace(expected.find("    OMP_FOR"), 11, "    { <LOOP for loop in p [t.c:8]> OMP_FOR");
  std::string end = "      *total += a[i];\n    }\n";
  expected.replace(expected.find(end), end.size(), "      *total += a[i];\n    } }\n");
  EXPECT_EQ(expected, out);
}

// Pragma lines as macro bodies, for Clang's parse of headers: respelled as _Pragma on the
// same line; function-like macros, continued lines and other defines stay as they are.
TEST(Rewrite, PragmaMacrosAreRespelledForTheParse) {
  EXPECT_EQ("#define OMP_FOR _Pragma(\"omp for schedule(static)\")\nint x;\n",
            spell_pragma_macros("#define OMP_FOR  #pragma omp for schedule(static)  \nint x;\n"));
  EXPECT_EQ("  # define P _Pragma(\"omp critical(\\\"a\\\")\")",
            spell_pragma_macros("  # define P # pragma omp critical(\"a\")"));
  for (const char *same : {"#define F(x) #pragma x\n", "#define P #pragma omp for \\\n  nowait\n",
                           "#define N 3\n", "#pragma once\n", "#define Q #pragmatic\n"})
    EXPECT_EQ(same, spell_pragma_macros(same));
}

TEST(Rewrite, LabelsOnlyMatterWhenAGotoOutsideNamesThem) {
  const char *input = R"(int g(int n) {
  int i, s = 0;
  for (i = 0; i < n; i++) {
    if (i == 2) goto next;
    s += i;
  next:
    s++;
  }
  if (n > 5) goto inside;
  while (s > 10) {
  inside:
    s -= 3;
  }
  return s;
}
)";
  auto sel = parse_selection("include loop", "sel");
  FileResult r = run_on_text(input, "t.c", {}, sel.selection, false);
  ASSERT_EQ("", r.error);
  ASSERT_EQ(3u, r.candidates.size());
  EXPECT_EQ("", r.candidates[1].skipped);
  EXPECT_EQ("a jump could enter the loop", r.candidates[2].skipped);
}

TEST(Rewrite, InstrumentedFileIsRefused) {
  auto sel = default_selection();
  FileResult first = run_on_text("int main(void) { return 0; }\n", "m.c", {}, sel, true);
  ASSERT_EQ("", first.error);
  // The output names idb/probe.h, which this parse need not find: the marker is checked
  // before anything else.
  FileResult again = run_on_text(first.output, "m.c", {"-I" IDB_PROBE_INCLUDE}, sel, true);
  EXPECT_EQ("m.c is already instrumented (it starts with idb-instrument's marker); "
            "instrument the original source",
            again.error);
}

TEST(Rewrite, CodeThatDoesNotCompileIsAnError) {
  FileResult r = run_on_text("int main(void) { return undeclared; }\n", "bad.c", {},
                             default_selection(), true);
  EXPECT_EQ("bad.c does not compile (Clang's errors are above)", r.error);
  EXPECT_EQ("", r.output);
}

TEST(Rewrite, FunctionsDeclaredThroughMacrosClangAndGccDefineDifferentlyGetNoProbes) {
  // idb-instrument parses with Clang, which defines __clang__ and gives __GNUC__ as 4; the
  // compiler may be GCC. What is defined under such a test (directly, through a macro so
  // defined, or in a branch after one) may differ; a test of defined(__GNUC__), a
  // conditional nested in a skipped block, or the name in a comment tells nothing apart.
  const char *input = R"(#if defined(__clang__)
#define ONE_API static
#else
#define ONE_API static inline
#endif
#if __GNUC__ >= 5
#define NEW_GCC 1
#endif
#ifdef NEW_GCC
#define TWO_API static
#else
#define TWO_API static inline
#endif
#if 0
#if defined(__clang__)
#endif
#define SKIPPED 1
#elif defined(__GNUC__)
#define SAME_API static
#endif
#ifdef __GNUC__
#define ALSO_SAME static
#endif
#define ALIAS_OF_ONE ONE_API
int plain(int *a, int n) { for (int i = 0; i < n; ++i) a[i] |= i; return a[0]; }
ONE_API int one(int *a, int n) { for (int i = 0; i < n; ++i) a[i] += i; return a[0]; }
TWO_API int two(int *a, int n) { for (int i = 0; i < n; ++i) a[i] -= i; return a[0]; }
SAME_API int same(int *a, int n) { for (int i = 0; i < n; ++i) a[i] *= i; return a[0]; }
ALSO_SAME /* ONE_API */ int also(int *a, int n) { for (int i = 0; i < n; ++i) a[i] ^= i; return a[0]; }
)";
  auto sel = parse_selection("default\nset bounded-weight 0\nset min-statements 0\n", "sel");
  FileResult r = run_on_text(input, "t.c", {}, sel.selection, false);
  ASSERT_EQ("", r.error);
  std::map<std::string, std::string> proc;
  for (const Candidate &c : r.candidates)
    if (c.kind == Kind::Proc) proc[c.function] = c.selected ? c.skipped : "not selected";
  EXPECT_EQ("declared through a macro Clang and GCC define differently (ONE_API)", proc["one"]);
  EXPECT_EQ("declared through a macro Clang and GCC define differently (TWO_API)", proc["two"]);
  EXPECT_EQ("", proc["same"]);
  EXPECT_EQ("", proc["also"]);
  EXPECT_EQ("", proc["plain"]) << "a directive right above names nothing of its declaration";
  // In C++ alike: a constexpr only one compiler sees would take no probe under it.
  const char *cxx = R"(#ifdef __clang__
#define MAYBE_CONSTEXPR
#else
#define MAYBE_CONSTEXPR constexpr
#endif
MAYBE_CONSTEXPR int sum(const int *a, int n) { int s = 0; for (int i = 0; i < n; ++i) s += a[i]; return s; }
)";
  r = run_on_text(cxx, "t.cpp", {"-std=c++17"}, sel.selection, false);
  ASSERT_EQ("", r.error);
  for (const Candidate &c : r.candidates) {
    if (c.kind == Kind::Proc) {
      EXPECT_EQ("declared through a macro Clang and GCC define differently (MAYBE_CONSTEXPR)",
                c.skipped);
    }
  }
}

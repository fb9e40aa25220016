// The program index: the size rule of one file knowing the functions and calls of the
// others (program_index.hpp). Each file's summary comes from the instrumenter's own pass
// over its text, as the compiler wrappers make it.
#include "program_index.hpp"
#include "selection.hpp"
#include "tool.hpp"

#include <gtest/gtest.h>

#include <map>

using namespace idb::instr;

namespace {

// The summary of `code` as the file `file`.
UnitSummary summary_of(const std::string &code, const std::string &file) {
  ProgramIndex none;
  FileResult r = run_on_text(code, file, {}, default_selection(), false, false, {}, &none);
  EXPECT_EQ("", r.error);
  UnitSummary summary;
  EXPECT_TRUE(parse_summary(r.summary, summary)) << r.summary;
  return summary;
}

// The PROC verdict of each function of `code`: "placed" or why not.
std::map<std::string, std::string> procs(const std::string &code, const std::string &file,
                                         const ProgramIndex *program) {
  FileResult r = run_on_text(code, file, {}, default_selection(), false, false, {}, program);
  EXPECT_EQ("", r.error);
  std::map<std::string, std::string> out;
  for (const Candidate &c : r.candidates)
    if (c.kind == Kind::Proc) out[c.function] = c.skipped.empty() ? "placed" : c.skipped;
  return out;
}

bool starts(const std::string &text, const std::string &head) {
  return text.rfind(head, 0) == 0;
}

// A per-element evaluator whose callee lives in another file, and the loops that call it
// in a third: Quicksilver's macroscopicCrossSection in miniature.
const char *kLeaf = "double leaf(const double *t, int i) { return t[i] * 2.0 + 1.0; }\n";
const char *kSum = R"(double sum(const double *t, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += t[i];
  return s;
}
)";
const char *kHelpers = R"(double leaf(const double *t, int i);
double sum(const double *t, int n);
double cell(const double *t, int i, int j) {
  double a = t[i]; double b = leaf(t, j); double c = a * b;
  if (c > 10.0) c = 10.0;
  double d = c - a; d = d * d; a = a + d;
  return a + b + c + d;
}
double row(const double *t, int i, int j) {
  double a = t[i]; double b = sum(t, j); double c = a * b;
  if (c > 10.0) c = 10.0;
  double d = c - a; d = d * d; a = a + d;
  return a + b + c + d;
}
)";
const char *kMain = R"(double cell(const double *t, int i, int j);
double row(const double *t, int i, int j);
static double sweep(const double *t) {
  double s = 0;
  for (int i = 0; i < 100; ++i)
    for (int j = 0; j < 100; ++j) s += cell(t, i, j) + row(t, i, j % 4);
  return s;
}
int main(void) {
  double t[100] = {0}, s = 0;
  for (int step = 0; step < 10; ++step) s += sweep(t);
  return s > 0;
}
)";

} // namespace

TEST(ProgramIndex, AHelperOfAnotherFileIsKnownThroughItsSummary) {
  // Alone, cell calls an unknown function and row is called from no loop it can see: both
  // keep their probes.
  auto alone = procs(kHelpers, "helpers.c", nullptr);
  EXPECT_EQ("placed", alone["cell"]);
  EXPECT_EQ("placed", alone["row"]);
  // leaf's file says leaf is bounded: so is cell. sum holds a loop: row's own work is
  // bounded, and main's file says it is called in nested loops.
  ProgramIndex program;
  program.add(summary_of(kLeaf, "leaf.c"));
  program.add(summary_of(kSum, "sum.c"));
  program.add(summary_of(kMain, "main.c"));
  auto known = procs(kHelpers, "helpers.c", &program);
  EXPECT_TRUE(starts(known["cell"], "bounded function (weight")) << known["cell"];
  EXPECT_TRUE(starts(known["row"], "called in nested loops (weight")) << known["row"];
  // The reasons say where the verdict came from.
  for (const char *f : {"cell", "row"})
    EXPECT_NE(std::string::npos, known[f].find("; through the program index)")) << known[f];
  // Without main's file nothing calls row in a loop; cell still rests on leaf alone.
  ProgramIndex callees;
  callees.add(summary_of(kLeaf, "leaf.c"));
  callees.add(summary_of(kSum, "sum.c"));
  auto some = procs(kHelpers, "helpers.c", &callees);
  EXPECT_TRUE(starts(some["cell"], "bounded function")) << some["cell"];
  EXPECT_EQ("placed", some["row"]);
}

TEST(ProgramIndex, ALoopIsItsFunctionsWholeWorkWhenTheRestIsMeasuredInAnotherFile) {
  // scale's other statement calls sum, which holds a loop (and a probe) in its own file:
  // the loop is scale's whole work, which its PROC measures. Alone, sum is a library call.
  const char *scale = R"(double sum(const double *t, int n);
void scale(double *t, int n) {
  double s = sum(t, n);
  for (int i = 0; i < n; ++i) t[i] /= s;
}
)";
  auto loop_reason = [&](const ProgramIndex *program) {
    FileResult r =
        run_on_text(scale, "scale.c", {}, default_selection(), false, false, {}, program);
    for (const Candidate &c : r.candidates)
      if (c.kind == Kind::Loop) return c.skipped.empty() ? std::string("placed") : c.skipped;
    return std::string("no loop");
  };
  EXPECT_EQ("placed", loop_reason(nullptr));
  ProgramIndex program;
  program.add(summary_of(kSum, "sum.c"));
  std::string known = loop_reason(&program);
  EXPECT_TRUE(starts(known, "its function's whole work")) << known;
  EXPECT_NE(std::string::npos, known.find("; through the program index)")) << known;
  // A file's own facts need no index, and say nothing of it.
  const char *local = R"(static double total(const double *t, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += t[i];
  return s;
}
double helper(const double *t, int j) { double a = t[j]; a = a * 2; a += 1; a *= a; a -= 2; a += t[0]; a *= 3; a -= 1; return a; }
)";
  auto own = procs(local, "local.c", &program);
  EXPECT_TRUE(starts(own["helper"], "bounded function")) << own["helper"];
  EXPECT_EQ(std::string::npos, own["helper"].find("program index")) << own["helper"];
}

TEST(ProgramIndex, WhatACalleeRestsOnIsFollowedAcrossFiles) {
  // mid is bounded in its file if leaf is; leaf's own file says it is not (it prints), so
  // neither is mid, nor top, which calls mid.
  const char *mid = "double leaf(double);\n"
                    "double mid(double x) { double y = leaf(x); return y * y + x; }\n";
  const char *top = R"(double mid(double);
double top(double x) {
  double a = mid(x); double b = a * 2; double c = b + a;
  double d = c * c; double e = d - a; double f = e + b; double g = f * f;
  return a + b + c + d + e + f + g;
}
)";
  UnitSummary mid_summary = summary_of(mid, "mid.c");
  ASSERT_EQ(1u, mid_summary.functions.size());
  EXPECT_TRUE(mid_summary.functions[0].bounded);
  EXPECT_EQ(std::vector<std::string>{"c:@F@leaf"}, mid_summary.functions[0].rests_on);
  const char *quiet_leaf = "double leaf(double x) { return x + 1; }\n";
  const char *loud_leaf = "int printf(const char *, ...);\n"
                          "double leaf(double x) { printf(\"%g\\n\", x); return x + 1; }\n";
  ProgramIndex quiet, loud;
  quiet.add(mid_summary);
  quiet.add(summary_of(quiet_leaf, "leaf.c"));
  loud.add(mid_summary);
  loud.add(summary_of(loud_leaf, "leaf.c"));
  EXPECT_TRUE(quiet.bounded("c:@F@mid"));
  EXPECT_FALSE(loud.bounded("c:@F@mid"));
  EXPECT_TRUE(starts(procs(top, "top.c", &quiet)["top"], "bounded function"));
  EXPECT_EQ("placed", procs(top, "top.c", &loud)["top"]);
  // A function two files define (variants of one routine) is bounded only when both are.
  ProgramIndex both = quiet;
  both.add(summary_of(loud_leaf, "leaf_debug.c"));
  EXPECT_FALSE(both.bounded("c:@F@mid"));
}

TEST(ProgramIndex, ARecursionThroughTwoFilesIsNotBounded) {
  const char *even = "int odd(int);\nint even(int n) { return n == 0 ? 1 : odd(n - 1); }\n";
  const char *odd = "int even(int);\nint odd(int n) { return n == 0 ? 0 : even(n - 1); }\n";
  ProgramIndex program;
  program.add(summary_of(even, "even.c"));
  program.add(summary_of(odd, "odd.c"));
  EXPECT_FALSE(program.bounded("c:@F@even"));
  EXPECT_FALSE(program.bounded("c:@F@odd"));
  EXPECT_FALSE(program.bounded("c:@F@unknown"));
}

TEST(ProgramIndex, CallsNestAcrossFiles) {
  ProgramIndex program;
  program.add(summary_of(kMain, "main.c"));
  EXPECT_EQ(0, program.nesting("c:@F@main"));
  EXPECT_EQ(1, program.nesting("c:main.c@F@sweep")); // a static function's USR names its file
  EXPECT_EQ(2, program.nesting("c:@F@cell"));
  EXPECT_EQ(2, program.nesting("c:@F@row"));
  EXPECT_EQ(0, program.nesting("c:@F@leaf"));
}

TEST(ProgramIndex, ASummaryReadsBackAsItWasWritten) {
  UnitSummary summary = summary_of(kHelpers, "helpers.c");
  ASSERT_EQ(2u, summary.functions.size());
  UnitSummary back;
  ASSERT_TRUE(parse_summary(summary_text(summary), back));
  EXPECT_EQ(summary_text(summary), summary_text(back));
  EXPECT_FALSE(parse_summary("idb-summary 2\n", back));
  EXPECT_FALSE(parse_summary("idb-summary 1\nX\tsomething\n", back));
  EXPECT_FALSE(parse_summary("", back));
}

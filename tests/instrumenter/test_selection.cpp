// The selection's text form: valid and invalid lines side by side, and how rules decide.
#include "selection.hpp"

#include <gtest/gtest.h>

using namespace idb::instr;

namespace {

Candidate candidate(Kind kind, const std::string &function, int depth = 0,
                    const std::string &callee = "") {
  Candidate c;
  c.kind = kind;
  c.id = 42;
  c.file = "src/solver.c";
  c.function = function;
  c.depth = depth;
  c.callee = callee;
  return c;
}

bool chosen(const Selection &sel, Candidate c) {
  select(sel, c);
  return c.selected;
}

// The mode as `list` prints it, "" when none was set.
std::string mode_of(const Candidate &c) {
  return c.loop_mode ? loop_mode_name(*c.loop_mode) : "";
}

} // namespace

TEST(Selection, DefaultTakesProceduresOutermostLoopsAndMpi) {
  Selection sel = default_selection();
  EXPECT_TRUE(chosen(sel, candidate(Kind::Proc, "solve")));
  EXPECT_TRUE(chosen(sel, candidate(Kind::Loop, "solve", 1)));
  EXPECT_FALSE(chosen(sel, candidate(Kind::Loop, "solve", 2)));
  EXPECT_TRUE(chosen(sel, candidate(Kind::Comm, "solve", 0, "MPI_Send")));
  EXPECT_FALSE(chosen(sel, candidate(Kind::Call, "solve", 0, "helper")));
  EXPECT_EQ(8u, sel.min_statements);
  EXPECT_EQ(128u, sel.bounded_weight);
  EXPECT_FALSE(sel.skip_inline);
}

TEST(Selection, LastMatchingRuleWins) {
  auto parsed = parse_selection("include all\n"
                                "exclude proc function=tiny_*\n"
                                "include proc function=tiny_keep\n",
                                "sel");
  ASSERT_EQ("", parsed.error);
  EXPECT_TRUE(chosen(parsed.selection, candidate(Kind::Proc, "solve")));
  EXPECT_FALSE(chosen(parsed.selection, candidate(Kind::Proc, "tiny_add")));
  EXPECT_TRUE(chosen(parsed.selection, candidate(Kind::Proc, "tiny_keep")));
}

TEST(Selection, LoopModeAndDepthRange) {
  auto parsed = parse_selection("include loop depth<=2\n"
                                "include loop depth>=2 mode=whitebox function=solve\n",
                                "sel");
  ASSERT_EQ("", parsed.error);
  Candidate outer = candidate(Kind::Loop, "solve", 1);
  Candidate inner = candidate(Kind::Loop, "solve", 2);
  Candidate deep = candidate(Kind::Loop, "other", 3);
  select(parsed.selection, outer);
  select(parsed.selection, inner);
  select(parsed.selection, deep);
  EXPECT_EQ("blackbox", mode_of(outer));
  EXPECT_EQ("whitebox", mode_of(inner));
  EXPECT_FALSE(deep.selected);
  EXPECT_EQ("", mode_of(deep));
}

TEST(Selection, LoopModeNamesParseBack) {
  for (const char *name : {"blackbox", "whitebox"}) {
    auto mode = parse_loop_mode(name);
    ASSERT_TRUE(mode) << name;
    EXPECT_STREQ(name, loop_mode_name(*mode));
  }
  EXPECT_FALSE(parse_loop_mode("Whitebox"));
  EXPECT_FALSE(parse_loop_mode(""));
}

TEST(Selection, FileMatchesPathOrBaseNameAndCalleeAndId) {
  auto parsed = parse_selection("include call file=solver.c callee=MPI_*\n"
                                "include call id=7\n",
                                "sel");
  ASSERT_EQ("", parsed.error);
  EXPECT_TRUE(chosen(parsed.selection, candidate(Kind::Call, "f", 0, "MPI_Wait")));
  EXPECT_FALSE(chosen(parsed.selection, candidate(Kind::Call, "f", 0, "helper")));
  Candidate by_id = candidate(Kind::Call, "f", 0, "helper");
  by_id.id = 7;
  EXPECT_TRUE(chosen(parsed.selection, by_id));
}

TEST(Selection, CommOffWinsOverRules) {
  auto parsed = parse_selection("default\nset comm off\n", "sel");
  ASSERT_EQ("", parsed.error);
  EXPECT_FALSE(chosen(parsed.selection, candidate(Kind::Comm, "f", 0, "MPI_Send")));
  EXPECT_TRUE(chosen(parsed.selection, candidate(Kind::Proc, "f")));
}

TEST(Selection, SettingsAndComments) {
  auto parsed = parse_selection("  # nothing\n\nset min-statements 0 # all sizes\n"
                                "set bounded-weight 0\nset skip-inline off\n",
                                "sel");
  ASSERT_EQ("", parsed.error);
  EXPECT_EQ(0u, parsed.selection.min_statements);
  EXPECT_EQ(0u, parsed.selection.bounded_weight);
  EXPECT_FALSE(parsed.selection.skip_inline);
  EXPECT_TRUE(parsed.selection.rules.empty());
}

TEST(Selection, ErrorsNameLineAndColumn) {
  struct Case {
    const char *text, *error;
  } cases[] = {
      {"include lop", "sel:1:9: unknown kind 'lop'"},
      {"\ninclude loop depth=x", "sel:2:14: bad depth 'x'"},
      {"include proc color=red", "sel:1:14: unknown filter 'color' (file, function, callee, "
                                 "depth, id, mode)"},
      {"include loop mode=grey",
       "sel:1:14: mode must be blackbox, whitebox or dynamic, got 'grey'"},
      {"instrument everything", "sel:1:1: unknown directive 'instrument' (include, exclude, "
                                "set, default)"},
      {"set min-statements many", "sel:1:1: min-statements needs a number, got 'many'"},
      {"set bounded-weight -", "sel:1:1: bounded-weight needs a number, got '-'"},
      {"set speed 3",
       "sel:1:1: unknown setting 'speed' (min-statements, bounded-weight, skip-inline, comm)"},
      {"exclude", "sel:1:1: 'exclude' needs a kind (proc, loop, call, comm, all)"},
      {"include proc function=", "sel:1:14: empty value for 'function'"},
  };
  for (const auto &c : cases) {
    auto parsed = parse_selection(c.text, "sel");
    EXPECT_EQ(c.error, parsed.error) << c.text;
  }
}

TEST(Selection, TheSizeRulesReasonsAreToldApartFromOthers) {
  for (const char *reason :
       {"small function (weight 4 under 8, no loop)", "short loop (3 trips, weight 4 under 8)",
        "inline function",
        "bounded function (weight 43 under 128, no loop, calls only bounded code)",
        "in a bounded function (weight 43 under 128)",
        "called in nested loops (weight 36 under 128, no loop, its own work bounded)",
        "in a function called in nested loops (weight 36 under 128)"})
    EXPECT_TRUE(skipped_by_size_rule(reason)) << reason;
  for (const char *reason : {"constexpr function", "a jump could enter the loop", ""})
    EXPECT_FALSE(skipped_by_size_rule(reason)) << reason;
}

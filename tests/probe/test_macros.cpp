// Every scope macro and C++ helper, from the C99 and C++11 scenarios of scopes_c.c and
// scopes_cxx11.cpp: the trees they record show each scope closed on every way out of its
// block (return, break, continue, goto, exceptions), and the probe table shows what the
// macros captured (kind, __func__, __FILE__, __LINE__).
#include "child.hpp"
#include "scopes.h"

#include "idb/probe.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using idb::test::Child;
using idb::test::find_cfh;
using idb::test::run_child;
using idb::test::tree_of;

struct Recorded {
  Child child;
  idb::profile::Profile profile;
};

Recorded run(void (*scenario)()) {
  Recorded r{run_child(scenario), {}};
  EXPECT_TRUE(r.child.ok()) << r.child.describe();
  auto result = r.child.read();
  EXPECT_TRUE(result.profile) << result.error;
  if (result.profile) r.profile = std::move(*result.profile);
  return r;
}

bool ends_with(const std::string &text, const std::string &end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

void expect_clean(const idb::profile::Profile &profile) {
  for (const auto &cfh : profile.cfhs) {
    EXPECT_EQ(0u, cfh.mismatches) << cfh.name;
    EXPECT_EQ(0u, cfh.unclosed) << cfh.name;
  }
}

TEST(Macros, CScopesCloseOnEveryWayOutOfABlock) {
  Recorded r = run(c_scopes_exits);
  EXPECT_EQ("c_scopes_exits 1\n"
            "c_scopes_exits;early_return 2\n"
            "c_scopes_exits;early_return;after 1\n"
            "c_scopes_exits;loop_exits 1\n"
            "c_scopes_exits;loop_exits;iteration 7\n"
            "c_scopes_exits;loop_exits;iteration;even 3\n"
            "c_scopes_exits;loop_exits;while 1\n"
            "c_scopes_exits;goto_exit 2\n"
            "c_scopes_exits;goto_exit;MPI_Send 2\n"
            "c_scopes_exits;goto_exit;MPI_Send;skipped by goto 1\n"
            "c_scopes_exits;goto_exit;done 2\n"
            "c_scopes_exits;find 1\n"
            "c_scopes_exits;find;search 4\n",
            tree_of(r.profile, "thread 0"));
  expect_clean(r.profile);
}

TEST(Macros, CScopesRecordKindFunctionFileAndLine) {
  Recorded r = run(c_scopes_exits);
  struct Expected {
    int id, kind;
    const char *description, *function;
  };
  for (const Expected &e : {Expected{1001, IDB_PROC, "early_return", "early_return"},
                            Expected{1011, IDB_LOOP, "iteration", "loop_exits"},
                            Expected{1012, IDB_CALL, "even", "loop_exits"},
                            Expected{1021, IDB_COMM, "MPI_Send", "goto_exit"}}) {
    const idb::profile::Probe *probe = r.profile.probe(e.id);
    ASSERT_TRUE(probe) << e.id;
    EXPECT_EQ(e.kind, probe->kind) << e.id;
    EXPECT_EQ(e.description, probe->description) << e.id;
    EXPECT_EQ(e.function, probe->function) << e.id;
    EXPECT_TRUE(ends_with(probe->file, "scopes_c.c")) << probe->file;
    EXPECT_GT(probe->line, 0) << e.id;
  }
  EXPECT_LT(r.profile.probe(1011)->line, r.profile.probe(1012)->line);
}

TEST(Macros, CCfhScopeUsesTheNamedInstanceOrTheThread) {
  Recorded r = run(c_scopes_named);
  EXPECT_EQ("c method 3\nc method;c call 2\n", tree_of(r.profile, "c object"));
  EXPECT_EQ("on the thread 1\n", tree_of(r.profile, "thread 0"));
  expect_clean(r.profile);
}

TEST(Macros, CxxScopeConstructorsAndCfhMembers) {
  Recorded r = run(cxx_scope_constructors);
  EXPECT_EQ("name solver[0]\n"
            "handle 1\n"
            "handle;reference 1\n"
            "member start 1\n"
            "dump 1\n",
            r.child.out);
  EXPECT_EQ("kind, id, description 1\n"
            "kind, id, description;with location 1\n"
            "null handle 1\n",
            tree_of(r.profile, "thread 0"));
  EXPECT_EQ("handle 1\nhandle;reference 1\nmember start 1\n", tree_of(r.profile, "solver[0]"));
  expect_clean(r.profile);

  const idb::profile::Probe *located = r.profile.probe(2001);
  ASSERT_TRUE(located);
  EXPECT_EQ(IDB_CALL, located->kind);
  EXPECT_EQ("file.cpp", located->file);
  EXPECT_EQ(12, located->line);
  EXPECT_EQ("caller", located->function);
  const idb::profile::Probe *bare = r.profile.probe(2000);
  ASSERT_TRUE(bare);
  EXPECT_EQ("", bare->file);
  EXPECT_EQ(0, bare->line);
  const idb::profile::Probe *loop = r.profile.probe(2003);
  ASSERT_TRUE(loop);
  EXPECT_EQ(IDB_LOOP, loop->kind);
  EXPECT_EQ("run", loop->function);
  ASSERT_TRUE(r.profile.probe(2004));
  EXPECT_EQ(IDB_COMM, r.profile.probe(2004)->kind);
}

TEST(Macros, CxxMacrosOnTheThreadAndOnNamedInstances) {
  Recorded r = run(cxx_scope_macros);
  EXPECT_EQ("cxx_scope_macros 1\n"
            "cxx_scope_macros;first_odd 1\n"
            "cxx_scope_macros;first_odd;scan 3\n"
            "cxx_scope_macros;exchange 2\n"
            "cxx_scope_macros;exchange;MPI_Isend 2\n",
            tree_of(r.profile, "thread 0"));
  EXPECT_EQ("object scope 2\n", tree_of(r.profile, "cxx object"));
  EXPECT_EQ("handle scope 2\n", tree_of(r.profile, "cxx other"));
  expect_clean(r.profile);
  const idb::profile::Probe *scan = r.profile.probe(2012);
  ASSERT_TRUE(scan);
  EXPECT_EQ(IDB_LOOP, scan->kind);
  EXPECT_EQ("first_odd", scan->function);
  EXPECT_TRUE(ends_with(scan->file, "scopes_cxx11.cpp")) << scan->file;
}

TEST(Macros, CxxExceptionClosesEveryScopeItLeaves) {
  Recorded r = run(cxx_exception_through_scopes);
  EXPECT_EQ("cxx_exception_through_scopes 1\n"
            "cxx_exception_through_scopes;try 1\n"
            "cxx_exception_through_scopes;try;fails 1\n"
            "cxx_exception_through_scopes;try;fails;fails 1\n"
            "cxx_exception_through_scopes;try;fails;fails;fails 1\n"
            "cxx_exception_through_scopes;handler 1\n"
            "cxx_exception_through_scopes;after 1\n",
            tree_of(r.profile, "thread 0"));
  expect_clean(r.profile);
}

} // namespace

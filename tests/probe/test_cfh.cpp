// Shapes of control-flow hierarchies, compared as text ("main;solve 10" per node): nesting,
// recursion (one node per depth), one probe under two parents, stops that do not match
// the innermost probe, named CFH instances and their isolation, a destroyed instance
// continued under its name, and idb_cfh_dump. Each scenario runs in a child process.
#include "child.hpp"

#include "idb/probe.h"
#include "idb/tree.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {

using idb::test::Child;
using idb::test::find_cfh;
using idb::test::run_child;
using idb::test::tree_of;

void pair(int id, const char *description) {
  idb_start(IDB_PROC, id, description);
  idb_stop(id);
}

void fib(int n) {
  idb_start(IDB_PROC, 5, "fib");
  if (n >= 2) {
    fib(n - 1);
    fib(n - 2);
  }
  idb_stop(5);
}

// Runs `scenario`, reads its profile and returns it; fails the test when either fails.
idb::profile::Profile profile_of(const std::function<void()> &scenario) {
  Child child = run_child(scenario);
  EXPECT_TRUE(child.ok()) << child.describe();
  idb::profile::ReadResult result = child.read();
  EXPECT_TRUE(result.profile) << result.error;
  return result.profile ? *result.profile : idb::profile::Profile{};
}

TEST(Cfh, NestedProbesGiveOneNodePerPath) {
  auto profile = profile_of([] {
    idb_start(IDB_PROC, 1, "main");
    for (int i = 0; i < 10; ++i) {
      idb_start(IDB_PROC, 2, "solve");
      pair(3, "MPI_Allreduce");
      idb_stop(2);
    }
    pair(4, "output");
    idb_stop(1);
  });
  EXPECT_EQ("main 1\n"
            "main;solve 10\n"
            "main;solve;MPI_Allreduce 10\n"
            "main;output 1\n",
            tree_of(profile, "thread 0"));
  const auto *cfh = find_cfh(profile, "thread 0");
  ASSERT_TRUE(cfh);
  EXPECT_EQ(0u, cfh->mismatches);
  EXPECT_EQ(0u, cfh->unclosed);
  EXPECT_EQ(0u, cfh->overflow);
  EXPECT_EQ(0u, cfh->depth_overflow);
  EXPECT_FALSE(cfh->named);
}

TEST(Cfh, RecursionGivesOneNodePerDepth) {
  auto profile = profile_of([] { fib(4); });
  EXPECT_EQ("fib 1\n"
            "fib;fib 2\n"
            "fib;fib;fib 4\n"
            "fib;fib;fib;fib 2\n",
            tree_of(profile, "thread 0"));
}

TEST(Cfh, SameProbeUnderTwoParentsIsTwoNodes) {
  auto profile = profile_of([] {
    idb_start(IDB_PROC, 1, "main");
    for (int i = 0; i < 3; ++i) {
      idb_start(IDB_PROC, 2, "a");
      pair(9, "c");
      idb_stop(2);
    }
    idb_start(IDB_PROC, 3, "b");
    pair(9, "c");
    idb_stop(3);
    idb_stop(1);
  });
  EXPECT_EQ("main 1\n"
            "main;a 3\n"
            "main;a;c 3\n"
            "main;b 1\n"
            "main;b;c 1\n",
            tree_of(profile, "thread 0"));
}

TEST(Cfh, StopOfAnOuterProbeClosesTheInnerOnes) {
  auto profile = profile_of([] {
    idb_start(IDB_PROC, 1, "a");
    idb_start(IDB_PROC, 2, "b");
    idb_start(IDB_PROC, 3, "c");
    idb_stop(1); // b and c were left open
    pair(4, "d");
  });
  EXPECT_EQ("a 1\n"
            "a;b 1\n"
            "a;b;c 1\n"
            "d 1\n",
            tree_of(profile, "thread 0"));
  const auto *cfh = find_cfh(profile, "thread 0");
  ASSERT_TRUE(cfh);
  EXPECT_EQ(1u, cfh->mismatches);
  EXPECT_EQ(0u, cfh->unclosed);
}

TEST(Cfh, StopOfAProbeNotOpenIsIgnoredAndCounted) {
  auto profile = profile_of([] {
    pair(1, "a");
    idb_stop(7); // nothing open
    idb_start(IDB_PROC, 1, "a");
    idb_stop(99); // never started
    idb_stop(0);  // the root's id: never closable by a probe
    pair(2, "b");
    idb_stop(1);
  });
  EXPECT_EQ("a 2\n"
            "a;b 1\n",
            tree_of(profile, "thread 0"));
  const auto *cfh = find_cfh(profile, "thread 0");
  ASSERT_TRUE(cfh);
  EXPECT_EQ(3u, cfh->mismatches);
}

TEST(Cfh, TreeRecoversAfterMismatchedStops) {
  auto profile = profile_of([] {
    for (int i = 0; i < 3; ++i) {
      idb_start(IDB_PROC, 1, "a");
      idb_start(IDB_PROC, 2, "b");
      if (i == 1) {
        idb_stop(1); // closes b too
        idb_stop(2); // b is no longer open: ignored
      } else {
        idb_stop(2);
        idb_stop(1);
      }
    }
  });
  EXPECT_EQ("a 3\n"
            "a;b 3\n",
            tree_of(profile, "thread 0"));
  const auto *cfh = find_cfh(profile, "thread 0");
  ASSERT_TRUE(cfh);
  EXPECT_EQ(2u, cfh->mismatches);
}

TEST(Cfh, NamedInstancesAreIsolatedFromEachOtherAndTheThread) {
  auto profile = profile_of([] {
    idb_cfh_t *left = idb_cfh_create("solver[0]");
    idb_cfh_t *right = idb_cfh_create("solver[1]");
    // Interleaved: each instance has its own stack, so none of this mismatches.
    idb_cfh_start(left, IDB_PROC, 10, "step");
    idb_start(IDB_PROC, 1, "main");
    idb_cfh_start(right, IDB_PROC, 10, "step");
    idb_cfh_start(left, IDB_LOOP, 11, "sweep");
    idb_cfh_stop(left, 11);
    idb_cfh_stop(left, 10);
    idb_cfh_start_at(right, IDB_CALL, 12, "exchange", "solver.cpp", 40, "step");
    idb_cfh_stop(right, 12);
    idb_stop(1);
    idb_cfh_stop(right, 10);
    idb_cfh_start(left, IDB_PROC, 10, "step");
    idb_cfh_stop(left, 10);
    idb_cfh_destroy(left);
    idb_cfh_destroy(right);
  });
  EXPECT_EQ("step 2\nstep;sweep 1\n", tree_of(profile, "solver[0]"));
  EXPECT_EQ("step 1\nstep;exchange 1\n", tree_of(profile, "solver[1]"));
  EXPECT_EQ("main 1\n", tree_of(profile, "thread 0"));
  for (const auto &cfh : profile.cfhs) {
    EXPECT_EQ(0u, cfh.mismatches) << cfh.name;
    EXPECT_EQ(0u, cfh.unclosed) << cfh.name;
    EXPECT_EQ(cfh.name != "thread 0", cfh.named) << cfh.name;
    EXPECT_EQ(0, cfh.thread) << cfh.name; // named ones take their creator's slot
  }
  EXPECT_EQ(3u, profile.cfhs.size());
}

TEST(Cfh, RecreatingADestroyedNameContinuesIt) {
  auto profile = profile_of([] {
    for (int round = 0; round < 3; ++round) {
      idb_cfh_t *object = idb_cfh_create("particle");
      for (int i = 0; i <= round; ++i) {
        idb_cfh_start(object, IDB_PROC, 20, "move");
        idb_cfh_stop(object, 20);
      }
      idb_cfh_destroy(object);
    }
  });
  EXPECT_EQ("move 6\n", tree_of(profile, "particle"));
  int instances = 0;
  for (const auto &cfh : profile.cfhs)
    instances += cfh.name == "particle";
  EXPECT_EQ(1, instances);
}

TEST(Cfh, DestroyClosesOpenProbesAndCountsThem) {
  auto profile = profile_of([] {
    idb_cfh_t *object = idb_cfh_create("object");
    idb_cfh_start(object, IDB_PROC, 1, "outer");
    idb_cfh_start(object, IDB_PROC, 2, "inner");
    idb_cfh_destroy(object);
    idb_cfh_stop(object, 2); // after destroy: does nothing but count
  });
  EXPECT_EQ("outer 1\nouter;inner 1\n", tree_of(profile, "object"));
  const auto *cfh = find_cfh(profile, "object");
  ASSERT_TRUE(cfh);
  EXPECT_EQ(2u, cfh->unclosed);
}

TEST(Cfh, LongNamesAreCutTo63BytesAndStillMatch) {
  const std::string long_name(100, 'x');
  Child child = run_child([&] {
    idb_cfh_t *first = idb_cfh_create(long_name.c_str());
    std::printf("%s\n", idb_cfh_name(first));
    pair(1, "ignored"); // on the thread's CFH
    idb_cfh_start(first, IDB_PROC, 2, "work");
    idb_cfh_stop(first, 2);
    idb_cfh_destroy(first);
    idb_cfh_t *again = idb_cfh_create(long_name.c_str());
    idb_cfh_start(again, IDB_PROC, 2, "work");
    idb_cfh_stop(again, 2);
  });
  ASSERT_TRUE(child.ok()) << child.describe();
  EXPECT_EQ(std::string(63, 'x') + "\n", child.out);
  auto result = child.read();
  ASSERT_TRUE(result.profile) << result.error;
  EXPECT_EQ("work 2\n", tree_of(*result.profile, std::string(63, 'x')));
}

TEST(Cfh, DumpWritesOneLinePerPathWithCounts) {
  Child child = run_child([] {
    idb_cfh_t *cfh = idb_cfh_create("dumped");
    idb_cfh_start(cfh, IDB_PROC, 1, "main");
    for (int i = 0; i < 4; ++i) {
      idb_cfh_start(cfh, IDB_LOOP, 2, "loop [a.c:3]");
      idb_cfh_start(cfh, IDB_CALL, 3, nullptr); // no description: shown as #3
      idb_cfh_stop(cfh, 3);
      idb_cfh_stop(cfh, 2);
    }
    idb_cfh_stop(cfh, 1);
    pair(4, "on the thread");
    std::printf("rc %d\n", idb_cfh_dump(cfh, stdout));
    std::printf("rc %d\n", idb_cfh_dump(idb_thread_cfh(), stdout));
    std::printf("rc %d %d '%s'\n", idb_cfh_dump(nullptr, stdout), idb_cfh_dump(cfh, nullptr),
                idb_cfh_name(nullptr));
  });
  ASSERT_TRUE(child.ok()) << child.describe();
  EXPECT_EQ("main 1\n"
            "main;loop [a.c:3] 4\n"
            "main;loop [a.c:3];#3 4\n"
            "rc 0\n"
            "on the thread 1\n"
            "rc 0\n"
            "rc -1 -1 ''\n",
            child.out);
  auto result = child.read();
  ASSERT_TRUE(result.profile) << result.error;
  // The reader prints the same text from the profile.
  EXPECT_EQ("main 1\nmain;loop [a.c:3] 4\nmain;loop [a.c:3];#3 4\n",
            tree_of(*result.profile, "dumped"));
}

} // namespace

// The calling thread's current CFH (idb_cfh_enter / idb_cfh_leave): the thread's probes go
// to the entered CFH, enters nest, mismatched leaves are counted and handled, a destroyed
// CFH stops taking probes, each thread has its own current CFH (and drops its enters when
// it ends), probes off and finalize make enter a no-op, the scope macros and idb::CfhContext pair
// enter and leave, and a start/stop pair costs the same inside an enter as outside (a ratio in one
// process).
#include "child.hpp"
#include "scopes.h"

#include "idb/probe.h"
#include "idb/tree.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

namespace {

using idb::test::Child;
using idb::test::Env;
using idb::test::find_cfh;
using idb::test::run_child;
using idb::test::tree_of;

void pair(int id, const char *description) {
  idb_start(IDB_PROC, id, description);
  idb_stop(id);
}

idb::profile::Profile profile_of(const std::function<void()> &scenario, const Env &env = {}) {
  Child child = run_child(scenario, env);
  EXPECT_TRUE(child.ok()) << child.describe();
  idb::profile::ReadResult result = child.read();
  EXPECT_TRUE(result.profile) << result.error;
  return result.profile ? *result.profile : idb::profile::Profile{};
}

std::uint64_t mismatches_of(const idb::profile::Profile &profile, const std::string &name) {
  const auto *cfh = find_cfh(profile, name);
  return cfh ? cfh->mismatches : ~std::uint64_t(0);
}

TEST(Context, EnteredCfhTakesTheThreadsProbes) {
  auto profile = profile_of([] {
    idb_cfh_t *object = idb_cfh_create("object");
    idb_start(IDB_PROC, 1, "main");
    idb_cfh_enter(object);
    idb_start(IDB_PROC, 2, "push");
    pair(3, "loop");
    idb_stop(2);
    idb_cfh_leave(object);
    pair(4, "output");
    idb_stop(1);
    idb_cfh_destroy(object);
  });
  EXPECT_EQ("main 1\nmain;output 1\n", tree_of(profile, "thread 0"));
  EXPECT_EQ("push 1\npush;loop 1\n", tree_of(profile, "object"));
  for (const auto &cfh : profile.cfhs) {
    EXPECT_EQ(0u, cfh.mismatches) << cfh.name;
    EXPECT_EQ(0u, cfh.unclosed) << cfh.name;
  }
}

TEST(Context, EntersNestAndEachLeaveRestoresThePrevious) {
  auto profile = profile_of([] {
    idb_cfh_t *a = idb_cfh_create("a"), *b = idb_cfh_create("b");
    for (int i = 0; i < 2; ++i) {
      idb_cfh_enter(a);
      pair(1, "in a");
      idb_cfh_enter(b);
      pair(2, "in b");
      idb_cfh_enter(a); // the same CFH again, deeper
      pair(3, "in a again");
      idb_cfh_leave(a);
      pair(4, "in b after");
      idb_cfh_leave(b);
      pair(5, "in a after");
      idb_cfh_leave(a);
      pair(6, "on the thread");
    }
  });
  EXPECT_EQ("in a 2\nin a again 2\nin a after 2\n", tree_of(profile, "a"));
  EXPECT_EQ("in b 2\nin b after 2\n", tree_of(profile, "b"));
  EXPECT_EQ("on the thread 2\n", tree_of(profile, "thread 0"));
  for (const auto &cfh : profile.cfhs)
    EXPECT_EQ(0u, cfh.mismatches) << cfh.name;
}

TEST(Context, MismatchedLeavesAreCountedAndHandled) {
  auto profile = profile_of([] {
    idb_cfh_t *a = idb_cfh_create("a"), *b = idb_cfh_create("b"), *c = idb_cfh_create("c");
    idb_cfh_leave(c); // never entered: ignored
    idb_cfh_enter(a);
    idb_cfh_enter(b);
    idb_cfh_leave(a); // b was not left: a's leave ends it too
    pair(1, "on the thread");
    idb_cfh_leave(b); // no longer entered: ignored
    pair(2, "still on the thread");
    idb_cfh_enter(a);
    pair(3, "in a");
    idb_cfh_leave(a);
    idb_cfh_leave(nullptr);
    idb_cfh_enter(nullptr);
    pair(4, "last");
  });
  EXPECT_EQ("on the thread 1\nstill on the thread 1\nlast 1\n", tree_of(profile, "thread 0"));
  EXPECT_EQ("in a 1\n", tree_of(profile, "a"));
  EXPECT_EQ(1u, mismatches_of(profile, "a"));
  EXPECT_EQ(1u, mismatches_of(profile, "b"));
  EXPECT_EQ(1u, mismatches_of(profile, "c"));
  EXPECT_EQ(0u, mismatches_of(profile, "thread 0"));
}

TEST(Context, DestroyedCfhStopsTakingProbesAndItsLeaveStillMatches) {
  auto profile = profile_of([] {
    idb_cfh_t *outer = idb_cfh_create("outer"), *doomed = idb_cfh_create("doomed");
    idb_cfh_enter(outer);
    idb_cfh_enter(doomed);
    pair(1, "in doomed");
    idb_cfh_destroy(doomed);
    pair(2, "in outer");
    idb_cfh_enter(doomed); // destroyed: nothing becomes current, counted
    pair(3, "in outer too");
    idb_cfh_leave(doomed);
    idb_cfh_leave(doomed);
    pair(4, "in outer still");
    idb_cfh_leave(outer);
    pair(5, "on the thread");
  });
  EXPECT_EQ("in doomed 1\n", tree_of(profile, "doomed"));
  EXPECT_EQ("in outer 1\nin outer too 1\nin outer still 1\n", tree_of(profile, "outer"));
  EXPECT_EQ("on the thread 1\n", tree_of(profile, "thread 0"));
  EXPECT_EQ(2u, mismatches_of(profile, "doomed")); // destroyed while entered; entered after
  EXPECT_EQ(0u, mismatches_of(profile, "outer"));
}

TEST(Context, EntersPastTheCapAreCountedAndTheirLeavesConsumed) {
  constexpr int kDepth = 40, kCap = 32;
  auto profile = profile_of([] {
    idb_cfh_t *cfh[kDepth];
    for (int i = 0; i < kDepth; ++i)
      cfh[i] = idb_cfh_create(("level " + std::to_string(i)).c_str());
    for (int i = 0; i < kDepth; ++i)
      idb_cfh_enter(cfh[i]);
    pair(1, "deepest");
    for (int i = kDepth; i-- > 0;) {
      idb_cfh_leave(cfh[i]);
      if (i == kCap - 1 || i == 1) pair(2, "after a leave");
    }
    pair(3, "on the thread");
  });
  EXPECT_EQ("deepest 1\n", tree_of(profile, "level 31"));
  EXPECT_EQ("after a leave 1\n", tree_of(profile, "level 30"));
  EXPECT_EQ("after a leave 1\n", tree_of(profile, "level 0"));
  EXPECT_EQ("on the thread 1\n", tree_of(profile, "thread 0"));
  EXPECT_EQ(0u, mismatches_of(profile, "level 31"));
  EXPECT_EQ(1u, mismatches_of(profile, "level 32"));
  EXPECT_EQ(1u, mismatches_of(profile, "level 39"));
}

TEST(Context, EachThreadHasItsOwnCurrentCfh) {
  auto profile = profile_of([] {
    idb_cfh_t *main_object = idb_cfh_create("main object");
    idb_cfh_t *main_default = idb_thread_cfh();
    idb_cfh_enter(main_object);
    std::thread worker([main_default] {
      pair(1, "worker before");
      idb_cfh_t *own = idb_cfh_create("worker object");
      idb_cfh_enter(own);
      pair(2, "worker inside");
      idb_cfh_enter(main_default); // another thread's default CFH: not taken
      pair(3, "worker still inside");
      idb_cfh_leave(main_default);
      idb_cfh_leave(own);
      idb_cfh_destroy(own);
    });
    worker.join();
    pair(4, "main inside");
    idb_cfh_leave(main_object);
    pair(5, "main after");
  });
  EXPECT_EQ("main after 1\n", tree_of(profile, "thread 0"));
  EXPECT_EQ("worker before 1\n", tree_of(profile, "thread 1"));
  EXPECT_EQ("main inside 1\n", tree_of(profile, "main object"));
  EXPECT_EQ("worker inside 1\nworker still inside 1\n", tree_of(profile, "worker object"));
  EXPECT_EQ(1u, mismatches_of(profile, "thread 0"));
  const auto *worker_object = find_cfh(profile, "worker object");
  ASSERT_TRUE(worker_object);
  EXPECT_EQ(1, worker_object->thread); // its creator's slot
}

TEST(Context, AThreadThatEndsInsideAnEnterDropsIt) {
  auto profile = profile_of([] {
    idb_cfh_t *object = idb_cfh_create("object");
    std::thread([object] {
      pair(1, "worker");
      idb_cfh_enter(object);
      idb_start(IDB_PROC, 2, "left open"); // neither closed nor left
    }).join();
    std::thread([] { pair(3, "next worker"); }).join(); // takes the ended thread's slot
    idb_cfh_enter(object);
    pair(4, "main inside");
    idb_cfh_leave(object);
  });
  EXPECT_EQ("worker 1\nnext worker 1\n", tree_of(profile, "thread 1"));
  // The named CFH is not the thread's: its probe stays open, and later ones nest under it.
  EXPECT_EQ("left open 1\nleft open;main inside 1\n", tree_of(profile, "object"));
  const auto *object = find_cfh(profile, "object");
  ASSERT_TRUE(object);
  EXPECT_EQ(1u, object->unclosed);
  EXPECT_EQ(0u, object->mismatches);
}

TEST(Context, TheFirstProbeOfAThreadMayBeInsideAnEnter) {
  Child child = run_child([] {
    idb_cfh_t *object = idb_cfh_create("object"); // made here, used by one thread at a time
    std::thread([object] {
      idb_cfh_enter(object); // before this thread has a default CFH
      pair(1, "inside");
      std::printf("default is %s\n", idb_cfh_name(idb_thread_cfh())); // claims it
      pair(2, "still inside");
      idb_cfh_leave(object);
      pair(3, "outside");
    }).join();
  });
  ASSERT_TRUE(child.ok()) << child.describe();
  EXPECT_EQ("default is thread 1\n", child.out);
  auto result = child.read();
  ASSERT_TRUE(result.profile) << result.error;
  EXPECT_EQ("inside 1\nstill inside 1\n", tree_of(*result.profile, "object"));
  EXPECT_EQ("outside 1\n", tree_of(*result.profile, "thread 1"));
  EXPECT_EQ(0u, mismatches_of(*result.profile, "object"));
}

TEST(Context, ProbesOffMakeEnterAndLeaveNoOps) {
  Child child = run_child(
      [] {
        idb_cfh_t *object = idb_cfh_create("object");
        std::printf("handle %s\n", object ? "set" : "null");
        idb_cfh_enter(object);
        { IDB_CFH_CONTEXT(object); }
        pair(1, "nothing");
        idb_cfh_leave(object);
        c_context();
        cxx_context();
      },
      Env{{"IDB_ENABLE", "0"}});
  ASSERT_TRUE(child.ok()) << child.describe();
  EXPECT_EQ("handle null\n", child.out);
  EXPECT_FALSE(child.read().profile);
}

TEST(Context, FinalizeClosesEnteredCfhsAndLaterEntersDoNothing) {
  auto profile = profile_of([] {
    idb_cfh_t *object = idb_cfh_create("object");
    idb_cfh_enter(object);
    idb_start(IDB_PROC, 1, "open at finalize");
    idb_finalize();
    idb_cfh_enter(object);
    pair(2, "after finalize");
    idb_cfh_leave(object);
    idb_cfh_leave(object);
  });
  EXPECT_EQ("open at finalize 1\n", tree_of(profile, "object"));
  const auto *object = find_cfh(profile, "object");
  ASSERT_TRUE(object);
  EXPECT_EQ(1u, object->unclosed);
  EXPECT_EQ(0u, object->mismatches);
  EXPECT_EQ("", tree_of(profile, "thread 0"));
}

TEST(Context, CMacroEntersUntilTheEndOfTheBlock) {
  auto profile = profile_of(c_context);
  EXPECT_EQ("c_context 1\nc_context;c after 1\n", tree_of(profile, "thread 0"));
  EXPECT_EQ("object_work 2\n"
            "object_work;c entered loop 5\n"
            "object_work;c entered call 1\n",
            tree_of(profile, "c context"));
  for (const auto &cfh : profile.cfhs) {
    EXPECT_EQ(0u, cfh.mismatches) << cfh.name;
    EXPECT_EQ(0u, cfh.unclosed) << cfh.name;
  }
}

TEST(Context, CxxContextLeavesOnEveryWayOutExceptionsIncluded) {
  auto profile = profile_of(cxx_context);
  EXPECT_EQ("cxx_context 1\ncxx_context;cxx handler 1\n", tree_of(profile, "thread 0"));
  EXPECT_EQ("entered_work 1\n"
            "entered_work;cxx entered loop 1\n"
            "cxx context object 1\n"
            "throws_inside 1\n"
            "cxx member enter 1\n",
            tree_of(profile, "cxx context"));
  for (const auto &cfh : profile.cfhs) {
    EXPECT_EQ(0u, cfh.mismatches) << cfh.name;
    EXPECT_EQ(0u, cfh.unclosed) << cfh.name;
  }
}

// Parents of 10,000 empty pairs, alternately on the thread's CFH (ids 100 + r) and inside
// an enter of a named one (ids 200 + r).
void pairs_inside_and_outside() {
  constexpr int kReps = 7, kPairs = 10'000;
  idb_cfh_t *object = idb_cfh_create("object");
  for (int r = 0; r < kReps; ++r)
    for (int turn = 0; turn < 2; ++turn) {
      bool inside = (turn + r) % 2 == 0;
      if (inside) idb_cfh_enter(object);
      int id = (inside ? 200 : 100) + r;
      idb_start(IDB_PROC, id, inside ? "inside" : "outside");
      for (int i = 0; i < kPairs; ++i)
        pair(300, "empty");
      idb_stop(id);
      if (inside) idb_cfh_leave(object);
    }
}

// The smallest inclusive time of the root's children in `cfh`.
double best_parent_time(const idb::profile::Cfh &cfh) {
  double best = HUGE_VAL;
  for (const auto &node : cfh.nodes)
    if (node.parent == 0 && node.probe != 300) best = std::min(best, node.stats.sum);
  return best;
}

TEST(Context, StartAndStopCostTheSameInsideAnEnter) {
  // A burst of load on the shared machine can spoil one process: the best of a few counts.
  constexpr int kProcesses = 5;
  double best_gap = HUGE_VAL;
  std::string tried;
  for (int attempt = 0; attempt < kProcesses && best_gap >= 0.2; ++attempt) {
    auto profile = profile_of(pairs_inside_and_outside);
    const auto *outside = find_cfh(profile, "thread 0");
    const auto *inside = find_cfh(profile, "object");
    ASSERT_TRUE(outside && inside);
    double ratio = best_parent_time(*inside) / best_parent_time(*outside);
    best_gap = std::min(best_gap, std::fabs(ratio - 1.0));
    tried += " " + std::to_string(ratio);
  }
  RecordProperty("inside_over_outside", tried); // --gtest_output=xml shows the figures
  EXPECT_LT(best_gap, 0.2) << "inside / outside, per process:" << tried;
}

} // namespace

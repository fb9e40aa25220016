// The hard caps that keep a profile bounded by program structure: IDB_MAX_NODES (nodes
// per CFH; activations beyond it are counted as overflow) and IDB_MAX_DEPTH (open probes
// per CFH; deeper activations are counted as depth overflow, use no memory, and the tree
// records normally again once they close). Recursion 100000 deep under the default caps
// must not crash.
#include "child.hpp"

#include "idb/probe.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <pthread.h>
#include <string>
#include <utility>

namespace {

using idb::test::Child;
using idb::test::Env;
using idb::test::find_cfh;
using idb::test::run_child;
using idb::test::tree_of;

__attribute__((noinline)) void recurse(int depth) {
  idb_start(IDB_PROC, 5, "f");
  if (depth > 1) recurse(depth - 1);
  idb_stop(5);
}

// Runs `body` on a thread with a stack of `bytes`, so deep recursion needs no ulimit.
void on_big_stack(std::size_t bytes, const std::function<void()> &body) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, bytes);
  pthread_t thread;
  auto run = [](void *arg) -> void * {
    (*static_cast<const std::function<void()> *>(arg))();
    return nullptr;
  };
  if (pthread_create(&thread, &attr, run, const_cast<std::function<void()> *>(&body)) != 0)
    std::abort();
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

// "f 1\nf;f 1\n..." down to `levels`.
std::string chain(int levels) {
  std::string text, path;
  for (int i = 0; i < levels; ++i) {
    path += i ? ";f" : "f";
    text += path + " 1\n";
  }
  return text;
}

long rss_kb() {
  FILE *f = std::fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmRSS:", 6) == 0) kb = std::atol(line + 6);
  if (f) std::fclose(f);
  return kb;
}

idb::profile::Profile profile_of(const Child &child) {
  EXPECT_TRUE(child.ok()) << child.describe();
  auto result = child.read();
  EXPECT_TRUE(result.profile) << result.error;
  return result.profile ? *result.profile : idb::profile::Profile{};
}

TEST(Caps, NodeCapCountsOverflowAndKeepsTheNodesBelowIt) {
  Child child = run_child(
      [] {
        static const char *names[] = {"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"};
        for (int round = 0; round < 3; ++round)
          for (int id = 0; id < 10; ++id) {
            idb_start(IDB_PROC, 100 + id, names[id]);
            idb_start(IDB_PROC, 200, "child of an unrecorded node");
            idb_stop(200);
            idb_stop(100 + id);
          }
        idb_start(IDB_PROC, 100, "p0"); // known nodes keep recording
        idb_stop(100);
      },
      Env{{"IDB_MAX_NODES", "8"}});
  auto profile = profile_of(child);
  // Root + 7 nodes: p0..p2 with their child, then p3.
  EXPECT_EQ("p0 4\n"
            "p0;child of an unrecorded node 3\n"
            "p1 3\n"
            "p1;child of an unrecorded node 3\n"
            "p2 3\n"
            "p2;child of an unrecorded node 3\n"
            "p3 3\n",
            tree_of(profile, "thread 0"));
  const auto *cfh = find_cfh(profile, "thread 0");
  ASSERT_TRUE(cfh);
  EXPECT_EQ(8u, cfh->nodes.size());
  // Per round: p3's child, and p4..p9 with their children.
  EXPECT_EQ(3u * (1 + 6 * 2), cfh->overflow);
  EXPECT_EQ("8", profile.get("max_nodes"));
  EXPECT_NE(std::string::npos, child.err.find("node cap 8 reached")) << child.err;
}

// Activations past either cap are not recorded, but their bookkeeping still costs time
// inside the nearest recorded ancestor: that node's noise carries it, so corrected times
// above stay honest.
TEST(Caps, UnrecordedActivationsChargeTheirNoiseToTheNearestRecordedNode) {
  // With 2 nodes (root and probe 1) probes 2-4 are not recorded: 3000 activations charged
  // to probe 1. With 2 levels, probes 3 and 4 are not: 2000 charged to probe 2.
  for (auto [cap, holder] : {std::pair{"IDB_MAX_NODES", 1}, std::pair{"IDB_MAX_DEPTH", 2}}) {
    auto profile = profile_of(run_child(
        [] {
          idb_start(IDB_PROC, 1, "one");
          for (int i = 0; i < 1000; ++i) {
            idb_start(IDB_PROC, 2, "two");
            idb_start(IDB_PROC, 3, "three");
            idb_start(IDB_PROC, 4, "four");
            idb_stop(4);
            idb_stop(3);
            idb_stop(2);
          }
          idb_stop(1);
        },
        Env{{cap, "2"}}));
    const auto *cfh = find_cfh(profile, "thread 0");
    ASSERT_TRUE(cfh) << cap;
    double charge = profile.number("noise_per_activation_s");
    ASSERT_GT(charge, 0.0);
    const idb::profile::Node *recorded = nullptr;
    for (const auto &node : cfh->nodes)
      if (node.probe == holder) recorded = &node;
    ASSERT_TRUE(recorded) << cap;
    // Its own activations plus at least 2000 unrecorded ones; their charge is the
    // calibration at start, which may differ from the final one: 1000 is a safe floor.
    EXPECT_GT(recorded->stats.noise, 1000 * charge) << cap;
  }
}

TEST(Caps, DepthCapCountsDeeperActivationsAndRecovers) {
  auto profile = profile_of(run_child(
      [] {
        recurse(1000);
        idb_start(IDB_PROC, 6, "after");
        idb_stop(6);
      },
      Env{{"IDB_MAX_DEPTH", "64"}}));
  // IDB_MAX_DEPTH=64 open probes under the root: 64 levels of f.
  EXPECT_EQ(chain(64) + "after 1\n", tree_of(profile, "thread 0"));
  const auto *cfh = find_cfh(profile, "thread 0");
  ASSERT_TRUE(cfh);
  EXPECT_EQ(1000u - 64u, cfh->depth_overflow);
  EXPECT_EQ(0u, cfh->mismatches);
  EXPECT_EQ(0u, cfh->unclosed);
}

TEST(Caps, ActivationsPastTheDepthCapUseNoMemory) {
  constexpr int kOpen = 2'000'000;
  Child child = run_child(
      [] {
        idb_start(IDB_PROC, 5, "f");
        long before = rss_kb();
        for (int i = 1; i < kOpen; ++i)
          idb_start(IDB_PROC, 5, "f");
        long after = rss_kb();
        for (int i = 0; i < kOpen; ++i)
          idb_stop(5);
        std::printf("rss growth %ld kB\n", after - before);
      },
      Env{{"IDB_MAX_DEPTH", "64"}});
  auto profile = profile_of(child);
  long growth = std::atol(child.out.c_str() + std::strlen("rss growth "));
  EXPECT_LT(growth, 1024) << child.out; // not one byte per activation
  EXPECT_EQ(chain(64), tree_of(profile, "thread 0"));
  const auto *cfh = find_cfh(profile, "thread 0");
  ASSERT_TRUE(cfh);
  EXPECT_EQ(std::uint64_t(kOpen - 64), cfh->depth_overflow);
}

TEST(Caps, RecursionFarPastTheDefaultDepthCapDoesNotCrash) {
  constexpr int kDepth = 100'000;
  auto profile = profile_of(run_child([] {
    on_big_stack(std::size_t(1) << 29, [] {
      recurse(kDepth);
      idb_start(IDB_PROC, 6, "after");
      idb_stop(6);
    });
  }));
  const auto *cfh = find_cfh(profile, "thread 0");
  ASSERT_TRUE(cfh);
  EXPECT_EQ("4096", profile.get("max_depth"));
  EXPECT_EQ(4096u + 2u, cfh->nodes.size()); // root, 4096 levels of f, after
  EXPECT_EQ(std::uint64_t(kDepth - 4096), cfh->depth_overflow);
  EXPECT_EQ(0u, cfh->mismatches);
  EXPECT_EQ(6, cfh->nodes.back().probe);
  EXPECT_EQ(0u, cfh->nodes.back().parent);
}

} // namespace

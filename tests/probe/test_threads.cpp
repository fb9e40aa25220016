// Per-thread default CFHs: concurrent threads count exactly, each in its own CFH; a thread
// that ends hands its CFH (its "thread slot") to the next thread, so the number of thread
// CFHs is bounded by the peak number of threads alive; probes a thread leaves open are
// closed and counted when it ends; probes from a thread's last destructors still count.
#include "child.hpp"

#include "idb/probe.h"

#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdlib>
#include <pthread.h>
#include <string>
#include <thread>
#include <vector>

namespace {

using idb::test::Child;
using idb::test::run_child;
using idb::test::thread_cfhs;
using idb::test::tree_of;

constexpr int kPairs = 100'000;

// Activations of `probe` over every node of `cfh`, timed and throttled.
std::uint64_t count_of(const idb::profile::Cfh &cfh, int probe) {
  std::uint64_t count = 0;
  for (const auto &node : cfh.nodes)
    if (node.probe == probe) count += idb_stats_activations(&node.stats);
  return count;
}

// Opens "worker", waits until `all` threads have their CFH, then runs `pairs` "work"
// activations inside it.
void worker(std::barrier<> &all, int pairs) {
  idb_start(IDB_PROC, 1, "worker");
  all.arrive_and_wait();
  for (int i = 0; i < pairs; ++i) {
    idb_start(IDB_PROC, 2, "work");
    idb_stop(2);
  }
  idb_stop(1);
}

void run_threads(int count, int pairs) {
  std::barrier<> all(count);
  std::vector<std::thread> threads;
  threads.reserve(std::size_t(count));
  for (int i = 0; i < count; ++i)
    threads.emplace_back(worker, std::ref(all), pairs);
  for (auto &t : threads)
    t.join();
}

idb::profile::Profile profile_of(const Child &child) {
  EXPECT_TRUE(child.ok()) << child.describe();
  auto result = child.read();
  EXPECT_TRUE(result.profile) << result.error;
  return result.profile ? *result.profile : idb::profile::Profile{};
}

TEST(Threads, ConcurrentThreadsCountExactlyInTheirOwnCfh) {
  auto profile = profile_of(run_child([] { run_threads(8, kPairs); }));
  auto threads = thread_cfhs(profile);
  ASSERT_EQ(8u, threads.size());
  for (int i = 0; i < 8; ++i) {
    std::string name = "thread " + std::to_string(i);
    EXPECT_EQ("worker 1\nworker;work " + std::to_string(kPairs) + "\n", tree_of(profile, name));
    EXPECT_EQ(i, threads[std::size_t(i)]->thread);
    EXPECT_EQ(0u, threads[std::size_t(i)]->mismatches) << name;
    EXPECT_EQ(0u, threads[std::size_t(i)]->unclosed) << name;
  }
  EXPECT_EQ("8", profile.get("threads"));
}

TEST(Threads, EndedThreadsHandTheirCfhToNewOnes) {
  constexpr int kRounds = 10, kWidth = 4, kRoundPairs = 1000;
  auto profile = profile_of(run_child([] {
    for (int round = 0; round < kRounds; ++round)
      run_threads(kWidth, kRoundPairs);
  }));
  auto threads = thread_cfhs(profile);
  EXPECT_EQ(std::size_t(kWidth), threads.size()); // peak concurrency, not 40
  EXPECT_EQ(std::to_string(kWidth), profile.get("threads"));
  std::uint64_t workers = 0, work = 0;
  for (const auto *cfh : threads) {
    workers += count_of(*cfh, 1);
    work += count_of(*cfh, 2);
    EXPECT_EQ(2u + 1u, cfh->nodes.size()) << cfh->name; // root, worker, work: one shape
    EXPECT_EQ(0u, cfh->unclosed) << cfh->name;
  }
  EXPECT_EQ(std::uint64_t(kRounds * kWidth), workers);
  EXPECT_EQ(std::uint64_t(kRounds * kWidth * kRoundPairs), work);
}

TEST(Threads, ThreadsOneAfterAnotherShareOneCfh) {
  auto profile = profile_of(run_child([] {
    for (int i = 0; i < 20; ++i)
      run_threads(1, 10);
  }));
  EXPECT_EQ(1u, thread_cfhs(profile).size());
  EXPECT_EQ("worker 20\nworker;work 200\n", tree_of(profile, "thread 0"));
}

TEST(Threads, ProbesLeftOpenAtThreadEndAreClosedAndCounted) {
  auto profile = profile_of(run_child([] {
    std::thread([] {
      idb_start(IDB_PROC, 1, "leaky");
      idb_start(IDB_LOOP, 2, "inner");
    }).join();
    // The next thread gets the same CFH, reopened at its root.
    std::thread([] {
      idb_start(IDB_PROC, 3, "next");
      idb_stop(3);
    }).join();
  }));
  EXPECT_EQ("leaky 1\nleaky;inner 1\nnext 1\n", tree_of(profile, "thread 0"));
  const auto *cfh = idb::test::find_cfh(profile, "thread 0");
  ASSERT_TRUE(cfh);
  EXPECT_EQ(2u, cfh->unclosed);
  EXPECT_EQ(0u, cfh->mismatches);
}

pthread_key_t g_late_key;

void late_destructor(void *) {
  idb_start(IDB_PROC, 9, "late");
  idb_stop(9);
}

TEST(Threads, ProbesInLaterKeyDestructorsStillCount) {
  // Thread-specific destructors run in key order, so a key created after the runtime's
  // own runs after the runtime has closed the thread's CFH.
  auto profile = profile_of(run_child([] {
    idb_start(IDB_PROC, 1, "main"); // starts the runtime: its key comes first
    pthread_key_create(&g_late_key, late_destructor);
    std::thread([] {
      pthread_setspecific(g_late_key, &g_late_key);
      idb_start(IDB_PROC, 2, "work");
      idb_stop(2);
    }).join();
    idb_stop(1);
  }));
  EXPECT_EQ("main 1\n", tree_of(profile, "thread 0"));
  EXPECT_EQ("work 1\nlate 1\n", tree_of(profile, "thread 1"));
  for (const auto &cfh : profile.cfhs)
    EXPECT_EQ(0u, cfh.mismatches) << cfh.name;
}

// exit() while other threads are inside probes: finalize leaves their live stacks alone
// (reading them only), so nothing crashes, and the times written are sane: an open
// activation counts until the end of the run, never past it.
TEST(Threads, ExitWhileOtherThreadsRunProbesIsSafe) {
  for (int round = 0; round < 20; ++round) {
    Child child = run_child([] {
      // Exit only once every thread runs probes: on a loaded machine they may start late,
      // and a process that exits before any probe ran has no runtime and no profile.
      static std::atomic<int> running{0};
      for (int t = 0; t < 4; ++t)
        std::thread([] {
          for (bool first = true;; first = false) {
            idb_start(IDB_PROC, 1, "outer");
            idb_start(IDB_LOOP, 2, "inner");
            idb_stop(2);
            idb_stop(1);
            if (first) ++running;
          }
        }).detach();
      while (running.load() < 4)
        std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      std::exit(0);
    });
    ASSERT_TRUE(child.ok()) << "round " << round << ": " << child.describe();
    auto r = child.read();
    ASSERT_TRUE(r.profile) << r.error;
    // The probes closed at exit hold sane times: none longer than the run, with room for
    // the timer's rate measured over a run of a few milliseconds on a loaded machine (a
    // bound of run + 10 ms failed once in a loaded suite); garbage would be far beyond.
    double run = r.profile->number("end_unix") - r.profile->number("start_unix");
    for (const auto &cfh : r.profile->cfhs)
      for (const auto &node : cfh.nodes)
        ASSERT_LE(node.stats.max, 2.0 * run + 0.05) << "round " << round << " cfh " << cfh.name;
  }
}

// exit() while another thread times a node: the profile is written while its count and
// histogram go on growing. Each node's histogram adds up to the count written for it, or
// is left out; it never disagrees (which makes the whole profile unreadable). The tree
// is wide, so many activations happen between writing a node and writing its histogram.
// (Found as a failure of MpiAbort.ARankThatDiesMidRunLosesOnlyItsOwnDataByDefault, where
// a rank's SIGTERM watcher writes its profile while the rank computes.)
TEST(Threads, AHistogramWrittenWhileItsNodeRunsMatchesTheWrittenCount) {
  for (int round = 0; round < 10; ++round) {
    Child child = run_child([] {
      static std::atomic<bool> running{false};
      std::thread([] {
        for (int id = 100; id < 4100; ++id) {
          idb_start(IDB_PROC, id, "wide");
          idb_stop(id);
        }
        for (;;) {
          idb_start(IDB_LOOP, 2, "busy");
          static volatile int sink = 0;
          for (int k = 0; k < 2000; ++k) // long enough not to be throttled
            sink = sink + k;
          idb_stop(2);
          running.store(true);
        }
      }).detach();
      while (!running.load())
        std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      std::exit(0);
    });
    ASSERT_TRUE(child.ok()) << "round " << round << ": " << child.describe();
    auto r = child.read();
    ASSERT_TRUE(r.profile) << "round " << round << ": " << r.error;
  }
}

} // namespace

// A node's entry in the child table (probe_lib/src/cfh.h), driven directly: once the node
// throttles, its entry says so and counts its activations, and what the entry holds and
// what the node's record holds add up to every throttled activation, exactly, also past
// the 31 bits the entry keeps. The fast start declines whatever it does not handle and
// changes nothing then.
#include "cfh.h"
#include "throttling_cfh.h"

#include "idb/probe.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <ctime>
#include <string>

namespace idb::rt {
namespace {

struct Tree {
  Cfh *cfh = nullptr;
  explicit Tree(std::uint64_t throttle_after, std::uint32_t sample = 0)
      : cfh(throttling_cfh("entries", 8, throttle_after, sample)) {}
  ~Tree() { cfh_free(cfh); }
  Tree(const Tree &) = delete;
  Tree &operator=(const Tree &) = delete;

  void pair(int id) {
    cfh_start(*cfh, IDB_PROC, id, "seven", nullptr, 0, nullptr);
    cfh_stop(*cfh, id);
  }
  Child &entry(int id) const { return *cfh->children.find(child_key(0, id)); }
};

TEST(ChildEntry, AThrottledNodeIsCountedInItsEntryAndItsStopOnlyPops) {
  Tree t(2);
  t.pair(7);
  t.pair(7); // the second timed activation throttles the node
  EXPECT_EQ(0u, t.entry(7).untimed) << "the entry learns it at the next start";
  std::uint32_t node = t.entry(7).node;
  EXPECT_EQ(kModeThrottled, t.cfh->nodes[node].mode & kModeThrottled);

  cfh_start(*t.cfh, IDB_PROC, 7, "seven", nullptr, 0, nullptr);
  // The first throttled start credits the record with a run of activations (no sampling:
  // the longest) and takes one of them.
  EXPECT_EQ(kUntimedThrottled | (kUntimedMost - 1), t.entry(7).untimed);
  EXPECT_EQ(kUntimedMost, t.cfh->nodes[node].stats.throttled);
  EXPECT_EQ(kSpecialThrottled, t.cfh->stack[t.cfh->depth - 1].special);
  cfh_stop(*t.cfh, 7);
  EXPECT_EQ(1u, t.cfh->depth) << "only the root is open";
  for (int i = 0; i < 10; ++i)
    t.pair(7);
  EXPECT_EQ(2u, t.cfh->nodes[node].stats.count) << "throttled activations are not timed";
  EXPECT_EQ(kUntimedThrottled | (kUntimedMost - 11), t.entry(7).untimed) << "the entry counts";
  EXPECT_EQ(11u, cfh_untimed(*t.cfh, node));
  EXPECT_EQ(0u, t.cfh->nodes[node].stats.sampled);
}

// Spins until `ticks` of the runtime's clock have passed.
void spin_ticks(std::uint64_t ticks) {
  std::uint64_t end = now() + ticks;
  while (now() < end) {
  }
}

// The runtime clock's ticks per microsecond, over 1 ms of the monotonic clock.
double ticks_per_us() {
  std::uint64_t t0 = now();
  timespec a{}, b{};
  clock_gettime(CLOCK_MONOTONIC, &a);
  do
    clock_gettime(CLOCK_MONOTONIC, &b);
  while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 1000000L);
  return double(now() - t0) / 1000.0;
}

TEST(ChildEntry, TheEarlyCountThrottlesOnlyANodeFarUnderTheThreshold) {
  Tree t(100);
  double per_us = ticks_per_us();
  // Early after 10 timed activations under 1 us; after 100 under 1 ms.
  t.cfh->throttle_early_after = 10;
  t.cfh->throttle_early_ticks = per_us;
  t.cfh->throttle_ticks = 1000.0 * per_us;
  // The runtime's first pair runs its code for the first time: its pages' faults can take
  // tens of microseconds (21 us measured on one machine), far over 1 us for a mean of 10.
  t.pair(9);
  for (int i = 0; i < 150; ++i) {
    t.pair(7); // empty: far under 1 us
    cfh_start(*t.cfh, IDB_PROC, 8, "eight", nullptr, 0, nullptr);
    spin_ticks(std::uint64_t(3.0 * per_us)); // 3 us: over the early threshold
    cfh_stop(*t.cfh, 8);
  }
  EXPECT_EQ(10u, t.cfh->nodes[t.entry(7).node].stats.count);
  EXPECT_EQ(140u, cfh_untimed(*t.cfh, t.entry(7).node));
  EXPECT_EQ(100u, t.cfh->nodes[t.entry(8).node].stats.count);
  EXPECT_EQ(50u, cfh_untimed(*t.cfh, t.entry(8).node));
}

// `iterations` of probes 1 to 4 nested in one another around a spin of `spin` ticks.
void nest_of_four(Tree &t, int iterations, std::uint64_t spin) {
  for (int i = 0; i < iterations; ++i) {
    for (int id = 1; id <= 4; ++id)
      cfh_start(*t.cfh, IDB_PROC, id, "nested", nullptr, 0, nullptr);
    spin_ticks(spin);
    for (int id = 4; id >= 1; --id)
      cfh_stop(*t.cfh, id);
  }
}

// Four probes nested around one spin: each activation's mean is over the threshold, so
// none throttles for its own cost, but at its count the innermost finds that with its
// parent's they cost the parent more than the threshold's share (twice the count at 0.95
// of a mean). It throttles; once counted, its parent is weighed again at its next
// activation and throttles too, then the next one out. The outermost has no enclosing
// node to weigh (the root's time is not) and keeps timing. A stall of the test lengthens
// the enclosing times: a spin of 0.5 ms leaves room for 90 ms of them before the first
// 200 activations (0.1 s) cost under the share.
TEST(ChildEntry, NestedProbesThrottleFromTheInsideWhenTogetherTheyCostTooMuch) {
  Tree t(200);
  double per_us = ticks_per_us();
  auto spin = std::uint64_t(500.0 * per_us);
  t.cfh->throttle_ticks = 0.95 * double(spin);
  t.cfh->throttle_early_after = ~std::uint64_t(0);
  nest_of_four(t, 300, spin);
  auto node = [&](int id) -> const Node & {
    std::uint32_t parent = id == 1 ? 0 : t.cfh->children.find(child_key(0, 1))->node;
    for (int up = 2; up < id; ++up)
      parent = t.cfh->children.find(child_key(parent, up))->node;
    return t.cfh->nodes[t.cfh->children.find(child_key(parent, id))->node];
  };
  EXPECT_EQ(300u, node(1).stats.count);
  EXPECT_EQ(0u, node(1).stats.throttled);
  EXPECT_EQ(0, node(1).mode & kModeThrottled);
  // The innermost at its 200th stop; each parent at its first activation after.
  for (int id = 2; id <= 4; ++id) {
    SCOPED_TRACE("probe " + std::to_string(id));
    EXPECT_EQ(kModeThrottled, node(id).mode & kModeThrottled);
    EXPECT_EQ(std::uint64_t(204 - id), node(id).stats.count);
    EXPECT_EQ(std::uint64_t(96 + id), cfh_untimed(*t.cfh, std::uint32_t(&node(id) - t.cfh->nodes)));
    EXPECT_GE(node(id).stats.mean, t.cfh->throttle_ticks) << "not for its own cost";
  }
}

// The same nest with a threshold of a fifth of a mean: the four probes together cost the
// outermost 0.8 of the threshold's share, and every activation stays timed.
TEST(ChildEntry, NestedProbesWithinTheShareKeepTiming) {
  Tree t(200);
  auto spin = std::uint64_t(50.0 * ticks_per_us());
  t.cfh->throttle_ticks = 0.2 * double(spin);
  t.cfh->throttle_early_after = ~std::uint64_t(0);
  nest_of_four(t, 300, spin);
  for (std::uint32_t n = 1; n < t.cfh->node_count.load(); ++n) {
    EXPECT_EQ(300u, t.cfh->nodes[n].stats.count);
    EXPECT_EQ(0u, t.cfh->nodes[n].stats.throttled);
  }
}

TEST(ChildEntry, AUsedUpRunIsRenewedAndTheCountStaysExact) {
  Tree t(1);
  t.pair(7);
  t.pair(7); // the entry is marked throttled and credited with the longest run
  std::uint32_t node = t.entry(7).node;
  // As if all but two of the run had been taken: the third start finds it used up.
  t.cfh->nodes[node].stats.throttled -= kUntimedMost - 3;
  t.entry(7).untimed = kUntimedThrottled | 2;
  ASSERT_EQ(1u, cfh_untimed(*t.cfh, node));
  t.pair(7);
  t.pair(7);
  EXPECT_EQ(kUntimedThrottled, t.entry(7).untimed);
  EXPECT_EQ(3u, cfh_untimed(*t.cfh, node));
  t.pair(7); // renewed
  EXPECT_EQ(kUntimedThrottled | (kUntimedMost - 1), t.entry(7).untimed);
  EXPECT_EQ(4u, cfh_untimed(*t.cfh, node));
  EXPECT_EQ(1u, t.cfh->nodes[node].stats.count);
  EXPECT_EQ(0u, t.cfh->nodes[node].stats.sampled) << "no sampling asked";
}

TEST(ChildEntry, OneThrottledActivationInAboutTheSampleIsTimedApart) {
  Tree t(4, 16);
  for (int i = 0; i < 16004; ++i)
    t.pair(7);
  std::uint32_t node = t.entry(7).node;
  const idb_stats_t &s = t.cfh->nodes[node].stats;
  EXPECT_EQ(4u, s.count) << "samples leave the timed statistics alone";
  EXPECT_EQ(16000u, cfh_untimed(*t.cfh, node)) << "and are counted with the throttled";
  // Runs of 8 to 23 activations, 16 on average: about a thousand samples.
  EXPECT_GE(s.sampled, 16000u / 23);
  EXPECT_LE(s.sampled, 16000u / 8 + 1);
  EXPECT_GT(s.sampled_sum, 0.0);
  EXPECT_EQ(1u, t.cfh->depth) << "every sample's frame closed";
}

TEST(ChildEntry, TheFastStartDeclinesWhatItDoesNotHandleAndChangesNothing) {
  Tree t(~std::uint64_t(0)); // no throttling
  EXPECT_EQ(0, cfh_start_fast(*t.cfh, 7)) << "a node not created yet";
  EXPECT_EQ(1u, t.cfh->depth);
  t.pair(7);
  EXPECT_EQ(1, cfh_start_fast(*t.cfh, 7)) << "an existing timed node";
  EXPECT_EQ(2u, t.cfh->depth);
  cfh_stop(*t.cfh, 7);
  std::uint32_t node = t.entry(7).node;
  t.cfh->nodes[node].mode = kModeCpu; // CPU-timed: the slow path's
  EXPECT_EQ(0, cfh_start_fast(*t.cfh, 7));
  EXPECT_EQ(1u, t.cfh->depth);
  EXPECT_EQ(2u, t.cfh->nodes[node].stats.count);
}

TEST(ChildEntry, TheTopNodeFollowsEveryPushAndPop) {
  Tree t(3);
  Cfh &c = *t.cfh;
  auto top_is_the_stacks = [&c] { return c.hot.top == c.stack[std::int64_t(c.depth) - 1].node; };
  auto start = [&c](int id) { cfh_start(c, IDB_PROC, id, "probe", nullptr, 0, nullptr); };
  EXPECT_TRUE(top_is_the_stacks());
  // Node 3 is throttled from the fourth round on, and each node above it one round after
  // the node inside it (a node throttles once its children have).
  for (int i = 0; i < 6; ++i) {
    start(1);
    start(2);
    start(3);
    EXPECT_TRUE(top_is_the_stacks()) << "pair " << i;
    cfh_stop(c, 3);
    EXPECT_TRUE(top_is_the_stacks());
    cfh_stop(c, 1); // closes 2 too: a mismatch
    EXPECT_TRUE(top_is_the_stacks());
    EXPECT_EQ(0u, c.hot.top) << "the root";
  }
  EXPECT_EQ(kUntimedThrottled, t.entry(1).untimed & kUntimedThrottled);
  for (int id = 10; id < 20; ++id) // past the 8 nodes: unrecorded frames
    start(id);
  EXPECT_EQ(kNoNode, c.hot.top);
  EXPECT_TRUE(top_is_the_stacks());
  cfh_close_all(c, now());
  EXPECT_EQ(0u, c.depth);
  EXPECT_EQ(kNoNode, c.hot.top) << "the guard below the root";
}

} // namespace
} // namespace idb::rt

// Runtime throttling: a node whose mean activation is so short that its probe would cost
// more than IDB_THROTTLE_PERCENT of it stops timing once it has IDB_THROTTLE_AFTER timed
// activations; later ones only count, in `throttled`, and their bookkeeping is charged at
// the calibrated throttled cost. Nodes with long activations never throttle; IDB_THROTTLE=0
// times everything; the tree's structure and every count stay exact.
#include "child.hpp"

#include "idb/probe.h"
#include "idb/stats.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace {

using idb::profile::Cfh;
using idb::profile::Node;
using idb::profile::Profile;
using idb::test::Child;
using idb::test::Env;
using idb::test::run_child;
using idb::test::thread_cfhs;
using idb::test::tree_of;

Profile profile_of(const Child &child) {
  EXPECT_TRUE(child.ok()) << child.describe();
  auto result = child.read();
  EXPECT_TRUE(result.profile) << result.error;
  return result.profile ? *result.profile : Profile{};
}

// The node of `probe` in the first thread CFH; fails the test when there is none.
const Node &node_of(const Profile &p, int probe) {
  static const Node none{};
  auto threads = thread_cfhs(p);
  if (threads.empty()) {
    ADD_FAILURE() << "no thread CFH";
    return none;
  }
  for (const Node &n : threads[0]->nodes)
    if (n.probe == probe) return n;
  ADD_FAILURE() << "no node of probe " << probe;
  return none;
}

// `pairs` activations of the empty probe 2 inside probe 1.
void tiny_pairs(int pairs) {
  idb_start(IDB_PROC, 1, "outer");
  for (int i = 0; i < pairs; ++i) {
    idb_start(IDB_PROC, 2, "tiny");
    idb_stop(2);
  }
  idb_stop(1);
}

// `activations` of probe 4, each from the 501st on holding one of probe 7.
void helper_then_late(int activations) {
  for (int i = 0; i < activations; ++i) {
    idb_start(IDB_PROC, 4, "helper");
    if (i >= 500) {
      idb_start(IDB_LOOP, 7, "late");
      idb_stop(7);
    }
    idb_stop(4);
  }
}

// Spins for about `ns` nanoseconds of wall time.
void spin(long ns) {
  auto end = std::chrono::steady_clock::now() + std::chrono::nanoseconds(ns);
  while (std::chrono::steady_clock::now() < end) {
  }
}

TEST(Throttle, ATinyHotProbeStopsTimingAfterItsActivationsAndKeepsCounting) {
  Profile p = profile_of(run_child([] { tiny_pairs(100'000); }));
  const Node &tiny = node_of(p, 2);
  // An empty pair (20-30 ns) is far under the threshold (twenty pair costs): it is told
  // from the early sample.
  EXPECT_EQ(1'000u, tiny.stats.count) << "timed until the default IDB_THROTTLE_EARLY";
  EXPECT_EQ(99'000u, tiny.stats.throttled);
  EXPECT_EQ(0u, node_of(p, 1).stats.throttled) << "one long activation";
  EXPECT_EQ("outer 1\nouter;tiny 100000\n", tree_of(p, "thread 0")) << "every activation counts";
  EXPECT_EQ("on", p.get("throttle"));
  EXPECT_EQ("10000", p.get("throttle_after"));
  EXPECT_EQ("1000", p.get("throttle_early_after"));
  EXPECT_EQ("5", p.get("throttle_percent"));
  // The threshold is the pair cost over the share: twenty pair costs by default; the
  // early one half of it.
  double pair = p.number("noise_per_activation_s");
  EXPECT_GT(p.number("throttle_below_s"), 10 * pair);
  EXPECT_DOUBLE_EQ(p.number("throttle_below_s") / 2, p.number("throttle_early_below_s"));
  // A throttled activation reads no clock, so it costs less than a timed one.
  double throttled = p.number("throttled_noise_per_activation_s");
  EXPECT_GT(throttled, 0);
  EXPECT_LT(throttled, pair);
  // Its noise charges each kind of activation at its own calibrated cost, a sample at a
  // timed one's (the last calibration; node creation adds a measured extra on top).
  double sampled = double(tiny.stats.sampled);
  double charged = (1'000 + sampled) * pair + (99'000 - sampled) * throttled;
  EXPECT_GE(tiny.stats.noise, 0.5 * charged);
  EXPECT_LT(tiny.stats.noise, 2.0 * charged + 1e-3);
}

// Of the throttled activations, one in about IDB_THROTTLE_SAMPLE (256) is timed at random:
// runs of 128 to 383 between two samples. The samples keep a count and a sum of their own,
// and the timed statistics stay those of the activations before the node throttled.
TEST(Throttle, ThrottledActivationsAreSampledForAnEstimateOfTheirTime) {
  Profile p = profile_of(run_child([] { tiny_pairs(100'000); }));
  const idb_stats_t &s = node_of(p, 2).stats;
  EXPECT_EQ("256", p.get("throttle_sample"));
  EXPECT_EQ(1'000u, s.count);
  EXPECT_EQ(99'000u, s.throttled) << "the samples are among the throttled activations";
  EXPECT_GE(s.sampled, 99'000u / 383);
  EXPECT_LE(s.sampled, 99'000u / 128 + 1);
  EXPECT_GT(s.sampled_sum, 0.0);
  EXPECT_GT(idb_stats_estimated_sum(&s), s.sum) << "the untimed ones add their estimate";
  EXPECT_EQ(0u, node_of(p, 1).stats.sampled) << "a timed node has no samples";

  // Without sampling, the estimate falls back on the timed mean.
  p = profile_of(run_child([] { tiny_pairs(30'000); }, Env{{"IDB_THROTTLE_SAMPLE", "0"}}));
  const idb_stats_t &bare = node_of(p, 2).stats;
  EXPECT_EQ("0", p.get("throttle_sample"));
  EXPECT_EQ(29'000u, bare.throttled);
  EXPECT_EQ(0u, bare.sampled);
  EXPECT_DOUBLE_EQ(bare.sum + 29'000 * bare.mean, idb_stats_estimated_sum(&bare));
}

// A node first seen under a throttled one is never timed; its samples alone give it a time.
TEST(Throttle, ANodeOnlyEverCountedIsSampled) {
  Profile p =
      profile_of(run_child([] { helper_then_late(20'000); },
                           Env{{"IDB_THROTTLE_AFTER", "100"}, {"IDB_THROTTLE_SAMPLE", "64"}}));
  const idb_stats_t &late = node_of(p, 7).stats;
  EXPECT_EQ(0u, late.count);
  EXPECT_EQ(19'500u, late.throttled);
  EXPECT_GE(late.sampled, 19'500u / 95);
  EXPECT_LE(late.sampled, 19'500u / 32 + 1);
  EXPECT_GT(idb_stats_estimated_sum(&late), 0.0);
}

TEST(Throttle, ASampleRateThatIsNotAPowerOfTwoIsReported) {
  Child c = run_child([] { tiny_pairs(1'000); }, Env{{"IDB_THROTTLE_SAMPLE", "100"}});
  Profile p = profile_of(c);
  EXPECT_EQ("256", p.get("throttle_sample"));
  EXPECT_NE(std::string::npos,
            c.err.find("idb: ignoring IDB_THROTTLE_SAMPLE=100 (expected 0 or a power of two "
                       "from 2 to 16777216)"))
      << c.err;
}

TEST(Throttle, OffTimesEveryActivation) {
  Profile p = profile_of(run_child([] { tiny_pairs(30'000); }, Env{{"IDB_THROTTLE", "0"}}));
  EXPECT_EQ(30'000u, node_of(p, 2).stats.count);
  EXPECT_EQ(0u, node_of(p, 2).stats.throttled);
  EXPECT_EQ("off", p.get("throttle"));
  EXPECT_EQ("", p.get("throttle_after"));
  EXPECT_EQ("", p.get("throttle_early_after"));
}

TEST(Throttle, LongActivationsAreNeverThrottled) {
  Profile p = profile_of(run_child(
      [] {
        for (int i = 0; i < 400; ++i) {
          idb_start(IDB_PROC, 3, "long");
          spin(5'000); // 5 us: a ~20 ns probe is well under 5% of it
          idb_stop(3);
        }
      },
      Env{{"IDB_THROTTLE_AFTER", "100"}}));
  EXPECT_EQ(400u, node_of(p, 3).stats.count);
  EXPECT_EQ(0u, node_of(p, 3).stats.throttled);
}

TEST(Throttle, TheSettingsAreTakenAndBadOnesReported) {
  Child c = run_child([] { tiny_pairs(1'000); },
                      Env{{"IDB_THROTTLE_AFTER", "100"}, {"IDB_THROTTLE_PERCENT", "0"}});
  Profile p = profile_of(c);
  EXPECT_EQ(100u, node_of(p, 2).stats.count);
  EXPECT_EQ(900u, node_of(p, 2).stats.throttled);
  EXPECT_EQ("5", p.get("throttle_percent"));
  EXPECT_NE(std::string::npos,
            c.err.find("idb: ignoring IDB_THROTTLE_PERCENT=0 (expected a percentage above 0, "
                       "at most 100)"))
      << c.err;
  // A share of 100%: throttled only where the probe costs more than the activation.
  p = profile_of(run_child(
      [] {
        for (int i = 0; i < 300; ++i) {
          idb_start(IDB_PROC, 3, "long");
          spin(2'000);
          idb_stop(3);
        }
      },
      Env{{"IDB_THROTTLE_AFTER", "100"}, {"IDB_THROTTLE_PERCENT", "100"}}));
  EXPECT_EQ(300u, node_of(p, 3).stats.count);
}

TEST(Throttle, ChildrenOfAThrottledNodeKeepTheirPlaceInTheTree) {
  Profile p = profile_of(run_child(
      [] {
        for (int i = 0; i < 1'000; ++i) {
          idb_start(IDB_PROC, 4, "helper");
          idb_start(IDB_LOOP, 5, "helper loop");
          idb_stop(5);
          idb_stop(4);
        }
      },
      // The helper's first activation holds its child's creation (a page fault, on a
      // loaded machine tens of microseconds), and under the address sanitizer every pair
      // costs more: a threshold of ten thousand pair costs keeps the mean of the first 100
      // under it whatever that costs (at 1%, a sanitized run's means were still over it at
      // 100 and throttled only at 137 and 154).
      Env{{"IDB_THROTTLE_AFTER", "100"}, {"IDB_THROTTLE_PERCENT", "0.01"}}));
  EXPECT_EQ("helper 1000\nhelper;helper loop 1000\n", tree_of(p, "thread 0"));
  // The loop throttles at its 100th stop and is first counted untimed in the helper's
  // 101st activation; only then, at that activation's stop, does the helper throttle.
  EXPECT_EQ(101u, node_of(p, 4).stats.count);
  EXPECT_EQ(899u, node_of(p, 4).stats.throttled);
  EXPECT_EQ(100u, node_of(p, 5).stats.count);
  EXPECT_EQ(900u, node_of(p, 5).stats.throttled);
}

// A node does not throttle while a child of it is timed: its untimed activations would
// hold timed ones of the child, and its inclusive time would fall under the child's (a
// negative exclusive time). Here the child runs 4 times, too few to throttle, so the
// helper, whose mean is far under the threshold, keeps timing every activation.
TEST(Throttle, ANodeWithATimedChildKeepsTiming) {
  Profile p = profile_of(run_child(
      [] {
        for (int i = 0; i < 2'000; ++i) {
          idb_start(IDB_PROC, 4, "helper");
          if (i % 500 == 0) {
            idb_start(IDB_PROC, 6, "rare");
            spin(5'000);
            idb_stop(6);
          }
          idb_stop(4);
        }
      },
      Env{{"IDB_THROTTLE_AFTER", "100"}}));
  const Node &helper = node_of(p, 4);
  const Node &rare = node_of(p, 6);
  EXPECT_EQ(2'000u, helper.stats.count);
  EXPECT_EQ(0u, helper.stats.throttled);
  EXPECT_EQ(4u, rare.stats.count);
  EXPECT_GE(helper.stats.sum, rare.stats.sum);
  // Its own activations, without the child's spins, are far under the threshold (the
  // main one: a loaded machine's stalls lengthen a few of 2,000 empty pairs).
  EXPECT_LT((helper.stats.sum - rare.stats.sum) / double(helper.stats.count),
            std::stod(p.get("throttle_below_s")))
      << "the helper alone would throttle";
}

// A node first seen under a throttled one is throttled from the start: inside an untimed
// activation its time could not nest in its parent's.
TEST(Throttle, ANodeFirstSeenUnderAThrottledOneIsOnlyCounted) {
  // A threshold of ten thousand pair costs, so that a stall in the first 100 activations
  // of a loaded machine does not keep the helper's mean over it.
  Profile p =
      profile_of(run_child([] { helper_then_late(1'000); },
                           Env{{"IDB_THROTTLE_AFTER", "100"}, {"IDB_THROTTLE_PERCENT", "0.01"}}));
  EXPECT_EQ("helper 1000\nhelper;late 500\n", tree_of(p, "thread 0"));
  EXPECT_EQ(100u, node_of(p, 4).stats.count);
  EXPECT_EQ(0u, node_of(p, 7).stats.count);
  EXPECT_EQ(500u, node_of(p, 7).stats.throttled);
}

// Through the scope macros, a throttled helper is counted inline once the site cache holds
// it (no frame, no call into the runtime): what opens inside it still hangs under it, also
// after an exception left it, and every count stays exact.
TEST(Throttle, AThrottledScopeCountedInlineKeepsItsChildrenAndCountsExactly) {
  Profile p = profile_of(run_child(
      [] {
        IDB_SCOPE(IDB_PROC, 1, "outer");
        for (int i = 0; i < 1'000; ++i) {
          try {
            IDB_SCOPE(IDB_PROC, 4, "helper");
            { IDB_SCOPE(IDB_LOOP, 5, "helper loop"); }
            { IDB_SCOPE(IDB_LOOP, 5, "helper loop"); }
            if (i % 10 == 0) throw i;
          } catch (int) {
          }
        }
        IDB_SCOPE(IDB_PROC, 6, "after");
      },
      // As above: a threshold of ten thousand pair costs throttles the helper at 100.
      Env{{"IDB_THROTTLE_AFTER", "100"}, {"IDB_THROTTLE_PERCENT", "0.01"}}));
  EXPECT_EQ("outer 1\nouter;helper 1000\nouter;helper;helper loop 2000\nouter;after 1\n",
            tree_of(p, "thread 0"));
  EXPECT_EQ(100u, node_of(p, 4).stats.count);
  EXPECT_EQ(900u, node_of(p, 4).stats.throttled);
  EXPECT_EQ(0u, thread_cfhs(p)[0]->mismatches);
}

TEST(Throttle, AStopOfAnOuterProbeClosesAnOpenThrottledOne) {
  Profile p = profile_of(run_child(
      [] {
        idb_start(IDB_PROC, 1, "outer");
        for (int i = 0; i < 200; ++i) {
          idb_start(IDB_PROC, 2, "tiny");
          idb_stop(2);
        }
        idb_start(IDB_PROC, 2, "tiny"); // throttled, left open
        idb_stop(1);
      },
      // As above: ten thousand pair costs throttle `tiny` at 100 whatever stalls it.
      Env{{"IDB_THROTTLE_AFTER", "100"}, {"IDB_THROTTLE_PERCENT", "0.01"}}));
  EXPECT_EQ("outer 1\nouter;tiny 201\n", tree_of(p, "thread 0"));
  EXPECT_EQ(101u, node_of(p, 2).stats.throttled);
  EXPECT_EQ(1u, thread_cfhs(p)[0]->mismatches);
}

TEST(Throttle, AThrottledProbeOpenAtTheEndAddsNoTime) {
  Profile p = profile_of(run_child(
      [] {
        for (int i = 0; i < 200; ++i) {
          idb_start(IDB_PROC, 2, "tiny");
          idb_stop(2);
        }
        idb_start(IDB_PROC, 2, "tiny"); // throttled; the run ends with it open
        spin(2'000'000);
      },
      Env{{"IDB_THROTTLE_AFTER", "100"}, {"IDB_THROTTLE_PERCENT", "0.01"}}));
  const Node &tiny = node_of(p, 2);
  EXPECT_EQ(100u, tiny.stats.count);
  EXPECT_LT(tiny.stats.max, 1e-3) << "the open activation was never timed";
  EXPECT_EQ(1u, thread_cfhs(p)[0]->unclosed);
}

} // namespace

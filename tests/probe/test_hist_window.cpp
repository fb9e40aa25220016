// The runtime's per-node histogram window (probe_lib/src/cfh.{h,cpp}), driven directly
// with chosen durations: whatever their order and spread, what the node would write is
// exactly the level-0 histogram of the same durations brought to the node's level, and
// the level is the finest whose 512-bucket window holds them (0 within 32 octaves, 1
// beyond). Counters past 16 bits carry on exactly, through moves and joins.
#include "cfh.h"

#include "idb/histogram.hpp"
#include "idb/probe.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace idb::rt {
namespace {

struct Window {
  Cfh *cfh = nullptr;
  std::uint32_t node = 0;
  Window() {
    Limits limits{};
    limits.max_nodes = 8;
    limits.max_depth = 8;
    limits.cpu_threshold = __builtin_huge_val();
    limits.throttle_after = ~std::uint64_t(0);
    limits.throttle_ticks = -__builtin_huge_val();
    limits.hist_mult = std::uint64_t(1) << 32; // a tick is a nanosecond
    cfh = cfh_create("window", true, 0, limits);
    node = cfh_add_node(*cfh, 0, IDB_PROC, 7, "seven", nullptr, 0, nullptr);
  }
  ~Window() { cfh_free(cfh); }
  Window(const Window &) = delete;
  Window &operator=(const Window &) = delete;

  void add(std::uint64_t ns) { cfh_hist_add(*cfh, node, cfh->nodes[node], ns); }
  // What the writer would write, with `extra` counted once more (negative: none).
  profile::Histogram written(double extra = -1) const {
    std::uint32_t buckets[kHistWindow + 1], level = 0;
    std::uint64_t counts[kHistWindow + 1];
    std::uint32_t n = cfh_hist_read(*cfh, node, extra, &level, buckets, counts, kHistWindow + 1);
    profile::Histogram h;
    h.level = level;
    for (std::uint32_t k = 0; k < n; ++k)
      h.buckets.push_back({buckets[k], counts[k]});
    return h;
  }
};

// The level-0 histogram of `ns` at `level`.
profile::Histogram expected(const std::vector<std::uint64_t> &ns, std::uint32_t level) {
  return profile::at_level(profile::histogram_of(ns), level);
}

// `count` durations spread log-uniformly over `octaves` octaves from `first` ns.
std::vector<std::uint64_t> spread(std::mt19937_64 &random, double first, double octaves,
                                  int count) {
  std::uniform_real_distribution<double> exponent(0, octaves);
  std::vector<std::uint64_t> out;
  for (int i = 0; i < count; ++i)
    out.push_back(std::uint64_t(first * std::exp2(exponent(random))));
  return out;
}

TEST(HistWindow, HoldsExactlyTheDurationsInAnyOrderAtTheFinestLevelThatFits) {
  std::mt19937_64 random(5);
  struct Case {
    double first, octaves;
    std::uint32_t level;
  } cases[] = {{1000, 15, 0}, {20, 25, 0}, {40, 30, 0}, {100, 33, 1}, {10, 40, 1}, {1, 62, 1}};
  for (const Case &c : cases)
    for (int order = 0; order < 3; ++order) {
      std::vector<std::uint64_t> ns = spread(random, c.first, c.octaves, 3000);
      // Both ends once, so the span is what the case says.
      ns.push_back(std::uint64_t(c.first));
      ns.push_back(std::uint64_t(c.first * std::exp2(c.octaves)));
      if (order == 1) std::sort(ns.begin(), ns.end());
      if (order == 2) std::sort(ns.rbegin(), ns.rend());
      Window w;
      for (std::uint64_t d : ns)
        w.add(d);
      SCOPED_TRACE("from " + std::to_string(c.first) + " ns over " + std::to_string(c.octaves) +
                   " octaves, order " + std::to_string(order));
      profile::Histogram got = w.written();
      EXPECT_EQ(c.level, got.level);
      EXPECT_EQ(expected(ns, got.level), got);
    }
}

TEST(HistWindow, AnOpenActivationIsWrittenOnceMoreWhereverItFalls) {
  Window w;
  std::vector<std::uint64_t> ns{5000, 6000, 7000};
  for (std::uint64_t d : ns)
    w.add(d);
  for (double extra : {1.0, 5500.0, 1e9}) { // below the window, inside, above
    std::vector<std::uint64_t> with = ns;
    with.push_back(std::uint64_t(extra));
    EXPECT_EQ(expected(with, 0), w.written(extra)) << extra;
  }
  EXPECT_EQ(expected(ns, 0), w.written()) << "the live window is left as it was";
  Window never;
  EXPECT_TRUE(never.written().empty());
  EXPECT_EQ(expected({42}, 0), never.written(42));
}

TEST(HistWindow, CountersPast16BitsCarryThroughMovesAndJoins) {
  Window w;
  w.add(1000);
  std::uint32_t bucket = idb_hist_bucket(1000);
  HistCounter *counter =
      w.cfh->hists + std::size_t(w.node) * kHistWindow + (bucket - w.cfh->nodes[w.node].hist_base);
  *counter = 0xFFF0u; // as if 2^16 - 16 activations had come
  for (int i = 0; i < 40; ++i)
    w.add(1000);
  const std::uint64_t big = 0xFFF0ull + 40;
  profile::Histogram got = w.written();
  ASSERT_EQ(1u, got.buckets.size());
  EXPECT_EQ(big, got.buckets[0].count);
  // Its partner in level 1's pairs as big, then a duration 34 octaves away: the two join
  // into one bucket of level 1, past 2^17.
  std::uint32_t partner = bucket ^ 1u;
  HistCounter *next = counter + (std::int64_t(partner) - std::int64_t(bucket));
  *next = 0xFFFFu;
  w.add(std::uint64_t(idb_hist_lower(partner))); // wraps the partner: 2^16 exactly
  w.add(1000ull << 34);
  got = w.written();
  ASSERT_EQ(1u, got.level);
  ASSERT_EQ(2u, got.buckets.size());
  EXPECT_EQ(bucket >> 1, got.buckets[0].index);
  EXPECT_EQ(big + (std::uint64_t(1) << 16), got.buckets[0].count);
  EXPECT_EQ(1u, got.buckets[1].count);
}

} // namespace
} // namespace idb::rt

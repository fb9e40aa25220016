// The duration buckets of idb/histogram.h at every boundary, the bound on their estimate
// across 64-bit tick counts, exact merging in any order, and quantiles of known
// distributions (analysis/histogram.hpp) within 5% of the exact ones.
#include "idb/analysis/histogram.hpp"
#include "idb/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace idb::analysis {
namespace {

constexpr double kBound = 1.0 / 33;

TEST(HistogramBuckets, EveryBoundaryMapsToItsBucket) {
  EXPECT_EQ(976u, IDB_HIST_BUCKETS);
  for (std::uint32_t b = 0; b < IDB_HIST_BUCKETS; ++b) {
    SCOPED_TRACE(b);
    std::uint64_t lo = idb_hist_lower(b), width = idb_hist_width(b);
    ASSERT_EQ(0u, width & (width - 1)) << "a power of two";
    EXPECT_EQ(b, idb_hist_bucket(lo));
    EXPECT_EQ(b, idb_hist_bucket(lo + width - 1));
    if (b > 0) {
      EXPECT_EQ(b - 1, idb_hist_bucket(lo - 1));
    }
    if (b + 1 < IDB_HIST_BUCKETS) {
      EXPECT_EQ(lo + width, idb_hist_lower(b + 1)) << "no gap";
    }
    if (b >= IDB_HIST_LINEAR) {
      EXPECT_LE(double(width) / double(lo), 1.0 / IDB_HIST_SUB);
    }
  }
  EXPECT_EQ(IDB_HIST_BUCKETS - 1, idb_hist_bucket(~std::uint64_t(0)));
  EXPECT_EQ(0u, idb_hist_bucket(0));
  // Every power of two and its neighbours, 1 to 2^63.
  for (unsigned e = 0; e < 64; ++e) {
    std::uint64_t p = std::uint64_t(1) << e;
    EXPECT_LE(idb_hist_bucket(p - 1), idb_hist_bucket(p));
    EXPECT_LE(idb_hist_bucket(p), idb_hist_bucket(p + 1));
    EXPECT_EQ(p, idb_hist_lower(idb_hist_bucket(p))) << "an octave starts a bucket";
  }
}

TEST(HistogramBuckets, TheEstimateIsWithinOneThirtyThirdOfEveryValue) {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> exponent(0, 63.9);
  double worst = 0;
  for (int i = 0; i < 1000000; ++i) {
    auto t = std::uint64_t(std::exp2(exponent(random)));
    if (t == 0) continue;
    double error = std::abs(idb_hist_estimate(idb_hist_bucket(t)) - double(t)) / double(t);
    worst = std::max(worst, error);
  }
  // Both ends of a wide bucket, where the error is largest.
  for (std::uint32_t b = IDB_HIST_LINEAR; b < IDB_HIST_BUCKETS; ++b)
    for (std::uint64_t t : {idb_hist_lower(b), idb_hist_lower(b) + idb_hist_width(b) - 1})
      worst = std::max(worst, std::abs(idb_hist_estimate(b) - double(t)) / double(t));
  EXPECT_LE(worst, kBound * (1 + 1e-12));
  EXPECT_GT(worst, kBound * 0.99) << "the bound is reached: it is the right one";
}

Histogram random_histogram(std::mt19937_64 &random) {
  std::vector<std::uint64_t> ticks(1 + random() % 500);
  for (std::uint64_t &t : ticks)
    t = random() >> (random() % 64);
  return at_level(histogram_of(ticks), std::uint32_t(random() % (IDB_HIST_MAX_LEVEL + 1)));
}

TEST(HistogramBuckets, CoarserLevelsJoinBucketsAndKeepTheirBound) {
  // Level L's bucket b spans level 0's buckets b << L to (b << L) + 2^L - 1 exactly, and
  // its estimate is within 1/17 (level 1) or 1/9 (level 2) of every value in it from 32
  // on, and within 2^L of the smaller ones.
  for (std::uint32_t level = 1; level <= IDB_HIST_MAX_LEVEL; ++level) {
    EXPECT_EQ(idb_hist_buckets_at(level) - 1, idb_hist_bucket(~std::uint64_t(0)) >> level);
    double bound = 1.0 / (2.0 * 16.0 / double(1u << level) + 1.0), worst = 0;
    for (std::uint32_t b = 0; b < idb_hist_buckets_at(level); ++b) {
      std::uint32_t first = b << level;
      EXPECT_EQ(idb_hist_lower_at(b, level), double(idb_hist_lower(first)));
      if (b + 1 < idb_hist_buckets_at(level)) {
        EXPECT_EQ(idb_hist_upper_at(b, level), idb_hist_lower_at(b + 1, level));
      }
      std::uint32_t last = std::min(first + (1u << level), IDB_HIST_BUCKETS) - 1;
      std::uint64_t highest = idb_hist_lower(last) + (idb_hist_width(last) - 1); // exact
      for (std::uint64_t v : {idb_hist_lower(first), highest}) {
        if (v < 1) continue;
        EXPECT_EQ(b, idb_hist_bucket(v) >> level) << v;
        double error = std::abs(idb_hist_estimate_at(b, level) - double(v));
        if (v < IDB_HIST_LINEAR) // below 32 ns: within the 2^L ns the bucket is wide
          EXPECT_LT(error, double(1u << level)) << v;
        else
          worst = std::max(worst, error / double(v));
      }
    }
    EXPECT_LE(worst, bound * (1 + 1e-12)) << "level " << level;
  }
}

TEST(HistogramMerge, IsExactInAnyOrderAndGrouping) {
  std::mt19937_64 random(11);
  for (int round = 0; round < 200; ++round) {
    Histogram a = random_histogram(random), b = random_histogram(random),
              c = random_histogram(random);
    Histogram ab_c = a, bc = b, a_bc = a, cba = c;
    merge_histogram(ab_c, b);
    merge_histogram(ab_c, c);
    merge_histogram(bc, c);
    merge_histogram(a_bc, bc);
    merge_histogram(cba, b);
    merge_histogram(cba, a);
    ASSERT_EQ(ab_c, a_bc);
    ASSERT_EQ(ab_c, cba);
    EXPECT_EQ(histogram_count(a) + histogram_count(b) + histogram_count(c), histogram_count(ab_c));
    EXPECT_EQ(std::max({a.level, b.level, c.level}), ab_c.level);
    EXPECT_TRUE(std::is_sorted(ab_c.buckets.begin(), ab_c.buckets.end(),
                               [](const Bucket &x, const Bucket &y) { return x.index < y.index; }));
  }
  Histogram empty, one = histogram_of({100, 100, 5});
  merge_histogram(empty, one);
  EXPECT_EQ(one, empty);
  merge_histogram(one, Histogram{});
  EXPECT_EQ(empty, one);
  // A complete histogram stays beside merged statistics; one short of the count goes.
  idb_stats_t stats{};
  stats.count = 3;
  keep_if_complete(one, stats);
  EXPECT_EQ(3u, histogram_count(one));
  stats.count = 4;
  keep_if_complete(one, stats);
  EXPECT_TRUE(one.empty());
}

// The exact q-quantile of `ticks` in the convention of quantile_ticks: the ceil(q·n)-th.
double exact(std::vector<std::uint64_t> ticks, double q) {
  std::sort(ticks.begin(), ticks.end());
  auto rank = std::max<std::size_t>(1, std::size_t(std::ceil(q * double(ticks.size()))));
  return double(ticks[rank - 1]);
}

TEST(HistogramQuantiles, OfKnownDistributionsAreWithinFivePercent) {
  constexpr double kHz = 2.1e9; // ticks per second
  std::mt19937_64 random(3);
  std::vector<std::vector<std::uint64_t>> cases;
  // Bimodal: 20 us nine times in ten, 2 ms the tenth (mean 218 us, which no call takes).
  std::vector<std::uint64_t> bimodal;
  bimodal.reserve(100000);
  for (int i = 0; i < 100000; ++i)
    bimodal.push_back(std::uint64_t((i % 10 == 9 ? 2e-3 : 20e-6) * kHz));
  Histogram h = histogram_of(bimodal);
  EXPECT_NEAR(20e-6 * kHz, quantile(h, 0.5), 0.05 * 20e-6 * kHz);
  EXPECT_NEAR(2e-3 * kHz, quantile(h, 0.99), 0.05 * 2e-3 * kHz);
  cases.push_back(bimodal);
  std::lognormal_distribution<double> lognormal(std::log(50e-6), 1.5);
  std::uniform_real_distribution<double> uniform(10e-9, 10.0);
  std::vector<std::uint64_t> l, u;
  l.reserve(100000);
  u.reserve(100000);
  for (int i = 0; i < 100000; ++i) {
    l.push_back(std::uint64_t(lognormal(random) * kHz) + 1);
    u.push_back(std::uint64_t(uniform(random) * kHz));
  }
  cases.push_back(l);
  cases.push_back(u);
  for (const std::vector<std::uint64_t> &ticks : cases) {
    Histogram hist = histogram_of(ticks);
    for (double q : {0.0, 0.1, 0.5, 0.9, 0.95, 0.99, 0.999, 1.0}) {
      double want = exact(ticks, q), got = quantile(hist, q);
      EXPECT_LE(std::abs(got - want) / want, kBound * (1 + 1e-12)) << "q " << q;
    }
  }
  // The node's exact extremes bound the estimate.
  EXPECT_EQ(100.0, quantile(histogram_of({100, 100}), 1.0, 100, 100));
  EXPECT_TRUE(std::isnan(quantile({}, 0.5)));
}

} // namespace
} // namespace idb::analysis

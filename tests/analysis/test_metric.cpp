// The metrics (analysis/metric.hpp): names both ways, and each value derived from merged
// statistics, with the edge cases a front end meets (no activations, one, an M2 that
// rounding put below zero).
#include "idb/analysis/metric.hpp"

#include "idb/histogram.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace idb::test {
namespace {

using analysis::Metric;

idb_stats_t samples(std::initializer_list<double> xs) {
  idb_stats_t s;
  idb_stats_clear(&s);
  for (double x : xs)
    idb_stats_add(&s, x);
  return s;
}

TEST(Metric, KeywordsReadBackWithoutRegardToCase) {
  for (Metric m : analysis::kAllMetrics)
    EXPECT_EQ(analysis::parse_metric(analysis::metric_key(m)), m) << analysis::metric_key(m);
  EXPECT_EQ(analysis::parse_metric("CPU"), Metric::cpu);
  EXPECT_EQ(analysis::parse_metric("Corrected"), Metric::corrected);
  EXPECT_FALSE(analysis::parse_metric("wall"));
  EXPECT_FALSE(analysis::parse_metric(""));
  EXPECT_FALSE(analysis::parse_metric("totals"));
  EXPECT_EQ(analysis::metric_title(Metric::corrected), "corrected total");
  EXPECT_EQ(analysis::metric_unit(Metric::count), "activations");
  EXPECT_EQ(analysis::metric_unit(Metric::sdev), "seconds");
  EXPECT_EQ(analysis::parse_metric("P99"), Metric::p99);
  EXPECT_EQ(analysis::metric_unit(Metric::p50), "seconds");
  EXPECT_EQ(analysis::metric_choices(),
            "total, cpu, range, sdev, count, noise, corrected, p50, p90 or p99");
  EXPECT_EQ(analysis::resolution(Metric::p90), 1.0 / 16);
  EXPECT_EQ(analysis::resolution(Metric::total), 0.0);
}

profile::Histogram hist_of(std::initializer_list<double> seconds) {
  std::vector<std::uint64_t> ns;
  for (double x : seconds)
    ns.push_back(std::uint64_t(std::llround(x * 1e9)));
  return profile::histogram_of(ns);
}

// Histograms merge with the statistics while every node merged has one that holds all its
// activations; one node without (an old profile, or a throttled node) leaves the record
// without quantiles for good, whatever is merged after it.
TEST(Metric, QuantilesWhileEveryNodeHasAHistogram) {
  analysis::ProbeStats p;
  idb_stats_clear(&p.stats);
  EXPECT_TRUE(p.has_histogram());
  EXPECT_TRUE(std::isnan(analysis::value(p, Metric::p50))); // no activations
  p.merge(samples({1e-6, 2e-6, 3e-6}), 0, hist_of({1e-6, 2e-6, 3e-6}));
  p.merge(samples({50e-6}), 0, hist_of({50e-6}));
  ASSERT_TRUE(p.has_histogram());
  EXPECT_NEAR(analysis::value(p, Metric::p50), 2e-6, 2e-6 / 33);
  EXPECT_NEAR(analysis::value(p, Metric::p90), 50e-6, 50e-6 / 33);
  EXPECT_LE(analysis::value(p, Metric::p99), 50e-6); // within the record's max

  analysis::ProbeStats q = p;
  q.merge(samples({4e-6}), 0); // no histogram
  EXPECT_FALSE(q.has_histogram());
  EXPECT_TRUE(std::isnan(analysis::value(q, Metric::p50)));
  q.merge(samples({5e-6}), 0, hist_of({5e-6}));
  EXPECT_TRUE(std::isnan(analysis::value(q, Metric::p99)));
  EXPECT_DOUBLE_EQ(analysis::value(q, Metric::count), 6.0); // the statistics still merge

  analysis::ProbeStats short_one; // a histogram short of its node's count
  idb_stats_clear(&short_one.stats);
  short_one.merge(samples({1e-6, 2e-6}), 0, hist_of({1e-6}));
  EXPECT_TRUE(std::isnan(analysis::value(short_one, Metric::p50)));
}

TEST(Metric, ValuesOfMergedStatistics) {
  analysis::ProbeStats p;
  p.merge(samples({1, 3}), 3.5);
  p.merge(samples({2, 6}), 7.0);
  p.stats.cpu_sum = 2;
  p.stats.noise = 0.25;
  EXPECT_DOUBLE_EQ(analysis::value(p, Metric::total), 12.0);
  EXPECT_DOUBLE_EQ(analysis::value(p, Metric::count), 4.0);
  EXPECT_DOUBLE_EQ(analysis::value(p, Metric::range), 5.0);
  EXPECT_NEAR(analysis::value(p, Metric::sdev), std::sqrt(14.0 / 3.0), 1e-12);
  EXPECT_DOUBLE_EQ(analysis::value(p, Metric::cpu), 2.0);
  EXPECT_DOUBLE_EQ(analysis::value(p, Metric::noise), 0.25);
  EXPECT_DOUBLE_EQ(analysis::value(p, Metric::corrected), 10.5);
}

TEST(Metric, EdgeCasesGiveZeroNotNaN) {
  analysis::ProbeStats none;
  EXPECT_EQ(analysis::value(none, Metric::range), 0.0);
  EXPECT_EQ(analysis::value(none, Metric::sdev), 0.0);
  analysis::ProbeStats one;
  one.merge(samples({4}), 4);
  EXPECT_EQ(analysis::value(one, Metric::sdev), 0.0);
  analysis::ProbeStats rounded;
  rounded.merge(samples({1, 1, 1}), 3);
  rounded.stats.m2 = -1e-30; // what rounding can leave of equal samples
  EXPECT_EQ(analysis::value(rounded, Metric::sdev), 0.0);
}

} // namespace
} // namespace idb::test

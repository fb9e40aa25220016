// The metrics (analysis/metric.hpp): names both ways, and each value derived from merged
// statistics, with the edge cases a front end meets (no activations, one, an M2 that
// rounding put below zero).
#include "idb/analysis/metric.hpp"

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

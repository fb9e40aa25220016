// Tests of the fixed-size node statistics of idb/stats.h, in process (pure functions, no
// runtime state): Welford's update against a two-pass reference on several
// distributions, including a large offset with a tiny spread where the textbook one-pass
// formula loses every digit; Chan's merge over arbitrary partitions against one pass; the
// empty record as the identity of merge; the CPU, noise and byte fields.
#include "idb/stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

struct Reference {
  double mean;
  double m2;
};

// Two passes in long double around the first sample, so that the deviations of samples
// with a large common offset are formed exactly.
Reference two_pass(const std::vector<double> &xs) {
  long double shift = xs.front(), sum = 0;
  for (double x : xs)
    sum += (long double)x - shift;
  long double mean = sum / (long double)xs.size();
  long double m2 = 0;
  for (double x : xs) {
    long double d = ((long double)x - shift) - mean;
    m2 += d * d;
  }
  return {double(shift + mean), double(m2)};
}

double relative_error(double value, double reference) {
  return std::fabs(value - reference) / std::fabs(reference);
}

idb_stats_t one_pass(const std::vector<double> &xs) {
  idb_stats_t s;
  idb_stats_clear(&s);
  for (double x : xs)
    idb_stats_add(&s, x);
  return s;
}

struct Distribution {
  std::string name;
  std::function<double(std::mt19937_64 &)> draw;
  double m2_tolerance; // relative
};

std::vector<Distribution> distributions() {
  return {
      {"uniform(0,1)", [](std::mt19937_64 &g) { return std::uniform_real_distribution<>(0, 1)(g); },
       1e-12},
      {"normal(1e3,10)", [](std::mt19937_64 &g) { return std::normal_distribution<>(1e3, 10)(g); },
       1e-12},
      {"exponential(1e-4)",
       [](std::mt19937_64 &g) { return std::exponential_distribution<>(1e-4)(g); }, 1e-12},
      {"lognormal(0,3)", [](std::mt19937_64 &g) { return std::lognormal_distribution<>(0, 3)(g); },
       1e-12},
      // Ticks of a 3 GHz clock around 1e9 that differ by less than one: mean/sdev ~ 3e9.
      {"1e9+uniform(0,1)",
       [](std::mt19937_64 &g) { return 1e9 + std::uniform_real_distribution<>(0, 1)(g); }, 1e-6},
  };
}

std::vector<double> samples(const Distribution &d, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<double> xs(n);
  for (double &x : xs)
    x = d.draw(g);
  return xs;
}

// Integer-valued samples, as the runtime adds them (ticks): every partial sum is exact,
// so merged sums must equal the single pass exactly.
std::vector<double> tick_samples(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<std::int64_t> ticks(20, 40'000'000);
  std::vector<double> xs(n);
  for (double &x : xs)
    x = double(ticks(g));
  return xs;
}

// Cut points of a random partition of [0, n) into `parts` ranges, empty ones included.
std::vector<std::size_t> random_cuts(std::size_t n, std::size_t parts, std::mt19937_64 &g) {
  std::uniform_int_distribution<std::size_t> at(0, n);
  std::vector<std::size_t> cuts{0, n};
  for (std::size_t i = 1; i < parts; ++i)
    cuts.push_back(at(g));
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

void expect_same(const idb_stats_t &merged, const idb_stats_t &single) {
  EXPECT_EQ(single.count, merged.count);
  EXPECT_EQ(single.sum, merged.sum);
  EXPECT_EQ(single.min, merged.min);
  EXPECT_EQ(single.max, merged.max);
  EXPECT_LE(relative_error(merged.mean, single.mean), 1e-12)
      << merged.mean << " vs " << single.mean;
  EXPECT_LE(relative_error(merged.m2, single.m2), 1e-12) << merged.m2 << " vs " << single.m2;
}

void expect_identical(const idb_stats_t &a, const idb_stats_t &b) {
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.sum, b.sum);
  EXPECT_EQ(a.min, b.min);
  EXPECT_EQ(a.max, b.max);
  EXPECT_EQ(a.mean, b.mean);
  EXPECT_EQ(a.m2, b.m2);
  EXPECT_EQ(a.cpu_count, b.cpu_count);
  EXPECT_EQ(a.cpu_sum, b.cpu_sum);
  EXPECT_EQ(a.cpu_min, b.cpu_min);
  EXPECT_EQ(a.cpu_max, b.cpu_max);
  EXPECT_EQ(a.noise, b.noise);
  EXPECT_EQ(a.bytes_sent, b.bytes_sent);
  EXPECT_EQ(a.bytes_recv, b.bytes_recv);
}

idb_stats_t full_record(std::uint64_t seed) {
  idb_stats_t s = one_pass(tick_samples(50, seed));
  for (double cpu : {300.0, 100.0, 700.0})
    idb_stats_add_cpu(&s, cpu + double(seed));
  s.noise = 12.5;
  s.bytes_sent = 1000 + seed;
  s.bytes_recv = 2000 + seed;
  return s;
}

TEST(Stats, ClearGivesAnAllZeroRecord) {
  idb_stats_t s = full_record(1);
  idb_stats_clear(&s);
  idb_stats_t zero{};
  expect_identical(zero, s);
}

TEST(Stats, AddMatchesTwoPassOnEveryDistribution) {
  for (const Distribution &d : distributions()) {
    SCOPED_TRACE(d.name);
    std::vector<double> xs = samples(d, 100'000, 42);
    idb_stats_t s = one_pass(xs);
    Reference ref = two_pass(xs);
    double sum = 0;
    for (double x : xs)
      sum += x;
    EXPECT_EQ(xs.size(), s.count);
    EXPECT_EQ(sum, s.sum); // the same additions in the same order
    EXPECT_EQ(*std::min_element(xs.begin(), xs.end()), s.min);
    EXPECT_EQ(*std::max_element(xs.begin(), xs.end()), s.max);
    EXPECT_LE(relative_error(s.mean, ref.mean), 1e-12) << s.mean << " vs " << ref.mean;
    EXPECT_LE(relative_error(s.m2, ref.m2), d.m2_tolerance) << s.m2 << " vs " << ref.m2;
  }
}

TEST(Stats, AddStaysAccurateWhereTheOnePassFormulaFails) {
  const Distribution offset = distributions().back();
  std::vector<double> xs = samples(offset, 100'000, 7);
  Reference ref = two_pass(xs);
  double sum = 0, squares = 0;
  for (double x : xs) {
    sum += x;
    squares += x * x;
  }
  double naive_m2 = squares - sum * sum / double(xs.size());
  // The case is hard: the textbook formula has no correct digit left ...
  EXPECT_GT(relative_error(naive_m2, ref.m2), 1.0) << naive_m2 << " vs " << ref.m2;
  // ... while Welford's update keeps six.
  EXPECT_LE(relative_error(one_pass(xs).m2, ref.m2), 1e-6);
}

TEST(Stats, VarianceUsesNMinusOneAndIsZeroBelowTwoSamples) {
  idb_stats_t s;
  idb_stats_clear(&s);
  EXPECT_EQ(0.0, idb_stats_variance(&s));
  idb_stats_add(&s, 5.0);
  EXPECT_EQ(0.0, idb_stats_variance(&s));
  for (double x : {1.0, 2.0, 3.0})
    idb_stats_add(&s, x); // {5, 1, 2, 3}: mean 2.75
  EXPECT_DOUBLE_EQ(2.75, s.mean);
  EXPECT_DOUBLE_EQ(8.75 / 3.0, idb_stats_variance(&s));
}

TEST(Stats, MergeOfAnyPartitionEqualsOnePass) {
  std::mt19937_64 g(2024);
  for (std::size_t parts : {1u, 2u, 3u, 7u, 20u, 200u}) {
    SCOPED_TRACE("parts " + std::to_string(parts));
    std::vector<double> xs = tick_samples(10'000, parts);
    idb_stats_t single = one_pass(xs);
    std::vector<std::size_t> cuts = random_cuts(xs.size(), parts, g);
    std::vector<idb_stats_t> pieces;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
      pieces.push_back(one_pass({xs.begin() + long(cuts[i]), xs.begin() + long(cuts[i + 1])}));

    idb_stats_t left_to_right;
    idb_stats_clear(&left_to_right);
    for (const idb_stats_t &p : pieces)
      idb_stats_merge(&left_to_right, &p);
    expect_same(left_to_right, single);

    // Pairwise, as a reduction tree would: order and grouping must not matter.
    while (pieces.size() > 1) {
      std::vector<idb_stats_t> next;
      for (std::size_t i = 0; i < pieces.size(); i += 2) {
        next.push_back(pieces[i]);
        if (i + 1 < pieces.size()) idb_stats_merge(&next.back(), &pieces[i + 1]);
      }
      pieces = next;
    }
    expect_same(pieces.front(), single);
  }
}

TEST(Stats, MergeWithAnEmptyRecordIsTheIdentity) {
  idb_stats_t empty;
  idb_stats_clear(&empty);
  const idb_stats_t full = full_record(3);

  idb_stats_t a = full;
  idb_stats_merge(&a, &empty);
  expect_identical(full, a);

  idb_stats_t b = empty;
  idb_stats_merge(&b, &full);
  expect_identical(full, b);

  idb_stats_t c = empty;
  idb_stats_merge(&c, &empty);
  expect_identical(empty, c);
}

TEST(Stats, CpuSamplesKeepToTheirOwnFields) {
  idb_stats_t s;
  idb_stats_clear(&s);
  idb_stats_add(&s, 10.0);
  for (double cpu : {40.0, 5.0, 90.0})
    idb_stats_add_cpu(&s, cpu);
  EXPECT_EQ(1u, s.count);
  EXPECT_EQ(10.0, s.sum);
  EXPECT_EQ(10.0, s.min);
  EXPECT_EQ(3u, s.cpu_count);
  EXPECT_EQ(135.0, s.cpu_sum);
  EXPECT_EQ(5.0, s.cpu_min);
  EXPECT_EQ(90.0, s.cpu_max);
}

TEST(Stats, MergeCombinesCpuNoiseAndBytes) {
  idb_stats_t a = full_record(1), b = full_record(2);
  const idb_stats_t a0 = a;
  idb_stats_merge(&a, &b);
  EXPECT_EQ(a0.cpu_count + b.cpu_count, a.cpu_count);
  EXPECT_EQ(a0.cpu_sum + b.cpu_sum, a.cpu_sum);
  EXPECT_EQ(std::min(a0.cpu_min, b.cpu_min), a.cpu_min);
  EXPECT_EQ(std::max(a0.cpu_max, b.cpu_max), a.cpu_max);
  EXPECT_EQ(a0.noise + b.noise, a.noise);
  EXPECT_EQ(a0.bytes_sent + b.bytes_sent, a.bytes_sent);
  EXPECT_EQ(a0.bytes_recv + b.bytes_recv, a.bytes_recv);

  // A side without CPU samples must not contribute its zero minimum.
  idb_stats_t wall_only = one_pass({1.0, 2.0}), timed = full_record(4);
  idb_stats_merge(&wall_only, &timed);
  EXPECT_EQ(timed.cpu_min, wall_only.cpu_min);
  EXPECT_EQ(timed.cpu_count, wall_only.cpu_count);
  idb_stats_t timed_too = full_record(4), untimed = one_pass({1.0});
  idb_stats_merge(&timed_too, &untimed);
  EXPECT_EQ(timed.cpu_min, timed_too.cpu_min);
  EXPECT_EQ(timed.cpu_max, timed_too.cpu_max);
}

} // namespace

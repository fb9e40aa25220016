// The statistics under COALESCE and COMPARE against values worked out by hand: type-7
// quantiles, Tukey's box and outliers, Student's t against its closed forms for 1, 2 and
// 3 degrees of freedom, and Welch's test.
#include "idb/edf_analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

namespace idb::edf {
namespace {

TEST(EdfStats, Type7Quantiles) {
  std::vector<double> four{1, 2, 3, 4};
  EXPECT_DOUBLE_EQ(quantile(four, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile(four, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile(four, 0.75), 3.25);
  EXPECT_DOUBLE_EQ(quantile(four, 0), 1);
  EXPECT_DOUBLE_EQ(quantile(four, 1), 4);
  EXPECT_DOUBLE_EQ(quantile({7}, 0.25), 7);
  EXPECT_DOUBLE_EQ(quantile({10, 20}, 0.5), 15);
}

TEST(EdfStats, BoxWhiskersAndOutliers) {
  Box b = box_of({4, 100, 2, 1, 3});
  EXPECT_DOUBLE_EQ(b.min, 1);
  EXPECT_DOUBLE_EQ(b.q1, 2);
  EXPECT_DOUBLE_EQ(b.median, 3);
  EXPECT_DOUBLE_EQ(b.q3, 4);
  EXPECT_DOUBLE_EQ(b.max, 100);
  // IQR 2: fences at −1 and 7.
  EXPECT_DOUBLE_EQ(b.lower_whisker, 1);
  EXPECT_DOUBLE_EQ(b.upper_whisker, 4);
  EXPECT_EQ(b.outliers, (std::vector<std::size_t>{1}));
  // Both sides; a value right on a fence stays inside.
  b = box_of({-20, 10, 11, 12, 13, 14.5, 40});
  // sorted −20 10 11 12 13 14.5 40: q1 = 10.5, q3 = 13.75, IQR 3.25, fences 5.625, 18.625
  EXPECT_DOUBLE_EQ(b.q1, 10.5);
  EXPECT_DOUBLE_EQ(b.q3, 13.75);
  EXPECT_DOUBLE_EQ(b.lower_whisker, 10);
  EXPECT_DOUBLE_EQ(b.upper_whisker, 14.5);
  EXPECT_EQ(b.outliers, (std::vector<std::size_t>{0, 6}));
  b = box_of({0, 1, 1, 1, 2.5});
  // q1 = q3 = 1: fences 1 and 1; 0 and 2.5 are outliers, the whiskers close on the box.
  EXPECT_EQ(b.outliers, (std::vector<std::size_t>{0, 4}));
  EXPECT_DOUBLE_EQ(b.lower_whisker, 1);
  EXPECT_DOUBLE_EQ(b.upper_whisker, 1);
}

TEST(EdfStats, StudentTAgainstClosedForms) {
  using std::numbers::pi;
  for (double t : {0.0, 0.3, 1.0, 2.5, 12.7, 80.0}) {
    // df 1 (Cauchy): 1 − (2/π) atan t; df 2: 1 − t / sqrt(2 + t²);
    // df 3: 1 − (2/π)(atan(t/√3) + (t/√3) / (1 + t²/3)).
    double u = t / std::sqrt(3.0);
    EXPECT_NEAR(t_two_sided_p(t, 1), 1 - 2 / pi * std::atan(t), 1e-12) << t;
    EXPECT_NEAR(t_two_sided_p(-t, 2), 1 - t / std::sqrt(2 + t * t), 1e-12) << t;
    EXPECT_NEAR(t_two_sided_p(t, 3), 1 - 2 / pi * (std::atan(u) + u / (1 + u * u)), 1e-12) << t;
  }
  // The textbook table: t(0.975, 10) = 2.228139 gives p = 0.05.
  EXPECT_NEAR(t_two_sided_p(2.228139, 10), 0.05, 1e-6);
  EXPECT_NEAR(t_two_sided_p(1.959964, 1e7), 0.05, 1e-6); // the normal limit
  EXPECT_EQ(t_two_sided_p(INFINITY, 4), 0.0);
}

TEST(EdfStats, WelchByHand) {
  // a: mean 2, variance 1; b: mean 5.5, variance 5/3. se² = 1/3 + 5/12 = 3/4.
  std::optional<TTest> r = welch({1, 2, 3}, {4, 5, 6, 7});
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->t, 3.5 / std::sqrt(0.75), 1e-12);
  double df = 0.75 * 0.75 / ((1.0 / 9) / 2 + (25.0 / 144) / 3);
  EXPECT_NEAR(r->df, df, 1e-12);
  EXPECT_NEAR(r->p, t_two_sided_p(r->t, df), 1e-15);
  EXPECT_GT(r->p, 0.005);
  EXPECT_LT(r->p, 0.02);
  // Overlapping noisy samples: far from significant, and symmetric in sign.
  std::optional<TTest> same = welch({10, 12, 11, 9}, {11, 9, 12, 10});
  ASSERT_TRUE(same);
  EXPECT_DOUBLE_EQ(same->t, 0);
  EXPECT_DOUBLE_EQ(same->p, 1);
  std::optional<TTest> flipped = welch({4, 5, 6, 7}, {1, 2, 3});
  EXPECT_DOUBLE_EQ(flipped->t, -r->t);
  EXPECT_DOUBLE_EQ(flipped->p, r->p);
}

TEST(EdfStats, WelchEdgeCases) {
  EXPECT_FALSE(welch({1}, {1, 2}));
  EXPECT_FALSE(welch({1, 2}, {}));
  std::optional<TTest> constant = welch({3, 3}, {3, 3, 3});
  ASSERT_TRUE(constant);
  EXPECT_EQ(constant->p, 1);
  constant = welch({3, 3}, {4, 4});
  EXPECT_EQ(constant->p, 0);
  EXPECT_TRUE(std::isinf(constant->t));
  EXPECT_EQ(constant->df, 2);
}

// Quantiles known to 1/16 of themselves: constant groups two steps apart keep a finite t
// from the rounding variance, (mean/16)²/12 each: se² = (6.25² + 7.03125²)/12/3.
TEST(EdfStats, WelchWithAResolution) {
  std::optional<TTest> r = welch({100, 100, 100}, {112.5, 112.5, 112.5}, 1.0 / 16);
  ASSERT_TRUE(r);
  double se2 = (6.25 * 6.25 + 7.03125 * 7.03125) / 12 / 3;
  EXPECT_NEAR(r->t, 12.5 / std::sqrt(se2), 1e-12);
  EXPECT_LT(r->p, 0.05);
  EXPECT_GT(r->p, 0.0);
  // A noisier sample keeps its own variance, larger than the floor.
  EXPECT_DOUBLE_EQ(welch({90, 110}, {95, 105}, 1.0 / 16)->t, welch({90, 110}, {95, 105})->t);
}

} // namespace
} // namespace idb::edf

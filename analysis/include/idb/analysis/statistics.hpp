// The statistics under COALESCE, COMPARE and the diff of two groups of runs: the type-7
// quantile, Tukey's box, Welch's t-test. docs/edf.md documents the methods and their
// assumptions. Pure functions: thread-safe, no I/O, no throws (std::bad_alloc aside).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace idb::analysis {

// The p-quantile (0 ≤ p ≤ 1) of ascending values, Hyndman and Fan's type 7 (R's and
// NumPy's default): linear interpolation between order statistics at h = (n − 1)·p.
// `sorted` must not be empty.
double quantile(const std::vector<double> &sorted, double p);

// Tukey's box of a sample: the five-number summary from type-7 quantiles, whiskers at
// the most extreme values within 1.5 IQR of the box, and the values beyond them.
struct Box {
  double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
  double lower_whisker = 0, upper_whisker = 0;
  std::vector<std::size_t> outliers; // indices into the values given, ascending
};
// `values` must not be empty.
Box box_of(const std::vector<double> &values);

// Welch's unequal-variance t-test of mean(b) − mean(a): t, the Welch–Satterthwaite degrees
// of freedom and the two-sided p-value.
struct TTest {
  double t = 0, df = 0, p = 1;
};
// nullopt when either sample has fewer than two values. Both samples constant: p = 1 when
// the means are equal, else p = 0 (t infinite), df = n_a + n_b − 2. With `resolution`
// r > 0 each value is known only to within a step of r times itself (a quantile read from
// a histogram bucket): each sample's variance is then at least that of rounding to the
// step, (r·mean)²/12, so values that only a bucket boundary separates are not called
// different.
std::optional<TTest> welch(const std::vector<double> &a, const std::vector<double> &b,
                           double resolution = 0);
// P(|T| ≥ |t|) for Student's t with df > 0 degrees of freedom.
double t_two_sided_p(double t, double df);

// The sample standard deviation (n − 1); NaN under two values.
double sample_sd(const std::vector<double> &x);

} // namespace idb::analysis

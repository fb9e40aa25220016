// The statistics under COALESCE, COMPARE and the group diff (statistics.hpp): type-7
// quantiles, Tukey's box, Welch's t-test, and Student's t distribution through the
// regularized incomplete beta function (evaluated by its continued fraction with the
// modified Lentz method).
#include "idb/analysis/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace idb::analysis {

namespace {

struct Moments {
  double mean = 0, variance = 0; // sample variance (n − 1)
};

Moments moments(const std::vector<double> &x) {
  Moments m;
  m.mean = std::accumulate(x.begin(), x.end(), 0.0) / double(x.size());
  double ss = 0;
  for (double v : x)
    ss += (v - m.mean) * (v - m.mean);
  m.variance = x.size() > 1 ? ss / double(x.size() - 1) : 0.0;
  return m;
}

// The continued fraction of I_x(a, b), good where x < (a + 1) / (a + b + 2).
double beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300, epsilon = 1e-15;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  d = 1.0 / (std::fabs(d) < tiny ? tiny : d);
  double f = d;
  for (int m = 1; m <= 500; ++m) {
    double dm = double(m);
    // Even step: d_2m = m (b − m) x / ((a + 2m − 1)(a + 2m)); odd: d_2m+1 below.
    for (double coefficient : {dm * (b - dm) * x / ((a + 2 * dm - 1) * (a + 2 * dm)),
                               -(a + dm) * (a + b + dm) * x / ((a + 2 * dm) * (a + 2 * dm + 1))}) {
      d = 1.0 + coefficient * d;
      d = 1.0 / (std::fabs(d) < tiny ? tiny : d);
      c = 1.0 + coefficient / c;
      if (std::fabs(c) < tiny) c = tiny;
      f *= c * d;
      if (std::fabs(c * d - 1.0) < epsilon) return f;
    }
  }
  return f;
}

// The regularized incomplete beta function I_x(a, b).
double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return std::exp(log_front) * beta_fraction(a, b, x) / a;
  return 1.0 - std::exp(log_front) * beta_fraction(b, a, 1.0 - x) / b;
}

} // namespace

double quantile(const std::vector<double> &sorted, double p) {
  double h = double(sorted.size() - 1) * p;
  auto low = std::size_t(std::floor(h));
  if (low + 1 >= sorted.size()) return sorted.back();
  return sorted[low] + (h - double(low)) * (sorted[low + 1] - sorted[low]);
}

Box box_of(const std::vector<double> &values) {
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  Box b;
  b.min = sorted.front();
  b.max = sorted.back();
  b.q1 = quantile(sorted, 0.25);
  b.median = quantile(sorted, 0.5);
  b.q3 = quantile(sorted, 0.75);
  double low_fence = b.q1 - 1.5 * (b.q3 - b.q1), high_fence = b.q3 + 1.5 * (b.q3 - b.q1);
  b.lower_whisker = b.q1;
  b.upper_whisker = b.q3;
  for (std::size_t i = 0; i < values.size(); ++i) {
    double v = values[i];
    if (v < low_fence || v > high_fence) {
      b.outliers.push_back(i);
      continue;
    }
    b.lower_whisker = std::min(b.lower_whisker, v);
    b.upper_whisker = std::max(b.upper_whisker, v);
  }
  return b;
}

double sample_sd(const std::vector<double> &x) {
  return x.size() < 2 ? std::nan("") : std::sqrt(moments(x).variance);
}

double t_two_sided_p(double t, double df) {
  if (std::isinf(t)) return 0.0;
  return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

std::optional<TTest> welch(const std::vector<double> &a, const std::vector<double> &b,
                           double resolution) {
  if (a.size() < 2 || b.size() < 2) return std::nullopt;
  Moments ma = moments(a), mb = moments(b);
  for (Moments *m : {&ma, &mb}) {
    double step = resolution * m->mean;
    m->variance = std::max(m->variance, step * step / 12);
  }
  double na = double(a.size()), nb = double(b.size());
  double va = ma.variance / na, vb = mb.variance / nb;
  TTest r;
  if (va + vb == 0) {
    r.df = na + nb - 2;
    bool same = ma.mean == mb.mean;
    r.t = same ? 0 : std::copysign(std::numeric_limits<double>::infinity(), mb.mean - ma.mean);
    r.p = same ? 1 : 0;
    return r;
  }
  r.t = (mb.mean - ma.mean) / std::sqrt(va + vb);
  r.df = (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
  r.p = t_two_sided_p(r.t, r.df);
  return r;
}

} // namespace idb::analysis

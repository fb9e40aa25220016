// Quantile accuracy of the duration histogram (idb/histogram.h buckets, quantiles from
// analysis/histogram.hpp) against the exact quantiles of the same durations: bimodal,
// log-normal and uniform durations at three scales each, 10 ns to 10 s, 1,000,000 each,
// at a 2.1 GHz tick rate. Prints, per case, the relative error of p50, p90, p95, p99 and
// p99.9 and how many buckets the histogram used (docs/PERFORMANCE.md, "Duration
// histograms").
//   bench_histogram_accuracy [--samples N]
#include "idb/analysis/histogram.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr double kHz = 2.1e9;

struct Case {
  std::string name;
  std::function<double(std::mt19937_64 &)> seconds;
};

std::vector<Case> cases() {
  std::vector<Case> all;
  for (double fast : {20e-9, 20e-6, 20e-3}) {
    char name[64];
    std::snprintf(name, sizeof name, "bimodal %g s / %g s (9:1)", fast, fast * 100);
    all.push_back({name, [fast](std::mt19937_64 &r) { return r() % 10 == 9 ? fast * 100 : fast; }});
  }
  for (double median : {100e-9, 50e-6, 100e-3}) {
    char name[64];
    std::snprintf(name, sizeof name, "log-normal, median %g s, sigma 1.5", median);
    all.push_back({name, [median](std::mt19937_64 &r) {
                     return std::lognormal_distribution<double>(std::log(median), 1.5)(r);
                   }});
  }
  for (double low : {10e-9, 10e-6, 0.1}) {
    char name[64];
    std::snprintf(name, sizeof name, "uniform %g s to %g s", low, low * 100);
    all.push_back({name, [low](std::mt19937_64 &r) {
                     return std::uniform_real_distribution<double>(low, low * 100)(r);
                   }});
  }
  return all;
}

} // namespace

int main(int argc, char **argv) {
  std::size_t samples = 1000000;
  if (argc == 3 && std::string(argv[1]) == "--samples")
    samples = std::strtoul(argv[2], nullptr, 10);
  std::mt19937_64 random(42);
  const double qs[] = {0.5, 0.9, 0.95, 0.99, 0.999};
  std::printf("%-40s %8s %8s %8s %8s %8s %8s\n", "case", "p50", "p90", "p95", "p99", "p99.9",
              "buckets");
  double worst = 0;
  for (const Case &c : cases()) {
    std::vector<std::uint64_t> ticks(samples);
    for (std::uint64_t &t : ticks)
      t = std::uint64_t(c.seconds(random) * kHz);
    idb::analysis::Histogram h = idb::analysis::histogram_of(ticks);
    std::sort(ticks.begin(), ticks.end());
    std::printf("%-40s", c.name.c_str());
    for (double q : qs) {
      auto rank = std::max<std::size_t>(1, std::size_t(std::ceil(q * double(samples))));
      double exact = double(ticks[rank - 1]);
      double error = std::abs(idb::analysis::quantile(h, q) - exact) / exact;
      worst = std::max(worst, error);
      std::printf(" %7.2f%%", 100 * error);
    }
    std::printf(" %8zu\n", h.buckets.size());
  }
  std::printf("largest error %.2f%% (bound 1/33 = 3.03%%)\n", 100 * worst);
  return worst <= 1.0 / 33 + 1e-12 ? 0 : 1;
}

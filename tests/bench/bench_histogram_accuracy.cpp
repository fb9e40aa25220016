// Quantile accuracy of the duration histogram (idb/histogram.h buckets, quantiles from
// analysis/histogram.hpp) against the exact quantiles of the same durations: bimodal,
// log-normal and uniform durations at three scales each, 10 ns to 10 s, 1,000,000 each,
// in nanoseconds as the runtime buckets them. Prints, per case, the relative error of
// p50, p90, p95, p99 and p99.9 and how many buckets the histogram used, at level 0 and,
// when their span exceeds the runtime's 512-bucket window, at the level the runtime
// would keep them (docs/PERFORMANCE.md, "Duration histograms"). Exits 1 if an error
// exceeds its level's bound.
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

// The level the runtime keeps a node at: the finest whose 512-bucket window holds them.
std::uint32_t kept_level(const idb::analysis::Histogram &h) {
  std::uint32_t level = 0;
  while ((h.buckets.back().index >> level) - (h.buckets.front().index >> level) >= 512)
    ++level;
  return level;
}

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
  // Wider than the runtime's window (about 43 octaves between the extremes): level 1.
  all.push_back({"log-normal, median 1e-03 s, sigma 3", [](std::mt19937_64 &r) {
                   return std::lognormal_distribution<double>(std::log(1e-3), 3.0)(r);
                 }});
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
  std::printf("%-40s %5s %8s %8s %8s %8s %8s %8s\n", "case", "level", "p50", "p90", "p95", "p99",
              "p99.9", "buckets");
  bool within = true;
  double worst[3] = {0, 0, 0};
  for (const Case &c : cases()) {
    std::vector<std::uint64_t> ns(samples);
    for (std::uint64_t &t : ns)
      t = std::uint64_t(c.seconds(random) * 1e9);
    idb::analysis::Histogram fine = idb::analysis::histogram_of(ns);
    std::sort(ns.begin(), ns.end());
    std::uint32_t kept = kept_level(fine);
    for (std::uint32_t level = 0; level <= kept; level += kept ? kept : 1) {
      idb::analysis::Histogram h = idb::analysis::at_level(fine, level);
      double bound = 1.0 / (2.0 * 16.0 / double(1u << level) + 1.0);
      std::printf("%-40s %5u", level ? "  as the runtime keeps it" : c.name.c_str(), level);
      for (double q : qs) {
        auto rank = std::max<std::size_t>(1, std::size_t(std::ceil(q * double(samples))));
        double exact = double(ns[rank - 1]);
        double error = std::abs(idb::analysis::quantile(h, q) - exact) / exact;
        worst[level] = std::max(worst[level], error);
        within = within && error <= bound + 1e-12;
        std::printf(" %7.2f%%", 100 * error);
      }
      std::printf(" %8zu\n", h.buckets.size());
    }
  }
  std::printf("largest error at level 0 %.2f%% (bound 1/33 = 3.03%%), at level 1 %.2f%% "
              "(bound 1/17 = 5.88%%), at level 2 %.2f%% (bound 1/9 = 11.1%%)\n",
              100 * worst[0], 100 * worst[1], 100 * worst[2]);
  return within ? 0 : 1;
}

// What a probe adds to a long activation (a body of about 300 µs of floating-point work)
// under the CPU-time policy in force (IDB_CPU=off|all|auto, read at initialisation; one
// process per policy, see tests/bench/run_probe_bench.sh). Each iteration runs the body
// bare and inside an idb_start/idb_stop pair, in alternating order, and timestamps both
// with the steady clock. The counters give the extra time per activation in ns (10th
// percentile of the probed times minus that of the bare ones), its spread between the two
// halves of the samples, the median of the paired differences, the extra as a share of
// the body, and the body's own time. Short activations of each
// policy are measured by bench_probe_pair (BM_Flat).
#include "idb/probe.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <vector>

namespace {

constexpr int kLong = 40;
constexpr int kBodyIterations = 50000; // about 6 ns each here: about 300 µs

// A dependent chain (multiply, add, divide) that neither vectorises nor folds away.
__attribute__((noinline)) double body(double x) {
  for (int k = 0; k < kBodyIterations; ++k)
    x = x * 0.999 + 1.0 / (1.0 + x * x);
  return x;
}

using Clock = std::chrono::steady_clock;

double elapsed_ns(Clock::time_point t0) {
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
}

double bare(double x, std::vector<double> &times) {
  auto t0 = Clock::now();
  x = body(x);
  times.push_back(elapsed_ns(t0));
  return x;
}

double probed(double x, std::vector<double> &times) {
  auto t0 = Clock::now();
  idb_start(IDB_PROC, kLong, "long body");
  x = body(x);
  idb_stop(kLong);
  times.push_back(elapsed_ns(t0));
  return x;
}

// The 10th percentile: the body's time on this machine alternates between two levels
// about 10% apart (the virtual machine's doing), so paired differences are noisy, while
// the low end of each distribution is stable to about 100 ns.
double low(std::vector<double> v) {
  std::size_t k = v.size() / 10;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
  return v[k];
}

std::vector<double> every_other(const std::vector<double> &v, std::size_t first) {
  std::vector<double> out;
  for (std::size_t i = first; i < v.size(); i += 2)
    out.push_back(v[i]);
  return out;
}

void BM_LongBody(benchmark::State &state) {
  std::vector<double> plain, with_probe;
  plain.reserve(std::size_t(state.max_iterations));
  with_probe.reserve(std::size_t(state.max_iterations));
  double sum = 0.0;
  bool probed_first = false;
  for (auto _ : state) {
    double x = 0.5;
    benchmark::DoNotOptimize(x);
    if (probed_first) {
      sum += probed(x, with_probe);
      sum += bare(x, plain);
    } else {
      sum += bare(x, plain);
      sum += probed(x, with_probe);
    }
    probed_first = !probed_first;
  }
  benchmark::DoNotOptimize(sum);
  if (plain.size() < 20) return;
  double body_ns = low(plain), extra = low(with_probe) - body_ns;
  // The same estimate from each half of the samples: their spread shows the resolution.
  double half_a = low(every_other(with_probe, 0)) - low(every_other(plain, 0));
  double half_b = low(every_other(with_probe, 1)) - low(every_other(plain, 1));
  std::vector<double> paired(plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i)
    paired[i] = with_probe[i] - plain[i];
  std::nth_element(paired.begin(), paired.begin() + std::ptrdiff_t(paired.size() / 2),
                   paired.end());
  state.counters["body_ns"] = body_ns;
  state.counters["extra_ns"] = extra;
  state.counters["extra_ns_spread"] = std::fabs(half_a - half_b) / 2;
  state.counters["extra_ns_paired_median"] = paired[paired.size() / 2];
  state.counters["extra_pct"] = 100.0 * extra / body_ns;
}

BENCHMARK(BM_LongBody)->Unit(benchmark::kMicrosecond);

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  idb_init("bench_cpu_policy");
  idb_thread_cfh();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

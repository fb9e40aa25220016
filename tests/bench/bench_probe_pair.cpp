// Cost of one start/stop pair through the public C API (idb_start / idb_stop), as the
// instrumented program pays it: flat (one probe over and over), nested three deep (per
// pair), 100 siblings under one open parent (ids cycling), and the scope macro. Beside
// them, in the same process, the reference the runtime is judged against: two TSC reads
// and one idb_stats_add into a fixed static record; for context its two parts alone (the
// TSC reads bound all of these), and two calls to empty functions linked the same way as
// the runtime (the floor of the switched-off path). The configuration (IDB_ENABLE,
// IDB_CPU, ...) comes from the environment at runtime initialisation, so each one is its
// own process (tests/bench/run_probe_bench.sh). Built twice: against the shared library
// (bench_probe_pair) and the static one (bench_probe_pair_static).
#include "idb/probe.h"
#include "idb/stats.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define BENCH_HAVE_TSC 1
#endif

extern "C" void bench_empty_start(int kind, int id, const char *description);
extern "C" void bench_empty_stop(int id);

namespace {

// Probe ids, one range per benchmark so each has its own nodes (and its own CPU-policy
// decision).
constexpr int kFlat = 1;
constexpr int kNested = 10; // 10, 11, 12
constexpr int kParent = 20;
constexpr int kSibling = 100; // 100 ... 199
constexpr int kSiblings = 100;
constexpr int kScope = 30;

idb_stats_t g_reference_slot;

#ifdef BENCH_HAVE_TSC
void BM_Reference(benchmark::State &state) {
  idb_stats_clear(&g_reference_slot);
  for (auto _ : state) {
    std::uint64_t t0 = __rdtsc();
    std::uint64_t t1 = __rdtsc();
    idb_stats_add(&g_reference_slot, double(t1 - t0));
    // The record is read and written in memory each time, as a probe's node is.
    benchmark::ClobberMemory();
  }
  benchmark::DoNotOptimize(g_reference_slot.count);
  state.counters["pairs"] = 1;
}

// The parts of the reference alone.
void BM_TwoTscReads(benchmark::State &state) {
  for (auto _ : state) {
    std::uint64_t t0 = __rdtsc();
    std::uint64_t t1 = __rdtsc();
    benchmark::DoNotOptimize(t1 - t0);
  }
  state.counters["pairs"] = 1;
}

BENCHMARK(BM_Reference);
BENCHMARK(BM_TwoTscReads);
#endif

void BM_StatsAddOnly(benchmark::State &state) {
  idb_stats_clear(&g_reference_slot);
  double x = 1000.0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(x);
    idb_stats_add(&g_reference_slot, x);
    benchmark::ClobberMemory();
  }
  state.counters["pairs"] = 1;
}

void BM_TwoEmptyCalls(benchmark::State &state) {
  for (auto _ : state) {
    bench_empty_start(IDB_PROC, kFlat, "flat");
    bench_empty_stop(kFlat);
  }
  state.counters["pairs"] = 1;
}

void BM_Flat(benchmark::State &state) {
  for (auto _ : state) {
    idb_start(IDB_PROC, kFlat, "flat");
    idb_stop(kFlat);
  }
  state.counters["pairs"] = 1;
}

void BM_Nested3(benchmark::State &state) {
  for (auto _ : state) {
    idb_start(IDB_PROC, kNested, "nested 1");
    idb_start(IDB_LOOP, kNested + 1, "nested 2");
    idb_start(IDB_CALL, kNested + 2, "nested 3");
    idb_stop(kNested + 2);
    idb_stop(kNested + 1);
    idb_stop(kNested);
  }
  state.counters["pairs"] = 3;
}

void BM_Siblings100(benchmark::State &state) {
  idb_start(IDB_PROC, kParent, "parent");
  for (auto _ : state) {
    for (int i = 0; i < kSiblings; ++i) {
      idb_start(IDB_CALL, kSibling + i, "sibling");
      idb_stop(kSibling + i);
    }
  }
  idb_stop(kParent);
  state.counters["pairs"] = kSiblings;
}

// What the instrumenter writes: the C++ scope object over idb_start_at / idb_stop.
void BM_ScopeMacro(benchmark::State &state) {
  for (auto _ : state) {
    IDB_SCOPE(IDB_PROC, kScope, "scope");
    benchmark::ClobberMemory();
  }
  state.counters["pairs"] = 1;
}

BENCHMARK(BM_StatsAddOnly);
BENCHMARK(BM_TwoEmptyCalls);
BENCHMARK(BM_Flat);
BENCHMARK(BM_Nested3);
BENCHMARK(BM_Siblings100);
BENCHMARK(BM_ScopeMacro);

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  // Initialisation (timer calibration, noise calibration) stays out of every timing.
  idb_init("bench_probe_pair");
  idb_thread_cfh(); // and the thread's CFH is created up front
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// Wall and CPU clocks of the runtime. Wall time comes from the invariant TSC when the CPU
// has one (a few nanoseconds per read, no system call), else from CLOCK_MONOTONIC. The
// per-thread CPU clock is a system call (about 1.5 µs here), so callers read it only for
// activations the CPU policy selects.
#pragma once

#include <cstdint>
#include <ctime>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define IDB_HAVE_TSC 1
#else
#define IDB_HAVE_TSC 0
#endif

namespace idb::rt {

// Chosen once at initialisation; read on every probe.
extern bool g_use_tsc;

inline std::uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::uint64_t(ts.tv_sec) * 1000000000u + std::uint64_t(ts.tv_nsec);
}

// Ticks of the wall clock: TSC cycles or nanoseconds.
inline std::uint64_t now() {
#if IDB_HAVE_TSC
  if (__builtin_expect(g_use_tsc, 1)) return __rdtsc();
#endif
  return monotonic_ns();
}

// CPU time of the calling thread in nanoseconds (a system call). Read from the kernel's
// per-thread task clock (a perf software counter, opened per thread on first use), not
// from CLOCK_THREAD_CPUTIME_ID: reading that clock makes the scheduler account the
// running thread (update_curr), which ends a used-up time slice right there, so a
// thread sharing its core loses it at the read instead of wherever the next tick finds
// it; the task clock is read without touching the scheduler (docs/PERFORMANCE.md, "CPU
// timing and the wall-time tree"). Where perf events are refused, the clock is the
// fallback.
std::uint64_t thread_cpu_ns();

// "task-clock" or "thread-cputime": what thread_cpu_ns() reads in the calling thread.
const char *thread_cpu_source();

// The CPU time one thread_cpu_ns() call adds between two samples: the median difference
// of back-to-back reads. A CPU interval spans about one such read besides its body.
double thread_cpu_read_cost_ns();

// Picks the wall clock (IDB_TIMER=tsc|monotonic|auto) and estimates its frequency over a
// short spin. Returns ticks per second.
double timer_init(const char *choice);

// A pair of simultaneous readings, to measure the tick rate over a whole run.
struct ClockPair {
  std::uint64_t ticks;
  std::uint64_t ns;
};
ClockPair clock_pair();

// Ticks per second between two pairs; `fallback` when they are too close for accuracy.
double ticks_per_second(ClockPair a, ClockPair b, double fallback);

// "tsc" or "monotonic".
const char *timer_name();

} // namespace idb::rt

// Wall-clock selection and TSC frequency estimation.
#include "timer.h"

#include <cstdint>
#include <cstring>
#include <ctime>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#if IDB_HAVE_TSC
#include <cpuid.h>
#endif

namespace idb::rt {

bool g_use_tsc = false;

namespace {

bool cpu_has_invariant_tsc() {
#if IDB_HAVE_TSC
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u) return false;
  __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
  return (edx & (1u << 8)) != 0;
#else
  return false;
#endif
}

std::uint64_t cputime_clock_ns() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::uint64_t(ts.tv_sec) * 1000000000u + std::uint64_t(ts.tv_nsec);
}

// The calling thread's task-clock counter: -2 until first used, -1 when refused. Closed
// at thread exit through a key's destructor (a C++ thread_local destructor would need
// libstdc++, which the runtime does not link).
thread_local int t_task_clock = -2;
pthread_key_t g_task_clock_key;
pthread_once_t g_task_clock_once = PTHREAD_ONCE_INIT;

// The key's value is the exiting thread's own t_task_clock (thread-local storage outlives
// the keys' destructors).
void close_task_clock(void *fd) {
  int *own = static_cast<int *>(fd);
  if (*own >= 0) close(*own);
  *own = -2;
}

void make_task_clock_key() {
  pthread_key_create(&g_task_clock_key, close_task_clock);
}

int task_clock() {
  if (t_task_clock != -2) return t_task_clock;
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_TASK_CLOCK;
  attr.exclude_hv = 1;
  long fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
  t_task_clock = fd >= 0 ? int(fd) : -1;
  if (fd >= 0) {
    pthread_once(&g_task_clock_once, make_task_clock_key);
    pthread_setspecific(g_task_clock_key, &t_task_clock);
  }
  return t_task_clock;
}

// A forked child's only thread must not read its parent thread's counter.
void forget_task_clock_in_child() {
  t_task_clock = -2; // the inherited descriptor is left open: one per fork, not per read
}

[[maybe_unused]] const int g_atfork = pthread_atfork(nullptr, nullptr, forget_task_clock_in_child);

} // namespace

std::uint64_t thread_cpu_ns() {
  int fd = task_clock();
  std::uint64_t value = 0;
  if (fd >= 0 && read(fd, &value, sizeof value) == sizeof value) return value;
  return cputime_clock_ns();
}

const char *thread_cpu_source() {
  return task_clock() >= 0 ? "task-clock" : "thread-cputime";
}

ClockPair clock_pair() {
  // The TSC read sits between two clock reads; the closest bracket of three tries wins.
  ClockPair best{now(), monotonic_ns()};
  std::uint64_t best_gap = ~std::uint64_t(0);
  for (int i = 0; i < 3; ++i) {
    std::uint64_t before = monotonic_ns();
    std::uint64_t ticks = now();
    std::uint64_t after = monotonic_ns();
    if (after - before < best_gap) {
      best_gap = after - before;
      best = ClockPair{ticks, before + (after - before) / 2};
    }
  }
  return best;
}

double ticks_per_second(ClockPair a, ClockPair b, double fallback) {
  if (b.ns <= a.ns || b.ns - a.ns < 20000000u) return fallback; // under 20 ms: too coarse
  return double(b.ticks - a.ticks) * 1e9 / double(b.ns - a.ns);
}

double timer_init(const char *choice) {
  bool want_tsc = !choice || std::strcmp(choice, "monotonic") != 0;
  g_use_tsc = want_tsc && cpu_has_invariant_tsc();
  if (!g_use_tsc) return 1e9;
  // A 2 ms spin gives the rate to about 0.1%; finalize refines it over the whole run.
  ClockPair a = clock_pair();
  while (monotonic_ns() - a.ns < 2000000u) {
  }
  ClockPair b = clock_pair();
  return double(b.ticks - a.ticks) * 1e9 / double(b.ns - a.ns);
}

double thread_cpu_read_cost_ns() {
  constexpr int kReads = 21;
  std::uint64_t diffs[kReads - 1];
  std::uint64_t last = thread_cpu_ns();
  for (int i = 0; i < kReads - 1; ++i) {
    std::uint64_t next = thread_cpu_ns();
    diffs[i] = next - last;
    last = next;
  }
  for (int i = 1; i < kReads - 1; ++i) // insertion sort for the median
    for (int j = i; j > 0 && diffs[j] < diffs[j - 1]; --j) {
      std::uint64_t t = diffs[j];
      diffs[j] = diffs[j - 1];
      diffs[j - 1] = t;
    }
  constexpr int kMiddle = (kReads - 1) / 2;
  return double(diffs[kMiddle]);
}

const char *timer_name() {
  return g_use_tsc ? "tsc" : "monotonic";
}

} // namespace idb::rt

/* The noise charged to CPU-timed activations when the probing thread shares its core (more
 * ranks than cores). The thread pins itself to core 0 beside a thread that spins there, so
 * the scheduler often switches it out inside the thread-CPU clock read around an
 * activation; the runtime must charge each read at most four times its calibrated cost, not
 * the wait for the core (docs/configuration.md, "CPU time"). Runs --activations (2,000) of
 * a `work` probe (id 7) whose body is --work (20,000) dependent adds, about 75 us, and
 * prints the mean wall time of an activation measured around the loop. The figure is the
 * `work` node's noise in the profile, read with `idb show`; the same scenario as the test
 * Noise.LosingTheCoreInsideACpuReadIsNotChargedAsNoise, which fails above 10 us of noise per
 * activation. Run with IDB_CPU=all (the program sets it when IDB_CPU is unset):
 *
 *   IDB_CPU=all IDB_OUT=/tmp/cpu_noise.idbprof bench_cpu_noise_shared_core
 *   idb show /tmp/cpu_noise.idbprof
 *
 * Exits 77 when the thread cannot be pinned to core 0. */
#define _GNU_SOURCE
#include "idb/probe.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kWorkProbe = 7, kExitSkip = 77 };

static atomic_int g_stop_spinning;
/* Volatile, so every add is a load and a store the compiler keeps. */
static volatile double g_spun, g_worked;

static void *spin(void *unused) {
  (void)unused;
  while (!atomic_load_explicit(&g_stop_spinning, memory_order_relaxed))
    g_spun += 1;
  return NULL;
}

/* The body of one activation: a chain of dependent adds the compiler cannot remove. */
static void work(long iterations) {
  for (long k = 0; k < iterations; ++k)
    g_worked += (double)k;
}

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Reads "--name N" pairs; returns 0 on a bad or unknown argument. */
static int parse_args(int argc, char **argv, long *activations, long *iterations) {
  for (int i = 1; i + 1 < argc; i += 2) {
    char *end = NULL;
    long value = strtol(argv[i + 1], &end, 10);
    if (*end != '\0' || value <= 0) return 0;
    if (strcmp(argv[i], "--activations") == 0)
      *activations = value;
    else if (strcmp(argv[i], "--work") == 0)
      *iterations = value;
    else
      return 0;
  }
  return argc % 2 == 1;
}

int main(int argc, char **argv) {
  long activations = 2000, iterations = 20000;
  if (!parse_args(argc, argv, &activations, &iterations)) {
    fprintf(stderr, "usage: %s [--activations N] [--work N]\n", argv[0]);
    return 2;
  }
  cpu_set_t core0;
  CPU_ZERO(&core0);
  CPU_SET(0, &core0);
  if (sched_setaffinity(0, sizeof core0, &core0) != 0) {
    perror("cannot pin to core 0");
    return kExitSkip;
  }
  setenv("IDB_CPU", "all", 0);
  idb_init(NULL);

  pthread_t spinner; /* created after pinning, so it inherits core 0 */
  if (pthread_create(&spinner, NULL, spin, NULL) != 0) {
    fprintf(stderr, "cannot start the spinning thread\n");
    return 1;
  }
  double start = now_seconds();
  for (long i = 0; i < activations; ++i) {
    idb_start(IDB_PROC, kWorkProbe, "work");
    work(iterations);
    idb_stop(kWorkProbe);
  }
  double elapsed = now_seconds() - start;
  atomic_store(&g_stop_spinning, 1);
  pthread_join(spinner, NULL);
  printf("activations %ld\nwall per activation us %.1f\n", activations,
         elapsed / (double)activations * 1e6);
  return 0;
}

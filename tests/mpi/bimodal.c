/* Bimodal activations, for the duration-histogram tests. Usage: bimodal N PREFIX
 * Each rank runs PROC probe 1 "solve" N times: 17 times in 20 a spin of 20 us, the other
 * 3 a spin of 2 ms (1 ms on odd ranks), so its mean is one no activation takes. Each
 * activation is also timed around its probe pair with CLOCK_MONOTONIC and written to
 * PREFIX-RANK.txt (nanoseconds, one per line): the exact durations the histogram's
 * quantiles are checked against. */
#include <idb/probe.h>

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void spin(long long ns) {
  long long end = now_ns() + ns;
  while (now_ns() < end) {
  }
}

static void solve(long long ns) {
  IDB_PROC_SCOPE(1);
  spin(ns);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = argc > 1 ? atoi(argv[1]) : 100;
  char path[4096];
  snprintf(path, sizeof path, "%s-%d.txt", argc > 2 ? argv[2] : "durations", rank);
  long long *took = malloc(sizeof(long long) * (size_t)(n > 0 ? n : 1));
  if (!took) MPI_Abort(MPI_COMM_WORLD, 1);
  long long slow = rank % 2 ? 1000000 : 2000000;
  for (int i = 0; i < n; ++i) {
    long long t0 = now_ns();
    solve(i % 20 >= 17 ? slow : 20000);
    took[i] = now_ns() - t0;
  }
  FILE *out = fopen(path, "w");
  if (!out) MPI_Abort(MPI_COMM_WORLD, 1);
  for (int i = 0; i < n; ++i)
    fprintf(out, "%lld\n", took[i]);
  fclose(out);
  free(took);
  MPI_Finalize();
  return 0;
}

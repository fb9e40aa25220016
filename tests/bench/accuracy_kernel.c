/* Accuracy of noise correction: a compute kernel compiled twice from this one source,
 * pristine (IDB_BENCH_PRISTINE: the probe macros defined away) and instrumented (the real
 * idb/probe.h). The kernel is a time-step loop over a 64 x 8 grid; per grid point it calls
 * relax() (a chain of multiply, add and divide) and flux() (a chain of square roots), each
 * `grain` iterations long, then residual() once per step. Probes: PROC on the kernel and
 * on the three functions, white-box LOOP on the step and row loops, 1,090 activations per
 * step. The functions are noinline in both builds so the two programs differ only by
 * their probes. `--work` fixes the total inner iterations, so every grain does the same
 * arithmetic. Prints the kernel's wall time (CLOCK_MONOTONIC around the call; the
 * instrumented build starts the runtime just before and writes the profile just after)
 * and a checksum, which must be the same in both builds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef IDB_BENCH_PRISTINE
#define IDB_PROC_SCOPE(id) ((void)0)
#define IDB_LOOP_SCOPE(id, description) ((void)0)
#define idb_init(program) ((void)0)
#define idb_finalize() ((void)0)
#else
#include "idb/probe.h"
#endif

#define ROWS 64
#define COLS 8

static double g_u[ROWS][COLS], g_v[ROWS][COLS];

__attribute__((noinline)) static double relax(double x, double y, int grain) {
  IDB_PROC_SCOPE(11);
  for (int k = 0; k < grain; ++k)
    x = x * 0.999 + y / (1.0 + x * x);
  return x;
}

__attribute__((noinline)) static double flux(double x, int grain) {
  IDB_PROC_SCOPE(12);
  for (int k = 0; k < grain; ++k)
    x = sqrt(x * x + 0.25) * 0.5 + 0.125;
  return x;
}

__attribute__((noinline)) static double residual(void) {
  IDB_PROC_SCOPE(13);
  double sum = 0.0;
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j)
      sum += (g_u[i][j] - g_v[i][j]) * (g_u[i][j] - g_v[i][j]);
  return sum;
}

__attribute__((noinline)) static double kernel(long steps, int grain) {
  IDB_PROC_SCOPE(1);
  double res = 0.0;
  for (long s = 0; s < steps; ++s) {
    IDB_LOOP_SCOPE(2, "step loop");
    for (int i = 0; i < ROWS; ++i) {
      IDB_LOOP_SCOPE(3, "row loop");
      for (int j = 0; j < COLS; ++j) {
        g_u[i][j] = relax(g_u[i][j], g_v[(i + 1) % ROWS][j], grain);
        g_v[i][j] = flux(g_u[i][j], grain);
      }
    }
    res += residual();
  }
  return res;
}

static double seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  int grain = 100;
  double work = 6e7;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--grain"))
      grain = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--work"))
      work = atof(argv[i + 1]);
  }
  if (grain < 1 || !(work >= 1.0)) {
    fprintf(stderr, "usage: %s [--grain N] [--work ITERATIONS]\n", argv[0]);
    return 2;
  }
  long steps = (long)(work / (2.0 * ROWS * COLS * grain));
  if (steps < 1) steps = 1;
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j) {
      g_u[i][j] = 0.5 + 0.01 * i;
      g_v[i][j] = 0.25 + 0.02 * j;
    }

  idb_init("accuracy_kernel");
  double t0 = seconds();
  double res = kernel(steps, grain);
  double t1 = seconds();
  idb_finalize();

  double checksum = res;
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j)
      checksum += g_u[i][j] + g_v[i][j];
  printf("grain %d\nsteps %ld\nkernel_s %.9f\nchecksum %.17g\n", grain, steps, t1 - t0, checksum);
  return 0;
}

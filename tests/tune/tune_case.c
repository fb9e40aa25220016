// The program `idb tune` is tested on: a tiny helper called millions of times (digits,
// whose probes cost more than its body, so the runtime throttles them and tune prunes
// them) and a kernel hidden in a `static inline` function of a header (smooth, whose time
// the default selection leaves in its caller, so tune grows a CALL probe around it).
// Usage: tune_case [N [STEPS]]; prints a checksum that instrumentation must not change.
/* Through a macro: the wrappers cannot point this directive at an instrumented copy, so
   the header keeps no probe and tune has a call to grow around (kernel.h). */
#define KERNEL_HEADER "kernel.h"
#include KERNEL_HEADER

#include <stdio.h>
#include <stdlib.h>

static unsigned digits(unsigned long v) {
  unsigned n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

static void step(double *u, const double *f, int n, unsigned long *tally) {
  for (int i = 0; i < n; ++i)
    *tally += digits((unsigned long)(u[i] * 1e6) + (unsigned long)i);
  smooth(u, f, n, 6);
}

static double checksum(const double *u, int n) {
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += u[i] * (double)(i % 7 + 1);
  return sum;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  int steps = argc > 2 ? atoi(argv[2]) : 60;
  if (n < 3 || steps < 1) {
    fprintf(stderr, "usage: tune_case [N>=3 [STEPS>=1]]\n");
    return 2;
  }
  double *u = malloc(sizeof *u * (size_t)n), *f = malloc(sizeof *f * (size_t)n);
  if (!u || !f) return 1;
  for (int i = 0; i < n; ++i) {
    u[i] = (double)(i % 101) / 101.0;
    f[i] = (double)(i % 13) - 6.0;
  }
  unsigned long tally = 0;
  for (int s = 0; s < steps; ++s)
    step(u, f, n, &tally);
  printf("checksum %.9e tally %lu\n", checksum(u, n), tally);
  free(u);
  free(f);
  return 0;
}

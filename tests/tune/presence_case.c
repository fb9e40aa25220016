// The program `idb tune`'s presence check is tested on: `update`, a long straight-line
// function (no loop, no call: nothing to grow into) that main's loop calls three times an
// iteration, so that it is the probe that runs most often, at a few µs a call, far under
// the target share of its own time. The test's build command makes the run slower while
// update's PROC is in the build, standing in for what a probe's presence can cost a real
// code (a hot function no longer inlined) that no estimate from the profile holds.
// Usage: presence_case [STEPS]; prints a value that instrumentation must not change.
#include <stdio.h>
#include <stdlib.h>

#define TIMES4(s) s s s s
#define TIMES64(s) TIMES4(TIMES4(TIMES4(s)))
#define TIMES4096(s) TIMES64(TIMES64(s))

static double update(double x) {
  TIMES4096(x = x * 0.9999999 + 1e-7;)
  return x;
}

int main(int argc, char **argv) {
  long steps = argc > 1 ? atol(argv[1]) : 5000;
  if (steps < 1) {
    fprintf(stderr, "usage: presence_case [STEPS>=1]\n");
    return 2;
  }
  double x = 1.0;
  for (long s = 0; s < steps; ++s)
    for (int k = 0; k < 3; ++k)
      x = update(x);
  printf("x %.12f\n", x);
  return 0;
}

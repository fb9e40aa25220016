/* Loops that pragmas govern, probed around the whole construct: the block opens on a line
 * of its own before the directives (and before the conditionals that hold them), so the
 * pragma stays right before its loop and the braces match whichever way the conditionals
 * go; line numbers, as the assertion message shows, stay the source's. */
#include <assert.h>
#include <stdio.h>

#define UNROLL2 _Pragma("GCC unroll 2")

static double scale(double *a, int n, double f) {
  double s = 0;
#ifdef USE_UNROLL
#pragma GCC unroll 4
#endif
  for (int i = 0; i < n; i++)
    a[i] *= f;
    /* a comment between */
#pragma GCC ivdep
  // and another
  for (int i = 0; i < n; i++)
    s += a[i];
#ifdef _OPENMP
#pragma omp parallel for reduction(+ : s)
#endif
  for (int i = 0; i < n; i++)
    s += 0.5 * a[i];
  UNROLL2
  for (int i = 0; i < n; i++)
    a[i] -= 1.0;
  assert(s > 0 && __LINE__ == 30);
  return s;
}

int main(void) {
  double a[64];
  for (int i = 0; i < 64; i++)
    a[i] = i;
  printf("%.3f %.3f\n", scale(a, 64, 2.0), a[10]);
  return 0;
}

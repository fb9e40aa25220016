/* Reads numbers from a fixed text, prints their mean and deviation. */
#include <stdio.h>

#include "kern.h"
#include "stats.h"

extern inline int count_positive(const double *v, int n);

int main(void) {
  double values[16];
  struct stats s = {0, 0.0, 0.0};
  int i, n = parse_numbers("1.5 2.5 3 4 10 -2", values, 16);
  for (i = 0; i < n; i++)
    stats_add(&s, values[i]);
  printf("n=%d mean=%.4f sd=%.4f\n", s.n, s.sum / s.n, stats_stddev(&s));
  printf("sum of squares %.2f, %d positive\n", sum_squares(values, n), count_positive(values, n));
  return 0;
}

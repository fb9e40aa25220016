/* Reads numbers from a fixed text, prints their mean and deviation. */
#include <stdio.h>

#include "stats.h"

int main(void) {
  double values[16];
  struct stats s = {0, 0.0, 0.0};
  int i, n = parse_numbers("1.5 2.5 3 4 10 -2", values, 16);
  for (i = 0; i < n; i++)
    stats_add(&s, values[i]);
  printf("n=%d mean=%.4f sd=%.4f\n", s.n, s.sum / s.n, stats_stddev(&s));
  return 0;
}

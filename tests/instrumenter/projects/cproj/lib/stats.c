/* Statistics helpers. */
#include "stats.h"

#include <math.h>

void stats_add(struct stats *s, double x) {
  s->n++;
  s->sum += x;
  s->sumsq += x * x;
}

double stats_stddev(const struct stats *s) {
  double mean;
  if (s->n < 2) return 0.0;
  mean = s->sum / s->n;
  return sqrt((s->sumsq - s->n * mean * mean) / (s->n - 1));
}

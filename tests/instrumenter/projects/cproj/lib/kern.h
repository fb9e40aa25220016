/* Kernels defined in a header. The wrappers instrument them in a copy of the header that
   the source includes instead: sum_squares gets its probes; count_positive, an inline
   definition with external linkage, gets none, since C forbids it to call the probe
   header's static functions. */
#ifndef KERN_H
#define KERN_H
#include "kern_detail.h"
static inline double sum_squares(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += square(v[i]);
  return s;
}
inline int count_positive(const double *v, int n) {
  int c = 0;
  for (int i = 0; i < n; i++)
    c += v[i] > 0;
  return c;
}
#endif

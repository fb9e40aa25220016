/* Fixed-size statistics of one CFH node, shared by the probe runtime and the profile
 * reader: a numerically stable single-pass update (Welford) and an exact merge of two
 * records (Chan et al.). Count, sum, min and max merge exactly; mean and M2 up to
 * rounding. Header-only C99; no allocation, no locks; not thread-safe on one record. */
#ifndef IDB_STATS_H
#define IDB_STATS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct idb_stats {
  uint64_t count; /* activations */
  double sum;     /* wall time: total, min, max, mean and M2 (sum of squared deviations) */
  double min;
  double max;
  double mean;
  double m2;
  uint64_t cpu_count; /* activations that were CPU-timed */
  double cpu_sum;     /* CPU time over those activations */
  double cpu_min;
  double cpu_max;
  double noise;        /* time the probe's own bookkeeping added to the enclosing interval */
  uint64_t bytes_sent; /* COMM nodes; 0 elsewhere */
  uint64_t bytes_recv;
} idb_stats_t;

/* An empty record: the identity of idb_stats_merge. */
static inline void idb_stats_clear(idb_stats_t *s) {
  s->count = 0;
  s->sum = s->min = s->max = s->mean = s->m2 = 0.0;
  s->cpu_count = 0;
  s->cpu_sum = s->cpu_min = s->cpu_max = 0.0;
  s->noise = 0.0;
  s->bytes_sent = s->bytes_recv = 0;
}

/* Adds one wall-time sample. */
static inline void idb_stats_add(idb_stats_t *s, double x) {
  double delta;
  if (s->count == 0 || x < s->min) s->min = x;
  if (s->count == 0 || x > s->max) s->max = x;
  s->count++;
  s->sum += x;
  delta = x - s->mean;
  s->mean += delta / (double)s->count;
  s->m2 += delta * (x - s->mean);
}

/* Adds one CPU-time sample. */
static inline void idb_stats_add_cpu(idb_stats_t *s, double x) {
  if (s->cpu_count == 0 || x < s->cpu_min) s->cpu_min = x;
  if (s->cpu_count == 0 || x > s->cpu_max) s->cpu_max = x;
  s->cpu_count++;
  s->cpu_sum += x;
}

/* Sample variance (n - 1 in the denominator); 0 below two samples. */
static inline double idb_stats_variance(const idb_stats_t *s) {
  return s->count > 1 ? s->m2 / (double)(s->count - 1) : 0.0;
}

/* a := a merged with b, as if every sample of b had been added to a. */
static inline void idb_stats_merge(idb_stats_t *a, const idb_stats_t *b) {
  if (b->count > 0) {
    if (a->count == 0) {
      a->min = b->min;
      a->max = b->max;
      a->mean = b->mean;
      a->m2 = b->m2;
    } else {
      double na = (double)a->count, nb = (double)b->count, n = na + nb;
      double delta = b->mean - a->mean;
      if (b->min < a->min) a->min = b->min;
      if (b->max > a->max) a->max = b->max;
      a->mean += delta * (nb / n);
      a->m2 += b->m2 + delta * delta * (na * nb / n);
    }
    a->count += b->count;
    a->sum += b->sum;
  }
  if (b->cpu_count > 0) {
    if (a->cpu_count == 0 || b->cpu_min < a->cpu_min) a->cpu_min = b->cpu_min;
    if (a->cpu_count == 0 || b->cpu_max > a->cpu_max) a->cpu_max = b->cpu_max;
    a->cpu_count += b->cpu_count;
    a->cpu_sum += b->cpu_sum;
  }
  a->noise += b->noise;
  a->bytes_sent += b->bytes_sent;
  a->bytes_recv += b->bytes_recv;
}

#ifdef __cplusplus
}
#endif

#endif /* IDB_STATS_H */

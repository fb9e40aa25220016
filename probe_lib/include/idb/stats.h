/* Fixed-size statistics of one CFH node (fields declared in idb/stats_fields.h), shared by the
 * probe runtime and the profile reader: a numerically stable single-pass update (Welford) and an
 * exact merge of two records (Chan et al.). Count, sum, min and max merge exactly; mean and M2 up
 * to rounding. Header-only C99; no allocation, no locks; not thread-safe on one record. */
#ifndef IDB_STATS_H
#define IDB_STATS_H

#include "idb/stats_fields.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The record: the fields of idb/stats_fields.h in its order. count, sum, min, max, mean
 * and M2 describe wall time per activation; cpu_count activations were CPU-timed, with
 * cpu_sum, cpu_min and cpu_max; noise is the time the probe's own bookkeeping added to
 * the enclosing interval; bytes_sent and bytes_recv are set on COMM nodes only; throttled
 * counts the activations after the runtime stopped timing the node (only counted, their
 * time left in the parent's interval); `sampled` of those were timed all the same, one in
 * about IDB_THROTTLE_SAMPLE at random, taking `sampled_sum` in all, so that the time of
 * the throttled ones can be estimated (idb_stats_untimed_mean). */
/* A member declaration: `field` cannot take parentheses. */
/* NOLINTNEXTLINE(bugprone-macro-parentheses) */
#define IDB_STATS_MEMBER(field, type, unit, merge, group, column) IDB_STATS_CTYPE(type) field;
typedef struct idb_stats {
  IDB_STATS_FIELDS(IDB_STATS_MEMBER)
} idb_stats_t;
#undef IDB_STATS_MEMBER

/* An empty record: the identity of idb_stats_merge. */
static inline void idb_stats_clear(idb_stats_t *s) {
#define IDB_STATS_ZERO(field, type, unit, merge, group, column) s->field = 0;
  IDB_STATS_FIELDS(IDB_STATS_ZERO)
#undef IDB_STATS_ZERO
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

/* Every activation of the node: the timed ones (count) and those counted after
 * throttling stopped the timing (throttled). */
static inline uint64_t idb_stats_activations(const idb_stats_t *s) {
  return s->count + s->throttled;
}

/* The mean to take for a throttled activation: that of the sampled ones when there are
 * any; else that of the timed ones, which ran before the node throttled, while its
 * children were timed too. */
static inline double idb_stats_untimed_mean(const idb_stats_t *s) {
  return s->sampled > 0 ? s->sampled_sum / (double)s->sampled : s->mean;
}

/* The time of every activation: the timed ones' and the throttled ones' estimate. */
static inline double idb_stats_estimated_sum(const idb_stats_t *s) {
  return s->sum + (double)s->throttled * idb_stats_untimed_mean(s);
}

/* Sample variance (n - 1 in the denominator); 0 below two samples. */
static inline double idb_stats_variance(const idb_stats_t *s) {
  return s->count > 1 ? s->m2 / (double)(s->count - 1) : 0.0;
}

/* a := a merged with b, as if every sample of b had been added to a: each field by the
 * merge rule the table gives it. */
static inline void idb_stats_merge(idb_stats_t *a, const idb_stats_t *b) {
  const idb_stats_t before = *a;
  const idb_stats_t *o = &before;
#define IDB_STATS_MERGE_ONE(field, type, unit, merge, group, column)                               \
  IDB_STATS_MERGE_##merge(a, o, b, field, group)
  IDB_STATS_FIELDS(IDB_STATS_MERGE_ONE)
#undef IDB_STATS_MERGE_ONE
}

#ifdef __cplusplus
}
#endif

#endif /* IDB_STATS_H */

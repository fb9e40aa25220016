/* Log-linear duration buckets: where a duration of `ticks` timer ticks falls, from integer
 * operations only (a count of leading zeros and a shift), and what each bucket stands for.
 * Durations below 32 ticks have a bucket each; above, each power-of-two octave is split
 * into 16 equal sub-buckets, so a bucket is never wider than 1/16 of its lower bound and
 * the estimate of its values (idb_hist_estimate) is within 1/33 (3.03%) of any of them.
 * 976 buckets cover every 64-bit tick count: 10 ns to 10 hours at 3 GHz are buckets 30 to
 * 696. Bucket indexes never change meaning, so histograms merge exactly by adding counts
 * index by index, across threads, ranks and runs. C and C++; no allocation, no state. */
#ifndef IDB_HISTOGRAM_H
#define IDB_HISTOGRAM_H

#include <stdint.h>

#define IDB_HIST_SUB_BITS 4u
#define IDB_HIST_SUB (1u << IDB_HIST_SUB_BITS) /* sub-buckets per octave */
#define IDB_HIST_LINEAR (2u * IDB_HIST_SUB)    /* durations below this have a bucket each */
#define IDB_HIST_BUCKETS ((64u - IDB_HIST_SUB_BITS) * IDB_HIST_SUB + IDB_HIST_SUB) /* 976 */

/* The bucket of a duration of `ticks`. */
static inline uint32_t idb_hist_bucket(uint64_t ticks) {
  if (ticks < (uint64_t)IDB_HIST_LINEAR) return (uint32_t)ticks;
  uint32_t octave = 63u - (uint32_t)__builtin_clzll(ticks); /* 5 or more */
  uint32_t sub = (uint32_t)(ticks >> (octave - IDB_HIST_SUB_BITS)) - IDB_HIST_SUB;
  return (octave - IDB_HIST_SUB_BITS + 1u) * IDB_HIST_SUB + sub;
}

/* The smallest tick count in bucket `b` (b < IDB_HIST_BUCKETS). */
static inline uint64_t idb_hist_lower(uint32_t b) {
  if (b < IDB_HIST_LINEAR) return b;
  uint32_t octave = b / IDB_HIST_SUB + IDB_HIST_SUB_BITS - 1u;
  return (uint64_t)(IDB_HIST_SUB + b % IDB_HIST_SUB) << (octave - IDB_HIST_SUB_BITS);
}

/* How many tick counts bucket `b` holds: a power of two. */
static inline uint64_t idb_hist_width(uint32_t b) {
  if (b < IDB_HIST_LINEAR) return 1;
  return (uint64_t)1 << (b / IDB_HIST_SUB - 1u);
}

/* The value that stands for bucket `b`'s durations, in ticks: the bucket's own value below
 * IDB_HIST_LINEAR, else 2·lo·hi/(lo + hi) of its bounds [lo, hi), which is within
 * (hi − lo)/(hi + lo) <= 1/33 of every value in it. */
static inline double idb_hist_estimate(uint32_t b) {
  double lo = (double)idb_hist_lower(b);
  if (b < IDB_HIST_LINEAR) return lo;
  double hi = lo + (double)idb_hist_width(b);
  return 2.0 * lo * hi / (lo + hi);
}

#endif /* IDB_HISTOGRAM_H */

/* Log-linear duration buckets: where a duration of `ns` nanoseconds falls, from integer
 * operations only (a count of leading zeros and a shift), and what each bucket stands for.
 * Durations below 32 ns have a bucket each; above, each power-of-two octave is split into
 * 16 equal sub-buckets, so a bucket is never wider than 1/16 of its lower bound and the
 * estimate of its values (idb_hist_estimate) is within 1/33 (3.03%) of any of them. 976
 * buckets cover every 64-bit duration: 10 ns to 10 hours are buckets 10 to 672.
 *
 * A histogram may also be kept coarser, at level 1 or 2: bucket b of level L joins the
 * 2^L buckets b << L ... (b << L) + 2^L - 1 of level 0, so 8 or 4 sub-buckets per octave
 * and an estimate within 1/17 (5.9%) or 1/9 (11.1%) from 32 on (within 2^L below). A
 * level-0 index becomes its level-L index by a right shift. Bucket indexes never change
 * meaning, so histograms merge exactly by adding counts index by index (the finer one
 * shifted to the coarser level first), across threads, ranks and runs. C and C++; no
 * allocation, no state. */
#ifndef IDB_HISTOGRAM_H
#define IDB_HISTOGRAM_H

#include <stdint.h>

#define IDB_HIST_SUB_BITS 4u
#define IDB_HIST_SUB (1u << IDB_HIST_SUB_BITS) /* sub-buckets per octave */
#define IDB_HIST_LINEAR (2u * IDB_HIST_SUB)    /* durations below this have a bucket each */
#define IDB_HIST_BUCKETS ((64u - IDB_HIST_SUB_BITS) * IDB_HIST_SUB + IDB_HIST_SUB) /* 976 */
#define IDB_HIST_MAX_LEVEL 2u /* 4 sub-buckets per octave: 244 buckets hold everything */

/* The level-0 bucket of a duration of `ticks` (nanoseconds in a profile and in the runtime). */
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

/* The value that stands for bucket `b`'s durations: the bucket's own value below
 * IDB_HIST_LINEAR, else 2·lo·hi/(lo + hi) of its bounds [lo, hi), which is within
 * (hi − lo)/(hi + lo) <= 1/33 of every value in it. */
static inline double idb_hist_estimate(uint32_t b) {
  double lo = (double)idb_hist_lower(b);
  if (b < IDB_HIST_LINEAR) return lo;
  double hi = lo + (double)idb_hist_width(b);
  return 2.0 * lo * hi / (lo + hi);
}

/* The number of buckets of level `level` (at most IDB_HIST_MAX_LEVEL). */
static inline uint32_t idb_hist_buckets_at(uint32_t level) {
  return (IDB_HIST_BUCKETS + (1u << level) - 1u) >> level;
}

/* The bounds [lo, hi) of bucket `b` of level `level`, in the unit of the durations. The
 * last bucket's upper bound is 2^64, which a double holds exactly. */
static inline double idb_hist_lower_at(uint32_t b, uint32_t level) {
  return (double)idb_hist_lower(b << level);
}
static inline double idb_hist_upper_at(uint32_t b, uint32_t level) {
  uint32_t last = ((b + 1u) << level) - 1u;
  if (last >= IDB_HIST_BUCKETS) last = IDB_HIST_BUCKETS - 1u;
  return (double)idb_hist_lower(last) + (double)idb_hist_width(last);
}

/* The value that stands for bucket `b` of level `level`: as idb_hist_estimate, over the
 * bounds of the joined buckets; a bucket holding one value alone is that value. */
static inline double idb_hist_estimate_at(uint32_t b, uint32_t level) {
  double lo = idb_hist_lower_at(b, level), hi = idb_hist_upper_at(b, level);
  if (hi - lo <= 1.0) return lo;
  return 2.0 * lo * hi / (lo + hi);
}

#endif /* IDB_HISTOGRAM_H */

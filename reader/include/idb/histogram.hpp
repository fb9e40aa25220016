// Duration histograms over the log-linear buckets of idb/histogram.h, as a profile holds
// them (Histogram in idb/profile.hpp: the non-empty buckets of one level, in nanoseconds).
// They merge exactly (the finer brought to the coarser level, then counts added bucket by
// bucket, in any order and grouping) and give quantiles whose error is that of the bucket
// estimate: from 32 ns on, at most 1/33 of the true value at level 0, 1/17 at level 1, 1/9
// at level 2. Pure functions; idb/analysis/histogram.hpp offers them to the analysis layer.
#pragma once

#include "idb/profile.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace idb::profile {

// The level-0 histogram of `durations` (nanoseconds, or any unit the buckets are read in).
Histogram histogram_of(const std::vector<std::uint64_t> &durations);

// `h` at `level` (not finer than its own): its buckets joined 2^(level - h.level) at a time.
Histogram at_level(const Histogram &h, std::uint32_t level);

// Adds `more` into `into`, at the coarser of their two levels. An empty side adds nothing.
void merge_histogram(Histogram &into, const Histogram &more);

// The number of durations it holds.
std::uint64_t histogram_count(const Histogram &h);

// The q-quantile (0 <= q <= 1) in the unit of the buckets: the estimate of the bucket
// holding the ceil(q·n)-th smallest of its n durations (the smallest for q = 0), brought
// within [min, max] when the exact extremes are given. NaN when it is empty.
double quantile(const Histogram &h, double q, double min = 0,
                double max = std::numeric_limits<double>::infinity());

// The q-quantile in seconds of a node's histogram, within the node's own min and max
// (seconds); NaN without a histogram.
double quantile_seconds(const Node &node, double q);

// A node's histogram after merging nodes whose statistics were merged into `stats`: kept
// when its counts add up to the merged count, else cleared (a merged node without one
// would make it describe only some of the activations).
void keep_if_complete(Histogram &h, const idb_stats_t &stats);

// The estimate of bucket `b` of `level` (nanoseconds), idb_hist_estimate_at.
double bucket_estimate_ns(std::uint32_t b, std::uint32_t level);

} // namespace idb::profile

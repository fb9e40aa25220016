// Duration histograms over the log-linear buckets of idb/histogram.h, as they are kept
// once written: the non-empty buckets in index order. They merge exactly (counts added
// bucket by bucket, in any order and grouping) and give quantiles whose error is that of
// the bucket estimate, at most 1/33 of the true value.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace idb::analysis {

struct Bucket {
  std::uint32_t index = 0; // idb_hist_bucket()
  std::uint64_t count = 0; // more than 0
  bool operator==(const Bucket &) const = default;
};

// Non-empty buckets, in increasing index order.
using Histogram = std::vector<Bucket>;

// The histogram of `ticks` (durations in timer ticks).
Histogram histogram_of(const std::vector<std::uint64_t> &ticks);

// Adds `more` into `into`, bucket by bucket.
void merge_histogram(Histogram &into, const Histogram &more);

// The number of durations it holds.
std::uint64_t histogram_count(const Histogram &h);

// The q-quantile (0 <= q <= 1) in ticks: the estimate of the bucket holding the
// ceil(q·n)-th smallest of its n durations (the smallest for q = 0), brought within
// [min, max] when the node's exact extremes are given. NaN when it is empty.
double quantile_ticks(const Histogram &h, double q, double min = 0,
                      double max = std::numeric_limits<double>::infinity());

} // namespace idb::analysis

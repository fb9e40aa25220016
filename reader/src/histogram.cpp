// Duration histograms (idb/histogram.hpp).
#include "idb/histogram.hpp"

#include "idb/histogram.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace idb::profile {

Histogram histogram_of(const std::vector<std::uint64_t> &durations) {
  std::map<std::uint32_t, std::uint64_t> counts;
  for (std::uint64_t d : durations)
    ++counts[idb_hist_bucket(d)];
  Histogram h;
  h.buckets.reserve(counts.size());
  for (const auto &[index, count] : counts)
    h.buckets.push_back({index, count});
  return h;
}

Histogram at_level(const Histogram &h, std::uint32_t level) {
  Histogram out;
  out.level = std::max(level, h.level);
  std::uint32_t shift = out.level - h.level;
  for (const HistBucket &b : h.buckets) {
    std::uint32_t index = b.index >> shift;
    if (!out.buckets.empty() && out.buckets.back().index == index)
      out.buckets.back().count += b.count;
    else
      out.buckets.push_back({index, b.count});
  }
  return out;
}

void merge_histogram(Histogram &into, const Histogram &more) {
  if (more.empty()) return;
  if (into.empty()) {
    into = more;
    return;
  }
  std::uint32_t level = std::max(into.level, more.level);
  Histogram a = at_level(into, level), b = at_level(more, level);
  std::vector<HistBucket> merged;
  merged.reserve(a.buckets.size() + b.buckets.size());
  auto x = a.buckets.cbegin(), y = b.buckets.cbegin();
  while (x != a.buckets.cend() || y != b.buckets.cend()) {
    if (y == b.buckets.cend() || (x != a.buckets.cend() && x->index < y->index)) {
      merged.push_back(*x++);
    } else if (x == a.buckets.cend() || y->index < x->index) {
      merged.push_back(*y++);
    } else {
      merged.push_back({x->index, x->count + y->count});
      ++x;
      ++y;
    }
  }
  into.level = level;
  into.buckets = std::move(merged);
}

std::uint64_t histogram_count(const Histogram &h) {
  std::uint64_t n = 0;
  for (const HistBucket &b : h.buckets)
    n += b.count;
  return n;
}

double quantile(const Histogram &h, double q, double min, double max) {
  std::uint64_t n = histogram_count(h);
  if (n == 0 || std::isnan(q)) return std::nan("");
  q = std::clamp(q, 0.0, 1.0);
  auto rank = std::max<std::uint64_t>(1, std::uint64_t(std::ceil(q * double(n))));
  std::uint64_t seen = 0;
  auto within = [&](double value) { return min <= max ? std::clamp(value, min, max) : value; };
  for (const HistBucket &b : h.buckets) {
    seen += b.count;
    if (seen >= rank) return within(bucket_estimate_ns(b.index, h.level));
  }
  return within(bucket_estimate_ns(h.buckets.back().index, h.level));
}

double quantile_seconds(const Node &node, double q) {
  if (node.hist.empty() || node.stats.count == 0) return std::nan("");
  return quantile(node.hist, q, node.stats.min * 1e9, node.stats.max * 1e9) * 1e-9;
}

void keep_if_complete(Histogram &h, const idb_stats_t &stats) {
  if (histogram_count(h) != stats.count) h = Histogram{};
}

double bucket_estimate_ns(std::uint32_t b, std::uint32_t level) {
  return idb_hist_estimate_at(b, level);
}

} // namespace idb::profile

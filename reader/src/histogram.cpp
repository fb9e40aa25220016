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
  std::vector<HistBucket> merged;
  merged.reserve(into.buckets.size() + more.buckets.size());
  auto push = [&merged](std::uint32_t index, std::uint64_t count) {
    if (!merged.empty() && merged.back().index == index)
      merged.back().count += count;
    else
      merged.push_back({index, count});
  };
  auto a = into.buckets.cbegin();
  auto b = more.buckets.cbegin();
  std::uint32_t shift_a = level - into.level, shift_b = level - more.level;
  while (a != into.buckets.cend() || b != more.buckets.cend()) {
    bool take_a = b == more.buckets.cend() ||
                  (a != into.buckets.cend() && (a->index >> shift_a) <= (b->index >> shift_b));
    if (take_a) {
      push(a->index >> shift_a, a->count);
      ++a;
    } else {
      push(b->index >> shift_b, b->count);
      ++b;
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

double bucket_lower_ns(std::uint32_t b, std::uint32_t level) {
  return idb_hist_lower_at(b, level);
}

double bucket_upper_ns(std::uint32_t b, std::uint32_t level) {
  return idb_hist_upper_at(b, level);
}

double bucket_estimate_ns(std::uint32_t b, std::uint32_t level) {
  return idb_hist_estimate_at(b, level);
}

} // namespace idb::profile

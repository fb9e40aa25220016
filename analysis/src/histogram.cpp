// Duration histograms (idb/analysis/histogram.hpp).
#include "idb/analysis/histogram.hpp"

#include "idb/histogram.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace idb::analysis {

Histogram histogram_of(const std::vector<std::uint64_t> &ticks) {
  std::map<std::uint32_t, std::uint64_t> counts;
  for (std::uint64_t t : ticks)
    ++counts[idb_hist_bucket(t)];
  Histogram h;
  h.reserve(counts.size());
  for (const auto &[index, count] : counts)
    h.push_back({index, count});
  return h;
}

void merge_histogram(Histogram &into, const Histogram &more) {
  Histogram merged;
  merged.reserve(into.size() + more.size());
  auto a = into.cbegin();
  auto b = more.cbegin();
  while (a != into.cend() || b != more.cend()) {
    if (b == more.cend() || (a != into.cend() && a->index < b->index)) {
      merged.push_back(*a++);
    } else if (a == into.cend() || b->index < a->index) {
      merged.push_back(*b++);
    } else {
      merged.push_back({a->index, a->count + b->count});
      ++a;
      ++b;
    }
  }
  into = std::move(merged);
}

std::uint64_t histogram_count(const Histogram &h) {
  std::uint64_t n = 0;
  for (const Bucket &b : h)
    n += b.count;
  return n;
}

double quantile_ticks(const Histogram &h, double q, double min, double max) {
  std::uint64_t n = histogram_count(h);
  if (n == 0 || std::isnan(q)) return std::nan("");
  q = std::clamp(q, 0.0, 1.0);
  auto rank = std::max<std::uint64_t>(1, std::uint64_t(std::ceil(q * double(n))));
  std::uint64_t seen = 0;
  auto within = [&](double ticks) { return min <= max ? std::clamp(ticks, min, max) : ticks; };
  for (const Bucket &b : h) {
    seen += b.count;
    if (seen >= rank) return within(idb_hist_estimate(b.index));
  }
  return within(idb_hist_estimate(h.back().index));
}

} // namespace idb::analysis

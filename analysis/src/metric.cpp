// The metrics and their derivation (metric.hpp): one table of names, one switch of values.
#include "idb/analysis/metric.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace idb::analysis {

namespace {

struct Names {
  Metric metric;
  std::string_view key, title;
};

constexpr std::array<Names, kAllMetrics.size()> kNames{
    {{Metric::total, "total", "total"},
     {Metric::cpu, "cpu", "CPU"},
     {Metric::range, "range", "range"},
     {Metric::sdev, "sdev", "sdev"},
     {Metric::count, "count", "count"},
     {Metric::noise, "noise", "noise"},
     {Metric::corrected, "corrected", "corrected total"}}};

const Names &names_of(Metric metric) {
  return kNames[std::size_t(metric)];
}

} // namespace

std::string_view metric_key(Metric metric) {
  return names_of(metric).key;
}

std::string_view metric_title(Metric metric) {
  return names_of(metric).title;
}

std::string_view metric_unit(Metric metric) {
  return metric == Metric::count ? "activations" : "seconds";
}

std::optional<Metric> parse_metric(std::string_view keyword) {
  for (const Names &n : kNames)
    if (std::equal(n.key.begin(), n.key.end(), keyword.begin(), keyword.end(),
                   [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); }))
      return n.metric;
  return std::nullopt;
}

void ProbeStats::merge(const ProbeStats &other) {
  merge(other.stats, other.corrected);
}

void ProbeStats::merge(const idb_stats_t &node, double node_corrected) {
  idb_stats_merge(&stats, &node);
  corrected += node_corrected;
}

double value(const ProbeStats &p, Metric metric) {
  const idb_stats_t &s = p.stats;
  switch (metric) {
  case Metric::total:
    return s.sum;
  case Metric::cpu:
    return s.cpu_sum;
  case Metric::range:
    return s.count > 0 ? s.max - s.min : 0.0;
  case Metric::sdev:
    return std::sqrt(std::max(0.0, idb_stats_variance(&s)));
  case Metric::count:
    return double(idb_stats_activations(&s));
  case Metric::noise:
    return s.noise;
  case Metric::corrected:
    return p.corrected;
  }
  return 0.0;
}

} // namespace idb::analysis

// The metrics and their derivation (metric.hpp): one table of names, one switch of values.
#include "idb/analysis/metric.hpp"

#include "idb/histogram.hpp"

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
     {Metric::corrected, "corrected", "corrected total"},
     {Metric::p50, "p50", "p50 activation"},
     {Metric::p90, "p90", "p90 activation"},
     {Metric::p99, "p99", "p99 activation"}}};

double quantile_of(const ProbeStats &p, double q) {
  if (!p.has_histogram() || p.stats.count == 0) return std::nan("");
  return profile::quantile(p.hist, q, p.stats.min * 1e9, p.stats.max * 1e9) * 1e-9;
}

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

std::string metric_choices() {
  std::string out;
  for (std::size_t i = 0; i < kNames.size(); ++i)
    out += std::string(i == 0                   ? ""
                       : i + 1 == kNames.size() ? " or "
                                                : ", ") +
           std::string(kNames[i].key);
  return out;
}

double resolution(Metric metric) {
  const bool quantile = metric == Metric::p50 || metric == Metric::p90 || metric == Metric::p99;
  return quantile ? 1.0 / 16 : 0.0;
}

std::optional<Metric> parse_metric(std::string_view keyword) {
  for (const Names &n : kNames)
    if (std::equal(n.key.begin(), n.key.end(), keyword.begin(), keyword.end(),
                   [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); }))
      return n.metric;
  return std::nullopt;
}

void ProbeStats::merge(const ProbeStats &other) {
  merge(other.stats, other.corrected, other.hist);
}

void ProbeStats::merge(const idb_stats_t &node, double node_corrected,
                       const profile::Histogram &node_hist) {
  const bool complete = has_histogram() && profile::histogram_count(node_hist) == node.count;
  idb_stats_merge(&stats, &node);
  corrected += node_corrected;
  if (complete)
    profile::merge_histogram(hist, node_hist);
  else
    hist = {};
}

bool ProbeStats::has_histogram() const {
  return profile::histogram_count(hist) == stats.count;
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
  case Metric::p50:
    return quantile_of(p, 0.50);
  case Metric::p90:
    return quantile_of(p, 0.90);
  case Metric::p99:
    return quantile_of(p, 0.99);
  }
  return 0.0;
}

} // namespace idb::analysis

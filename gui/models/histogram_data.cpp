// Histogram charts of nodes (histogram_data.hpp).
#include "histogram_data.hpp"

#include "idb/histogram.h"
#include "idb/histogram.hpp"

#include <array>
#include <cstdio>

namespace idb::gui {

std::string duration_text(double seconds, bool whole) {
  if (std::isnan(seconds)) return "–";
  struct Unit {
    double scale;
    const char *name;
  };
  constexpr std::array<Unit, 4> kUnits{{{1.0, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}}};
  const Unit *unit = &kUnits.back();
  for (const Unit &u : kUnits)
    if (std::fabs(seconds) >= u.scale * 0.9995) { // 999.7 µs reads "1.00 ms"
      unit = &u;
      break;
    }
  double v = seconds / unit->scale;
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(),
                whole || v >= 99.95 ? "%.0f %s"
                : v >= 9.995        ? "%.1f %s"
                                    : "%.2f %s",
                v, unit->name);
  return text.data();
}

namespace {

std::string count_text(std::uint64_t n) { // 1234567 → "1,234,567"
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

} // namespace

HistogramChart histogram_chart(const std::string &label, const profile::Node &node) {
  HistogramChart chart;
  const idb_stats_t &s = node.stats;
  chart.count = profile::histogram_count(node.hist);
  if (node.probe == profile::kWorkersOutsideProbes) {
    chart.missing = "no duration histogram: the time each worker thread spent outside its "
                    "probes, one activation a thread";
  } else if (s.count == 0) {
    chart.missing = "no timed activations";
  } else if (node.hist.empty() || chart.count != s.count) {
    chart.missing = "no duration histogram: the run was recorded with IDB_HISTOGRAM=0 or "
                    "before profile format 1.3, or the node merges one that had none";
  }
  if (!chart.missing.empty()) {
    chart.count = 0;
    chart.title = label + ": " + chart.missing;
    return chart;
  }
  for (const profile::HistBucket &b : node.hist.buckets) {
    HistogramBar &bar = chart.bars.emplace_back();
    bar.upper = idb_hist_upper_at(b.index, node.hist.level) * 1e-9;
    bar.lower = idb_hist_lower_at(b.index, node.hist.level) * 1e-9;
    if (bar.lower <= 0) bar.lower = bar.upper / 2;
    bar.count = b.count;
  }
  chart.p50 = profile::quantile_seconds(node, 0.50);
  chart.p90 = profile::quantile_seconds(node, 0.90);
  chart.p99 = profile::quantile_seconds(node, 0.99);
  // A throttled node's histogram holds its timed activations, a small part of them all.
  std::string what =
      s.throttled ? " timed activations (of " + count_text(idb_stats_activations(&s)) + "), p50 "
                  : " activations, p50 ";
  chart.title = label + ": " + count_text(chart.count) + what + duration_text(chart.p50) +
                ", p90 " + duration_text(chart.p90) + ", p99 " + duration_text(chart.p99) +
                ", max " + duration_text(s.max);
  return chart;
}

} // namespace idb::gui

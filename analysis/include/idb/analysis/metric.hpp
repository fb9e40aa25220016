// What one number of a probe means: the metrics every front end offers (DESIGN §7 and
// §8), their names, and how each is derived from merged node statistics. The `idb edf`
// value, the GUI's Y axis and COALESCE/COMPARE all take a Metric from here. Pure
// functions: thread-safe, no I/O, no throws.
#pragma once

#include "idb/stats.h"

#include <array>
#include <optional>
#include <string_view>

namespace idb::analysis {

// total: wall time, inclusive; cpu: CPU time; range: the longest minus the shortest
// activation; sdev: sample standard deviation of the activations; count: activations;
// noise: the probes' own measured cost; corrected: inclusive time minus the noise of
// every node below.
enum class Metric { total, cpu, range, sdev, count, noise, corrected };

inline constexpr std::array kAllMetrics{Metric::total,    Metric::cpu,   Metric::range,
                                        Metric::sdev,     Metric::count, Metric::noise,
                                        Metric::corrected};

// The keyword in .edf files and on command lines: "total", "cpu", "range", "sdev",
// "count", "noise", "corrected".
std::string_view metric_key(Metric metric);
// The title for menus and axes: "total", "CPU", "range", "sdev", "count", "noise",
// "corrected total".
std::string_view metric_title(Metric metric);
// The unit of its values: "seconds", or "activations" for count.
std::string_view metric_unit(Metric metric);
// A keyword, without regard to case; nullopt for anything else.
std::optional<Metric> parse_metric(std::string_view keyword);

// Statistics of several nodes merged exactly (idb_stats_merge), with the sum of their
// noise-corrected inclusive times, which does not follow from the merged record.
struct ProbeStats {
  idb_stats_t stats{};
  double corrected = 0;

  // *this := *this merged with `other`.
  void merge(const ProbeStats &other);
  void merge(const idb_stats_t &node, double node_corrected);
};

// The value of `metric` for `s`. range is 0 without activations; sdev is 0 below two
// activations and never NaN (an M2 a rounding below zero reads as 0).
double value(const ProbeStats &s, Metric metric);

} // namespace idb::analysis

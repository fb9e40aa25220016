// What one number of a probe means: the metrics every front end offers (DESIGN §7 and
// §8), their names, and how each is derived from merged node statistics. The `idb edf`
// value, the GUI's Y axis and COALESCE/COMPARE all take a Metric from here. Pure
// functions: thread-safe, no I/O, no throws.
#pragma once

#include "idb/profile.hpp"
#include "idb/stats.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace idb::analysis {

// total: wall time, inclusive; cpu: CPU time; range: the longest minus the shortest
// activation; sdev: sample standard deviation of the activations; count: activations;
// noise: the probes' own measured cost; corrected: inclusive time minus the noise of
// every node below; p50, p90, p99: the median, 90th and 99th percentile of the
// activations' durations, from the duration histograms (NaN where they are missing).
enum class Metric { total, cpu, range, sdev, count, noise, corrected, p50, p90, p99 };

inline constexpr std::array kAllMetrics{
    Metric::total, Metric::cpu,       Metric::range, Metric::sdev, Metric::count,
    Metric::noise, Metric::corrected, Metric::p50,   Metric::p90,  Metric::p99};

// The keyword in .edf files and on command lines: "total", "cpu", "range", "sdev",
// "count", "noise", "corrected", "p50", "p90", "p99".
std::string_view metric_key(Metric metric);
// The title for menus and axes: "total", "CPU", "range", "sdev", "count", "noise",
// "corrected total", "p50 activation", "p90 activation", "p99 activation".
std::string_view metric_title(Metric metric);
// How finely a value of it is known, relative to itself: 0 for the statistics the record
// holds exactly; for a quantile, the width of the histogram bucket it is read from, at
// most 1/16 of its value (level 0; merges of coarser histograms are rarer). A record may
// also lack a quantile (no histogram): value() is then NaN, which callers show as no
// value, not 0.
double resolution(Metric metric);
// The unit of its values: "seconds", or "activations" for count.
std::string_view metric_unit(Metric metric);
// Every keyword, for messages: "total, cpu, ..., p90 or p99".
std::string metric_choices();
// A keyword, without regard to case; nullopt for anything else.
std::optional<Metric> parse_metric(std::string_view keyword);

// Statistics of several nodes merged exactly (idb_stats_merge), with the sum of their
// noise-corrected inclusive times, which does not follow from the merged record, and
// their duration histograms merged bucket by bucket (idb/histogram.hpp) while every
// node merged has one; from the first that has none (or one short of its count), `hist`
// stays empty, since it would describe only some of the activations.
struct ProbeStats {
  idb_stats_t stats{};
  double corrected = 0;
  profile::Histogram hist;

  // *this := *this merged with `other`.
  void merge(const ProbeStats &other);
  void merge(const idb_stats_t &node, double node_corrected,
             const profile::Histogram &node_hist = {});
  // Whether `hist` holds every activation of `stats`.
  bool has_histogram() const;
};

// The value of `metric` for `s`. range is 0 without activations; sdev is 0 below two
// activations and never NaN (an M2 a rounding below zero reads as 0). A quantile is
// within the record's min and max, and NaN without activations or without a histogram.
double value(const ProbeStats &s, Metric metric);

} // namespace idb::analysis

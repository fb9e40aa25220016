// A node's duration histogram as the tree view's chart draws it: one bar per non-empty
// bucket with its bounds in seconds (on a log axis the buckets are about equally wide,
// 16 or 8 to an octave, so the bars' heights read as a density), the node's p50, p90 and
// p99, and, when there is nothing to draw, why. Pure functions.
#pragma once

#include "idb/profile.hpp"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace idb::gui {

struct HistogramBar {
  double lower = 0, upper = 0; // seconds: the bucket holds durations from lower up to upper
  std::uint64_t count = 0;     // activations in it
};

struct HistogramChart {
  std::string title;              // the node's label, activations and quantiles
  std::vector<HistogramBar> bars; // ascending; empty when `missing` says why
  std::uint64_t count = 0;        // activations the bars hold
  double p50 = std::nan(""), p90 = std::nan(""), p99 = std::nan(""); // seconds
  std::string missing;                                               // "" when there are bars
};

// The chart of `node` labelled `label`. A bucket that holds 0 ns alone (a duration the
// clock could not resolve) is drawn from half its upper bound, as a log axis has no 0.
HistogramChart histogram_chart(const std::string &label, const profile::Node &node);

// A duration as people read it: 3 significant digits in the unit that fits it (ns, µs,
// ms, s), e.g. "48.2 µs", "1.25 s"; "–" for NaN. With `whole`, no decimals: an axis
// tick at 1, 2 or 5 of a decade ("20 µs", "500 ms").
std::string duration_text(double seconds, bool whole = false);

} // namespace idb::gui

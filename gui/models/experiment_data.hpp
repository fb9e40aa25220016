// An experiment as the GUI holds it: the parsed .edf and every run of its [DBLIST] read
// (edf::EntryData, read once off the GUI thread), and the values the experiment view
// draws, computed from edf's COALESCE and COMPARE results: box plots per probe, and per
// probe each entry's value with one series per rank.
#pragma once

#include "chart_data.hpp"

#include "idb/edf.hpp"
#include "idb/edf_analysis.hpp"

#include <memory>
#include <string>
#include <vector>

namespace idb::gui {

struct ExperimentData {
  std::string path;
  edf::Experiment experiment;
  std::vector<edf::EntryData> entries;
  std::vector<std::string> warnings; // the parser's
  std::vector<int> ranks;            // every rank of every run, ascending
};
using ExperimentPtr = std::shared_ptr<const ExperimentData>;

// Parses `path`, resolves its [DBLIST] (the database: `override` when not empty, else the
// file's, else `fallback`) and reads every run. Throws edf::Error or store::Error with one
// line; `connections` must outlive the result.
ExperimentData read_experiment(const std::string &path, const std::string &override,
                               const std::string &fallback, edf::Connections &connections);

// One box per COALESCE row: the five numbers, whiskers and outliers.
struct BoxPlotData {
  std::string title, y_title;
  bool seconds = false;                // the values are seconds: the axis shows them in one unit
  std::vector<std::string> categories; // "probe" or "probe @ rank N"
  std::vector<std::int64_t> keys;      // the probe ids
  std::vector<edf::Box> boxes;
  std::vector<std::vector<double>> outliers; // values beyond the whiskers, per box
};

// The first `max_boxes` rows of `result` by median, largest first.
BoxPlotData coalesce_boxes(const edf::CoalesceResult &result, std::size_t max_boxes = 16);

// `boxes` with each probe's numbers (box, whiskers, outliers) divided by its median, so
// boxes of very different size show their spread side by side (a box whose median is 0
// stays as it is); no longer in seconds, titled "... ÷ median".
BoxPlotData relative_boxes(BoxPlotData boxes);
// Whether the medians of `boxes` differ by more than `ratio` (the largest over the least
// above zero): where drawn on one linear axis, the small boxes become dashes.
bool medians_far_apart(const BoxPlotData &boxes, double ratio = 100);

// COMPARE for one probe: the entries along X, one series per rank (or one for every rank
// merged), the entry's value (0 where it has none). Titled by the ratios of each entry to
// the first: with one series, its ratio and test; with a series per rank, the range of
// the ratios over the ranks and how many were significant.
ChartData compare_chart(const edf::CompareResult &result, std::int32_t probe);

// The probe whose first entry has the largest value: what the view shows first.
std::int32_t largest_probe(const edf::CompareResult &result);

} // namespace idb::gui

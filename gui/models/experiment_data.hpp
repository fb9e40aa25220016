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
  std::vector<std::string> categories; // "probe" or "probe @ rank N"
  std::vector<std::int64_t> keys;      // the probe ids
  std::vector<edf::Box> boxes;
  std::vector<std::vector<double>> outliers; // values beyond the whiskers, per box
};

// The first `max_boxes` rows of `result` by median, largest first.
BoxPlotData coalesce_boxes(const edf::CoalesceResult &result, std::size_t max_boxes = 16);

// COMPARE for one probe: the entries along X, one series per rank (or one for every rank
// merged), the entry's value (0 where it has none).
ChartData compare_chart(const edf::CompareResult &result, std::int32_t probe);

// The probe whose first entry has the largest value: what the view shows first.
std::int32_t largest_probe(const edf::CompareResult &result);

} // namespace idb::gui

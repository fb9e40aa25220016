// What the Iterations view draws of a run's dynamics (analysis::run_dynamics): per
// iteration a probe's least, mean and most seconds over the ranks, and the ranks ×
// iterations of the same probe as a heat map. Plain data, built on the GUI thread from the
// run's dynamics (a vector per rank and probe: cheap).
#pragma once

#include "idb/analysis/dynamics.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace idb::gui {

struct IterationLine {
  std::string title;                  // the probe's label
  std::vector<double> min, mean, max; // seconds, per iteration
  double high = 0;                    // the most of `max`
};

// The line of `probe` (empty when the run has no dynamics or the probe is not in them).
IterationLine iteration_line(const analysis::RunDynamics &d, std::int32_t probe);

struct HeatMap {
  std::vector<std::string> rows;            // "rank 0", or "rank 0 thread 1" with threads
  std::vector<std::vector<double>> seconds; // per row, per iteration
  std::size_t iterations = 0;
  // The scale: from the least cell to the 99th percentile of the cells (every cell with
  // fewer than 100), so that a handful of outliers (the first iteration's page faults)
  // do not pale everything else; cells above it take the top colour.
  double low = 0, high = 0;
  double most = 0; // the largest cell
};

// Every CFH's iterations of `probe` (a row per rank and thread).
HeatMap rank_heat_map(const analysis::RunDynamics &d, std::int32_t probe);

// The line above the view: the dynamic probe and its iterations, or why there is none.
std::string dynamics_summary(const analysis::RunDynamics &d);

// Where `seconds` lies between `low` and `high`, 0 to 1 (0 when they are equal).
double heat_share(double seconds, double low, double high);

} // namespace idb::gui

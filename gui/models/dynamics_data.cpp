// The Iterations view's data (dynamics_data.hpp).
#include "dynamics_data.hpp"

#include <algorithm>

namespace idb::gui {

IterationLine iteration_line(const analysis::RunDynamics &d, std::int32_t probe) {
  IterationLine line;
  auto label = d.labels.find(probe);
  if (d.probe == 0 || label == d.labels.end()) return line;
  line.title = label->second;
  analysis::Spread s = analysis::spread_over_ranks(d, probe);
  line.min = std::move(s.min);
  line.mean = std::move(s.mean);
  line.max = std::move(s.max);
  for (double v : line.max)
    line.high = std::max(line.high, v);
  return line;
}

HeatMap rank_heat_map(const analysis::RunDynamics &d, std::int32_t probe) {
  HeatMap map;
  map.iterations = d.iterations;
  std::vector<double> cells;
  for (std::size_t k = 0; k < d.series.size(); ++k) {
    const analysis::RankSeries &s = d.series[k];
    map.rows.push_back(analysis::series_name(d, k));
    auto it = s.seconds.find(probe);
    std::vector<double> values =
        it == s.seconds.end() ? std::vector<double>(d.iterations, 0.0) : it->second;
    values.resize(d.iterations, 0.0);
    cells.insert(cells.end(), values.begin(), values.end());
    map.seconds.push_back(std::move(values));
  }
  if (cells.empty()) return map;
  std::sort(cells.begin(), cells.end());
  map.low = cells.front();
  map.most = cells.back();
  map.high = cells.size() < 100 ? map.most : cells[cells.size() * 99 / 100];
  return map;
}

std::string dynamics_summary(const analysis::RunDynamics &d) {
  if (d.probe == 0)
    return "This run has no dynamic probe. Make the time-step loop dynamic (mode=dynamic in "
           "the selection, IDB_DYNAMIC=FILE:LINE, or idb_dynamic_probe) and every iteration "
           "is kept; idb-instrument list names the loop.";
  std::uint64_t least = ~std::uint64_t(0), most = 0;
  for (const analysis::RankSeries &s : d.series) {
    least = std::min(least, s.clusters);
    most = std::max(most, s.clusters);
  }
  std::string clusters =
      least == most ? std::to_string(most) : std::to_string(least) + " to " + std::to_string(most);
  return "Dynamic probe " + d.labels.at(d.probe) + ": " + std::to_string(d.iterations) +
         " iterations on " + std::to_string(d.series.size()) + " CFH(s), " + clusters +
         " clusters each; every iteration reconstructed from its cluster.";
}

double heat_share(double seconds, double low, double high) {
  if (high <= low) return 0.0;
  return std::clamp((seconds - low) / (high - low), 0.0, 1.0);
}

} // namespace idb::gui

// Experiments for the GUI (experiment_data.hpp).
#include "experiment_data.hpp"

#include "idb/edf_runs.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

namespace idb::gui {

ExperimentData read_experiment(const std::string &path, const std::string &override,
                               const std::string &fallback, edf::Connections &connections) {
  edf::ParseResult parsed = edf::read(path);
  if (!parsed.document) throw edf::Error(parsed.error);
  ExperimentData data;
  data.path = path;
  data.experiment = parsed.experiment;
  data.warnings = parsed.warnings;
  std::string db = edf::experiment_database(parsed.experiment, path, override);
  if (db.empty()) db = fallback;
  const std::string base = std::filesystem::path(path).parent_path().string();
  data.entries = edf::read_entries(edf::resolve(parsed.experiment, {db, base, path}, connections));
  std::set<int> ranks;
  for (const edf::EntryData &e : data.entries)
    for (const edf::RunData &r : e.runs)
      ranks.insert(r.ranks.begin(), r.ranks.end());
  data.ranks.assign(ranks.begin(), ranks.end());
  return data;
}

namespace {

std::string short_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

// "COMPARE: NAME, VALUE; ENTRY ×RATIO (significant, p 0.001)" for each entry after the
// first, from `row` (the probe's first row: every rank merged, or its lowest rank).
std::string compare_title(const edf::CompareResult &result, const edf::CompareRow &row) {
  std::string title =
      "COMPARE: " + row.name + ", " + std::string(analysis::metric_key(result.value));
  for (std::size_t i = 1; i < row.cells.size() && i < result.entries.size(); ++i) {
    const edf::CompareCell &c = row.cells[i];
    title += "; " + result.entries[i] + " ";
    title += c.ratio ? "\u00d7" + short_number(*c.ratio) : std::string("no ratio");
    if (c.test)
      title += c.significant ? " (significant, p " + short_number(c.test->p) + ")"
                             : " (not significant, p " + short_number(c.test->p) + ")";
    else
      title += " (no test: fewer than 2 runs)";
  }
  if (row.rank != edf::kAllRanks) title += " [rank " + std::to_string(row.rank) + "]";
  return title;
}

// The title of a probe compared rank by rank (ranks = all): per entry after the first,
// the range of its ratios over the ranks and how many were significant, not one rank's.
std::string compare_ranks_title(const edf::CompareResult &result,
                                const std::vector<const edf::CompareRow *> &rows) {
  std::string title = "COMPARE: " + rows.front()->name + ", " +
                      std::string(analysis::metric_key(result.value)) + " per rank";
  for (std::size_t i = 1; i < result.entries.size(); ++i) {
    double lo = 0, hi = 0;
    std::size_t ratios = 0, tested = 0, significant = 0;
    for (const edf::CompareRow *row : rows) {
      if (i >= row->cells.size()) continue;
      const edf::CompareCell &c = row->cells[i];
      if (c.ratio) {
        lo = ratios ? std::min(lo, *c.ratio) : *c.ratio;
        hi = ratios ? std::max(hi, *c.ratio) : *c.ratio;
        ++ratios;
      }
      if (c.test) ++tested;
      if (c.test && c.significant) ++significant;
    }
    title += "; " + result.entries[i] + " ";
    if (ratios == 0)
      title += "no ratio";
    else if (short_number(lo) == short_number(hi))
      title += "\u00d7" + short_number(lo);
    else
      title += "\u00d7" + short_number(lo) + " to " + short_number(hi);
    title += " over " + std::to_string(rows.size()) + " ranks";
    title += tested ? " (" + std::to_string(significant) + " significant)"
                    : std::string(" (no test: fewer than 2 runs)");
  }
  return title;
}

} // namespace

BoxPlotData coalesce_boxes(const edf::CoalesceResult &result, std::size_t max_boxes) {
  std::vector<const edf::CoalesceRow *> rows;
  for (const edf::CoalesceRow &row : result.rows)
    if (!row.values.empty()) rows.push_back(&row);
  std::stable_sort(rows.begin(), rows.end(),
                   [](auto *a, auto *b) { return a->box.median > b->box.median; });
  rows.resize(std::min(rows.size(), max_boxes));
  BoxPlotData boxes;
  boxes.y_title = std::string(analysis::metric_key(result.value));
  boxes.seconds = analysis::metric_unit(result.value) == "seconds";
  boxes.title =
      "COALESCE: " + boxes.y_title + " per run, " + std::to_string(result.runs.size()) + " runs";
  for (const edf::CoalesceRow *row : rows) {
    boxes.categories.push_back(row->rank == edf::kAllRanks
                                   ? row->name
                                   : row->name + " @ rank " + std::to_string(row->rank));
    boxes.keys.push_back(row->probe);
    boxes.boxes.push_back(row->box);
    std::vector<double> &out = boxes.outliers.emplace_back();
    for (const edf::Outlier &o : row->outliers)
      out.push_back(o.value);
  }
  return boxes;
}

BoxPlotData relative_boxes(BoxPlotData boxes) {
  for (std::size_t i = 0; i < boxes.boxes.size(); ++i) {
    edf::Box &b = boxes.boxes[i];
    const double m = b.median;
    if (!(m > 0)) continue;
    for (double *v : {&b.min, &b.q1, &b.median, &b.q3, &b.max, &b.lower_whisker, &b.upper_whisker})
      *v /= m;
    for (double &v : boxes.outliers[i])
      v /= m;
  }
  boxes.y_title += " \u00f7 median";
  boxes.title += ", each probe \u00f7 its median";
  boxes.seconds = false;
  return boxes;
}

bool medians_far_apart(const BoxPlotData &boxes, double ratio) {
  double lo = 0, hi = 0;
  for (const edf::Box &b : boxes.boxes)
    if (b.median > 0) {
      lo = lo > 0 ? std::min(lo, b.median) : b.median;
      hi = std::max(hi, b.median);
    }
  return lo > 0 && hi / lo > ratio;
}

ChartData compare_chart(const edf::CompareResult &result, std::int32_t probe) {
  ChartData chart;
  chart.y_title = std::string(analysis::metric_key(result.value));
  chart.seconds = analysis::metric_unit(result.value) == "seconds";
  std::vector<const edf::CompareRow *> rows;
  for (const edf::CompareRow &row : result.rows)
    if (row.probe == probe) rows.push_back(&row);
  if (rows.size() > 1) chart.title = compare_ranks_title(result, rows);
  chart.categories = result.entries;
  for (std::size_t i = 0; i < result.entries.size(); ++i)
    chart.keys.push_back(std::int64_t(i));
  for (const edf::CompareRow &row : result.rows) {
    if (row.probe != probe) continue;
    if (chart.title.empty()) chart.title = compare_title(result, row);
    ChartSeries &s = chart.series.emplace_back();
    s.name = row.rank == edf::kAllRanks ? "all ranks" : "rank " + std::to_string(row.rank);
    for (const edf::CompareCell &cell : row.cells)
      s.values.push_back(cell.value.value_or(0.0));
  }
  return chart;
}

std::int32_t largest_probe(const edf::CompareResult &result) {
  std::int32_t best = 0;
  double most = -1;
  for (const edf::CompareRow &row : result.rows) {
    double v = row.cells.empty() ? 0.0 : row.cells[0].value.value_or(0.0);
    if (row.probe != 0 && v > most) most = v, best = row.probe; // 0: the whole program
  }
  return most < 0 && !result.rows.empty() ? result.rows.front().probe : best;
}

} // namespace idb::gui

// COMPARE: runs that differ side by side. Per probe and rank, each entry's value (the mean
// over its runs when it is a group), its difference and ratio to the first entry, and,
// where both are groups of repeated runs, Welch's t-test of whether the difference
// exceeds run-to-run noise.
#include "select.hpp"

#include <algorithm>
#include <cmath>

namespace idb::edf {

namespace {

// The cell of one entry for a row: its runs' values and their mean and deviation (the
// comparison with the first entry comes after).
CompareCell cell_of(const EntryData &e, std::int32_t probe, std::int32_t rank, Metric value) {
  CompareCell c;
  std::vector<double> &values = c.run_values;
  for (const RunData &r : e.runs)
    if (std::optional<ProbeRank> p = pick(r, probe, rank)) {
      double v = analysis::value(*p, value);
      if (std::isnan(v)) continue; // a quantile of a run without histograms
      values.push_back(v);
      c.run_labels.push_back(r.run.label);
    }
  c.runs = values.size();
  if (values.empty()) return c;
  double sum = 0, ss = 0;
  for (double v : values)
    sum += v;
  double mean = sum / double(values.size());
  for (double v : values)
    ss += (v - mean) * (v - mean);
  c.value = mean;
  c.sdev = values.size() > 1 ? std::sqrt(ss / double(values.size() - 1)) : 0.0;
  return c;
}

void against_first(CompareCell &c, const CompareCell &first, double alpha, Metric value) {
  if (!c.value || !first.value) return;
  c.diff = *c.value - *first.value;
  if (*first.value != 0) c.ratio = *c.value / *first.value;
  if (&c == &first) return; // the first entry: difference 0, ratio 1, nothing to test
  const double resolution = analysis::resolution(value);
  c.test = welch(first.run_values, c.run_values, resolution);
  // A quantile one bucket apart may be one duration on either side of a boundary.
  const double step = resolution * std::max(std::fabs(*c.value), std::fabs(*first.value));
  c.significant = c.test && c.test->p < alpha && std::fabs(*c.diff) > step;
}

} // namespace

CompareResult compare(const std::vector<EntryData> &entries, const AnalysisOptions &options) {
  CompareResult result;
  result.value = options.value;
  result.alpha = options.alpha;
  for (const EntryData &e : entries) {
    result.entries.push_back(e.name);
    result.notes.push_back(e.note);
  }
  std::vector<std::int32_t> ranks = rank_keys(entries, options, true);
  for (std::int32_t probe : probes_of(entries, options)) {
    for (std::int32_t rank : ranks) {
      CompareRow row;
      row.probe = probe;
      row.rank = rank;
      bool any = false;
      for (std::size_t i = 0; i < entries.size(); ++i) {
        row.cells.push_back(cell_of(entries[i], probe, rank, options.value));
        any = any || row.cells.back().value;
      }
      if (!any) continue;
      for (std::size_t i = 0; i < entries.size(); ++i)
        against_first(row.cells[i], row.cells[0], options.alpha, options.value);
      row.name = name_of(entries, probe);
      result.rows.push_back(std::move(row));
    }
  }
  return result;
}

std::vector<EntryData> read_entries(const std::vector<ResolvedEntry> &entries,
                                    const ReadProgress &progress) {
  std::size_t total = 0, done = 0;
  for (const ResolvedEntry &e : entries)
    total += e.runs.size();
  std::vector<EntryData> out;
  for (const ResolvedEntry &e : entries) {
    EntryData &d = out.emplace_back();
    d.name = e.entry.name;
    d.note = e.entry.note;
    for (const RunRef &run : e.runs) {
      d.runs.push_back(read_run_data(run));
      if (progress) progress(++done, total);
    }
  }
  return out;
}

} // namespace idb::edf

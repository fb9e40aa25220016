// COALESCE: the runs of one program and configuration pooled, per probe (and rank), to
// gauge regularity: the box of the per-run values, their mean, deviation and coefficient
// of variation, and the runs' records merged exactly into pooled statistics (their
// duration histograms too, for the quantiles of every activation of every run). A run
// without a value (a quantile, and no histograms) is left out of the row.
#include "select.hpp"

#include <algorithm>
#include <cmath>

namespace idb::edf {

namespace {

void summarise(CoalesceRow &row, const ProbeRank &pooled) {
  row.box = box_of(row.values);
  for (std::size_t i : row.box.outliers)
    row.outliers.push_back({row.runs[i], row.values[i]});
  double n = double(row.values.size()), sum = 0, ss = 0;
  for (double v : row.values)
    sum += v;
  row.mean = sum / n;
  for (double v : row.values)
    ss += (v - row.mean) * (v - row.mean);
  row.sdev = row.values.size() > 1 ? std::sqrt(ss / (n - 1)) : 0.0;
  if (row.mean != 0) row.cv = row.sdev / std::fabs(row.mean);
  const idb_stats_t &s = pooled.stats;
  auto quantile = [&](Metric m) -> std::optional<double> {
    double v = analysis::value(pooled, m);
    return std::isnan(v) ? std::nullopt : std::optional(v);
  };
  row.pooled = {s.count,
                s.count ? s.mean : 0.0,
                std::sqrt(std::max(0.0, idb_stats_variance(&s))),
                s.count ? s.min : 0.0,
                s.count ? s.max : 0.0,
                s.sum,
                quantile(Metric::p50),
                quantile(Metric::p90),
                quantile(Metric::p99)};
}

} // namespace

CoalesceResult coalesce(const std::vector<EntryData> &entries, const AnalysisOptions &options) {
  CoalesceResult result;
  result.value = options.value;
  for (const EntryData &e : entries)
    for (const RunData &r : e.runs)
      result.runs.push_back(r.run.label);
  std::vector<std::int32_t> ranks = rank_keys(entries, options, options.each_rank);
  for (std::int32_t probe : probes_of(entries, options)) {
    for (std::int32_t rank : ranks) {
      CoalesceRow row;
      row.probe = probe;
      row.rank = rank;
      ProbeRank pooled;
      idb_stats_clear(&pooled.stats);
      for (const EntryData &e : entries)
        for (const RunData &r : e.runs)
          if (std::optional<ProbeRank> p = pick(r, probe, rank)) {
            double v = analysis::value(*p, options.value);
            if (std::isnan(v)) continue; // a quantile of a run without histograms
            row.runs.push_back(r.run.label);
            row.values.push_back(v);
            pooled.merge(*p);
          }
      if (row.values.empty()) continue;
      row.name = name_of(entries, probe);
      summarise(row, pooled);
      result.rows.push_back(std::move(row));
    }
  }
  return result;
}

} // namespace idb::edf

// One run's statistics per (probe, rank): a single query over the base tables (nodes and
// node_stats of the run's CFHs) read as typed rows, merged as they come by the analysis
// library's Aggregator (idb_stats_merge, the runtime's own exact merge, so the pooled
// deviation is the one the runtime would have kept had every activation landed in one
// node), by its rule of which nodes a probe's aggregate takes.
#include "idb/edf_runs.hpp"

#include <algorithm>

namespace idb::edf {

namespace {

void read_names(const RunRef &run, RunData &data) {
  store::query_rows(
      *run.db, "SELECT probe_id, description FROM probe_sites WHERE run_id = CAST(:run AS INTEGER)",
      {{"run", std::to_string(run.run_id)}},
      [&](const store::Row &row) { data.names[std::int32_t(row.integer(0))] = row.text(1); });
}

using NodeKey = std::pair<std::int64_t, std::int64_t>; // (cfh_id, node)

std::map<NodeKey, profile::Histogram> read_hists(const RunRef &run) {
  std::map<NodeKey, profile::Histogram> hists;
  store::query_rows(*run.db,
                    "SELECT b.cfh_id, b.node, b.bucket, b.count FROM cfh_instances h "
                    "JOIN node_hist b ON b.cfh_id = h.cfh_id "
                    "WHERE h.run_id = CAST(:run AS INTEGER) ORDER BY b.cfh_id, b.node, b.bucket",
                    {{"run", std::to_string(run.run_id)}}, [&](const store::Row &row) {
                      hists[{row.integer(0), row.integer(1)}].buckets.push_back(
                          {std::uint32_t(row.integer(2)), std::uint64_t(row.integer(3))});
                    });
  return hists;
}

} // namespace

RunData read_run_data(const RunRef &run) {
  RunData data;
  data.run = run;
  analysis::Aggregator aggregate;
  std::map<NodeKey, profile::Histogram> hists = read_hists(run);
  const profile::Histogram none;
  auto take = [&](const store::Row &row) {
    if (!analysis::aggregated(row.integer(2) != 0, row.is_null(3))) return;
    idb_stats_t stats = store::read_stats(row, 8);
    const profile::Histogram *hist = &none;
    if (!row.is_null(7)) {
      auto it = hists.find({row.integer(5), row.integer(6)});
      if (it != hists.end()) {
        it->second.level = std::uint32_t(row.integer(7));
        hist = &it->second;
      }
    }
    aggregate.add(std::int32_t(row.integer(0)), std::int32_t(row.integer(1)), stats,
                  stats.sum - row.real(4), *hist);
  };
  store::query_rows(*run.db,
                    "SELECT h.rank, n.probe_id, h.named, n.parent, s.descendant_noise, "
                    "s.cfh_id, s.node, s.hist_level, " +
                        store::stats_columns("s") +
                        " FROM cfh_instances h JOIN nodes n ON n.cfh_id = h.cfh_id "
                        "JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node "
                        "WHERE h.run_id = CAST(:run AS INTEGER)",
                    {{"run", std::to_string(run.run_id)}}, take);
  data.probes = aggregate.take();
  data.ranks = analysis::ranks_of(data.probes);
  read_names(run, data);
  return data;
}

} // namespace idb::edf

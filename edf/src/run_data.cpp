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

} // namespace

RunData read_run_data(const RunRef &run) {
  RunData data;
  data.run = run;
  analysis::Aggregator aggregate;
  auto take = [&](const store::Row &row) {
    if (!analysis::aggregated(row.integer(2) != 0, row.is_null(3))) return;
    idb_stats_t stats = store::read_stats(row, 5);
    aggregate.add(std::int32_t(row.integer(0)), std::int32_t(row.integer(1)), stats,
                  stats.sum - row.real(4));
  };
  store::query_rows(*run.db,
                    "SELECT h.rank, n.probe_id, h.named, n.parent, s.descendant_noise, " +
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

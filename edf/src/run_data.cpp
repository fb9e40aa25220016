// One run's statistics per (probe, rank): a single query over the base tables (nodes and
// node_stats of the run's CFHs) read as typed rows, merged in C++ with idb_stats_merge,
// the runtime's own exact merge, so the pooled deviation is the one the runtime would
// have kept had every activation landed in one node.
#include "idb/edf_runs.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace idb::edf {

namespace {

ProbeRank row_of(const store::Row &row) {
  ProbeRank p;
  p.rank = std::int32_t(row.integer(0));
  p.probe = std::int32_t(row.integer(1));
  idb_stats_t &s = p.stats;
  s.count = std::uint64_t(row.integer(2));
  s.sum = row.real(3);
  s.min = row.real(4);
  s.max = row.real(5);
  s.mean = row.real(6);
  s.m2 = row.real(7);
  s.cpu_count = std::uint64_t(row.integer(8));
  s.cpu_sum = row.real(9);
  s.cpu_min = row.real(10);
  s.cpu_max = row.real(11);
  s.noise = row.real(12);
  p.corrected = s.sum - row.real(13);
  return p;
}

void read_names(const RunRef &run, RunData &data) {
  store::query_rows(
      *run.db, "SELECT probe_id, description FROM probe_sites WHERE run_id = CAST(:run AS INTEGER)",
      {{"run", std::to_string(run.run_id)}},
      [&](const store::Row &row) { data.names[std::int32_t(row.integer(0))] = row.text(1); });
}

} // namespace

void merge(ProbeRank &a, const ProbeRank &b) {
  idb_stats_merge(&a.stats, &b.stats);
  a.corrected += b.corrected;
}

RunData read_run_data(const RunRef &run) {
  RunData data;
  data.run = run;
  // Merge into one record per (probe, rank) as the rows come (a run has far fewer of
  // those than nodes), then sort the few records rather than every row.
  std::unordered_map<std::uint64_t, std::size_t> slot;
  auto take = [&](const store::Row &row) {
    ProbeRank p = row_of(row);
    std::uint64_t key = (std::uint64_t(std::uint32_t(p.probe)) << 32) | std::uint32_t(p.rank);
    auto [it, fresh] = slot.emplace(key, data.probes.size());
    if (fresh)
      data.probes.push_back(p);
    else
      merge(data.probes[it->second], p);
    if (fresh) data.ranks.push_back(p.rank);
  };
  store::query_rows(
      *run.db,
      "SELECT h.rank, n.probe_id, s.count, s.total, s.min, s.max, s.mean, s.m2, s.cpu_count, "
      "s.cpu_total, s.cpu_min, s.cpu_max, s.noise, s.descendant_noise "
      "FROM cfh_instances h JOIN nodes n ON n.cfh_id = h.cfh_id "
      "JOIN node_stats s ON s.cfh_id = n.cfh_id AND s.node = n.node "
      // A named CFH's root spans its object's life, which the threads' roots hold already.
      "WHERE h.run_id = CAST(:run AS INTEGER) AND (n.parent IS NOT NULL OR h.named = 0)",
      {{"run", std::to_string(run.run_id)}}, take);
  std::sort(data.probes.begin(), data.probes.end(), [](const ProbeRank &a, const ProbeRank &b) {
    return std::pair(a.probe, a.rank) < std::pair(b.probe, b.rank);
  });
  std::sort(data.ranks.begin(), data.ranks.end());
  data.ranks.erase(std::unique(data.ranks.begin(), data.ranks.end()), data.ranks.end());
  read_names(run, data);
  return data;
}

double value_of(const ProbeRank &p, Value value) {
  const idb_stats_t &s = p.stats;
  switch (value) {
  case Value::total:
    return s.sum;
  case Value::cpu:
    return s.cpu_sum;
  case Value::range:
    return s.count > 0 ? s.max - s.min : 0.0;
  case Value::sdev:
    return std::sqrt(std::max(0.0, idb_stats_variance(&s))); // M2 off by rounding: not NaN
  case Value::count:
    return double(s.count);
  case Value::noise:
    return s.noise;
  case Value::corrected:
    return p.corrected;
  }
  return 0.0;
}

} // namespace idb::edf

// Per-probe aggregates of a run: a probe's nodes on one rank (every thread, every named
// CFH) merged exactly, the view COALESCE, COMPARE and the GUI's charts rest on; and the
// imbalance of a probe over the ranks. Not thread-safe on one Aggregator; the functions
// are pure.
#pragma once

#include "idb/analysis/metric.hpp"
#include "idb/profile.hpp"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace idb::analysis {

// One probe on one rank: its merged statistics with the probe and the rank.
struct ProbeRank : ProbeStats {
  std::int32_t probe = 0;
  std::int32_t rank = 0;
};

// Whether a node enters the per-probe aggregates: every node but the root of a named
// CFH, which spans its object's life, time the threads' roots hold already.
inline bool aggregated(bool named_cfh, bool root) {
  return !(named_cfh && root);
}

// Merges nodes into one record per (probe, rank) as they come.
class Aggregator {
public:
  // Adds one node; `corrected` is its noise-corrected inclusive time, `hist` its
  // duration histogram (empty when it has none).
  void add(std::int32_t rank, std::int32_t probe, const idb_stats_t &stats, double corrected,
           const profile::Histogram &hist = {});
  // The records sorted by (probe, rank).
  std::vector<ProbeRank> take();

private:
  std::unordered_map<std::uint64_t, std::size_t> slot_;
  std::vector<ProbeRank> records_;
};

// The per-(probe, rank) records of a run in memory, by the rule of `aggregated`, sorted
// by (probe, rank).
std::vector<ProbeRank> probe_ranks(const profile::Profile &run);

// The distinct ranks of `records`, ascending.
std::vector<std::int32_t> ranks_of(const std::vector<ProbeRank> &records);

// A probe's spread over the ranks for one metric.
struct Imbalance {
  std::int32_t probe = 0;
  std::size_t ranks = 0;        // ranks that reached the probe
  double mean = 0, max = 0;     // of the per-rank values
  std::int32_t rank_of_max = 0; // the lowest rank on ties
  std::optional<double> ratio;  // max / mean; nullopt when the mean is 0
};

// Per probe of `records` (sorted by probe and rank, as above), in probe order.
std::vector<Imbalance> imbalance(const std::vector<ProbeRank> &records, Metric metric);

} // namespace idb::analysis

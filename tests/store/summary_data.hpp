// A summary-mode profile made in the test from a full one, as the MPI layer's summary
// mode would record the same data (docs/mpi.md): one CFH of rank -1 whose nodes hold the
// statistics merged over the ranks and the spread of five per-rank quantities. For the
// store tests that compare a summary run with the full run of the same data.
#pragma once

#include "idb/profile.hpp"
#include "idb/stats.h"

#include <cmath>
#include <utility>
#include <vector>

namespace idb::test {

// The spread of (rank, value) pairs: min and max with the lower rank on ties, mean and M2.
inline profile::RankSpread spread_of(const std::vector<std::pair<int, double>> &values) {
  profile::RankSpread s{INFINITY, -INFINITY, 0, 0, 0, 0};
  double sum = 0;
  for (auto [rank, v] : values) {
    if (v < s.min) s = {v, s.max, 0, 0, rank, s.rank_max};
    if (v > s.max) s = {s.min, v, 0, 0, s.rank_min, rank};
    sum += v;
  }
  s.mean = sum / double(values.size());
  for (auto [rank, v] : values)
    s.m2 += (v - s.mean) * (v - s.mean);
  return s;
}

// The summary-mode profile of `full`, whose ranks' CFHs share one tree (a rank may lack
// trailing leaves): per node the statistics merged over the ranks that have it, and the
// spread of the five per-rank quantities.
inline profile::Profile summary_of(const profile::Profile &full) {
  profile::Profile p = full;
  p.cfhs.clear();
  profile::Cfh &h = p.cfhs.emplace_back(full.cfhs[0]);
  h.rank = -1;
  h.summary = true;
  h.spread.assign(h.nodes.size(), {});
  for (std::size_t i = 0; i < h.nodes.size(); ++i) {
    idb_stats_clear(&h.nodes[i].stats);
    std::vector<std::pair<int, double>> q[5];
    for (const profile::Cfh &rank : full.cfhs) {
      if (i >= rank.nodes.size()) continue;
      const idb_stats_t &s = rank.nodes[i].stats;
      idb_stats_merge(&h.nodes[i].stats, &s);
      const double values[5] = {s.sum, double(s.count), s.cpu_sum, double(s.bytes_sent),
                                double(s.bytes_recv)};
      for (int k = 0; k < 5; ++k)
        q[k].emplace_back(rank.rank, values[k]);
    }
    profile::NodeSpread &d = h.spread[i];
    d.ranks = std::uint32_t(q[0].size());
    profile::RankSpread *out[5] = {&d.total, &d.count, &d.cpu, &d.sent, &d.received};
    for (int k = 0; k < 5; ++k)
      *out[k] = spread_of(q[k]);
  }
  return p;
}

} // namespace idb::test

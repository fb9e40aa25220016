// Per-probe aggregates and imbalance (probes.hpp).
#include "idb/analysis/probes.hpp"

#include "idb/tree.hpp"

#include <algorithm>

namespace idb::analysis {

void Aggregator::add(std::int32_t rank, std::int32_t probe, const idb_stats_t &stats,
                     double corrected, const profile::Histogram &hist) {
  std::uint64_t key = (std::uint64_t(std::uint32_t(probe)) << 32) | std::uint32_t(rank);
  auto [it, fresh] = slot_.try_emplace(key, records_.size());
  if (fresh) {
    ProbeRank &r = records_.emplace_back();
    r.probe = probe;
    r.rank = rank;
  }
  records_[it->second].merge(stats, corrected, hist);
}

std::vector<ProbeRank> Aggregator::take() {
  std::vector<ProbeRank> out = std::move(records_);
  records_.clear();
  slot_.clear();
  // Sorting the few records rather than every node.
  std::sort(out.begin(), out.end(), [](const ProbeRank &a, const ProbeRank &b) {
    return std::pair(a.probe, a.rank) < std::pair(b.probe, b.rank);
  });
  return out;
}

std::vector<ProbeRank> probe_ranks(const profile::Profile &run) {
  Aggregator a;
  for (const profile::Cfh &cfh : run.cfhs) {
    std::vector<profile::NodeTimes> times = profile::node_times(cfh);
    for (std::size_t i = 0; i < cfh.nodes.size(); ++i)
      if (aggregated(cfh.named, i == 0))
        a.add(cfh.rank, cfh.nodes[i].probe, cfh.nodes[i].stats, times[i].corrected,
              cfh.nodes[i].hist);
  }
  return a.take();
}

std::vector<std::int32_t> ranks_of(const std::vector<ProbeRank> &records) {
  std::vector<std::int32_t> ranks;
  ranks.reserve(records.size());
  for (const ProbeRank &r : records)
    ranks.push_back(r.rank);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

std::vector<Imbalance> imbalance(const std::vector<ProbeRank> &records, Metric metric) {
  std::vector<Imbalance> out;
  for (std::size_t i = 0; i < records.size();) {
    Imbalance b;
    b.probe = records[i].probe;
    double sum = 0;
    for (; i < records.size() && records[i].probe == b.probe; ++i) {
      double v = value(records[i], metric);
      if (b.ranks == 0 || v > b.max) {
        b.max = v;
        b.rank_of_max = records[i].rank;
      }
      sum += v;
      ++b.ranks;
    }
    b.mean = sum / double(b.ranks);
    if (b.mean != 0) b.ratio = b.max / b.mean;
    out.push_back(b);
  }
  return out;
}

} // namespace idb::analysis

// Rows of the analysis (select.hpp): the probes, the ranks, and a run's record for one row.
#include "select.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <set>

namespace idb::edf {

namespace {

bool matches(const std::vector<EntryData> &entries, std::int32_t probe, const std::string &want) {
  if (want.empty()) return true;
  // A whole number is an ID (the instrumenter's take up to ten digits; the MPI layer's
  // are negative); anything else is part of a description.
  std::int32_t id = 0;
  auto [end, error] = std::from_chars(want.data(), want.data() + want.size(), id);
  if (error == std::errc() && end == want.data() + want.size()) return probe == id;
  for (const EntryData &e : entries)
    for (const RunData &r : e.runs)
      if (auto it = r.names.find(probe);
          it != r.names.end() && it->second.find(want) != std::string::npos)
        return true;
  return false;
}

bool before(const ProbeRank &p, std::pair<std::int32_t, std::int32_t> key) {
  return std::pair(p.probe, p.rank) < key;
}

} // namespace

std::vector<std::int32_t> probes_of(const std::vector<EntryData> &entries,
                                    const AnalysisOptions &options) {
  std::set<std::int32_t> ids;
  for (const EntryData &e : entries)
    for (const RunData &r : e.runs)
      for (const ProbeRank &p : r.probes)
        ids.insert(p.probe);
  std::vector<std::int32_t> out;
  for (std::int32_t id : ids)
    if (matches(entries, id, options.probe)) out.push_back(id);
  return out;
}

std::string name_of(const std::vector<EntryData> &entries, std::int32_t probe) {
  for (const EntryData &e : entries)
    for (const RunData &r : e.runs)
      if (auto it = r.names.find(probe); it != r.names.end() && !it->second.empty())
        return it->second;
  return "probe " + std::to_string(probe);
}

std::vector<std::int32_t> rank_keys(const std::vector<EntryData> &entries,
                                    const AnalysisOptions &options, bool each) {
  if (!options.rank.all) return {options.rank.rank};
  if (!each) return {kAllRanks};
  std::set<std::int32_t> ranks;
  for (const EntryData &e : entries)
    for (const RunData &r : e.runs)
      ranks.insert(r.ranks.begin(), r.ranks.end());
  return {ranks.begin(), ranks.end()};
}

std::optional<ProbeRank> pick(const RunData &run, std::int32_t probe, std::int32_t rank) {
  if (rank != kAllRanks && !std::binary_search(run.ranks.begin(), run.ranks.end(), rank))
    return std::nullopt;
  if (rank == kAllRanks && run.ranks.empty()) return std::nullopt;
  ProbeRank out;
  out.probe = probe;
  out.rank = rank;
  idb_stats_clear(&out.stats);
  std::int32_t from = rank == kAllRanks ? std::numeric_limits<std::int32_t>::min() : rank;
  auto it = std::lower_bound(run.probes.begin(), run.probes.end(), std::pair(probe, from), before);
  for (; it != run.probes.end() && it->probe == probe && (rank == kAllRanks || it->rank == rank);
       ++it)
    out.merge(*it);
  return out;
}

} // namespace idb::edf

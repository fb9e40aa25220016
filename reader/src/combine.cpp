// combine_ranks: per-rank profiles into one.
#include "idb/combine.hpp"

#include <algorithm>
#include <set>

namespace idb::profile {

namespace {

int rank_of(const Profile &p) {
  return int(p.number("rank", 0));
}

} // namespace

CombineResult combine_ranks(std::vector<Profile> ranks) {
  if (ranks.empty()) return {std::nullopt, "no profile to combine"};
  std::stable_sort(ranks.begin(), ranks.end(),
                   [](const Profile &a, const Profile &b) { return rank_of(a) < rank_of(b); });
  std::set<int> seen;
  for (const Profile &p : ranks) {
    if (!seen.insert(rank_of(p)).second)
      return {std::nullopt, "two profiles of rank " + std::to_string(rank_of(p))};
    if (p.get("program") != ranks.front().get("program"))
      return {std::nullopt, "profiles of different programs: " + ranks.front().get("program") +
                                " and " + p.get("program")};
  }
  Profile out = std::move(ranks.front());
  std::set<std::int32_t> probes;
  for (const Probe &probe : out.probes)
    probes.insert(probe.id);
  for (std::size_t i = 1; i < ranks.size(); ++i) {
    for (Probe &probe : ranks[i].probes)
      if (probes.insert(probe.id).second) out.probes.push_back(std::move(probe));
    for (Cfh &cfh : ranks[i].cfhs)
      out.cfhs.push_back(std::move(cfh));
  }
  double nprocs = std::max(out.number("nprocs", 1), double(seen.size()));
  out.meta["nprocs"] = std::to_string(static_cast<long long>(nprocs));
  return {std::move(out), {}};
}

} // namespace idb::profile

// Merging CFHs by probe path (cfh_merge.hpp): each source node is mapped onto the merged
// node of its parent's image and its own probe, created on first sight, so parents still
// precede children in the result.
#include "cfh_merge.hpp"

#include <cstdint>
#include <unordered_map>

namespace idb::cli {

namespace {

// (merged parent index, probe) as one key.
std::uint64_t child_key(std::uint32_t parent, std::int32_t probe) {
  return (std::uint64_t(parent) << 32) | std::uint32_t(probe);
}

void add_counters(profile::Cfh &into, const profile::Cfh &from) {
  into.overflow += from.overflow;
  into.mismatches += from.mismatches;
  into.unclosed += from.unclosed;
  into.depth_overflow += from.depth_overflow;
}

} // namespace

profile::Cfh merge_cfhs(const std::vector<profile::Cfh> &cfhs) {
  profile::Cfh merged;
  if (cfhs.empty()) return merged;
  merged.rank = cfhs.front().rank;
  merged.thread = cfhs.front().thread;
  std::unordered_map<std::uint64_t, std::uint32_t> children;
  std::vector<std::uint32_t> image; // source node index → merged node index
  for (const profile::Cfh &cfh : cfhs) {
    add_counters(merged, cfh);
    if (cfh.nodes.empty()) continue;
    if (merged.nodes.empty()) {
      merged.nodes.push_back({profile::kNoParent, cfh.nodes[0].probe, {}});
    }
    image.assign(cfh.nodes.size(), 0);
    idb_stats_merge(&merged.nodes[0].stats, &cfh.nodes[0].stats);
    for (std::size_t i = 1; i < cfh.nodes.size(); ++i) {
      const profile::Node &node = cfh.nodes[i];
      std::uint32_t parent = image[node.parent];
      auto [it, added] =
          children.try_emplace(child_key(parent, node.probe), std::uint32_t(merged.nodes.size()));
      if (added) merged.nodes.push_back({parent, node.probe, {}});
      image[i] = it->second;
      idb_stats_merge(&merged.nodes[it->second].stats, &node.stats);
    }
  }
  return merged;
}

} // namespace idb::cli

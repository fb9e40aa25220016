// Per-probe cost against own time (score.hpp).
#include "idb/analysis/score.hpp"

#include "idb/tree.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace idb::analysis {

namespace {

// Per node: whether an ancestor belongs to the same probe (a recursive call's level, whose
// interval lies inside the outer level's). Nodes come after their parents.
std::vector<bool> nested_in_own_probe(const profile::Cfh &cfh) {
  std::size_t n = cfh.nodes.size();
  std::vector<std::vector<std::uint32_t>> children(n);
  for (std::size_t i = 1; i < n; ++i)
    if (cfh.nodes[i].parent < i) children[cfh.nodes[i].parent].push_back(std::uint32_t(i));
  std::vector<bool> nested(n, false);
  std::unordered_map<std::int32_t, std::uint32_t> on_path; // probe → open levels
  // Depth first without recursion (a recursive program's tree is as deep as it recursed):
  // a node's entry is seen twice, going down and coming back up.
  std::vector<std::pair<std::uint32_t, bool>> todo{{0, false}};
  while (!todo.empty()) {
    auto [node, leaving] = todo.back();
    todo.pop_back();
    std::int32_t probe = cfh.nodes[node].probe;
    if (leaving) {
      if (node != 0 && --on_path[probe] == 0) on_path.erase(probe);
      continue;
    }
    if (node != 0) nested[node] = on_path[probe]++ > 0;
    todo.emplace_back(node, true);
    for (std::uint32_t child : children[node])
      todo.emplace_back(child, false);
  }
  return nested;
}

} // namespace

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
  case Verdict::prune:
    return "prune";
  case Verdict::throttled:
    return "throttled";
  case Verdict::keep:
    break;
  }
  return "keep";
}

Score score(const profile::Profile &run, double target) {
  Score out;
  std::map<std::int32_t, idb_stats_t> merged; // probe → its nodes merged
  std::map<std::int32_t, double> exclusive;   // probe → its nodes' exclusive times summed
  std::map<std::int32_t, double> own;         // probe → its outermost levels' time summed
  for (const profile::Cfh &cfh : run.cfhs) {
    if (cfh.nodes.empty()) continue;
    if (!cfh.named) out.run_time += cfh.nodes[0].stats.sum;
    std::vector<profile::NodeTimes> times = profile::node_times(cfh);
    std::vector<bool> nested = nested_in_own_probe(cfh);
    for (std::size_t i = 1; i < cfh.nodes.size(); ++i) { // the root is the program
      const profile::Node &n = cfh.nodes[i];
      auto [it, fresh] = merged.try_emplace(n.probe);
      if (fresh) idb_stats_clear(&it->second);
      idb_stats_merge(&it->second, &n.stats);
      exclusive[n.probe] += times[i].exclusive;
      // A recursive call's inner levels lie inside its outer one: counted once.
      if (!nested[i]) own[n.probe] += times[i].estimated;
    }
  }
  for (const auto &[probe, s] : merged) {
    ProbeScore p;
    p.probe = probe;
    p.label = profile::probe_label(run, probe);
    p.activations = idb_stats_activations(&s);
    p.throttled = s.throttled;
    p.mean = s.count ? s.mean : 0.0;
    p.own = own[probe];
    p.noise = s.noise;
    p.exclusive = exclusive[probe];
    p.cost_share = p.own > 0 ? p.noise / p.own : 0.0;
    p.run_share = out.run_time > 0 ? p.noise / out.run_time : 0.0;
    p.verdict = s.throttled             ? Verdict::throttled
                : p.cost_share > target ? Verdict::prune
                                        : Verdict::keep;
    out.noise += p.noise;
    out.activations += p.activations;
    out.probes.push_back(std::move(p));
  }
  double bare = out.run_time - out.noise;
  out.dilation = bare > 0 ? out.noise / bare : 0.0;
  std::stable_sort(out.probes.begin(), out.probes.end(),
                   [](const ProbeScore &a, const ProbeScore &b) { return a.noise > b.noise; });
  return out;
}

} // namespace idb::analysis

// Per-probe cost against own time (score.hpp).
#include "idb/analysis/score.hpp"

#include "idb/tree.hpp"

#include <algorithm>
#include <map>

namespace idb::analysis {

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
  for (const profile::Cfh &cfh : run.cfhs) {
    if (cfh.nodes.empty()) continue;
    if (!cfh.named) out.run_time += cfh.nodes[0].stats.sum;
    std::vector<profile::NodeTimes> times = profile::node_times(cfh);
    for (std::size_t i = 1; i < cfh.nodes.size(); ++i) { // the root is the program
      const profile::Node &n = cfh.nodes[i];
      auto [it, fresh] = merged.try_emplace(n.probe);
      if (fresh) idb_stats_clear(&it->second);
      idb_stats_merge(&it->second, &n.stats);
      exclusive[n.probe] += times[i].exclusive;
    }
  }
  for (const auto &[probe, s] : merged) {
    ProbeScore p;
    p.probe = probe;
    p.label = profile::probe_label(run, probe);
    p.activations = idb_stats_activations(&s);
    p.throttled = s.throttled;
    p.mean = s.count ? s.mean : 0.0;
    p.own = s.sum + double(s.throttled) * p.mean;
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

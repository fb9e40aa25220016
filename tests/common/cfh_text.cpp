// Building CFHs from text (cfh_text.hpp).
#include "cfh_text.hpp"

#include "idb/probe.h"

#include <map>
#include <sstream>

namespace idb::test {

std::int32_t probe_for(profile::Profile &p, const std::string &description) {
  for (const profile::Probe &probe : p.probes)
    if (probe.description == description) return probe.id;
  std::int32_t id = std::int32_t(p.probes.size());
  p.probes.push_back({id, IDB_PROC, description, "", 0, ""});
  return id;
}

profile::Cfh build_cfh(profile::Profile &p, double root_seconds, const std::string &lines) {
  profile::Cfh cfh;
  cfh.name = "built";
  probe_for(p, p.get("program", "prog"));
  cfh.nodes.push_back({profile::kNoParent, 0, {}, {}, {}});
  cfh.nodes[0].stats.count = 1;
  cfh.nodes[0].stats.sum = cfh.nodes[0].stats.mean = root_seconds;
  std::map<std::string, std::uint32_t> index;
  std::istringstream in(lines);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string path;
    profile::Node n;
    fields >> path >> n.stats.count >> n.stats.sum >> n.stats.noise >> n.stats.throttled;
    std::size_t cut = path.rfind(';');
    n.parent = cut == std::string::npos ? 0 : index.at(path.substr(0, cut));
    n.probe = probe_for(p, path.substr(cut == std::string::npos ? 0 : cut + 1));
    n.stats.mean = n.stats.min = n.stats.max = n.stats.sum / double(n.stats.count);
    index[path] = std::uint32_t(cfh.nodes.size());
    cfh.nodes.push_back(n);
  }
  return cfh;
}

profile::Cfh sampled_helper_cfh(profile::Profile &p) {
  profile::Cfh c = build_cfh(p, 0.0125, "main 1 0.010\nmain;helper 100 0.0001\n");
  idb_stats_t &helper = c.nodes[2].stats;
  helper.throttled = 2'000;
  helper.sampled = 8;
  helper.sampled_sum = 8 * 0.000002;
  return c;
}

} // namespace idb::test

// Small profiles for the edf tests (edf_support.hpp).
#include "edf_support.hpp"

#include "idb/histogram.hpp"
#include "idb/stats.h"

#include <algorithm>
#include <cmath>

namespace idb::test {

profile::Profile make_profile(const std::vector<CfhSpec> &cfhs, bool histograms) {
  profile::Profile p;
  p.version_major = 1;
  int nprocs = 1;
  for (const CfhSpec &spec : cfhs)
    nprocs = std::max(nprocs, spec.rank + 1);
  p.meta = {{"program", "edftest"},          {"nprocs", std::to_string(nprocs)}, {"threads", "1"},
            {"start_unix", "1795300000.25"}, {"end_unix", "1795300060.5"},       {"pid", "77"}};
  p.argv = {"edftest"};
  for (std::int32_t id = 0; id < 10; ++id)
    p.probes.push_back({id, 1, id == 0 ? "main" : "probe " + std::to_string(id), "t.c", id + 1,
                        "f" + std::to_string(id)});
  for (const CfhSpec &spec : cfhs) {
    profile::Cfh &h = p.cfhs.emplace_back();
    h.rank = spec.rank;
    h.thread = int(p.cfhs.size()) - 1;
    h.name = "thread " + std::to_string(h.thread);
    for (const NodeSpec &n : spec.nodes) {
      profile::Node &node = h.nodes.emplace_back();
      node.parent = n.parent < 0 ? profile::kNoParent : std::uint32_t(n.parent);
      node.probe = n.probe;
      idb_stats_clear(&node.stats);
      for (double x : n.samples)
        idb_stats_add(&node.stats, x);
      for (double x : n.cpu)
        idb_stats_add_cpu(&node.stats, x);
      node.stats.noise = n.noise;
      if (!histograms) continue;
      std::vector<std::uint64_t> ns;
      for (double x : n.samples)
        ns.push_back(std::uint64_t(std::llround(x * 1e9)));
      node.hist = profile::histogram_of(ns);
    }
  }
  return p;
}

profile::Profile simple_run(double value, int ranks, bool histograms) {
  std::vector<CfhSpec> cfhs;
  for (int r = 0; r < ranks; ++r)
    cfhs.push_back({r, {{-1, 0, {value * 2}}, {0, 1, {value}}, {0, 2, {value / 2}}}});
  return make_profile(cfhs, histograms);
}

void load_as(const std::string &url, const profile::Profile &p, const std::string &label) {
  auto db = store::open(url);
  store::LoadOptions options;
  options.label = label;
  store::load(*db, p, options);
}

} // namespace idb::test

// A small profile the GUI model tests know by heart: two ranks, each with one CFH
// program → main → {solve → exchange, output}; rank 1 spends twice rank 0's time in
// solve (all times times `scale`). Statistics come from real idb_stats_add calls, so merges and
// variances are those of the runtime.
#pragma once

#include "idb/profile.hpp"

namespace idb::test {

inline profile::Node gui_node(std::uint32_t parent, std::int32_t probe,
                              std::initializer_list<double> samples, double noise) {
  profile::Node n;
  n.parent = parent;
  n.probe = probe;
  idb_stats_clear(&n.stats);
  for (double x : samples) {
    idb_stats_add(&n.stats, x);
    idb_stats_add_cpu(&n.stats, x / 2);
  }
  n.stats.noise = noise;
  return n;
}

// `scale` multiplies every time (a slower or faster run of the same program).
inline profile::Profile gui_profile(double scale = 1.0) {
  profile::Profile p;
  p.version_major = 1;
  p.meta = {{"program", "small"}, {"nprocs", "2"}, {"threads", "1"}};
  p.probes = {{1, 1, "main()", "small.c", 3, "main"},
              {2, 1, "solve()", "small.c", 10, "solve"},
              {3, 4, "exchange()", "small.c", 20, "solve"},
              {4, 1, "output()", "small.c", 30, "output"}};
  for (int r = 0; r < 2; ++r) {
    const double k = (r + 1.0) * scale;
    profile::Cfh &h = p.cfhs.emplace_back();
    h.rank = r;
    h.name = "thread 0";
    h.nodes = {gui_node(profile::kNoParent, 0, {10.0}, 0.0), gui_node(0, 1, {9.0}, 0.01),
               gui_node(1, 2, {1.0 * k, 2.0 * k, 3.0 * k}, 0.02),
               gui_node(2, 3, {0.5 * k, 0.5 * k}, 0.001), gui_node(1, 4, {1.0}, 0.0)};
  }
  return p;
}

// gui_profile with its solve() node dynamic: three iterations per rank, the second alone
// in its cluster and twice as long as each other; exchange() ran in the first and the last
// only.
inline profile::Profile gui_dynamic_profile() {
  profile::Profile p = gui_profile();
  for (profile::Cfh &h : p.cfhs) {
    const double solve = h.nodes[2].stats.sum, exchange = h.nodes[3].stats.sum;
    profile::Dynamics d;
    d.node = 2;
    d.members = {2, 3};
    d.iterations = 3;
    d.clusters = {{2, {2.0, 2.0}, {solve / 2, exchange}}, {1, {1.0, 0.0}, {solve / 2, 0.0}}};
    d.runs = {{1, 0}, {1, 1}, {1, 0}};
    h.dynamics.push_back(d);
  }
  return p;
}

} // namespace idb::test

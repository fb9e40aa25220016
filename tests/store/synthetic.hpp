// A synthetic Profile built in memory, for store tests and the load benchmark: `ranks`
// CFHs of `nodes` nodes each, a tree of fan-out 8 over 64 probes, every statistic set to a
// distinct value. No file and no generator program involved.
#pragma once

#include "idb/profile.hpp"

#include <string>

namespace idb::test {

inline profile::Profile synthetic_profile(int ranks, int nodes) {
  profile::Profile p;
  p.version_major = 1;
  p.meta = {{"program", "synthetic"},        {"nprocs", std::to_string(ranks)}, {"threads", "1"},
            {"start_unix", "1795300000.25"}, {"end_unix", "1795300060.5"},      {"pid", "4242"}};
  p.argv = {"synthetic", "--ranks", std::to_string(ranks)};
  p.attributes = {{"kind", "synthetic"}};
  for (int id = 0; id < 64; ++id)
    p.probes.push_back({id, 1 + id % 4, std::string("probe ").append(std::to_string(id)),
                        "synthetic.c", id + 1, std::string("f").append(std::to_string(id))});
  for (int r = 0; r < ranks; ++r) {
    profile::Cfh &h = p.cfhs.emplace_back();
    h.rank = r;
    h.name = "thread 0";
    h.nodes.resize(std::size_t(nodes));
    for (int i = 0; i < nodes; ++i) {
      profile::Node &n = h.nodes[std::size_t(i)];
      n.parent = i == 0 ? profile::kNoParent : std::uint32_t((i - 1) / 8);
      n.probe = i == 0 ? 0 : 1 + i % 63;
      double x = 1e-6 * (1 + i + r);
      n.stats = {std::uint64_t(i + 1),
                 x * (i + 1),
                 x / 2,
                 x * 2,
                 x,
                 x * x,
                 std::uint64_t(i / 2),
                 x / 3,
                 x / 7,
                 x / 5,
                 1e-9 * i,
                 std::uint64_t(r),
                 std::uint64_t(i),
                 std::uint64_t(i % 5 == 1 ? 1000 * i : 0),
                 std::uint64_t(i % 5 == 1 ? 4 * i : 0),
                 i % 5 == 1 ? 4 * i * x / 3 : 0.0};
    }
  }
  return p;
}

} // namespace idb::test

// Profile helpers of the MPI tests.
#include "mpi_profile.hpp"

#include "files.hpp"
#include "idb/histogram.h"
#include "idb/profile_format.h"
#include "idb/tree.hpp"
#include "idb/wait_states.h"

#include <cstring>
#include <vector>

namespace idb::test {

using idb::profile::Cfh;
using idb::profile::Node;
using idb::profile::Profile;

const Cfh *rank_cfh(const Profile &p, int rank) {
  for (const Cfh &c : p.cfhs)
    if (c.rank == rank && !c.named && c.thread == 0) return &c;
  return nullptr;
}

namespace {

// Every node's path of labels below the root.
std::vector<std::string> paths(const Profile &p, const Cfh &cfh) {
  std::vector<std::string> out(cfh.nodes.size());
  for (std::size_t i = 1; i < cfh.nodes.size(); ++i) {
    std::uint32_t parent = cfh.nodes[i].parent;
    std::string label = idb::profile::probe_label(p, cfh.nodes[i].probe);
    out[i] = parent == 0 ? label : out[parent] + ";" + label;
  }
  return out;
}

} // namespace

const Node *node_at(const Profile &p, const Cfh &cfh, const std::string &path) {
  std::vector<std::string> all = paths(p, cfh);
  for (std::size_t i = 1; i < all.size(); ++i)
    if (all[i] == path) return &cfh.nodes[i];
  return nullptr;
}

int child_count(const Profile &p, const Cfh &cfh, const std::string &path) {
  std::vector<std::string> all = paths(p, cfh);
  for (std::size_t i = 1; i < all.size(); ++i) {
    if (all[i] != path) continue;
    int n = 0;
    for (const Node &node : cfh.nodes)
      n += node.parent == i;
    return n;
  }
  return -1;
}

std::map<std::uint32_t, std::uint64_t> section_bytes(const std::string &path) {
  std::string data = read_file(path);
  std::map<std::uint32_t, std::uint64_t> bytes;
  for (std::size_t at = IDB_PROFILE_HEADER_SIZE; at + IDB_SECTION_HEADER_SIZE <= data.size();) {
    std::uint32_t type = 0;
    std::uint64_t length = 0;
    std::memcpy(&type, data.data() + at, 4);
    std::memcpy(&length, data.data() + at + 8, 8);
    bytes[type] += IDB_SECTION_HEADER_SIZE + length;
    at += IDB_SECTION_HEADER_SIZE + length;
  }
  return bytes;
}

std::uint64_t hist_bound(const std::string &path) {
  std::uint64_t bound = 0;
  auto read = idb::profile::read_profile(path);
  if (!read.profile) return 0;
  for (const Cfh &cfh : read.profile->cfhs)
    bound += IDB_SECTION_HEADER_SIZE + IDB_HIST_FIXED_SIZE +
             cfh.nodes.size() * (12 + std::uint64_t(IDB_HIST_BUCKETS) * IDB_HIST_PAIR_SIZE);
  return bound;
}

std::uint64_t wait_bound(const std::string &path) {
  std::uint64_t bound = 0;
  auto read = idb::profile::read_profile(path);
  if (!read.profile) return 0;
  for (const Cfh &cfh : read.profile->cfhs)
    bound += IDB_SECTION_HEADER_SIZE +
             cfh.nodes.size() * std::uint64_t(IDB_WAIT_PATTERN_COUNT) * IDB_WAIT_ITEM_SIZE;
  return bound;
}

std::uint64_t wait_spread_bound(const std::string &path) {
  std::uint64_t bound = 0;
  auto read = idb::profile::read_profile(path);
  if (!read.profile) return 0;
  for (const Cfh &cfh : read.profile->cfhs)
    if (cfh.summary)
      bound += IDB_SECTION_HEADER_SIZE +
               cfh.nodes.size() * std::uint64_t(IDB_WAIT_PATTERN_COUNT) * IDB_WAIT_SPREAD_ITEM_SIZE;
  return bound;
}

} // namespace idb::test

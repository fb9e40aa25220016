// Helpers the MPI tests share to look into a profile: a rank's CFH, a node by its path of
// probe labels, and the byte size of each section type in a profile file.
#pragma once

#include "idb/profile.hpp"

#include <cstdint>
#include <map>
#include <string>

namespace idb::test {

// The default CFH of `rank`'s thread 0, or nullptr.
const idb::profile::Cfh *rank_cfh(const idb::profile::Profile &p, int rank);

// The node whose path of probe labels below the root is `path` ("step;MPI_Send"), or
// nullptr.
const idb::profile::Node *node_at(const idb::profile::Profile &p, const idb::profile::Cfh &cfh,
                                  const std::string &path);

// Number of children of the node at `path`; -1 when there is no such node.
int child_count(const idb::profile::Profile &p, const idb::profile::Cfh &cfh,
                const std::string &path);

// Bytes per section type (header included) of the profile file at `path`.
std::map<std::uint32_t, std::uint64_t> section_bytes(const std::string &path);

// The most bytes the HIST sections of the profile at `path` can take, which its structure
// sets: per CFH a section header and its fixed part, per node a histogram of every bucket.
std::uint64_t hist_bound(const std::string &path);

// The most bytes its WAIT sections can take: per CFH a section header, per node an item
// for every wait-state pattern.
std::uint64_t wait_bound(const std::string &path);

// The most bytes its WAIT_SPREAD sections can take: per summary CFH a section header, per
// node an item for every wait-state pattern.
std::uint64_t wait_spread_bound(const std::string &path);

} // namespace idb::test

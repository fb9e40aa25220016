// Merges several CFHs into one tree by probe path: nodes reached by the same sequence of
// probes from the root (root→…→node) become one node whose statistics are the exact
// idb_stats_merge of theirs. `idb report --aggregate` uses it to show a whole run as one
// tree; it works on any Profile, from a file or from the database.
#pragma once

#include "idb/profile.hpp"

#include <vector>

namespace idb::cli {

// One CFH holding every node of `cfhs` merged by probe path, the roots merged into its
// root. Children keep the order in which they are first met (CFH order, then node order);
// statistics are merged in CFH order. Counters (overflow, mismatches, unclosed,
// depth_overflow) are summed; rank and thread are those of the first CFH. An empty input
// gives a CFH without nodes. Never throws except std::bad_alloc.
profile::Cfh merge_cfhs(const std::vector<profile::Cfh> &cfhs);

} // namespace idb::cli

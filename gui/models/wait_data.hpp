// The wait states of one node as the GUI shows them (profile format 1.4, docs/mpi.md,
// "Wait states"): per pattern the seconds its activations waited, how many of them did,
// and the share of the node's wall time; in a summary run also how the waiting spread over
// the ranks that reached the node (least, most, which rank). And the node's share of time
// spent waiting, by which the CFH tree tints it.
#pragma once

#include "idb/profile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace idb::gui {

struct WaitRow {
  std::string pattern; // its name: "late sender"
  double seconds = 0;
  std::uint64_t instances = 0;
  double share = 0; // of the node's wall time, 0 to 1
  // A summary run's spread over the ranks (ranks 0: none).
  std::uint32_t ranks = 0;
  double min = 0, max = 0;
  std::int32_t rank_max = 0;
};

struct WaitTable {
  std::string title;
  std::vector<WaitRow> rows; // by pattern
  bool spread = false;       // some row has a spread
};

// The table of `node` (labelled `label`). Never throws except std::bad_alloc.
WaitTable wait_table(const std::string &label, const profile::Node &node);

// The share of the node's wall time its activations spent waiting, 0 to 1.
double wait_share(const profile::Node &node);

// "waited 45.2% of its time: late sender 0.2 s, wait at NxN 0.01 s", or "".
std::string wait_note(const profile::Node &node);

} // namespace idb::gui

// A tree of a run as the generic tree model's TreeData: one row per node, labelled with
// its probe, with count, inclusive time, a throttled node's estimated time (blank for the
// others), exclusive and corrected time, the time it waited in
// communication (blank without wait states; the row tinted by the share of its time), %
// of the parent's inclusive time, CPU time, noise, untimed activations and the p50, p90
// and p99 of the node's activations (blank without a duration histogram): the
// rows and hot path of analysis::tree_rows, the same `idb report` prints. And the rows a tree model
// shows, written back as the tree export (`idb-gui --export`), the same cells `idb report --format
// csv` writes.
#pragma once

#include "tree_model.hpp"

#include "idb/profile.hpp"

#include <string>
#include <vector>

namespace idb::gui {

// The column of cfh_tree's TreeData that holds the inclusive time (for sorting), counting
// the label column as 0.
inline constexpr int kInclusiveColumn = 2;
// And the ones that hold the time waited in communication and the CPU time.
inline constexpr int kWaitColumn = 6;
inline constexpr int kCpuColumn = 8;

// Never throws except std::bad_alloc.
TreeData cfh_tree(const profile::Profile &profile, const profile::Cfh &cfh);

// The rows `model` (holding a cfh_tree) shows, depth first in the model's order, as the
// cells of analysis::tree_export_cells under the title `tree`: the label path from the
// root and the raw values of the model's cells.
std::vector<std::vector<std::string>> tree_export_rows(const TreeModel &model,
                                                       const std::string &tree);

} // namespace idb::gui

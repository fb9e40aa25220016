// A CFH as the generic tree model's TreeData: one row per node, labelled with its probe,
// with count, inclusive, exclusive and corrected time, % of the parent's inclusive time,
// CPU time and noise (the columns of `idb report`).
#pragma once

#include "tree_model.hpp"

#include "idb/profile.hpp"
#include "idb/tree.hpp"

namespace idb::gui {

// The column of cfh_tree's TreeData that holds the inclusive time (for sorting and the
// hot path), counting the label column as 0.
inline constexpr int kInclusiveColumn = 2;

// `times` must be node_times(cfh). Never throws except std::bad_alloc.
TreeData cfh_tree(const profile::Profile &profile, const profile::Cfh &cfh,
                  const std::vector<profile::NodeTimes> &times);

} // namespace idb::gui

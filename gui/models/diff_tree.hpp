// Two runs' trees as one TreeData, node by node (analysis::diff_trees): the run as a
// whole of each (the threads merged by probe path, as `idb report --aggregate` merges
// them), with the baseline's and the other run's corrected inclusive time, their
// difference and ratio, and both counts; rows tinted red where the other run is slower and
// blue where it is faster (analysis::diff_weight); the hot path follows the largest change.
#pragma once

#include "run_data.hpp"
#include "tree_model.hpp"

#include "idb/analysis/diff.hpp"

#include <string>
#include <vector>

namespace idb::gui {

// The columns, counting the label column as 0.
inline constexpr int kDiffBaselineColumn = 1, kDiffOtherColumn = 2, kDiffDifferenceColumn = 3,
                     kDiffRatioColumn = 4;

struct RunDiff {
  std::string baseline, other; // run labels
  std::string title;           // which trees: "baseline's title" vs "other's" when they differ
  std::vector<analysis::DiffRow> rows;
};

// The first tree of each run as a whole (RunData::whole); no rows when either has none.
RunDiff diff_runs(const RunData &baseline, const RunData &other);

// As TreeData: the label of each row (the baseline's), its values in the columns above,
// its tint, its note (which side lacks it) and the probe as key.
TreeData diff_tree(const RunDiff &diff);

// The rows of the diff as analysis::diff_export_cells, in row order.
std::vector<std::vector<std::string>> diff_export_rows(const RunDiff &diff);

} // namespace idb::gui

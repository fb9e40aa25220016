// Two runs' trees, or two groups of runs' (analysis::diff_groups), as one TreeData, node by
// node: the run as a whole of each (the threads merged by probe path, as `idb report
// --aggregate` merges them), with the baseline's and the other side's corrected inclusive
// time (means over a group), their difference and ratio, both counts, and over groups the
// spreads and Welch's p; rows tinted red where the other side is slower and blue where it
// is faster, where the change is significant (analysis::diff_weight); the hot path follows
// the largest change.
#pragma once

#include "run_data.hpp"
#include "tree_model.hpp"

#include "idb/analysis/diff.hpp"

#include <string>
#include <vector>

namespace idb::gui {

// The columns, counting the label column as 0. Between two runs the counts follow the
// ratio; over groups p and the two spreads come first, then the counts.
inline constexpr int kDiffBaselineColumn = 1, kDiffOtherColumn = 2, kDiffDifferenceColumn = 3,
                     kDiffRatioColumn = 4, kDiffPColumn = 5, kDiffBaselineSdColumn = 6,
                     kDiffOtherSdColumn = 7;

// One side of a diff: what it was chosen as (a run label or a label pattern) and its runs.
struct DiffSide {
  std::string name;
  std::vector<RunDataPtr> runs;
};

struct RunDiff {
  std::string baseline, other; // the sides' names
  std::size_t baseline_runs = 0, other_runs = 0;
  std::string title; // which trees: "baseline's title" vs "other's" when they differ
  std::vector<analysis::DiffRow> rows;

  bool groups() const { return baseline_runs > 1 || other_runs > 1; }
  // Whether Welch's test was made: both sides have two runs or more.
  bool tested() const { return baseline_runs > 1 && other_runs > 1; }
};

// The first tree of each run as a whole (RunData::whole); no rows when a side has no run
// or a run without such a tree.
RunDiff diff_runs(const DiffSide &baseline, const DiffSide &other);

// The groups of repeated runs among `labels`, as label patterns to offer: each prefix that
// two labels or more share before a final number ("pic-pow-1", "pic-pow-2": "pic-pow-*"),
// in the order of their first run; "prefix[0-9]*" where "prefix*" would match other labels
// too.
std::vector<std::string> repeat_groups(const std::vector<std::string> &labels);
// The one of those groups `label` belongs to; empty when none.
std::string repeat_group_of(const std::vector<std::string> &labels, const std::string &label);

// As TreeData: the label of each row (the baseline's), its values in the columns above,
// its tint, its note (which side lacks it) and the probe as key.
TreeData diff_tree(const RunDiff &diff);

// The rows of the diff as analysis::diff_export_cells, in row order.
std::vector<std::vector<std::string>> diff_export_rows(const RunDiff &diff);

} // namespace idb::gui

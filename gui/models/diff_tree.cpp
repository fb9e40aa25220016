// Two runs' trees as one TreeData (diff_tree.hpp).
#include "diff_tree.hpp"

#include <cmath>

namespace idb::gui {

RunDiff diff_runs(const RunData &baseline, const RunData &other) {
  RunDiff diff;
  diff.baseline = baseline.label;
  diff.other = other.label;
  if (baseline.whole.empty() || other.whole.empty()) return diff;
  const analysis::Tree &a = baseline.whole.front();
  const analysis::Tree &b = other.whole.front();
  diff.title = a.title == b.title ? a.title : a.title + " against " + b.title;
  diff.rows = analysis::diff_trees(baseline.profile, a.cfh, other.profile, b.cfh);
  return diff;
}

TreeData diff_tree(const RunDiff &diff) {
  TreeData tree;
  tree.label_title = "probe";
  tree.columns = {{"baseline", Format::seconds},       {"other", Format::seconds},
                  {"difference", Format::seconds},     {"ratio", Format::ratio},
                  {"baseline count", Format::integer}, {"other count", Format::integer}};
  tree.tint_rgb = 0xE8402A;          // slower: red
  tree.negative_tint_rgb = 0x2C7BE5; // faster: blue
  const double root_a = diff.rows.empty() ? 0 : diff.rows.front().a;
  const double root_b = diff.rows.empty() ? 0 : diff.rows.front().b;
  tree.rows.reserve(diff.rows.size());
  for (const analysis::DiffRow &d : diff.rows) {
    TreeRow &row = tree.rows.emplace_back();
    row.parent = d.parent == profile::kNoParent ? kTreeTop : d.parent;
    row.label = d.label;
    const double nan = std::nan("");
    row.values = {d.in_a ? d.a : nan,
                  d.in_b ? d.b : nan,
                  d.difference(),
                  d.ratio(),
                  d.in_a ? double(d.count_a) : nan,
                  d.in_b ? double(d.count_b) : nan};
    row.key = d.probe;
    row.tint = analysis::diff_weight(d, root_a, root_b);
    if (!d.in_a) row.note = "only in " + diff.other;
    if (!d.in_b) row.note = "only in " + diff.baseline;
  }
  // From the root, each time the child whose time changed most.
  std::vector<std::vector<std::uint32_t>> children(tree.rows.size());
  for (std::uint32_t i = 0; i < tree.rows.size(); ++i)
    if (tree.rows[i].parent != kTreeTop) children[tree.rows[i].parent].push_back(i);
  for (std::uint32_t at = 0; at < tree.rows.size();) {
    tree.hot_path.push_back(at);
    std::uint32_t next = kTreeTop;
    double most = -1;
    for (std::uint32_t c : children[at])
      if (std::fabs(diff.rows[c].difference()) > most) {
        most = std::fabs(diff.rows[c].difference());
        next = c;
      }
    if (next == kTreeTop) break;
    at = next;
  }
  return tree;
}

std::vector<std::vector<std::string>> diff_export_rows(const RunDiff &diff) {
  std::vector<std::vector<std::string>> out;
  out.reserve(diff.rows.size());
  for (const analysis::DiffRow &d : diff.rows)
    out.push_back(analysis::diff_export_cells(d));
  return out;
}

} // namespace idb::gui

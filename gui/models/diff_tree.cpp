// Two runs' trees as one TreeData (diff_tree.hpp).
#include "diff_tree.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fnmatch.h>
#include <map>

namespace idb::gui {

RunDiff diff_runs(const DiffSide &baseline, const DiffSide &other) {
  RunDiff diff;
  diff.baseline = baseline.name;
  diff.other = other.name;
  diff.baseline_runs = baseline.runs.size();
  diff.other_runs = other.runs.size();
  auto treeless = [](const DiffSide &side) {
    return side.runs.empty() || std::any_of(side.runs.begin(), side.runs.end(),
                                            [](const RunDataPtr &r) { return r->whole.empty(); });
  };
  if (treeless(baseline) || treeless(other)) return diff;
  auto runs_of = [](const DiffSide &side) {
    std::vector<analysis::DiffRun> runs;
    for (const RunDataPtr &r : side.runs)
      runs.push_back({&r->profile, &r->whole.front().cfh});
    return runs;
  };
  auto title_of = [](const DiffSide &side) { return side.runs.front()->whole.front().title; };
  const std::string a = title_of(baseline), b = title_of(other);
  diff.title = a == b ? a : a + " against " + b;
  diff.rows = analysis::diff_groups(runs_of(baseline), runs_of(other));
  return diff;
}

TreeData diff_tree(const RunDiff &diff) {
  TreeData tree;
  tree.label_title = "probe";
  tree.columns = {{"baseline", Format::seconds},
                  {"other", Format::seconds},
                  {"difference", Format::seconds},
                  {"ratio", Format::ratio}};
  if (diff.groups())
    tree.columns.insert(tree.columns.end(), {{"p", Format::probability},
                                             {"baseline sd", Format::seconds},
                                             {"other sd", Format::seconds}});
  tree.columns.insert(tree.columns.end(),
                      {{"baseline count", Format::integer}, {"other count", Format::integer}});
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
    row.values = {d.in_a ? d.a : nan, d.in_b ? d.b : nan, d.difference(), d.ratio()};
    if (diff.groups()) row.values.insert(row.values.end(), {d.p, d.sd_a, d.sd_b});
    row.values.insert(row.values.end(),
                      {d.in_a ? double(d.count_a) : nan, d.in_b ? double(d.count_b) : nan});
    row.key = d.probe;
    row.tint = analysis::diff_weight(d, root_a, root_b);
    if (!d.in_a) row.note = "only in " + diff.other;
    if (!d.in_b) row.note = "only in " + diff.baseline;
    if (diff.tested() && !d.significant && d.in_a && d.in_b)
      row.note =
          "not significant: Welch's p = " + formatValue(d.p, Format::probability).toStdString();
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

namespace {

// The label before its final number; empty when it has none or is only a number.
std::string repeat_prefix(const std::string &label) {
  std::size_t end = label.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(label[end - 1])))
    --end;
  return end == label.size() ? std::string() : label.substr(0, end);
}

} // namespace

std::vector<std::string> repeat_groups(const std::vector<std::string> &labels) {
  std::vector<std::string> prefixes;
  std::map<std::string, int> members;
  for (const std::string &label : labels) {
    const std::string prefix = repeat_prefix(label);
    if (!prefix.empty() && members[prefix]++ == 0) prefixes.push_back(prefix);
  }
  std::vector<std::string> groups;
  for (const std::string &prefix : prefixes) {
    if (members[prefix] < 2) continue;
    std::string group = prefix + '*';
    const bool wider = std::any_of(labels.begin(), labels.end(), [&](const std::string &l) {
      return repeat_prefix(l) != prefix && fnmatch(group.c_str(), l.c_str(), 0) == 0;
    });
    groups.push_back(wider ? prefix + "[0-9]*" : group);
  }
  return groups;
}

std::string repeat_group_of(const std::vector<std::string> &labels, const std::string &label) {
  const std::string prefix = repeat_prefix(label);
  if (prefix.empty()) return {};
  for (const std::string &group : repeat_groups(labels))
    if (group == prefix + '*' || group == prefix + "[0-9]*") return group;
  return {};
}

std::vector<std::vector<std::string>> diff_export_rows(const RunDiff &diff) {
  std::vector<std::vector<std::string>> out;
  out.reserve(diff.rows.size());
  for (const analysis::DiffRow &d : diff.rows)
    out.push_back(analysis::diff_export_cells(d));
  return out;
}

} // namespace idb::gui

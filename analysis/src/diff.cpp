// Matching two trees node by node (diff.hpp).
#include "idb/analysis/diff.hpp"

#include "idb/analysis/exports.hpp"
#include "idb/analysis/trees.hpp"
#include "idb/tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace idb::analysis {

double DiffRow::ratio() const {
  if (!in_a || !in_b || !(a > 0)) return std::nan("");
  return b / a;
}

namespace {

constexpr std::uint32_t kNone = profile::kNoParent;

struct Side {
  const profile::Profile &run;
  const profile::Cfh &cfh;
  std::vector<profile::NodeTimes> times;
  std::vector<double> self;
  std::vector<std::vector<std::uint32_t>> children;

  Side(const profile::Profile &r, const profile::Cfh &c)
      : run(r), cfh(c), times(profile::node_times(c)), self(corrected_exclusive(c)),
        children(profile::children_of(c)) {}

  std::uint32_t root() const {
    for (std::uint32_t i = 0; i < cfh.nodes.size(); ++i)
      if (cfh.nodes[i].parent == profile::kNoParent) return i;
    return kNone;
  }
  std::string label(std::uint32_t node) const { return node_label(run, cfh, node); }
};

} // namespace

std::vector<DiffRow> diff_trees(const profile::Profile &a, const profile::Cfh &ta,
                                const profile::Profile &b, const profile::Cfh &tb) {
  const Side sa(a, ta), sb(b, tb);
  std::vector<DiffRow> rows;
  struct Pending {
    std::uint32_t na, nb, parent;
  };
  std::vector<Pending> stack;
  if (sa.root() != kNone || sb.root() != kNone) stack.push_back({sa.root(), sb.root(), kNone});
  while (!stack.empty()) {
    const Pending at = stack.back();
    stack.pop_back();
    const auto index = std::uint32_t(rows.size());
    DiffRow &row = rows.emplace_back();
    row.parent = at.parent;
    row.depth = at.parent == kNone ? 0 : rows[at.parent].depth + 1;
    row.label = at.na != kNone ? sa.label(at.na) : sb.label(at.nb);
    row.path = at.parent == kNone ? row.label : rows[at.parent].path + ';' + row.label;
    // One side's numbers of the row: corrected inclusive and exclusive time, activations.
    auto fill = [](const Side &side, std::uint32_t node, double &time, double &self,
                   std::uint64_t &count) {
      const profile::Node &n = side.cfh.nodes[node];
      time = std::max(0.0, side.times[node].corrected);
      self = side.self[node];
      count = n.stats.count + n.stats.throttled;
      return n.probe;
    };
    if (at.na != kNone) {
      row.in_a = true;
      row.probe = fill(sa, at.na, row.a, row.a_self, row.count_a);
    }
    if (at.nb != kNone) {
      row.in_b = true;
      const std::int32_t probe = fill(sb, at.nb, row.b, row.b_self, row.count_b);
      if (!row.in_a) row.probe = probe;
    }
    // Pair the children by label, k-th with k-th where a label repeats.
    std::vector<Pending> kids;
    std::map<std::string, std::vector<std::uint32_t>> unmatched_b;
    std::vector<std::uint32_t> b_order;
    if (at.nb != kNone)
      for (std::uint32_t c : sb.children[at.nb]) {
        unmatched_b[sb.label(c)].push_back(c);
        b_order.push_back(c);
      }
    for (auto &[label, list] : unmatched_b)
      std::reverse(list.begin(), list.end()); // taken from the back, in order
    std::vector<bool> paired(tb.nodes.size(), false);
    if (at.na != kNone)
      for (std::uint32_t c : sa.children[at.na]) {
        std::uint32_t match = kNone;
        auto it = unmatched_b.find(sa.label(c));
        if (it != unmatched_b.end() && !it->second.empty()) {
          match = it->second.back();
          it->second.pop_back();
          paired[match] = true;
        }
        kids.push_back({c, match, index});
      }
    for (std::uint32_t c : b_order)
      if (!paired[c]) kids.push_back({kNone, c, index});
    stack.insert(stack.end(), kids.rbegin(), kids.rend());
  }
  return rows;
}

double diff_weight(const DiffRow &row, double root_a, double root_b, double floor) {
  const double scale = std::max(root_a, root_b);
  if (!(scale > 0) || std::fabs(row.difference()) < floor * scale) return 0.0;
  if (!row.in_a) return 1.0;
  if (!row.in_b) return -1.0;
  if (!(row.a > 0)) return row.b > 0 ? 1.0 : 0.0;
  if (!(row.b > 0)) return -1.0;
  return std::clamp(std::log2(row.b / row.a), -1.0, 1.0);
}

std::string ratio_text(double ratio) {
  const double size = std::fabs(ratio);
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", size >= 100 ? 0 : size >= 10 ? 1 : 2, ratio);
  return text;
}

const std::vector<std::string> &diff_export_columns() {
  static const std::vector<std::string> columns = {"path",         "in",    "a_s",     "b_s",
                                                   "difference_s", "ratio", "a_count", "b_count"};
  return columns;
}

std::vector<std::string> diff_export_cells(const DiffRow &row) {
  const double ratio = row.ratio();
  return {row.path,
          row.in_a && row.in_b ? "both"
          : row.in_a           ? "a"
                               : "b",
          number_text(row.a),
          number_text(row.b),
          number_text(row.difference()),
          std::isnan(ratio) ? std::string() : number_text(ratio),
          std::to_string(row.count_a),
          std::to_string(row.count_b)};
}

} // namespace idb::analysis

// Matching trees node by node, one run or a group of runs a side (diff.hpp).
#include "idb/analysis/diff.hpp"

#include "idb/analysis/exports.hpp"
#include "idb/analysis/statistics.hpp"
#include "idb/analysis/trees.hpp"
#include "idb/tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fnmatch.h>
#include <iterator>
#include <map>
#include <optional>

namespace idb::analysis {

double DiffRow::ratio() const {
  if (!in_a || !in_b || !(a > 0)) return std::nan("");
  return b / a;
}

namespace {

constexpr std::uint32_t kNone = profile::kNoParent;

// One run of a side, with what matching and the rows need of its tree.
struct Member {
  const profile::Profile &run;
  const profile::Cfh &cfh;
  std::vector<profile::NodeTimes> times;
  std::vector<double> self;
  std::vector<std::vector<std::uint32_t>> children;

  Member(const profile::Profile &r, const profile::Cfh &c)
      : run(r), cfh(c), times(profile::node_times(c)), self(corrected_exclusive(c)),
        children(profile::children_of(c)) {}

  std::uint32_t root() const {
    for (std::uint32_t i = 0; i < cfh.nodes.size(); ++i)
      if (cfh.nodes[i].parent == profile::kNoParent) return i;
    return kNone;
  }
  std::string label(std::uint32_t node) const { return node_label(run, cfh, node); }
};

double mean(const std::vector<double> &x) {
  double sum = 0;
  for (double v : x)
    sum += v;
  return x.empty() ? 0.0 : sum / double(x.size());
}

// One side's numbers of a row, from the nodes its runs have there (kNone: that run lacks
// it); returns whether any run has it.
bool fill_side(const std::vector<Member> &runs, const std::vector<std::uint32_t> &nodes,
               std::size_t first, std::size_t end, double &time, double &self, std::uint64_t &count,
               double &sd, std::vector<double> &times) {
  times.clear();
  double selves = 0, counts = 0;
  bool any = false;
  for (std::size_t m = first; m < end; ++m) {
    const std::uint32_t node = nodes[m];
    if (node == kNone) {
      times.push_back(0);
      continue;
    }
    any = true;
    const profile::Node &n = runs[m].cfh.nodes[node];
    times.push_back(std::max(0.0, runs[m].times[node].corrected_all));
    selves += runs[m].self[node];
    counts += double(n.stats.count + n.stats.throttled);
  }
  const double n = double(end - first);
  time = mean(times);
  self = selves / n;
  count = std::uint64_t(std::llround(counts / n));
  sd = sample_sd(times);
  return any;
}

} // namespace

std::vector<DiffRow> diff_trees(const profile::Profile &a, const profile::Cfh &ta,
                                const profile::Profile &b, const profile::Cfh &tb) {
  return diff_groups({{&a, &ta}}, {{&b, &tb}});
}

std::vector<DiffRow> diff_groups(const std::vector<DiffRun> &a, const std::vector<DiffRun> &b,
                                 double alpha) {
  if (a.empty() || b.empty()) return {};
  std::vector<Member> runs;
  runs.reserve(a.size() + b.size());
  for (const auto *side : {&a, &b})
    for (const DiffRun &r : *side)
      runs.emplace_back(*r.run, *r.cfh);
  const std::size_t na = a.size(), all = runs.size();
  std::vector<DiffRow> rows;
  struct Pending {
    std::vector<std::uint32_t> nodes; // per run, kNone where it lacks the node
    std::uint32_t parent;
  };
  std::vector<Pending> stack;
  {
    Pending root{std::vector<std::uint32_t>(all, kNone), kNone};
    bool any = false;
    for (std::size_t m = 0; m < all; ++m) {
      root.nodes[m] = runs[m].root();
      any = any || root.nodes[m] != kNone;
    }
    if (any) stack.push_back(std::move(root));
  }
  std::vector<double> times_a, times_b;
  while (!stack.empty()) {
    const Pending at = std::move(stack.back());
    stack.pop_back();
    const auto index = std::uint32_t(rows.size());
    DiffRow &row = rows.emplace_back();
    row.parent = at.parent;
    row.depth = at.parent == kNone ? 0 : rows[at.parent].depth + 1;
    // The label and probe of the first run that has the node, the baseline's first.
    for (std::size_t m = 0; m < all; ++m)
      if (at.nodes[m] != kNone) {
        row.label = runs[m].label(at.nodes[m]);
        row.probe = runs[m].cfh.nodes[at.nodes[m]].probe;
        break;
      }
    row.path = at.parent == kNone ? row.label : rows[at.parent].path + ';' + row.label;
    row.in_a = fill_side(runs, at.nodes, 0, na, row.a, row.a_self, row.count_a, row.sd_a, times_a);
    row.in_b =
        fill_side(runs, at.nodes, na, all, row.b, row.b_self, row.count_b, row.sd_b, times_b);
    if (const std::optional<TTest> test = welch(times_a, times_b)) {
      row.p = test->p;
      row.significant = test->p < alpha;
    }
    // The children of every run matched by label, the k-th of a label with the k-th: those
    // of the first run in its order, then each later run's unmatched ones in its order.
    std::vector<Pending> kids;
    std::map<std::string, std::vector<std::size_t>> by_label; // label → indices into kids
    for (std::size_t m = 0; m < all; ++m) {
      if (at.nodes[m] == kNone) continue;
      std::map<std::string, std::size_t> seen;
      for (std::uint32_t c : runs[m].children[at.nodes[m]]) {
        const std::string label = runs[m].label(c);
        std::vector<std::size_t> &same = by_label[label];
        const std::size_t k = seen[label]++;
        if (k == same.size()) {
          same.push_back(kids.size());
          kids.push_back({std::vector<std::uint32_t>(all, kNone), index});
        }
        kids[same[k]].nodes[m] = c;
      }
    }
    stack.insert(stack.end(), std::make_move_iterator(kids.rbegin()),
                 std::make_move_iterator(kids.rend()));
  }
  return rows;
}

std::vector<std::string> diff_side_labels(const std::vector<std::string> &labels,
                                          const std::string &name) {
  if (std::find(labels.begin(), labels.end(), name) != labels.end()) return {name};
  std::vector<std::string> matches;
  if (!is_label_pattern(name)) return matches;
  for (const std::string &label : labels)
    if (fnmatch(name.c_str(), label.c_str(), 0) == 0) matches.push_back(label);
  return matches;
}

std::vector<std::string> diff_side_reads(const std::vector<std::string> &labels,
                                         const std::string &name, const std::string &location,
                                         std::string &why) {
  std::vector<std::string> named = diff_side_labels(labels, name);
  if (!named.empty()) return named;
  if (!is_label_pattern(name)) return {name};
  why = "no run label matches '" + name + "' in " + location;
  return {};
}

bool is_label_pattern(const std::string &name) {
  return name.find_first_of("*?[") != std::string::npos;
}

double diff_weight(const DiffRow &row, double root_a, double root_b, double floor) {
  const double scale = std::max(root_a, root_b);
  if (!row.significant || !(scale > 0) || std::fabs(row.difference()) < floor * scale) return 0.0;
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
  static const std::vector<std::string> columns = {
      "path",    "in",     "a_s",    "b_s", "difference_s", "ratio", "a_count",
      "b_count", "a_sd_s", "b_sd_s", "p",   "significant"};
  return columns;
}

std::vector<std::string> diff_export_cells(const DiffRow &row) {
  const auto number_or_empty = [](double v) {
    return std::isnan(v) ? std::string() : number_text(v);
  };
  return {row.path,
          row.in_a && row.in_b ? "both"
          : row.in_a           ? "a"
                               : "b",
          number_text(row.a),
          number_text(row.b),
          number_text(row.difference()),
          number_or_empty(row.ratio()),
          std::to_string(row.count_a),
          std::to_string(row.count_b),
          number_or_empty(row.sd_a),
          number_or_empty(row.sd_b),
          number_or_empty(row.p),
          std::isnan(row.p) ? std::string()
          : row.significant ? "yes"
                            : "no"};
}

} // namespace idb::analysis

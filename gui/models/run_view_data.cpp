// The linked run view's values (run_view_data.hpp).
#include "run_view_data.hpp"

#include "idb/analysis/exports.hpp"
#include "idb/analysis/trees.hpp"
#include "idb/histogram.hpp"
#include "idb/tree.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace idb::gui {

const std::vector<NodeMetricInfo> &node_metrics() {
  static const std::vector<NodeMetricInfo> metrics = {
      {NodeMetric::inclusive, "inclusive time", "Wall time in the node and below it.", true, true},
      {NodeMetric::exclusive, "exclusive time", "Wall time in the node outside its children.", true,
       false},
      {NodeMetric::corrected, "corrected inclusive",
       "Inclusive time less what the probes below the node cost.", true, true},
      {NodeMetric::corrected_exclusive, "corrected exclusive",
       "The node's own time without the probes' cost (never below zero).", true, false},
      {NodeMetric::cpu, "CPU time",
       "CPU time of the node and below it (blank where it was not measured).", true, true},
      {NodeMetric::noise, "noise", "What the probes cost in the node (their calibrated charge).",
       true, false},
      {NodeMetric::count, "activations", "How often the node ran, timed or not.", false, false},
      {NodeMetric::wait, "wait time",
       "Time spent waiting in communication: late senders and receivers, collectives, "
       "barriers (blank without wait states).",
       true, false},
      {NodeMetric::p50, "p50 activation",
       "The median activation's duration, from the node's duration histogram (blank without "
       "one).",
       true, false, false},
      {NodeMetric::p90, "p90 activation",
       "The duration nine activations in ten stay under, from the node's duration histogram.", true,
       false, false},
      {NodeMetric::p99, "p99 activation",
       "The duration 99 activations in 100 stay under: the tail, from the node's duration "
       "histogram.",
       true, false, false},
  };
  return metrics;
}

const NodeMetricInfo &metric_info(NodeMetric metric) {
  for (const NodeMetricInfo &m : node_metrics())
    if (m.metric == metric) return m;
  return node_metrics().front();
}

std::vector<double> metric_values(const profile::Cfh &cfh, NodeMetric metric) {
  std::vector<double> values(cfh.nodes.size(), 0.0);
  const double nan = std::nan("");
  std::vector<profile::NodeTimes> times;
  if (metric == NodeMetric::inclusive || metric == NodeMetric::exclusive ||
      metric == NodeMetric::corrected)
    times = profile::node_times(cfh);
  if (metric == NodeMetric::corrected_exclusive) return analysis::corrected_exclusive(cfh);
  for (std::size_t i = 0; i < cfh.nodes.size(); ++i) {
    const profile::Node &n = cfh.nodes[i];
    switch (metric) {
    case NodeMetric::inclusive:
      values[i] = times[i].inclusive;
      break;
    case NodeMetric::exclusive:
      values[i] = times[i].exclusive;
      break;
    case NodeMetric::corrected:
      values[i] = std::max(0.0, times[i].corrected_all);
      break;
    case NodeMetric::corrected_exclusive:
      break; // returned above
    case NodeMetric::cpu:
      values[i] = n.stats.cpu_count > 0 ? n.stats.cpu_sum : nan;
      break;
    case NodeMetric::noise:
      values[i] = n.stats.noise;
      break;
    case NodeMetric::count:
      values[i] = double(n.stats.count + n.stats.throttled);
      break;
    case NodeMetric::wait:
      values[i] = n.waits.empty() ? nan : profile::wait_seconds(n.waits);
      break;
    case NodeMetric::p50:
      values[i] = profile::quantile_seconds(n, 0.50);
      break;
    case NodeMetric::p90:
      values[i] = profile::quantile_seconds(n, 0.90);
      break;
    case NodeMetric::p99:
      values[i] = profile::quantile_seconds(n, 0.99);
      break;
    }
  }
  return values;
}

namespace {

// The total of `values`, the metric's values of a tree's nodes in node order.
double total_of(const std::vector<double> &values, NodeMetric metric) {
  if (!metric_info(metric).additive || values.empty()) return std::nan("");
  if (metric_info(metric).inclusive) return values.front();
  double sum = 0;
  bool any = false;
  for (double v : values)
    if (!std::isnan(v)) {
      sum += v;
      any = true;
    }
  return any ? sum : std::nan("");
}

} // namespace

double metric_total(const profile::Cfh &cfh, NodeMetric metric) {
  if (!metric_info(metric).additive) return std::nan("");
  return total_of(metric_values(cfh, metric), metric);
}

std::vector<RankTree> rank_trees(const profile::Profile &run) {
  std::map<int, std::vector<const profile::Cfh *>> threads;
  for (const profile::Cfh &cfh : run.cfhs)
    if (!cfh.named) threads[cfh.rank].push_back(&cfh);
  std::vector<RankTree> trees;
  trees.reserve(threads.size());
  for (const auto &[rank, cfhs] : threads) {
    analysis::ThreadGrafts grafted = analysis::graft_threads(cfhs);
    trees.push_back({rank, analysis::merge_cfhs(grafted.cfhs)});
  }
  return trees;
}

std::vector<std::int32_t> probe_path(const profile::Cfh &cfh, std::uint32_t node) {
  std::vector<std::int32_t> path;
  for (std::uint32_t at = node; at < cfh.nodes.size(); at = cfh.nodes[at].parent)
    path.push_back(cfh.nodes[at].probe);
  std::reverse(path.begin(), path.end());
  return path;
}

std::uint32_t find_path(const profile::Cfh &cfh, const std::vector<std::int32_t> &path) {
  if (path.empty() || cfh.nodes.empty() || cfh.nodes[0].probe != path[0]) return profile::kNoParent;
  // Parents precede children: one pass finds each step below the one before.
  std::uint32_t at = 0;
  std::size_t step = 1;
  for (std::uint32_t i = 1; i < cfh.nodes.size() && step < path.size(); ++i)
    if (cfh.nodes[i].parent == at && cfh.nodes[i].probe == path[step]) {
      at = i;
      ++step;
    }
  return step == path.size() ? at : profile::kNoParent;
}

RankSpreadView rank_spread(const std::vector<RankTree> &trees,
                           const std::vector<std::int32_t> &path, NodeMetric metric) {
  RankSpreadView view;
  view.ranks = trees.size();
  for (const RankTree &t : trees) {
    const std::uint32_t node = find_path(t.cfh, path);
    if (node == profile::kNoParent) continue;
    const double v = metric_values(t.cfh, metric)[node];
    if (!std::isnan(v)) view.values.push_back({t.rank, v});
  }
  std::stable_sort(view.values.begin(), view.values.end(),
                   [](const RankValue &a, const RankValue &b) { return a.value > b.value; });
  if (view.values.empty()) return view;
  double sum = 0;
  for (const RankValue &v : view.values)
    sum += v.value;
  view.mean = sum / double(view.values.size());
  view.max = view.values.front().value;
  view.max_rank = view.values.front().rank;
  view.min = view.values.back().value;
  view.min_rank = view.values.back().rank;
  // The lowest rank of those holding the least (the list ends with the highest of them).
  for (const RankValue &v : view.values)
    if (v.value == view.min) view.min_rank = std::min(view.min_rank, v.rank);
  return view;
}

TreeData metric_tree(const profile::Profile &run, const profile::Cfh &cfh, NodeMetric metric) {
  const NodeMetricInfo &info = metric_info(metric);
  TreeData tree;
  tree.label_title = "probe";
  tree.columns = {{info.name, info.seconds ? Format::seconds_or_blank : Format::integer},
                  {"% of total", Format::percent},
                  {"count", Format::integer}};
  const std::vector<double> values = metric_values(cfh, metric);
  // A share of the total; for a quantile, which has none, of the largest node's.
  double total = total_of(values, metric);
  if (!info.additive) {
    total = 0;
    for (double v : values)
      if (!std::isnan(v)) total = std::max(total, v);
  }
  const std::vector<std::vector<std::uint32_t>> children = profile::children_of(cfh);
  std::vector<std::uint32_t> row_of(cfh.nodes.size(), kTreeTop);
  // Depth first in node order, as the other trees.
  std::vector<std::uint32_t> stack;
  for (std::uint32_t i = 0; i < cfh.nodes.size(); ++i)
    if (cfh.nodes[i].parent == profile::kNoParent) stack.push_back(i);
  std::reverse(stack.begin(), stack.end());
  while (!stack.empty()) {
    const std::uint32_t node = stack.back();
    stack.pop_back();
    const profile::Node &n = cfh.nodes[node];
    row_of[node] = std::uint32_t(tree.rows.size());
    TreeRow &row = tree.rows.emplace_back();
    row.parent = n.parent == profile::kNoParent ? kTreeTop : row_of[n.parent];
    row.label = analysis::node_label(run, cfh, node);
    const double share = total > 0 && !std::isnan(values[node]) ? values[node] / total : 0.0;
    row.values = {values[node],
                  std::isnan(values[node]) || !info.additive ? std::nan("") : 100 * share,
                  double(n.stats.count + n.stats.throttled)};
    row.key = n.probe;
    row.source = node;
    // Tinted by its share, faintly; under 1% not at all, so the tree's weight shows.
    row.tint = share >= 0.01 ? 0.8 * std::clamp(share, 0.0, 1.0) : 0.0;
    for (auto c = children[node].rbegin(); c != children[node].rend(); ++c)
      stack.push_back(*c);
  }
  for (std::uint32_t node : analysis::hot_path(cfh)) {
    tree.hot_path.push_back(row_of[node]);
    tree.rows[row_of[node]].emphasis = true;
  }
  return tree;
}

} // namespace idb::gui

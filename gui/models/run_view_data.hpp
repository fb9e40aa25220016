// What the linked run view shows, as plain values: the metrics a node has, a tree of the
// run valued by one metric (each node's share of the root as its tint, the hot path
// marked), the run's trees per rank (each rank's threads merged by probe path), and one
// node's value on every rank with its least, mean and most. Pure functions: thread-safe,
// no throws except std::bad_alloc.
#pragma once

#include "tree_model.hpp"

#include "idb/profile.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace idb::gui {

// What a node is measured by in the run view.
enum class NodeMetric {
  inclusive,           // wall seconds, the node and below
  exclusive,           // wall seconds outside the node's children
  corrected,           // inclusive less the probes' charge below (node_times)
  corrected_exclusive, // the node's own time without the probes' cost
  cpu,                 // CPU seconds (NaN where none was measured)
  noise,               // the probes' charge in the node, seconds
  count,               // activations, timed or not
  wait,                // seconds waited in communication (NaN without wait states)
  p50,                 // the median activation (NaN without a duration histogram)
  p90,                 // the 90th percentile activation
  p99,                 // the 99th percentile activation
};

struct NodeMetricInfo {
  NodeMetric metric;
  std::string name;        // as the metric pane lists it
  std::string description; // its tooltip
  bool seconds = true;     // else a count
  bool inclusive = false;  // the root's value is the run's; else the nodes' sum is
  bool additive = true;    // false for a quantile: no total, no share of one
};

// Every metric, in the order the metric pane lists them.
const std::vector<NodeMetricInfo> &node_metrics();
const NodeMetricInfo &metric_info(NodeMetric metric);

// The metric's value of every node of `cfh`, in node order.
std::vector<double> metric_values(const profile::Cfh &cfh, NodeMetric metric);

// The metric over the whole tree: the root's value for an inclusive metric, else the sum
// of the nodes' (NaN values left out; NaN when every value is); NaN for a quantile.
double metric_total(const profile::Cfh &cfh, NodeMetric metric);

// The run's thread CFHs of each rank merged by probe path (OpenMP workers under their
// master's nodes, analysis::graft_threads), ranks ascending; named CFHs are left out.
// A summary-mode run gives its one CFH as rank -1.
struct RankTree {
  int rank = 0;
  profile::Cfh cfh;
};
std::vector<RankTree> rank_trees(const profile::Profile &run);

// The probe ids from the root (its own included) down to `node`.
std::vector<std::int32_t> probe_path(const profile::Cfh &cfh, std::uint32_t node);
// The node of `cfh` reached by `path`, or profile::kNoParent when there is none.
std::uint32_t find_path(const profile::Cfh &cfh, const std::vector<std::int32_t> &path);

// One node's metric on every rank: the ranks that reached it, by value, largest first
// (equal values by rank), with the least, mean and most and where they are.
struct RankValue {
  int rank = 0;
  double value = 0;
};
struct RankSpreadView {
  std::vector<RankValue> values; // NaN values (not measured) left out
  std::size_t ranks = 0;         // every rank of the run, reached or not
  double min = 0, mean = 0, max = 0;
  int min_rank = -1, max_rank = -1;
};
RankSpreadView rank_spread(const std::vector<RankTree> &trees,
                           const std::vector<std::int32_t> &path, NodeMetric metric);

// `cfh` of `run` as TreeData valued by `metric`: columns the metric (seconds or count),
// % of the tree's total (blank for a quantile), and count; each row with a share of 1% or
// more tinted by it (0.8 of the share: the whole is not black; a quantile's share is of
// the largest node's), the rows of the hot path (analysis::hot_path) emphasised; keys the
// probes, sources the nodes.
TreeData metric_tree(const profile::Profile &run, const profile::Cfh &cfh, NodeMetric metric);

} // namespace idb::gui

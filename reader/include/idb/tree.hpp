// Derived times of a CFH (inclusive, exclusive, noise-corrected) and its text forms: the
// indented report of `idb show` and the one-line-per-path form tests compare against.
#pragma once

#include "idb/profile.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace idb::profile {

// The probes' cost below a node. A child's activation adds its probe's bookkeeping to its
// parent's interval, between the children's own intervals: in the parent's exclusive time.
// So each node's children are charged their noise, but never more than that node's
// exclusive time (a charge calibrated on back-to-back pairs can exceed what tiny probes
// cost inside real code), and the noise below a node is what its subtree's nodes were
// charged so: corrected time is never below zero, and no node's corrected exclusive time
// (exclusive minus its children's charge) either.
struct NodeTimes {
  double inclusive = 0;        // wall seconds over all activations
  double exclusive = 0;        // inclusive minus the children's inclusive
  double descendant_noise = 0; // what every node below this one was charged, as above
  double corrected = 0;        // inclusive minus descendant_noise (DESIGN §4)
  // The wall time of all its activations: `inclusive` for a node timed throughout; for a
  // node runtime throttling stopped timing, whose inclusive time holds its timed
  // activations alone, its estimate (idb_stats_estimated_sum: each throttled activation at
  // the mean of those timed as samples, which hold the counts of its throttled children, a
  // nanosecond or two each). What `idb report` prints as `est s` and `--prune` goes by.
  // Never more than what its parent's time leaves: the throttled children of a node share
  // at most its corrected_all less its timed children's corrected time; past that, their
  // estimates are scaled down to it together and `capped` says so (a sample's own probe
  // cost, over a few nanoseconds of work, can measure many times the work).
  double estimated = 0;
  bool capped = false;
  // The same with the probes' cost taken out: `corrected`, or for a throttled node its
  // estimate. What the flame graph, the folded and Hatchet exports, the diff and the run
  // view's corrected metrics show, so that a throttled kernel keeps its width.
  double corrected_all = 0;
};

// One entry per node of `cfh`, in node order.
std::vector<NodeTimes> node_times(const Cfh &cfh);

// Each node's children (node indices, in node order); one entry per node.
std::vector<std::vector<std::uint32_t>> children_of(const Cfh &cfh);

// The probe's description, or "#id" when the profile has none; for
// kWorkersOutsideProbes, "(worker threads outside their probes)".
std::string probe_label(const Profile &profile, std::int32_t probe);

// "a;b;c count" per node below the root, depth first in node order: the form of
// idb_cfh_dump, for tests that compare trees as text.
std::string paths_text(const Profile &profile, const Cfh &cfh);

struct TreeOptions {
  double prune_percent = 0.0; // hide nodes below this share of the root's inclusive time
  bool show_cpu = true;
  // Three more columns: the 50th, 90th and 99th percentile of each node's activations
  // (microseconds) from its duration histogram, "-" for a node without one.
  bool show_quantiles = false;
};

// The indented report of one CFH: count, inclusive, exclusive, corrected, % of parent,
// mean and standard deviation per activation (then its quantiles, when asked), CPU time
// and how many activations were CPU-timed, noise.
void print_tree(std::ostream &out, const Profile &profile, const Cfh &cfh,
                const TreeOptions &options = {});

// The run's header lines and every CFH's tree.
void print_profile(std::ostream &out, const Profile &profile, const TreeOptions &options = {});

} // namespace idb::profile

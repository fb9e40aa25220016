// The trees a run offers and what each row of a tree says. One rule for every front end:
// `idb report` prints these trees, `idb report --format csv` and `idb-gui --export` write
// these rows, and the GUI's tree view shows them. Pure functions of their arguments:
// thread-safe, no I/O, no throws except std::bad_alloc.
#pragma once

#include "idb/profile.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace idb::analysis {

// One CFH holding every node of `cfhs` merged by probe path: nodes reached by the same
// sequence of probes from the root become one node whose statistics are the exact
// idb_stats_merge of theirs, the roots merged into its root. Children keep the order in
// which they are first met (CFH order, then node order). Counters (overflow, mismatches,
// unclosed, depth_overflow) are summed; rank and thread are those of the first CFH; a
// merged CFH has no spread. An empty input gives a CFH without nodes.
profile::Cfh merge_cfhs(const std::vector<const profile::Cfh *> &cfhs);
profile::Cfh merge_cfhs(const std::vector<profile::Cfh> &cfhs);

// The thread CFHs of a run prepared for one tree summed over threads: a worker thread's
// tree (an OpenMP worker's, whose CFH starts at the parallel region's probes) hung where
// its rank's first thread ran the same code. Each top-level node of a later thread's CFH
// whose probe the rank's first thread (the lowest thread number) reached at exactly one
// node is placed below that node's path, so merge_cfhs lays it onto the master's node;
// each ancestor of that node in the master's copy gains the placed subtree's total time
// (the tree's times are summed over threads; counts and means stay the master's). A node
// whose probe the master reached nowhere or at several places stays at the top. Each
// later thread's root also gains a child of probe profile::kWorkersOutsideProbes, one
// activation as long as the root's own time (corrected_exclusive): what the thread spent
// outside its probes (an OpenMP worker's wait between parallel regions, and its share of
// a parallel loop left whole, whose probe only the master opens), which the merged tree
// so keeps apart from the time the rank's first threads spent
// outside theirs. `cfhs` are the prepared copies, in the order given; `grafted` counts
// the threads with at least one node placed.
struct ThreadGrafts {
  std::vector<profile::Cfh> cfhs;
  std::size_t grafted = 0;
};
ThreadGrafts graft_threads(const std::vector<const profile::Cfh *> &threads);

struct Tree {
  std::string title;   // what the tree is, one line (see aggregate_trees, cfh_trees)
  profile::Cfh cfh;    // merged or as stored
  bool merged = false; // built by merge_cfhs
};

// The trees of the run as a whole (`idb report --aggregate`): first every thread CFH of
// every rank merged by probe path after graft_threads ("all N thread CFHs merged by probe
// path", and ", K worker threads' trees under their master's nodes" when any), then each
// named CFH (one per object, say) merged over its instances in order of first appearance
// ("CFH "NAME": N instances merged by probe path"). A named CFH's root spans its object's
// life, so merging it into the threads' tree would count that time twice. A summary-mode
// run with one CFH gives that CFH as it is (its spread kept).
std::vector<Tree> aggregate_trees(const profile::Profile &run);

// Every CFH of the run as its own tree, in profile order, or only those of `rank`
// (`idb report`, `idb report --rank N`), titled by cfh_title.
std::vector<Tree> cfh_trees(const profile::Profile &run, std::optional<int> rank = std::nullopt);

// "CFH "NAME" rank R thread T", or "CFH "NAME" summary of every rank thread T".
std::string cfh_title(const profile::Cfh &cfh);

// A node's label: its probe's description, "program" for an undescribed root, "#ID" for
// another undescribed probe.
std::string node_label(const profile::Profile &run, const profile::Cfh &cfh, std::uint32_t node);

// One node of a tree as every front end shows it.
struct TreeRow {
  std::uint32_t node = 0;
  std::uint32_t parent = profile::kNoParent;
  std::size_t depth = 0; // 0 for the root
  std::int32_t probe = 0;
  std::string label;           // node_label
  std::string path;            // the labels from the root down to this node, joined by ';'
  std::uint64_t count = 0;     // activations, timed or not
  std::uint64_t throttled = 0; // of them, counted after throttling stopped the timing
  double inclusive = 0, exclusive = 0, corrected = 0; // seconds (profile::node_times)
  double percent_of_parent = 0; // of the parent's inclusive time; 100 for the root
  double cpu = 0, noise = 0;    // seconds
  // The 50th, 90th and 99th percentile of the timed activations (seconds) from the node's
  // duration histogram; NaN without one.
  double p50 = std::nan(""), p90 = std::nan(""), p99 = std::nan("");
  // The time of every activation (seconds): the inclusive time, and for a throttled node
  // its estimate, each untimed activation at the mean of its samples (idb/stats.h).
  double estimated = 0;
  bool capped = false; // the estimate is capped at what the parent's time leaves
};

// Every node of `cfh`, depth first with children in node order (the order `idb report`
// prints).
std::vector<TreeRow> tree_rows(const profile::Profile &run, const profile::Cfh &cfh);

// One probe of a tree as a flat profile shows it (`idb report --flat`): its nodes on every
// call path taken together, times without the probes' cost. A throttled node's time is its
// estimate (NodeTimes::corrected_all), which its caller's own time no longer holds.
struct FlatRow {
  std::int32_t probe = 0;
  // node_label of its first node; the root's, the time outside every probe, says so:
  // "prog (outside every probe)"
  std::string label;
  // Seconds: `own`, its nodes' own time (corrected_exclusive) summed; `inclusive`, the
  // corrected time of its outermost nodes (those with no node of the same probe above
  // them), so that a recursive probe counts its time once.
  double own = 0, inclusive = 0;
  double own_percent = 0, inclusive_percent = 0; // of the root's corrected time
  std::uint64_t count = 0;                       // activations of all its nodes, timed or not
  std::uint64_t untimed = 0; // of them, only counted after throttling (estimated)
  std::size_t paths = 0;     // its nodes: the call paths that reached it
  bool capped = false;       // an estimate of it was capped (profile::NodeTimes::capped)
};

// The probes of `cfh`, the most own time first (then the most inclusive time, then by
// label). A named CFH's root is left out: it spans its object's life, which is not time
// the program spent there.
std::vector<FlatRow> flat_rows(const profile::Profile &run, const profile::Cfh &cfh);

// The hot path: from the root, each time the child with the largest inclusive time (the
// first of equals; never the workers' time outside their probes), down to a leaf. Node indices, the
// root first; empty for an empty CFH.
std::vector<std::uint32_t> hot_path(const profile::Cfh &cfh);

// A number as its shortest text that reads back to the same double ("0.25", "1e-07").
std::string number_text(double value);

// The columns of a tree export: tree, path, count, inclusive_s, exclusive_s, corrected_s,
// pct_parent, cpu_s, noise_s, throttled, p50_s, p90_s, p99_s (the three empty for a node
// without a histogram), estimated_s.
const std::vector<std::string> &tree_export_columns();
// The cells of one exported row, beside tree_export_columns(), numbers as number_text.
std::vector<std::string> tree_export_cells(const std::string &tree, const TreeRow &row);

} // namespace idb::analysis

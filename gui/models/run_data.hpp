// The value structs a stored run becomes on its way to the GUI: the run read back as a
// Profile, its derived node times, its trees as a whole, and per probe and rank the
// merged statistics the charts plot (all from the analysis library). Built once per run off the GUI
// thread (summarize_run), then shared read-only by every model.
#pragma once

#include "idb/analysis/dynamics.hpp"
#include "idb/analysis/metric.hpp"
#include "idb/analysis/probes.hpp"
#include "idb/analysis/trees.hpp"
#include "idb/profile.hpp"
#include "idb/store.hpp"
#include "idb/tree.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace idb::gui {

// "rank 3"; "all ranks (summary)" for rank -1, the CFHs of a summary-mode run, which
// hold every rank merged (docs/schema.md).
std::string rank_name(int rank);

// What a chart's Y axis shows for a probe (DESIGN §8), and a probe's merged statistics:
// the analysis library's.
using analysis::kAllMetrics;
using analysis::Metric;
using analysis::ProbeStats;

// A probe of the run: every probe but the program's root (probe 0).
struct ProbeSummary {
  std::int32_t id = 0;
  std::string label;                // the description, or "#id"
  int kind = 0;                     // IDB_PROC, ...; 0 when the profile does not describe the probe
  std::vector<ProbeStats> per_rank; // aligned with RunSummary::ranks
  ProbeStats all;                   // every rank merged
  analysis::Imbalance imbalance;    // of the wall total over the ranks that reached it
};

struct RunSummary {
  std::vector<int> ranks;           // distinct ranks, ascending
  std::vector<ProbeSummary> probes; // every probe the run reached except the root, by total
                                    // over all ranks, largest first
  // The probe with this id, or nullptr.
  const ProbeSummary *probe(std::int32_t id) const;
};

struct RunData {
  std::string label;
  // False for the first look at a large run: its lowest rank only, shown while the
  // worker reads the rest (StoreClient::setFirstLookNodes).
  bool complete = true;
  profile::Profile profile;
  std::vector<std::vector<profile::NodeTimes>> times; // per CFH of profile, node_times
  // The run as a whole (analysis::aggregate_trees: the threads merged, each named CFH
  // over its instances); the single CFHs are the profile's own.
  std::vector<analysis::Tree> whole;
  RunSummary summary;
  // Every CFH's iterations of the run's dynamic probe (analysis::run_dynamics); probe 0
  // when the run has none.
  analysis::RunDynamics dynamics;
  store::QueryResult attributes; // key, value
};

using RunDataPtr = std::shared_ptr<const RunData>;

// The trees a run offers, as the tree and flame views list them: first the run as a
// whole (RunData::whole; index -1 - i for its tree i), then each CFH of the profile
// (index i). Titled by the trees' own titles; while the run is incomplete, the whole
// trees' titles say which rank they hold.
struct TreeChoice {
  std::string title;
  int index = 0;
};
std::vector<TreeChoice> tree_choices(const RunData &run);
// The CFH a choice's index names, and its title; nullptr when there is none.
const profile::Cfh *chosen_tree(const RunData &run, int index, std::string *title = nullptr);

// Everything above from a profile read back by store::read_run. Never throws except
// std::bad_alloc; thread-safe (touches nothing shared).
RunData summarize_run(std::string label, profile::Profile profile, store::QueryResult attributes);

// The rows of one probe: every node of it in every CFH (rank, thread, CFH name, parent's
// probe, count, total, min, max, mean, sdev, CPU, noise, corrected), as a table; CPU is
// NULL where none was measured.
store::QueryResult probe_rows(const RunData &run, std::int32_t probe);

// The runs of a database as a table: label, program, nprocs, threads, start, wall
// seconds, attributes, nodes.
store::QueryResult runs_table(const std::vector<store::RunInfo> &runs);

} // namespace idb::gui

// The value structs a stored run becomes on its way to the GUI: the run read back as a
// Profile, its derived node times, the whole run merged into one tree, and per probe and
// rank the merged statistics the charts plot. Built once per run off the GUI thread
// (summarize_run), then shared read-only by every model.
#pragma once

#include "idb/profile.hpp"
#include "idb/store.hpp"
#include "idb/tree.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace idb::gui {

// "rank 3"; "all ranks (summary)" for rank -1, the CFHs of a summary-mode run, which
// hold every rank merged (docs/schema.md).
std::string rank_name(int rank);

// What a chart's Y axis shows for a probe (DESIGN §8).
enum class Metric { total, cpu, range, sdev, count, noise, corrected };

inline constexpr Metric kAllMetrics[] = {Metric::total,    Metric::cpu,   Metric::range,
                                         Metric::sdev,     Metric::count, Metric::noise,
                                         Metric::corrected};

// "total", "CPU", ... for menus and axis titles.
std::string metric_name(Metric metric);

// A probe's nodes on one rank (or in the whole run) merged exactly, and the sum of their
// noise-corrected inclusive times.
struct ProbeStats {
  idb_stats_t stats{};
  double corrected = 0;
};

// The value of `metric` for merged statistics: total and CPU seconds, range = longest
// minus shortest activation, sample standard deviation, count, noise, corrected total.
double metric_value(const ProbeStats &s, Metric metric);

struct ProbeSummary {
  std::int32_t id = 0;
  std::string label;                // the description, or "#id"
  int kind = 0;                     // IDB_PROC, ...; 0 when the profile does not describe the probe
  std::vector<ProbeStats> per_rank; // aligned with RunSummary::ranks
  ProbeStats all;                   // every rank merged
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
  profile::Cfh merged; // every CFH merged by probe path (one tree per run)
  std::vector<profile::NodeTimes> merged_times;
  RunSummary summary;
  store::QueryResult attributes; // key, value
};

// Everything above from a profile read back by store::read_run. Never throws except
// std::bad_alloc; thread-safe (touches nothing shared).
RunData summarize_run(std::string label, profile::Profile profile, store::QueryResult attributes);

// The rows of one probe: every node of it in every CFH (rank, thread, CFH name, parent's
// probe, count, total, min, max, mean, sdev, CPU, noise, corrected), as a table.
store::QueryResult probe_rows(const RunData &run, std::int32_t probe);

// The runs of a database as a table: label, program, nprocs, threads, start, wall
// seconds, attributes, nodes.
store::QueryResult runs_table(const std::vector<store::RunInfo> &runs);

} // namespace idb::gui

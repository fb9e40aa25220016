// The profile reader: parses a profile file (docs/profile-format.md) into plain structs,
// checking magic, version, lengths and every checksum. Every consumer (loader, CLI, GUI)
// reads profiles through this library. Thread-safe: no shared state.
#pragma once

#include "idb/stats.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace idb::profile {

struct Probe {
  std::int32_t id = 0;
  int kind = 0; // IDB_PROC, IDB_LOOP, IDB_CALL, IDB_COMM
  std::string description;
  std::string file;
  int line = 0;
  std::string function;
};

// Format 1.3: a node's duration histogram over the buckets of idb/histogram.h, in
// nanoseconds: its non-empty buckets of one level, in increasing index order. Their counts
// add up to the node's `count` (timed activations); no buckets: the node has no histogram
// (an older profile, IDB_HISTOGRAM=0, or a merge with a node that had none).
struct HistBucket {
  std::uint32_t index = 0; // of the histogram's level
  std::uint64_t count = 0; // 1 or more
  bool operator==(const HistBucket &) const = default;
};

struct Histogram {
  std::uint32_t level = 0; // 0 to IDB_HIST_MAX_LEVEL: 16, 8 or 4 buckets per octave
  std::vector<HistBucket> buckets;
  bool empty() const { return buckets.empty(); }
  bool operator==(const Histogram &) const = default;
};

// Format 1.1, summary mode (docs/mpi.md): one per-rank quantity's spread over the ranks
// that reached a node, and the ranks holding its minimum and maximum.
struct RankSpread {
  double min = 0, max = 0, mean = 0, m2 = 0; // M2: sum of squared deviations from the mean
  std::int32_t rank_min = 0, rank_max = 0;
  bool operator==(const RankSpread &) const = default;
};

// Format 1.4: the time a COMM node's activations spent waiting in one wait-state pattern
// (idb/wait_states.h), from the replay of the communication at MPI_Finalize. Format 1.5,
// in a summary CFH: the seconds' spread over the ranks that reached the node (those that
// did not wait there count as 0 s); `ranks` is 0 where there is none.
struct Wait {
  std::uint32_t pattern = 0; // idb_wait_pattern
  double seconds = 0;
  std::uint64_t instances = 0; // activations that waited
  std::uint32_t ranks = 0;
  RankSpread spread;
  bool operator==(const Wait &) const = default;
};

struct Node {
  std::uint32_t parent = 0; // index into Cfh::nodes; kNoParent for the root
  std::int32_t probe = 0;
  idb_stats_t stats{}; // times in seconds
  Histogram hist;
  std::vector<Wait> waits; // by pattern, only those with time; empty for most nodes
};

// Adds `more` into `into` pattern by pattern (kept in pattern order); a pattern that was
// in both has no spread after.
void merge_waits(std::vector<Wait> &into, const std::vector<Wait> &more);

// The seconds of every pattern together.
double wait_seconds(const std::vector<Wait> &waits);

inline constexpr std::uint32_t kNoParent = 0xFFFFFFFFu;

// The probe of a node no profile holds: the one the trees summed over threads add below
// their root for the time the rank's later threads (OpenMP's workers, say) spent outside
// their probes (analysis::graft_threads). The runtime leaves the ID to reports
// (idb/probe.h).
inline constexpr std::int32_t kWorkersOutsideProbes = INT32_MIN;

struct NodeSpread {
  std::uint32_t ranks = 0;   // ranks that reached the node
  RankSpread total;          // wall time, s
  RankSpread count;          // activations
  RankSpread cpu;            // CPU time, s
  RankSpread sent, received; // bytes
};

// Format 1.6: a dynamic node's iterations (docs/ARCHITECTURE.md, "Dynamics"). Each
// iteration's subtree profile was clustered online; a cluster keeps, per member node, the
// activations and wall seconds summed over its iterations, so an iteration is
// reconstructed as its cluster's sums over the cluster's iteration count.
struct DynCluster {
  std::uint64_t iterations = 0;
  std::vector<double> visits;  // per member
  std::vector<double> seconds; // per member
  bool operator==(const DynCluster &) const = default;
};

struct DynRun {
  std::uint64_t length = 0; // consecutive iterations in one cluster
  std::uint32_t cluster = 0;
  bool operator==(const DynRun &) const = default;
};

struct Dynamics {
  std::uint32_t node = 0;             // the dynamic node, index into Cfh::nodes
  std::vector<std::uint32_t> members; // members[0] is `node`; the rest lie in its subtree
  std::uint64_t iterations = 0;       // clustered, numbered from 0
  std::uint64_t dropped = 0;          // iterations past the reserve, not clustered
  std::uint64_t untracked = 0;        // subtree nodes past the member cap, not followed
  std::uint64_t mixed = 0;            // merges of clusters of different call-tree classes
  std::vector<DynCluster> clusters;   // numbered by their first iteration
  std::vector<DynRun> runs;           // the iteration-to-cluster map, in iteration order
  bool operator==(const Dynamics &) const = default;

  static constexpr std::uint32_t kNoMember = 0xFFFFFFFFu;
  // The member index of node `node_index`, or kNoMember.
  std::uint32_t member_of(std::uint32_t node_index) const;
  // Every iteration's reconstructed wall seconds (or activations) of member `member`: its
  // cluster's sum over the cluster's iterations.
  std::vector<double> series(std::uint32_t member, bool seconds = true) const;
  // The cluster of every iteration, expanded from the runs.
  std::vector<std::uint32_t> cluster_of_iterations() const;
};

struct Cfh {
  std::int32_t rank = 0;
  std::int32_t thread = 0;
  bool named = false;
  std::string name;
  std::uint64_t overflow = 0;       // activations not recorded: node cap
  std::uint64_t mismatches = 0;     // unmatched stops, and enters/leaves that did not pair
  std::uint64_t unclosed = 0;       // probes the runtime closed (thread end, exit)
  std::uint64_t depth_overflow = 0; // activations not recorded: depth cap
  std::vector<Node> nodes;          // nodes[0] is the root; parents precede children
  // Format 1.1: a summary CFH merges every rank (rank is -1); its nodes hold the merged
  // statistics and `spread`, parallel to `nodes`, the cross-rank spread.
  bool summary = false;
  std::vector<NodeSpread> spread;
  std::vector<Dynamics> dynamics; // format 1.6: one per dynamic node
};

struct Profile {
  int version_major = 0, version_minor = 0;
  std::map<std::string, std::string> meta; // everything in the META section, verbatim
  std::vector<std::string> argv;
  std::map<std::string, std::string> attributes; // IDB_ATTR_<key> → key
  std::vector<Probe> probes;
  std::vector<Cfh> cfhs;

  // A metadata value, or `fallback` when absent.
  std::string get(const std::string &key, const std::string &fallback = "") const;
  // A numeric metadata value, or `fallback` when absent or not a number.
  double number(const std::string &key, double fallback = 0.0) const;
  // The probe with this id, or nullptr.
  const Probe *probe(std::int32_t id) const;
};

struct ReadResult {
  std::optional<Profile> profile; // set on success
  std::string error;              // otherwise: what is wrong, and at which byte offset
};

// Reads and validates a whole profile; a truncated, corrupted or newer-major file is
// refused whole. Never throws for bad content (std::bad_alloc aside).
ReadResult read_profile(const std::string &path);
ReadResult parse_profile(std::string_view bytes);

} // namespace idb::profile

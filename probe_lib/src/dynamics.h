// Dynamics in bounded memory (docs/ARCHITECTURE.md, "Dynamics"): the activations of a
// dynamic node (one per iteration of a time-step loop) are iterations; at the end of each,
// the statistics its subtree gained during it form an iteration profile, which becomes a
// cluster of its own; past the cluster limit the two nearest clusters merge. Memory is the
// clusters (reserved at the node's creation, committed as touched) and 4 bytes per
// iteration for the iteration-to-cluster map, a disjoint-set forest. Only the owning
// thread updates a node's state, at the node's stop (a slow path: the node's frames are
// marked special); the writer reads it under a sequence count.
#pragma once

#include "cfh.h"

#include <atomic>
#include <cstdint>

namespace idb::rt {

struct ByteBuffer;
struct Config;

// The condensed vector a distance is taken on: the iteration's wall time, its time in
// MPI point-to-point and collective calls, the bytes they moved, the activations of the
// subtree, and its time outside MPI.
constexpr int kDynFeatures = 6;

// One cluster slot: the sums over its iterations.
struct DynCluster {
  std::uint64_t iterations; // 0: the slot is free
  std::uint64_t signature;  // the call-tree class: which members its iterations visited
  std::uint32_t root;       // its iterations' set in the forest: the root's iteration
  std::uint32_t width;      // members its entries cover (the rest are 0)
  std::uint32_t nearest;    // the cluster whose merge with it costs least, or kNoNode
  std::uint32_t mixed;      // iterations of different call-tree classes were merged in
  double nearest_cost;
  double features[kDynFeatures];
  double point[kDynFeatures]; // the mean vector over the scale (DynState::scale)
};

// A member's sums in one cluster: activations (counted and throttled) and wall ticks
// (a throttled activation that was not a sample counted at the node's untimed mean, as
// it stood at the iteration's end: idb_stats_untimed_mean).
struct DynEntry {
  double visits;
  double ticks;
};

// A member's totals at the end of the last iteration: activations, the wall ticks of the
// timed ones and of the samples, the throttled activations that were not samples, bytes.
struct DynBase {
  double visits;
  double ticks;
  double unsampled;
  double bytes;
};

struct DynState {
  std::atomic<std::uint32_t> seq; // odd while the owning thread updates the state
  std::uint32_t node;             // the dynamic node
  std::uint32_t limit;            // clusters kept; kNoNode: every iteration keeps its own
  std::uint32_t slots;            // cluster slots reserved (limit + 1, or max_iterations)
  std::uint32_t live;             // clusters in use
  std::uint32_t members;          // subtree nodes followed, the dynamic node first
  std::uint32_t member_cap;
  std::uint32_t scanned;    // the CFH's nodes below this index are sorted into in or out
  std::uint64_t iterations; // clustered so far, numbered from 0
  std::uint64_t max_iterations;
  std::uint64_t dropped;             // iterations past max_iterations, not clustered
  std::uint64_t untracked;           // subtree nodes past member_cap
  std::uint64_t mixed;               // merges of clusters of different call-tree classes
  double feature_sums[kDynFeatures]; // over every iteration
  double scale[kDynFeatures];        // the features' means when the costs were last set
  double *cost;                      // [slots * slots] merge costs of live pairs
  std::uint32_t *member_node;        // [member_cap] node index of each member
  std::uint8_t *member_class;        // [member_cap] kDynCompute, kDynP2p or kDynCollective
  std::uint8_t *in_subtree;          // [the CFH's max_nodes] 1: the node is a member
  DynBase *base;                     // [member_cap]
  DynCluster *clusters;              // [slots]
  DynEntry *entries;                 // [slots * member_cap]
  std::uint32_t *free_slots;         // [slots] a stack of the free ones
  std::uint32_t free_count;
  std::uint32_t *forest; // [max_iterations] parent iteration; a root is its own parent
  std::size_t reserved;  // bytes of the one reservation all the arrays live in
};

// Reads IDB_DYNAMIC and IDB_CLUSTERS (reporting what cannot be used on stderr, once: the
// run goes on without dynamics) and checks a probe IDB_DYNAMIC names by id against the
// probe table. At initialisation, under the runtime's lock.
void dyn_configure(const Config &config);

// True when nodes of probe `id` (of `kind`) should be dynamic. Called at node creation;
// reports a probe that is dynamic but not a loop, once.
bool dyn_wanted(int kind, int id);

// Marks the CFH's new node `node` dynamic: reserves its state. Refuses (reporting once)
// a node under another dynamic node, more than kMaxDynamicNodes in one CFH, or a failed
// reservation. Returns true when the node is dynamic.
bool dyn_attach(Cfh &c, std::uint32_t node);

// The dynamic node `node` ended an iteration (its statistics already hold it).
void dyn_iteration_end(Cfh &c, std::uint32_t node);

// Frees the CFH's dynamic states.
void dyn_release(Cfh &c);

// Appends one DYN section per dynamic node of the CFH with a consistent state (a state
// another thread is updating as the profile is written is left out). Returns how many.
std::uint32_t put_dynamics(ByteBuffer &b, const Cfh &c, double ticks_per_second);

// API: marks probe `id` dynamic (idb_dynamic_probe).
void dyn_mark_probe(int id);

} // namespace idb::rt

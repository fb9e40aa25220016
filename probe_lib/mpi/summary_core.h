// The summary mode's data, without MPI (so tests and benchmarks drive it directly): the
// union of the ranks' CFH structures, matched by CFH name and by (parent, probe) path, and
// the fixed-size per-node record the MPI reduction combines: the node's statistics
// merged over the ranks, and per quantity (wall total, count, CPU total, bytes sent,
// bytes received) the cross-rank min, max, mean and M2 of the per-rank values with the
// ranks of the min and max. Records merge exactly in count, sums, min and max, and up to
// rounding in mean and M2, in any order. malloc only: the MPI layer is linked as C.
#pragma once

#include "blob.h"
#include "hash_map.h"

#include "idb/stats.h"

#include <cstdint>

namespace idb::mpi {

// One quantity's spread over the ranks that reached a node (40 bytes in the file).
struct Spread {
  double min, max, mean, m2;
  std::int32_t rank_min, rank_max; // the lower rank on ties
};

constexpr int kSpreads = 5; // wall total, count, CPU total, bytes sent, bytes received

struct SummaryRecord {
  idb_stats_t all;     // merged over the ranks; seconds
  std::uint32_t ranks; // ranks that reached the node
  std::uint32_t unused;
  Spread spread[kSpreads];
};

// The record of one rank's node, and the empty record (no rank reached the node).
void summary_from_rank(SummaryRecord &r, const idb_stats_t &stats, int rank);
void summary_clear(SummaryRecord &r);
// a := a merged with b.
void summary_merge(SummaryRecord &a, const SummaryRecord &b);

// A CFH as a rank's writer serialized it (a CFH section, parsed in place).
struct LocalCfh {
  std::uint32_t flags;
  std::int32_t thread;
  char name[64];
  std::uint64_t counters[4]; // overflow, mismatches, unclosed, depth overflow
  std::uint32_t count;
  const unsigned char *records; // count node records of record_size bytes
  std::uint32_t record_size;
  // Its HIST section's histograms (hist_items of them), or none.
  const unsigned char *hists;
  std::size_t hist_bytes;
  std::uint32_t hist_items;
  // Its WAIT section's items (IDB_WAIT_ITEM_SIZE bytes each), or none.
  const unsigned char *waits;
  std::uint32_t wait_items;
};

// Parses the sections of one writer (idb_ext_local_data: `count` CFH sections, each
// followed by its HIST section when histograms are on). Returns the number of CFHs, or -1
// when they are malformed or memory ran out; the caller frees *out.
int parse_cfh_sections(const unsigned char *data, std::size_t size, std::uint32_t count,
                       LocalCfh **out);
// Node i's parent, probe and statistics.
void local_node(const LocalCfh &c, std::uint32_t i, std::uint32_t &parent, std::int32_t &probe,
                idb_stats_t &stats);

// The union of several ranks' CFHs: per CFH name the nodes any rank has, parents first.
struct UnionCfh {
  std::uint32_t flags;
  std::int32_t thread;
  char name[64];
  std::uint32_t count, capacity;
  std::uint32_t *parent;
  std::int32_t *probe;
  rt::HashMap<std::uint32_t> index; // (parent << 32 | probe) → node
};

struct Union {
  UnionCfh *cfhs = nullptr;
  std::uint32_t count = 0, capacity = 0;
  bool failed = false; // memory ran out

  Union() = default;
  Union(const Union &) = delete;
  Union &operator=(const Union &) = delete;
  ~Union() { reset(); }
  // Back to empty.
  void reset();
  // Index of the CFH named `name` (named or not), added when missing; -1 without memory.
  int cfh(std::uint32_t flags, std::int32_t thread, const char *name);
  // Total nodes over every CFH, and where each CFH's nodes start in that sequence.
  std::uint64_t total_nodes() const;
  std::uint64_t offset(std::uint32_t cfh) const;
};

// The node under `parent` (kNoNode: the root) for `probe` in `c`, added when `add`;
// 0xFFFFFFFF when absent (or memory ran out).
std::uint32_t union_node(UnionCfh &c, std::uint32_t parent, std::int32_t probe, bool add);

// Adds the structure of `local` CFHs to `u`.
void union_add_local(Union &u, const LocalCfh *local, int count);

// The structure as bytes, and a structure from bytes merged into `u` (false: malformed).
void union_put(const Union &u, ByteBuffer &out);
bool union_merge(Union &u, Reader &in);

// Fills records[offset(cfh) + node] of `u` with this rank's nodes (the other entries
// empty). `records` holds u.total_nodes() entries. False when a node is not in `u`.
bool records_of_rank(const Union &u, const LocalCfh *local, int count, int rank,
                     SummaryRecord *records);

// One node's duration histogram: bucket indexes of `level`, increasing, and their counts.
struct SparseHist {
  std::uint32_t level, size, capacity;
  std::uint32_t *buckets;
  std::uint64_t *counts;
};

// The histograms of every node of a union (indexed like the records), merged exactly as
// they come: the finer of two is brought to the coarser level first.
struct HistSet {
  SparseHist *nodes = nullptr;
  std::uint64_t count = 0;
  bool failed = false; // memory ran out or a message was malformed: none are written

  HistSet() = default;
  HistSet(const HistSet &) = delete;
  HistSet &operator=(const HistSet &) = delete;
  ~HistSet();
  // Room for `total` nodes, all without histogram; false when memory ran out.
  bool init(std::uint64_t total);
  // Adds a histogram to node `node`'s; false (and failed) when memory ran out.
  bool add(std::uint64_t node, std::uint32_t level, const std::uint32_t *buckets,
           const std::uint64_t *counts, std::uint32_t size);
};

// Adds this rank's histograms (the HIST data of `local`) to `h`, indexed like
// records_of_rank's records. False when a node is not in `u` or the data is malformed.
bool hists_of_rank(const Union &u, const LocalCfh *local, int count, HistSet &h);

// The histograms as bytes, and histograms from bytes added to `h` (false: malformed).
void hist_put(const HistSet &h, ByteBuffer &out);
bool hist_take(HistSet &h, Reader &in);

// One (node, pattern) of the union's waits: the seconds and instances summed over the
// ranks, and the seconds' spread over the ranks that reached the node (0 for those that
// did not wait there). `node` indexes like the records (offset of its CFH + node).
struct WaitRecord {
  std::uint64_t node;
  std::uint32_t pattern, ranks;
  double seconds;
  std::uint64_t instances;
  Spread spread;
};

// This rank's waits per (node, pattern), summed over its CFHs of one name and sorted; the
// caller frees *out. False when a node is not in `u` or memory ran out.
struct RankWait {
  std::uint64_t node;
  std::uint32_t pattern;
  double seconds;
  std::uint64_t instances;
};
bool waits_of_rank(const Union &u, const LocalCfh *local, int count, RankWait **out,
                   std::uint64_t *n);

// Sets bit `pattern` of mask[node] for each of `waits` (mask: one byte per union node).
void wait_mask(const RankWait *waits, std::uint64_t n, unsigned char *mask);

// The records of the (node, pattern) pairs set in `mask`, in increasing order, from this
// rank's view: its own waits where it has them, 0 where it reached the node without
// waiting (`records`: this rank's summary records), none where it did not reach it. The
// caller frees *out (*n records).
bool wait_records(const unsigned char *mask, std::uint64_t total, const SummaryRecord *records,
                  const RankWait *waits, std::uint64_t nwaits, int rank, WaitRecord **out,
                  std::uint64_t *n);
// a := a merged with b (the same node and pattern).
void wait_merge(WaitRecord &a, const WaitRecord &b);

// Appends to `out`, per CFH of `u`, a CFH section (rank -1, flag IDB_CFH_FLAG_SUMMARY,
// the merged statistics), its SUMMARY section, when `hists` is given a HIST section with
// each node's merged histogram that adds up to its merged count, and when some of `waits`
// (nwaits merged records, in increasing order) are its nodes' a WAIT section and a
// WAIT_SPREAD section; returns the number of sections. `counters` holds the four counters
// per CFH, summed over the ranks.
std::uint32_t put_summary_sections(const Union &u, const SummaryRecord *records,
                                   const std::uint64_t *counters, const HistSet *hists,
                                   const WaitRecord *waits, std::uint64_t nwaits, ByteBuffer &out);

} // namespace idb::mpi

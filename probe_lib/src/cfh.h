// One control-flow hierarchy (CFH) instance: a tree of nodes, one per probe reached under
// a given parent, each with fixed-size statistics; a stack of open activations; and a
// hash table from (parent, probe) to node. Node storage is reserved once and never moves,
// so finalize can read a CFH that another thread is still extending. The steady-state
// start/stop pair allocates nothing, takes no lock and makes no system call.
#pragma once

#include "hash_map.h"
#include "idb/histogram.h"
#include "idb/probe.h"
#include "idb/stats.h"
#include "timer.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace idb::rt {

constexpr std::uint32_t kNoNode = 0xFFFFFFFFu;

// Each node's duration histogram: a window of kHistWindow 16-bit counters over
// consecutive buckets of one level (idb/histogram.h), 1 KB, placed around the node's
// first timed activation and moved or made coarser when a duration falls outside it
// (cfh_hist_miss). 512 buckets of level 0 span 32 octaves (a factor of 4 billion, e.g.
// 100 ns to 7 minutes) at 3%; level 1 spans every duration there is, at 5.9%. A counter
// that wraps adds 2^16 to the node's carry for that bucket (Cfh::carries).
using HistCounter = std::uint16_t;
constexpr std::uint32_t kHistWindow = 512;
constexpr std::uint64_t kHistWrap = std::uint64_t(1) << 16;
constexpr std::uint32_t kHistUnplaced = 0x80000000u; // no window yet: every index misses

// 192 bytes; what start and stop touch lies in the first 64.
struct alignas(64) Node {
  std::uint32_t parent;
  std::int32_t probe;
  std::uint8_t mode; // kMode* bits; start takes its slow path when any is set
  std::uint8_t kind; // the probe's kind (IDB_PROC, ...): the MPI layer asks for COMM
  std::uint8_t hist_level;
  std::uint8_t hist_carried; // the node has entries in Cfh::carries
  std::uint32_t hist_base;   // the histogram window's first bucket, of level hist_level
  idb_stats_t stats;         // wall in ticks, CPU in ns, noise: measured extra ticks only
};
static_assert(sizeof(Node) == 192, "a node fills three cache lines exactly");
static_assert(offsetof(Node, stats.m2) + sizeof(double) <= 64,
              "what a timed stop updates lies in the node's first line");

constexpr std::uint32_t kModeCpu = 1;       // the CPU policy times this node's activations
constexpr std::uint32_t kModeThrottled = 2; // activations are only counted (throttling)
constexpr std::uint32_t kModeDynamic = 4;   // activations are iterations (dynamics.h)

struct Frame {
  std::uint64_t t0; // wall ticks at the end of start
  union {
    std::uint64_t cpu0;   // thread CPU ns at start, when CPU-timed
    std::uint32_t charge; // unrecorded: the recorded node their noise is charged to
  };
  std::uint32_t node; // kNoNode when the node cap was reached
  std::int32_t probe;
  std::uint32_t special; // kSpecial* bits: stop takes the slow path
  // The innermost node when the frame opened, innermost again when it closes: the frame
  // below's, or a throttled node the site cache counted and that has no frame.
  std::uint32_t parent;
};
static_assert(sizeof(Frame) == 32, "two frames to a cache line");

constexpr std::uint32_t kSpecialRoot = 1;       // the root frame, or the guard below it
constexpr std::uint32_t kSpecialCpu = 2;        // CPU-timed activation
constexpr std::uint32_t kSpecialNoNode = 4;     // node cap reached: not recorded
constexpr std::uint32_t kSpecialUncounted = 8;  // activations past the depth cap sit on top
constexpr std::uint32_t kSpecialThrottled = 16; // a throttled node's: counted, not timed
constexpr std::uint32_t kSpecialDynamic = 32;   // a dynamic node's: its stop ends an iteration
constexpr std::uint32_t kSpecialSampled = 64;   // a throttled node's, timed as a sample
constexpr std::uint32_t kSpecialHeavy = 128;    // its path costs too much: its stop throttles it

struct DynState;
constexpr std::uint32_t kMaxDynamicNodes = 8; // dynamic nodes one CFH keeps (dynamics.h)

// A node's entry in the child table. Once the node throttles, `untimed` has
// kUntimedThrottled set, and its low 31 bits count down the activations it may still
// count with nothing else read: a throttled start takes one and reads nothing else, and
// its stop only pops the frame. Inside code that sweeps much memory between two
// activations, the node's two cache lines (its mode at start, its count at stop) were a
// miss each (docs/PERFORMANCE.md, section 1c). At 0 the runtime looks (cfh_throttled_due):
// that activation is timed as a sample, and the node's record is credited with the next
// run of activations (stats.throttled); cfh_untimed subtracts what is left of it.
struct Child {
  std::uint32_t node;
  std::uint32_t untimed;
};
constexpr std::uint32_t kUntimedThrottled = 0x80000000u;
constexpr std::uint32_t kUntimedMost = 0x7FFFFFFFu; // the longest run: 31 bits

// The children of every node: (parent << 32 | probe) to the child's entry.
using ChildTable = HashMap<Child>;

// Limits and policy shared by every CFH of the process, fixed at initialisation.
struct Limits {
  std::uint32_t max_nodes;
  std::uint32_t max_depth;
  double cpu_threshold; // mean wall ticks above which a node is CPU-timed; inf: never
  bool cpu_all;
  double cpu_read_ns; // CPU time one thread-CPU clock read itself adds to a CPU interval
  double noise_ticks; // the calibrated pair charge, for activations that are not recorded
  // Nanoseconds per tick times 2^32, for the histogram's bucket of each duration; 0 when
  // histograms are off (IDB_HISTOGRAM=0).
  std::uint64_t hist_mult;
  // The most wall time one thread-CPU clock read is charged as noise: a few times its
  // calibrated cost, so a rank that loses its core inside the read (more ranks than
  // cores) is not charged the wait as probe cost.
  double cpu_read_cap_ticks;
  // Throttling: a node stops timing once it has `throttle_after` timed activations and
  // its mean is under `throttle_ticks`, or `throttle_early_after` and a mean under
  // `throttle_early_ticks` (half of it); the largest counts and -inf when throttling is off.
  std::uint64_t throttle_after;
  double throttle_ticks;
  std::uint64_t throttle_early_after;
  double throttle_early_ticks;
  // One throttled activation in about `throttle_sample` (a power of two) is timed as a
  // sample, at random; 0: none.
  std::uint32_t throttle_sample;
};

// Time a node's activations waited in one wait-state pattern (idb/wait_states.h), which
// the MPI layer's replay adds at finalize (idb_ext_add_waits).
struct WaitItem {
  std::uint32_t node;
  std::uint32_t pattern;
  double seconds;
  std::uint64_t instances;
};

// Allocated on a cache line of its own (cfh_create), whose first 64 bytes hold what a
// start reads before it reaches the child table's slot.
struct alignas(64) Cfh {
  // Hot: touched by every start/stop. First, what the scope macros read inline
  // (idb/probe.h): `hot.top` is the innermost open node (the parent of the next start;
  // read from here, a start's chain of loads skips the stack's line, which code that
  // sweeps memory between two probes evicts), and `hot.sites` points at `sites` below.
  idb_hot_t hot;
  Frame *stack;
  std::uint32_t depth; // open frames, the root's included; stack[-1] is a guard
  std::uint32_t limit; // start records while depth < limit (0 while uncounted > 0)
  Node *nodes;
  // Per node, its children that are not throttled: a node throttles only when it has
  // none (settled_mode). Reserved like the nodes; read at a stop only when the node's
  // statistics would throttle it.
  std::uint32_t *timed_children;
  std::atomic<std::uint32_t> node_count;
  ChildTable children;
  double cpu_threshold;
  std::uint64_t throttle_after;
  double throttle_ticks;
  std::uint64_t throttle_early_after;
  double throttle_early_ticks;
  std::uint32_t throttle_sample; // Limits::throttle_sample
  std::uint32_t sample_state;    // xorshift state of the gaps between samples
  std::uint64_t hist_mult;       // Limits::hist_mult
  HistCounter *hists;            // kHistWindow counters per node, reserved like the nodes
  // The counter the last timed activation goes to, counted at the next one (or read as
  // counted): see cfh_hist_add. &hist_idle when there is none.
  HistCounter *hist_pending;
  HistCounter hist_idle;

  // Cold.
  // What histogram counters counted past 16 bits: (node << 32 | bucket of the node's
  // level) to the multiples of 2^16 more. Allocated at the first.
  HashMap<std::uint64_t> carries;
  bool carries_ready;
  std::uint32_t max_depth;
  std::uint32_t uncounted; // activations past the depth cap still open
  std::uint32_t max_nodes;
  bool cpu_all;
  double cpu_read_ns;
  double cpu_read_cap_ticks;
  double hidden_charge;         // noise charged for each activation past a cap
  std::uint64_t overflow;       // activations not recorded: node cap reached
  std::uint64_t depth_overflow; // activations not recorded: depth cap reached
  std::uint64_t mismatches;     // stops that did not match the innermost open probe
  std::uint64_t unclosed;       // probes closed by the runtime (thread end, exit)
  int thread;                   // thread slot, or the creating thread's for named CFHs
  bool named;
  bool in_use; // a thread owns this default CFH, or a named CFH is alive
  char name[64];
  Cfh *next; // every CFH of the process, in creation order
  // Wait states, in (node, pattern) order; malloc'd at finalize by the MPI layer's replay.
  WaitItem *waits;
  std::uint32_t wait_count, wait_cap;
  // Dynamic nodes (dynamics.h), in creation order; created at the node's creation.
  DynState *dyn[kMaxDynamicNodes];
  std::uint32_t dyn_count;
  // The site cache (idb_hot_t): throttled nodes, each at its probe ID's low bits.
  alignas(64) idb_site_t sites[IDB_SITES_];
};
static_assert(offsetof(Cfh, hot) == 0, "idb_hot_ points at the CFH's head");

// Empties the site cache: every entry's key all ones, which no (parent, probe) pair has.
inline void cfh_sites_clear(Cfh &c) {
  for (idb_site_t &site : c.sites)
    site = idb_site_t{~0ull, nullptr};
}

// Allocates a CFH with its root node open. Returns nullptr when memory is exhausted.
Cfh *cfh_create(const char *name, bool named, int thread, const Limits &limits);

// Releases a CFH that is no longer linked anywhere.
void cfh_free(Cfh *c);

// Adds `seconds` of waiting in `pattern` over `instances` activations to node `node`;
// false when memory is exhausted.
bool cfh_add_wait(Cfh &c, std::uint32_t node, std::uint32_t pattern, double seconds,
                  std::uint64_t instances);

// Opens the root again after the CFH was closed (thread slot or name reused).
void cfh_reopen(Cfh &c);

// Closes every open frame at `t` (counting them as unclosed, the root excepted).
void cfh_close_all(Cfh &c, std::uint64_t t);

// Node lookup and creation: the part of start that misses the table.
std::uint32_t cfh_add_node(Cfh &c, std::uint32_t parent, int kind, int id, const char *description,
                           const char *file, int line, const char *function);

// The slow parts of start and stop: new nodes, CPU timing, a node's first throttled
// activation, caps, mismatches, the root.
void cfh_start_slow(Cfh &c, int kind, int id, const char *description, const char *file, int line,
                    const char *function);
void cfh_start_special(Cfh &c, std::uint32_t node, int id);
void cfh_start_uncounted(Cfh &c);
void cfh_stop_slow(Cfh &c, int id);

// A duration outside the node's histogram window (or its first one): places, moves or
// coarsens the window and counts it. `bucket` is of level 0.
void cfh_hist_miss(Cfh &c, std::uint32_t node, std::uint32_t bucket);

// The pending counter (Cfh::hist_pending) wrapped past 16 bits: it has counted 2^16 more.
void cfh_hist_wrapped(Cfh &c);

// The node's histogram as it would be written: its non-empty buckets of level *level in
// increasing order, with `extra_ns` (when not negative) counted once more. Writes at most
// `capacity` pairs and returns how many there are; 0 when the node has none.
std::uint32_t cfh_hist_read(const Cfh &c, std::uint32_t node, double extra_ns, std::uint32_t *level,
                            std::uint32_t *buckets, std::uint64_t *counts, std::uint32_t capacity);

// The duration `ticks` in nanoseconds for the histogram: a multiply and a shift.
inline std::uint64_t hist_ns(const Cfh &c, std::uint64_t ticks) {
  return std::uint64_t((static_cast<unsigned __int128>(ticks) * c.hist_mult) >> 32);
}

// Counts one timed activation of `ticks` in the node's histogram. The counter is found
// from the duration, so its address is known only at the end of a chain of dependent
// operations after the clock read; a store to it holds back the loads of the next probe
// until then (about 8 ns a pair measured). So it is not incremented here: its address is
// stored (a fixed place) and the increment happens at the next timed activation, when the
// address has long been known. A reader of the histogram counts the pending one too
// (cfh_hist_read); a window changes (cfh_hist_miss) only with nothing pending.
inline void cfh_hist_add(Cfh &c, std::uint32_t node, const Node &n, std::uint64_t ticks) {
  if (__builtin_expect(++*c.hist_pending == 0, 0)) cfh_hist_wrapped(c);
  std::uint32_t b = idb_hist_bucket(hist_ns(c, ticks));
  std::uint32_t i = (b >> n.hist_level) - n.hist_base;
  if (__builtin_expect(i < kHistWindow, 1)) {
    c.hist_pending = c.hists + (std::size_t(node) * kHistWindow + i);
    return;
  }
  c.hist_pending = &c.hist_idle;
  cfh_hist_miss(c, node, b);
}

// Whether the timed activations on the path from the top frame's node up to an open
// enclosing node (the root excluded) cost that node's time more than the share of which
// `ticks` is the mean activation's bound: their count times `ticks` over its time, the
// open activation's so far included, for any such node. `timed`: the top frame's node's
// activations so far (its count, plus one when its frame is still open).
__attribute__((cold, noinline)) bool cfh_path_costly(const Cfh &c, std::uint64_t timed,
                                                     double ticks);

// The node's mode after a timed activation: CPU-timed when its mean reaches the CPU
// threshold; throttled from now on when it has enough activations and a mean under the
// throttle threshold, or a tenth as many (by default) and a mean under half of it.
inline std::uint32_t next_mode(const Cfh &c, const idb_stats_t &s) {
  std::uint32_t cpu = s.mean >= c.cpu_threshold ? kModeCpu : 0;
  // Every compare evaluated (no branch), as 0 or 1 each.
  std::uint32_t throttle =
      (std::uint32_t(s.count >= c.throttle_after) & std::uint32_t(s.mean < c.throttle_ticks)) |
      (std::uint32_t(s.count >= c.throttle_early_after) &
       std::uint32_t(s.mean < c.throttle_early_ticks));
  return cpu | throttle * kModeThrottled;
}

// next_mode for node `node`, which does not throttle while a child of it is timed: a
// throttled activation is not timed, so a timed child inside it would lie outside its
// parent's measured time (an inclusive time under the children's, a negative
// exclusive one). A node throttles once its children have; those that first appear
// under a throttled node are throttled from the start (cfh_add_node), so the timed
// activations of a tree always nest.
//
// Probes nested in one another add up: each may cost under the threshold's share of its
// own time while together they cost more of the outer one's. So when the top frame's node
// reaches the count of either rule, its path is weighed too (cfh_path_costly), once: it
// throttles when the timed probes from it up to an enclosing node cost that node more
// than the same share.
// A node whose last timed child has just throttled is weighed so again while open
// (cfh_start_slow); found too costly, its frame is marked, and its stop (the slow one)
// throttles it.
inline std::uint32_t settled_mode(const Cfh &c, std::uint32_t node, const idb_stats_t &s) {
  std::uint32_t mode = next_mode(c, s);
  if (__builtin_expect((s.count == c.throttle_after) | (s.count == c.throttle_early_after), 0) &&
      !(mode & kModeThrottled) &&
      cfh_path_costly(c, s.count,
                      s.count == c.throttle_after ? c.throttle_ticks : c.throttle_early_ticks))
    mode |= kModeThrottled;
  if (__builtin_expect(mode & kModeThrottled, 0) && c.timed_children[node] != 0)
    mode &= ~kModeThrottled;
  return mode;
}

// Writes the tree as "path;of;descriptions count" lines. Returns 0 or -1.
int cfh_dump(const Cfh &c, void *stream);

inline std::uint64_t child_key(std::uint32_t parent, int id) {
  return (std::uint64_t(parent) << 32) | std::uint32_t(id);
}

inline std::uint32_t cfh_find(const Cfh &c, std::uint32_t parent, int id) {
  const Child *child = c.children.find(child_key(parent, id));
  return child ? child->node : kNoNode;
}

// Every throttled activation of the node: those its record was credited with less those
// its entry has left.
std::uint64_t cfh_untimed(const Cfh &c, std::uint32_t node);

// A throttled start that found its entry's run used up: credits the node's record with the
// next run and, when sampling, makes the frame `f` a timed sample. Returns 1, for
// cfh_start_fast's tail call.
int cfh_throttled_due(Cfh &c, Child &child, Frame &f);

// Counts a throttled activation in the node's entry and opens its frame: no clock read.
// Returns 1.
inline int cfh_start_throttled(Cfh &c, Child &child, int id) {
  c.sites[std::uint32_t(id) & (IDB_SITES_ - 1)] =
      idb_site_t{child_key(c.hot.top, id), &child.untimed};
  Frame &f = c.stack[c.depth++];
  f.parent = c.hot.top;
  f.node = c.hot.top = child.node;
  f.probe = id;
  f.special = kSpecialThrottled;
  if (__builtin_expect(child.untimed == kUntimedThrottled, 0))
    return cfh_throttled_due(c, child, f);
  --child.untimed;
  return 1;
}

// The common start: a node that exists, under the open frame, timed or throttled. Returns
// 1 when it opened the frame, or 0 having changed nothing: everything else (a new node,
// CPU timing, a dynamic node, a node's first throttled activation, a cap) is the slow
// path's. Needs only the probe ID, so the caller (idb_start_fast) passes nothing else and
// saves no register.
inline int cfh_start_fast(Cfh &c, int id) {
  if (__builtin_expect(c.depth >= c.limit, 0)) return 0;
  Child *child = c.children.find(child_key(c.hot.top, id));
  if (__builtin_expect(child == nullptr, 0)) return 0;
  if (child->untimed >= kUntimedThrottled) return cfh_start_throttled(c, *child, id);
  std::uint32_t node = child->node;
  if (__builtin_expect(c.nodes[node].mode != 0, 0)) return 0;
  Frame &f = c.stack[c.depth++];
  f.parent = c.hot.top;
  f.node = c.hot.top = node;
  f.probe = id;
  f.special = 0;
  f.t0 = now();
  return 1;
}

inline void cfh_start(Cfh &c, int kind, int id, const char *description, const char *file, int line,
                      const char *function) {
  if (!cfh_start_fast(c, id)) cfh_start_slow(c, kind, id, description, file, line, function);
}

// Pops the top frame; what was innermost when it opened is again.
inline void cfh_pop(Cfh &c) {
  c.hot.top = c.stack[--c.depth].parent;
}

// The timed stop of the top frame, which matches the stop. Kept out of cfh_stop, so that
// the registers it needs are saved on its own path only, and a throttled stop saves none.
__attribute__((noinline)) inline void cfh_stop_timed(Cfh &c) {
  std::uint64_t t = now();
  const Frame &f = c.stack[c.depth - 1];
  Node &n = c.nodes[f.node];
  idb_stats_add(&n.stats, double(t - f.t0));
  n.mode = std::uint8_t(settled_mode(c, f.node, n.stats));
  if (c.hist_mult) cfh_hist_add(c, f.node, n, t - f.t0);
  cfh_pop(c);
}

// The frame is tested before the clock is read: a throttled or mismatched stop leaves
// the timed path. A throttled activation was counted at its start.
inline void cfh_stop(Cfh &c, int id) {
  const Frame &f = c.stack[std::int64_t(c.depth) - 1];
  if (__builtin_expect((f.probe == id) & (f.special == 0), 1)) return cfh_stop_timed(c);
  if (f.special == kSpecialThrottled && f.probe == id) return cfh_pop(c);
  cfh_stop_slow(c, id);
}

} // namespace idb::rt

// The cold half of a CFH: creation, node insertion, the slow paths of start and stop
// (CPU timing, caps, mismatches, the root) and the text dump.
#include "cfh.h"

#include "dynamics.h"
#include "probes.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

namespace idb::rt {

namespace {

constexpr std::uint32_t kFirstChildren = 32; // a 64-slot table

void *reserve(std::size_t bytes) {
  // Reserved, not committed: pages appear as nodes are created, and never move.
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

// The windows of the first 16 nodes (4 pages): a program with thousands of named CFHs (one
// per object) commits 16 KB for each, not more.
constexpr std::size_t kHistPrefault = std::size_t(16) * 1024;

std::size_t hist_bytes(const Cfh &c) {
  return sizeof(HistCounter) * kHistWindow * c.max_nodes;
}

void push_root(Cfh &c) {
  Frame &root = c.stack[0];
  root.node = 0;
  root.probe = 0;
  root.special = kSpecialRoot;
  root.cpu0 = 0;
  root.parent = kNoNode;
  c.depth = 1;
  c.hot.top = 0;
  c.limit = c.max_depth + 1; // the root is not one of the max_depth probes
  root.t0 = now();
}

// The noise charged for one thread-CPU clock read measured from `before` to `after`.
double read_charge(const Cfh &c, std::uint64_t before, std::uint64_t after) {
  double spent = double(after - before);
  return spent < c.cpu_read_cap_ticks ? spent : c.cpu_read_cap_ticks;
}

// Pops the top frame at wall time `t`, recording it unless it was not counted. Returns
// when the frame ended: after `t` when a CPU read closed it, which the frames below it,
// closing next, take as their end.
//
// A thread-CPU clock read lies inside its node's wall interval, at start and at stop.
// The read is where the kernel brings the running thread's CPU accounting up to date, and
// a thread sharing its core is measured to lose it there far more often than anywhere
// else (docs/PERFORMANCE.md, "CPU timing and the wall-time tree"). Inside the interval,
// the wait stays with the node that was running, as it does without the read; outside,
// it would move into the parent's exclusive time.
std::uint64_t pop_frame(Cfh &c, std::uint64_t t, bool read_cpu) {
  Frame &f = c.stack[c.depth - 1];
  if ((f.special & kSpecialSampled) && read_cpu) { // a sample: its time, apart from the timed
    Node &n = c.nodes[f.node];
    ++n.stats.sampled;
    n.stats.sampled_sum += double(f.t0 < t ? t - f.t0 : 0);
  }
  if (!(f.special & kSpecialThrottled) && f.node != kNoNode) { // throttled: counted at start
    Node &n = c.nodes[f.node];
    if ((f.special & kSpecialCpu) && read_cpu) {
      std::uint64_t before = now(); // each frame's read measured apart: several may pop at once
      double cpu = double(thread_cpu_ns() - f.cpu0) - c.cpu_read_ns;
      std::uint64_t after = now();
      idb_stats_add_cpu(&n.stats, cpu > 0 ? cpu : 0.0);
      n.stats.noise += read_charge(c, before, after);
      if (after > t) t = after;
    }
    std::uint64_t ticks = f.t0 < t ? t - f.t0 : 0;
    idb_stats_add(&n.stats, double(ticks));
    std::uint32_t mode = settled_mode(c, f.node, n.stats);
    if ((f.special & kSpecialHeavy) && c.timed_children[f.node] == 0) mode |= kModeThrottled;
    if (n.mode & kModeDynamic) mode = (mode & ~kModeThrottled) | kModeDynamic; // never throttled
    n.mode = std::uint8_t(mode);
    if (c.hist_mult) cfh_hist_add(c, f.node, n, ticks);
    // An iteration the runtime closes (thread end, exit) is cut short: not one. The
    // clustering's time lies in the parent's interval and is the node's noise.
    if ((f.special & kSpecialDynamic) && read_cpu) {
      std::uint64_t before = now();
      dyn_iteration_end(c, f.node);
      n.stats.noise += double(now() - before);
    }
  }
  cfh_pop(c);
  return t;
}

} // namespace

Cfh *cfh_create(const char *name, bool named, int thread, const Limits &limits) {
  void *line = std::aligned_alloc(alignof(Cfh), sizeof(Cfh)); // sizeof is a multiple
  if (!line) return nullptr;
  auto *c = static_cast<Cfh *>(std::memset(line, 0, sizeof(Cfh)));
  c->max_nodes = limits.max_nodes < 2 ? 2 : limits.max_nodes;
  c->max_depth = limits.max_depth < 2 ? 2 : limits.max_depth;
  c->cpu_threshold = limits.cpu_threshold;
  c->throttle_after = limits.throttle_after;
  c->throttle_ticks = limits.throttle_ticks;
  c->throttle_early_after = limits.throttle_early_after;
  c->throttle_early_ticks = limits.throttle_early_ticks;
  c->throttle_sample = limits.throttle_sample;
  c->sample_state = 0x9E3779B9u ^ std::uint32_t(thread);
  c->cpu_all = limits.cpu_all;
  c->cpu_read_ns = limits.cpu_read_ns;
  c->cpu_read_cap_ticks = limits.cpu_read_cap_ticks;
  c->hidden_charge = limits.noise_ticks;
  c->hist_mult = limits.hist_mult;
  c->hist_pending = &c->hist_idle;
  c->nodes = static_cast<Node *>(reserve(sizeof(Node) * c->max_nodes));
  if (c->hist_mult) {
    c->hists = static_cast<HistCounter *>(reserve(hist_bytes(*c)));
    if (!c->hists) c->hist_mult = 0; // no room for histograms: the run goes on without
    // The first nodes' windows committed now, before the root opens: a page's first
    // touch costs a page fault (microseconds), which would otherwise fall inside the
    // parent of the node whose first activation touched it.
    for (std::size_t at = 0; c->hists && at < std::min<std::size_t>(hist_bytes(*c), kHistPrefault);
         at += 4096)
      reinterpret_cast<volatile unsigned char *>(c->hists)[at] = 0;
  }
  c->timed_children = static_cast<std::uint32_t *>(reserve(sizeof(std::uint32_t) * c->max_nodes));
  auto *frames = static_cast<Frame *>(reserve(sizeof(Frame) * (c->max_depth + 2)));
  bool table = c->children.init(kFirstChildren);
  if (!c->nodes || !c->timed_children || !frames || !table) {
    if (c->nodes) munmap(c->nodes, sizeof(Node) * c->max_nodes);
    if (c->hists) munmap(c->hists, hist_bytes(*c));
    if (c->timed_children) munmap(c->timed_children, sizeof(std::uint32_t) * c->max_nodes);
    if (frames) munmap(frames, sizeof(Frame) * (c->max_depth + 2));
    c->children.release();
    std::free(c);
    return nullptr;
  }
  frames[0] = Frame{}; // the guard below the root
  frames[0].node = kNoNode;
  frames[0].special = kSpecialRoot;
  frames[0].parent = kNoNode;
  c->stack = frames + 1;
  c->hot.sites = c->sites;
  cfh_sites_clear(*c);
  Node &root = c->nodes[0];
  root.parent = kNoNode;
  root.probe = 0;
  root.mode = 0;
  root.kind = 1; // IDB_PROC: the program
  root.hist_level = 0;
  root.hist_base = kHistUnplaced;
  root.hist_carried = 0;
  idb_stats_clear(&root.stats);
  c->node_count.store(1, std::memory_order_release);
  c->thread = thread;
  c->named = named;
  c->in_use = true;
  std::snprintf(c->name, sizeof c->name, "%s", name ? name : "");
  push_root(*c);
  return c;
}

void cfh_free(Cfh *c) {
  if (!c) return;
  munmap(c->nodes, sizeof(Node) * c->max_nodes);
  munmap(c->timed_children, sizeof(std::uint32_t) * c->max_nodes);
  if (c->hists) munmap(c->hists, hist_bytes(*c));
  c->carries.release();
  munmap(c->stack - 1, sizeof(Frame) * (c->max_depth + 2));
  c->children.release();
  std::free(c->waits);
  dyn_release(*c);
  std::free(c);
}

bool cfh_add_wait(Cfh &c, std::uint32_t node, std::uint32_t pattern, double seconds,
                  std::uint64_t instances) {
  std::uint32_t at = 0; // the first item not before (node, pattern)
  while (at < c.wait_count &&
         (c.waits[at].node < node || (c.waits[at].node == node && c.waits[at].pattern < pattern)))
    ++at;
  if (at < c.wait_count && c.waits[at].node == node && c.waits[at].pattern == pattern) {
    c.waits[at].seconds += seconds;
    c.waits[at].instances += instances;
    return true;
  }
  if (c.wait_count == c.wait_cap) {
    std::uint32_t cap = c.wait_cap ? 2 * c.wait_cap : 16;
    auto *grown = static_cast<WaitItem *>(std::realloc(c.waits, sizeof(WaitItem) * cap));
    if (!grown) return false;
    c.waits = grown;
    c.wait_cap = cap;
  }
  for (std::uint32_t i = c.wait_count; i > at; --i)
    c.waits[i] = c.waits[i - 1];
  c.waits[at] = {node, pattern, seconds, instances};
  ++c.wait_count;
  return true;
}

void cfh_reopen(Cfh &c) {
  c.uncounted = 0;
  cfh_sites_clear(c);
  c.in_use = true;
  push_root(c);
}

void cfh_close_all(Cfh &c, std::uint64_t t) {
  if (c.uncounted) c.unclosed += c.uncounted;
  c.uncounted = 0;
  while (c.depth > 0) {
    if (c.depth > 1) ++c.unclosed;
    pop_frame(c, t, false);
  }
  c.limit = 0;
}

std::uint32_t cfh_add_node(Cfh &c, std::uint32_t parent, int kind, int id, const char *description,
                           const char *file, int line, const char *function) {
  std::uint64_t entry = now();
  std::uint32_t count = c.node_count.load(std::memory_order_relaxed);
  if (parent == kNoNode || count >= c.max_nodes) return kNoNode;
  const void *slots = c.children.slots();
  if (!c.children.insert(child_key(parent, id), Child{count, 0})) return kNoNode; // no memory
  if (c.children.slots() != slots) cfh_sites_clear(c); // the entries moved
  probe_seen(kind, id, description, file, line, function);
  Node &n = c.nodes[count];
  n.parent = parent;
  n.probe = id;
  std::uint8_t timed = c.cpu_all ? kModeCpu : 0;
  // Timed until it throttles (cfh_start_slow), and throttled from the start under a
  // throttled parent, whose activations are not timed (settled_mode).
  n.mode = (c.nodes[parent].mode & kModeThrottled) ? kModeThrottled : timed;
  n.kind = std::uint8_t(kind);
  n.hist_level = 0;
  n.hist_carried = 0;
  n.hist_base = kHistUnplaced;
  idb_stats_clear(&n.stats);
  ++c.timed_children[parent];
  c.node_count.store(count + 1, std::memory_order_release);
  if (dyn_wanted(kind, id) && dyn_attach(c, count))
    n.mode = kModeDynamic | timed; // never throttled
  n.stats.noise = double(now() - entry);
  return count;
}

namespace {

// The open node `node` (the top frame's), whose last timed child has just throttled: the
// path from it may now throttle it too (settled_mode), a nest of probes too fine for its
// outer one giving up one level at a time from the inside. Only a node whose count has
// passed one of the rules' counts is weighed; the others are at their count. Found too
// costly, its frame is marked: its stop takes the slow path, which throttles it.
void weigh_path_again(Cfh &c, std::uint32_t node) {
  const Node &n = c.nodes[node];
  Frame &top = c.stack[c.depth - 1];
  if (node == 0 || n.mode & (kModeThrottled | kModeDynamic) || top.node != node) return;
  double ticks = n.stats.count >= c.throttle_after         ? c.throttle_ticks
                 : n.stats.count >= c.throttle_early_after ? c.throttle_early_ticks
                                                           : -__builtin_huge_val();
  if (ticks > 0 && cfh_path_costly(c, n.stats.count + 1, ticks)) top.special |= kSpecialHeavy;
}

} // namespace

void cfh_start_slow(Cfh &c, int kind, int id, const char *description, const char *file, int line,
                    const char *function) {
  if (c.depth >= c.limit) {
    cfh_start_uncounted(c);
    return;
  }
  std::uint32_t parent = c.hot.top;
  Child *child = c.children.find(child_key(parent, id));
  if (!child && cfh_add_node(c, parent, kind, id, description, file, line, function) != kNoNode)
    child = c.children.find(child_key(parent, id));
  if (!child) {
    cfh_start_special(c, kNoNode, id);
    return;
  }
  std::uint32_t mode = c.nodes[child->node].mode;
  if (mode & kModeThrottled) { // an entry already marked takes the fast path
    // The node's first activation since it throttled: from now on its entry says so,
    // and its parent has one timed child less.
    child->untimed |= kUntimedThrottled;
    if (--c.timed_children[parent] == 0) weigh_path_again(c, parent);
    cfh_start_throttled(c, *child, id);
  } else if (mode) {
    cfh_start_special(c, child->node, id);
  } else {
    Frame &f = c.stack[c.depth++];
    f.parent = c.hot.top;
    f.node = c.hot.top = child->node;
    f.probe = id;
    f.special = 0;
    f.t0 = now();
  }
}

void cfh_start_special(Cfh &c, std::uint32_t node, int id) {
  Frame &f = c.stack[c.depth++];
  std::uint32_t parent = f.parent = c.hot.top;
  f.node = c.hot.top = node;
  f.probe = id;
  f.cpu0 = 0;
  if (node == kNoNode) {
    // Not recorded, but its bookkeeping still lands in the nearest recorded ancestor.
    f.charge = parent != kNoNode ? parent : c.stack[c.depth - 2].charge;
    c.nodes[f.charge].stats.noise += c.hidden_charge;
    ++c.overflow;
    f.special = kSpecialNoNode;
    f.t0 = 0;
    return;
  }
  const Node &n = c.nodes[node];
  f.special = (n.mode & kModeDynamic) ? kSpecialDynamic : 0;
  if (!(n.mode & kModeCpu)) {
    f.t0 = now();
    return;
  }
  f.special |= kSpecialCpu;
  f.t0 = now(); // the read inside the node's interval (see pop_frame)
  f.cpu0 = thread_cpu_ns();
  c.nodes[node].stats.noise += read_charge(c, f.t0, now());
}

bool cfh_path_costly(const Cfh &c, std::uint64_t activations, double ticks) {
  std::uint64_t t = now();
  auto timed = double(activations);
  // Every activation of a node lies inside one of its parent's: the counts of the path's
  // nodes all fall within the enclosing node's time, its open activation included. A
  // timed node has no throttled one above it, so no frame is missing from the path.
  for (std::uint32_t d = c.depth - 1; d-- > 1;) {
    const Frame &f = c.stack[d];
    if (f.node == kNoNode || (f.special & ~(kSpecialCpu | kSpecialDynamic | kSpecialHeavy)))
      return false;
    const idb_stats_t &s = c.nodes[f.node].stats;
    timed += double(s.count) + 1.0;
    if (timed * ticks > s.sum + double(f.t0 < t ? t - f.t0 : 0)) return true;
  }
  return false;
}

std::uint64_t cfh_untimed(const Cfh &c, std::uint32_t node) {
  const Node &n = c.nodes[node];
  const Child *child = node ? c.children.find(child_key(n.parent, n.probe)) : nullptr;
  std::uint32_t left =
      child && child->untimed > kUntimedThrottled ? child->untimed & kUntimedMost : 0;
  return n.stats.throttled - left;
}

int cfh_throttled_due(Cfh &c, Child &child, Frame &f) {
  // The run up to the next sample: uniform over [sample/2, 3 sample/2), so a pattern in
  // the program's activations does not line up with the samples.
  std::uint32_t run = kUntimedMost;
  if (c.throttle_sample) {
    std::uint32_t x = c.sample_state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    c.sample_state = x;
    run = c.throttle_sample / 2 + (x & (c.throttle_sample - 1));
  }
  c.nodes[child.node].stats.throttled += run;
  child.untimed = kUntimedThrottled | (run - 1); // this activation takes one
  if (c.throttle_sample) { // timed from here: the bookkeeping above lies outside it
    f.special |= kSpecialSampled;
    f.t0 = now();
  }
  return 1;
}

void cfh_start_uncounted(Cfh &c) {
  if (c.depth == 0) return; // closed: nothing records
  ++c.depth_overflow;
  const Frame &top = c.stack[c.depth - 1];
  // The innermost node, or when it is an unrecorded frame's, the node that frame charges.
  std::uint32_t inner = c.hot.top != kNoNode ? c.hot.top : top.charge;
  c.nodes[inner].stats.noise += c.hidden_charge;
  if (c.uncounted++ == 0) {
    c.limit = 0;
    c.stack[c.depth - 1].special |= kSpecialUncounted;
  }
}

void cfh_stop_slow(Cfh &c, int id) {
  std::uint64_t t = now();
  if (c.uncounted) {
    if (--c.uncounted == 0) {
      c.limit = c.max_depth + 1;
      c.stack[c.depth - 1].special &= ~kSpecialUncounted;
    }
    return;
  }
  // Find the innermost open frame of this probe; the root (index 0) never matches.
  std::uint32_t k = c.depth;
  while (k > 1 && c.stack[k - 1].probe != id)
    --k;
  if (k <= 1) {
    ++c.mismatches; // not open at all: ignored
    return;
  }
  if (k != c.depth) ++c.mismatches; // frames above it were left open: close them too
  while (c.depth > k)
    t = pop_frame(c, t, true);
  pop_frame(c, t, true);
}

namespace {

std::uint64_t carry_key(std::uint32_t node, std::uint32_t bucket) {
  return (std::uint64_t(node) << 32) | bucket;
}

// Adds `extra` to the carry of (node, bucket); false when memory ran out (the node's
// histogram then no longer adds up, and the writer leaves it out).
bool add_carry(Cfh &c, std::uint32_t node, std::uint32_t bucket, std::uint64_t extra) {
  if (!c.carries_ready) c.carries_ready = c.carries.init(64);
  std::uint64_t *carry = c.carries_ready ? c.carries.insert(carry_key(node, bucket), 0) : nullptr;
  if (!carry) return false;
  *carry += extra;
  c.nodes[node].hist_carried = 1;
  return true;
}

std::uint64_t carry_of(const Cfh &c, std::uint32_t node, std::uint32_t bucket) {
  if (!c.nodes[node].hist_carried) return 0;
  const std::uint64_t *carry = c.carries.find(carry_key(node, bucket));
  return carry ? *carry : 0;
}

// The node's counts over its window as 64-bit values (counter plus carry), its carries
// taken out of the table. lo and hi: the lowest and highest non-empty window index (lo >
// hi when it has none).
void take_counts(Cfh &c, std::uint32_t node, std::uint64_t *counts, std::uint32_t &lo,
                 std::uint32_t &hi) {
  Node &n = c.nodes[node];
  const HistCounter *w = c.hists + std::size_t(node) * kHistWindow;
  for (std::uint32_t i = 0; i < kHistWindow; ++i) {
    counts[i] = w[i] + carry_of(c, node, n.hist_base + i);
    if (n.hist_carried) c.carries.erase(carry_key(node, n.hist_base + i));
  }
  n.hist_carried = 0;
  lo = kHistWindow;
  hi = 0;
  for (std::uint32_t i = 0; i < kHistWindow; ++i)
    if (counts[i]) {
      if (lo == kHistWindow) lo = i;
      hi = i;
    }
}

} // namespace

void cfh_hist_wrapped(Cfh &c) {
  if (c.hist_pending == &c.hist_idle) return;
  std::size_t at = std::size_t(c.hist_pending - c.hists);
  auto node = std::uint32_t(at / kHistWindow);
  add_carry(c, node, c.nodes[node].hist_base + std::uint32_t(at % kHistWindow), kHistWrap);
}

// Called with nothing pending: cfh_hist_add has just counted the pending activation. Its
// time lies in the parent's interval, so it is the node's bookkeeping, charged to its
// noise as node creation's is (cfh_add_node): a window's first touch may fault a page in,
// a move reads and writes the whole window.
void cfh_hist_miss(Cfh &c, std::uint32_t node, std::uint32_t bucket) {
  std::uint64_t entry = now();
  Node &n = c.nodes[node];
  HistCounter *w = c.hists + std::size_t(node) * kHistWindow;
  if (n.hist_base == kHistUnplaced) { // the first: the window centred on it
    n.hist_level = 0;
    n.hist_base = bucket >= kHistWindow / 2 ? bucket - kHistWindow / 2 : 0;
    w[bucket - n.hist_base] = 1;
    n.stats.noise += double(now() - entry);
    return;
  }
  // Outside the window: every count and the new one, on the finest level whose window
  // holds them all, with the slack split evenly on both sides.
  std::uint64_t counts[kHistWindow];
  std::uint32_t lo = 0, hi = 0;
  take_counts(c, node, counts, lo, hi);
  std::uint32_t level = n.hist_level;
  std::uint64_t first = bucket >> level, last = first; // of `level`
  if (lo <= hi) {
    first = std::min<std::uint64_t>(first, n.hist_base + lo);
    last = std::max<std::uint64_t>(last, n.hist_base + hi);
  }
  std::uint32_t up = 0;
  while ((last >> up) - (first >> up) >= kHistWindow)
    ++up;
  std::uint32_t span = std::uint32_t((last >> up) - (first >> up)) + 1;
  std::uint32_t lowest = std::uint32_t(first >> up);
  std::uint32_t base = lowest - std::min(lowest, (kHistWindow - span) / 2);
  std::uint64_t moved[kHistWindow] = {};
  for (std::uint32_t k = lo; k <= hi && lo <= hi; ++k)
    moved[((n.hist_base + k) >> up) - base] += counts[k];
  moved[(bucket >> (level + up)) - base] += 1;
  n.hist_level = std::uint8_t(level + up);
  n.hist_base = base;
  for (std::uint32_t k = 0; k < kHistWindow; ++k) {
    w[k] = HistCounter(moved[k] % kHistWrap);
    if (moved[k] >= kHistWrap) add_carry(c, node, base + k, moved[k] - moved[k] % kHistWrap);
  }
  n.stats.noise += double(now() - entry);
}

std::uint32_t cfh_hist_read(const Cfh &c, std::uint32_t node, double extra_ns, std::uint32_t *level,
                            std::uint32_t *buckets, std::uint64_t *counts, std::uint32_t capacity) {
  const Node &n = c.nodes[node];
  bool placed = c.hists && n.hist_base != kHistUnplaced;
  *level = placed ? n.hist_level : 0;
  std::uint32_t extra = kHistUnplaced;
  if (extra_ns >= 0) extra = idb_hist_bucket(std::uint64_t(extra_ns)) >> *level;
  std::uint32_t written = 0;
  auto put = [&](std::uint32_t bucket, std::uint64_t count) {
    if (written < capacity) {
      buckets[written] = bucket;
      counts[written] = count;
    }
    ++written;
  };
  if (placed) {
    const HistCounter *w = c.hists + std::size_t(node) * kHistWindow;
    for (std::uint32_t i = 0; i < kHistWindow; ++i) {
      std::uint32_t bucket = n.hist_base + i;
      std::uint64_t count =
          w[i] + carry_of(c, node, bucket) + (c.hist_pending == w + i ? 1 : 0); // see cfh_hist_add
      if (extra < bucket) { // below the window, or below this bucket
        put(extra, 1);
        extra = kHistUnplaced;
      }
      if (extra == bucket) {
        ++count;
        extra = kHistUnplaced;
      }
      if (count) put(bucket, count);
    }
  }
  if (extra != kHistUnplaced) put(extra, 1);
  return written;
}

int cfh_dump(const Cfh &c, void *stream) {
  auto *out = static_cast<std::FILE *>(stream);
  std::uint32_t count = c.node_count.load(std::memory_order_acquire);
  // Children of each node, in creation order, as linked lists over two index arrays.
  auto *first = static_cast<std::uint32_t *>(std::malloc(sizeof(std::uint32_t) * count * 3));
  if (!first) return -1;
  std::uint32_t *next = first + count, *path = first + 2 * std::size_t(count);
  for (std::uint32_t i = 0; i < count; ++i)
    first[i] = next[i] = kNoNode;
  for (std::uint32_t i = count; i-- > 1;) {
    next[i] = first[c.nodes[i].parent];
    first[c.nodes[i].parent] = i;
  }
  int rc = 0;
  std::uint32_t depth = 0;
  std::uint32_t node = first[0];
  while (node != kNoNode && rc == 0) {
    path[depth] = node;
    for (std::uint32_t d = 0; d <= depth && rc == 0; ++d) {
      char fallback[16];
      const char *text = probe_description(c.nodes[path[d]].probe, fallback, sizeof fallback);
      if (std::fprintf(out, d ? ";%s" : "%s", text) < 0) rc = -1;
    }
    std::uint64_t activations = c.nodes[node].stats.count + cfh_untimed(c, node);
    if (std::fprintf(out, " %llu\n", static_cast<unsigned long long>(activations)) < 0) rc = -1;
    if (first[node] != kNoNode) {
      ++depth;
      node = first[node];
      continue;
    }
    while (node != kNoNode && next[node] == kNoNode)
      node = depth ? path[--depth] : kNoNode;
    if (node != kNoNode) node = path[depth] = next[node];
  }
  std::free(first);
  return rc;
}

} // namespace idb::rt

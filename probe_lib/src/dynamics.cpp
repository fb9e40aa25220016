// Online clustering of iteration profiles (dynamics.h; docs/ARCHITECTURE.md, "Dynamics").
#include "dynamics.h"

#include "byte_buffer.h"
#include "config.h"
#include "idb/probe.h"
#include "idb/profile_format.h"
#include "probes.h"
#include "section.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <sys/mman.h>

namespace idb::rt {

namespace {

// Subtree nodes followed per dynamic node; past them nodes are counted as untracked.
constexpr std::uint32_t kMemberCap = 4096;
// Iterations one dynamic node clusters: the forest's reservation (4 bytes each).
constexpr std::uint64_t kMaxIterations = std::uint64_t(1) << 26;
// IDB_CLUSTERS=all (measurement only): every iteration keeps a cluster, up to this many.
constexpr std::uint32_t kKeepAllIterations = 1u << 16;
constexpr std::uint32_t kMostClusters = 1000000;
constexpr std::uint32_t kKeepAll = kNoNode;
// Added to the cost of merging clusters of different call-tree classes, so that such a
// merge happens only when no two clusters of one class are left.
constexpr double kCrossClass = 1e30;

constexpr std::uint8_t kDynCompute = 0, kDynP2p = 1, kDynCollective = 2;
enum Feature { kTime, kP2p, kCollective, kBytes, kVisits, kCompute };

constexpr std::size_t kListed = 64;

struct Settings {
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  bool any = false;          // a probe may be dynamic: node creation asks
  bool off = false;          // IDB_CLUSTERS could not be used: no dynamics at all
  std::uint32_t limit = 64;  // IDB_CLUSTERS
  int ids[kListed] = {};     // probes marked dynamic (the API, IDB_DYNAMIC=ID)
  std::size_t id_count = 0;  //
  int refused[kListed] = {}; // probes reported as not loops
  std::size_t refused_count = 0;
  bool by_id = false;  // IDB_DYNAMIC=ID
  int setting_id = 0;  //
  char file[256] = ""; // IDB_DYNAMIC=FILE:LINE
  int line = 0;
  bool nested_reported = false, full_reported = false, reserve_reported = false;
};
constinit Settings g_dyn;

bool listed(const int *ids, std::size_t count, int id) {
  for (std::size_t i = 0; i < count; ++i)
    if (ids[i] == id) return true;
  return false;
}

const char *kind_name(int kind) {
  switch (kind) {
  case IDB_PROC:
    return "PROC";
  case IDB_LOOP:
    return "LOOP";
  case IDB_CALL:
    return "CALL";
  case IDB_COMM:
    return "COMM";
  default:
    return "unknown";
  }
}

const char *base_name(const char *path) {
  const char *slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

// The probe's file is the one IDB_DYNAMIC names: the same path, or the same base name when
// the setting gives no folder.
bool same_file(const char *probe_file, const char *wanted) {
  if (!probe_file) return false;
  if (!std::strcmp(probe_file, wanted)) return true;
  return !std::strchr(wanted, '/') && !std::strcmp(base_name(probe_file), wanted);
}

void refuse_kind(int id, int kind, const char *description, const char *why) {
  if (listed(g_dyn.refused, g_dyn.refused_count, id)) return;
  if (g_dyn.refused_count < kListed) g_dyn.refused[g_dyn.refused_count++] = id;
  std::fprintf(stderr,
               "idb: %s: probe %d (%s) is a %s probe, not a loop; its activations are not "
               "iterations, and the run goes on without dynamics for it\n",
               why, id, description && *description ? description : "no description",
               kind_name(kind));
}

// IDB_DYNAMIC=FILE:LINE: what the probe table holds at that place so far.
struct Found {
  const char *file;
  int line;
  int loops, others, other_id, other_kind;
  const char *other_description;
};

void find_at(const ProbeInfo &info, void *context) {
  auto *f = static_cast<Found *>(context);
  if (info.line != f->line || !same_file(info.file, f->file)) return;
  if (info.kind == IDB_LOOP) {
    ++f->loops;
  } else if (f->others++ == 0) {
    f->other_id = info.id;
    f->other_kind = info.kind;
    f->other_description = info.description;
  }
}

void read_dynamic_setting(const char *value) {
  char setting[300];
  std::snprintf(setting, sizeof setting, "IDB_DYNAMIC=%s", value);
  char *end = nullptr;
  errno = 0;
  long id = std::strtol(value, &end, 10);
  if (end != value && !*end && !errno && id >= -2147483647L && id <= 2147483647L) {
    ProbeInfo info{};
    if (probe_info(int(id), info) && info.kind != IDB_LOOP) {
      refuse_kind(int(id), info.kind, info.description, setting);
      return;
    }
    g_dyn.by_id = true;
    g_dyn.setting_id = int(id);
    g_dyn.any = true;
    return;
  }
  const char *colon = std::strrchr(value, ':');
  long line = colon ? std::strtol(colon + 1, &end, 10) : 0;
  std::size_t file_length = colon ? std::size_t(colon - value) : 0;
  if (!colon || end == colon + 1 || *end || line <= 0 || line > 100000000L || file_length == 0 ||
      file_length >= sizeof g_dyn.file) {
    std::fprintf(stderr,
                 "idb: ignoring %s (expected a probe id, as idb-instrument list shows it, or "
                 "FILE:LINE of a loop); the run goes on without dynamics\n",
                 setting);
    return;
  }
  std::memcpy(g_dyn.file, value, file_length);
  g_dyn.file[file_length] = '\0';
  g_dyn.line = int(line);
  Found found{g_dyn.file, g_dyn.line, 0, 0, 0, 0, nullptr};
  probe_visit(find_at, &found);
  if (found.loops == 0 && found.others > 0) {
    refuse_kind(found.other_id, found.other_kind, found.other_description, setting);
    g_dyn.line = 0;
    return;
  }
  if (found.loops == 0)
    std::fprintf(stderr,
                 "idb: %s: no probe is registered at %s:%d so far (idb-instrument list shows "
                 "the loops and their lines); a loop probe there that runs later is dynamic\n",
                 setting, g_dyn.file, g_dyn.line);
  g_dyn.any = true;
}

// A COMM node's class from its MPI function's name: collective or point-to-point.
std::uint8_t class_of(const Node &n) {
  if (n.kind != IDB_COMM) return kDynCompute;
  char fallback[24];
  const char *name = probe_description(n.probe, fallback, sizeof fallback);
  if (std::strncmp(name, "PMPI_", 5) == 0) ++name;
  if (std::strncmp(name, "MPI_", 4) != 0) return kDynP2p;
  name += 4;
  if (name[0] == 'I' && name[1] >= 'A' && name[1] <= 'Z') ++name; // MPI_Iallreduce
  static constexpr const char *kCollectives[] = {"Barrier", "Bcast",     "Reduce",   "Allreduce",
                                                 "Gather",  "Allgather", "Scatter",  "Alltoall",
                                                 "Scan",    "Exscan",    "Neighbor_"};
  for (const char *c : kCollectives)
    if (std::strncmp(name, c, std::strlen(c)) == 0) return kDynCollective;
  return kDynP2p;
}

std::size_t aligned(std::size_t bytes) {
  return (bytes + 63) & ~std::size_t(63);
}

// Prints `text` (with the probe's id and description) unless `reported` says it was;
// takes the settings' lock for it (the callers are node creation, in any thread).
void report_once(bool &reported, const char *text, int id) {
  pthread_mutex_lock(&g_dyn.lock);
  if (!reported) {
    reported = true;
    char fallback[24];
    std::fprintf(stderr, text, id, probe_description(id, fallback, sizeof fallback));
  }
  pthread_mutex_unlock(&g_dyn.lock);
}

DynState *state_of(const Cfh &c, std::uint32_t node) {
  for (std::uint32_t i = 0; i < c.dyn_count; ++i)
    if (c.dyn[i]->node == node) return c.dyn[i];
  return nullptr;
}

std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A cluster's mean vector over the scale: the point the distance is taken between.
void set_point(const DynState &d, DynCluster &k) {
  for (int j = 0; j < kDynFeatures; ++j)
    k.point[j] = d.scale[j] > 0 ? k.features[j] / double(k.iterations) / d.scale[j] : 0.0;
}

// What merging clusters a and b costs: the Manhattan distance of their points (each
// feature over its mean over the iterations so far), times n_a n_b / (n_a + n_b), which
// is about the smaller size when one is much bigger: small clusters merge first, so a
// lone spike joins its like and a long stretch at a new level keeps its own cluster.
double merge_cost(const DynCluster &a, const DynCluster &b) {
  double distance = 0;
  for (int j = 0; j < kDynFeatures; ++j)
    distance += std::fabs(a.point[j] - b.point[j]);
  double na = double(a.iterations), nb = double(b.iterations);
  double cost = distance * na * nb / (na + nb);
  return a.signature == b.signature ? cost : kCrossClass * (1.0 + cost);
}

double &cost_at(DynState &d, std::uint32_t a, std::uint32_t b) {
  return d.cost[std::size_t(a) * d.slots + b];
}

// Sets the cost of the live pair (a, b) both ways.
void set_cost(DynState &d, std::uint32_t a, std::uint32_t b) {
  double cost = merge_cost(d.clusters[a], d.clusters[b]);
  cost_at(d, a, b) = cost;
  cost_at(d, b, a) = cost;
}

// Sets cluster s's nearest from its row of costs.
void find_nearest(DynState &d, std::uint32_t s) {
  DynCluster &k = d.clusters[s];
  k.nearest = kNoNode;
  k.nearest_cost = HUGE_VAL;
  const double *row = d.cost + std::size_t(s) * d.slots;
  for (std::uint32_t j = 0; j < d.slots; ++j)
    if (j != s && d.clusters[j].iterations && row[j] < k.nearest_cost) {
      k.nearest_cost = row[j];
      k.nearest = j;
    }
}

// Every point, cost and nearest again, with the features' current means as the scale.
void rescale(DynState &d) {
  for (int j = 0; j < kDynFeatures; ++j)
    d.scale[j] = d.feature_sums[j] / double(d.iterations);
  for (std::uint32_t a = 0; a < d.slots; ++a)
    if (d.clusters[a].iterations) set_point(d, d.clusters[a]);
  for (std::uint32_t a = 0; a < d.slots; ++a)
    for (std::uint32_t b = a + 1; b < d.slots; ++b)
      if (d.clusters[a].iterations && d.clusters[b].iterations) set_cost(d, a, b);
  for (std::uint32_t a = 0; a < d.slots; ++a)
    if (d.clusters[a].iterations) find_nearest(d, a);
}

// True when a feature's mean has moved by more than a tenth from the scale the costs were
// set with (or became non-zero): the costs are then set again, so that all of them are
// always taken on one scale.
bool scale_moved(const DynState &d) {
  for (int j = 0; j < kDynFeatures; ++j) {
    double mean = d.feature_sums[j] / double(d.iterations);
    if (std::fabs(mean - d.scale[j]) > 0.1 * d.scale[j] || (d.scale[j] == 0 && mean > 0))
      return true;
  }
  return false;
}

// Sets the new cluster s's costs and nearest, and offers it to every other as theirs.
void connect(DynState &d, std::uint32_t s) {
  DynCluster &k = d.clusters[s];
  set_point(d, k);
  k.nearest = kNoNode;
  k.nearest_cost = HUGE_VAL;
  for (std::uint32_t j = 0; j < d.slots; ++j) {
    DynCluster &other = d.clusters[j];
    if (j == s || other.iterations == 0) continue;
    set_cost(d, s, j);
    double cost = cost_at(d, s, j);
    if (cost < k.nearest_cost) {
      k.nearest_cost = cost;
      k.nearest = j;
    }
    if (cost < other.nearest_cost) {
      other.nearest_cost = cost;
      other.nearest = s;
    }
  }
}

// Merges the pair that costs least: the smaller cluster into the bigger one, whose root
// becomes the root of both iteration sets (union by size keeps the forest shallow).
void merge_nearest(DynState &d) {
  std::uint32_t a = kNoNode;
  for (std::uint32_t j = 0; j < d.slots; ++j)
    if (d.clusters[j].iterations && d.clusters[j].nearest != kNoNode &&
        (a == kNoNode || d.clusters[j].nearest_cost < d.clusters[a].nearest_cost))
      a = j;
  if (a == kNoNode) return;
  std::uint32_t b = d.clusters[a].nearest;
  if (d.clusters[b].iterations > d.clusters[a].iterations) std::swap(a, b);
  DynCluster &into = d.clusters[a], &from = d.clusters[b];
  if (into.signature != from.signature || from.mixed) {
    if (!into.mixed) ++d.mixed;
    into.mixed = 1;
  }
  DynEntry *e = d.entries + std::size_t(a) * d.member_cap;
  const DynEntry *f = d.entries + std::size_t(b) * d.member_cap;
  for (std::uint32_t m = 0; m < from.width; ++m) {
    if (m >= into.width) e[m] = DynEntry{0, 0};
    e[m].visits += f[m].visits;
    e[m].ticks += f[m].ticks;
  }
  if (from.width > into.width) into.width = from.width;
  for (int k = 0; k < kDynFeatures; ++k)
    into.features[k] += from.features[k];
  into.iterations += from.iterations;
  set_point(d, into);
  d.forest[from.root] = into.root;
  from.iterations = 0;
  d.free_slots[d.free_count++] = b;
  --d.live;
  for (std::uint32_t j = 0; j < d.slots; ++j)
    if (j != a && d.clusters[j].iterations) set_cost(d, a, j);
  find_nearest(d, a);
  for (std::uint32_t j = 0; j < d.slots; ++j) {
    DynCluster &other = d.clusters[j];
    if (j == a || other.iterations == 0) continue;
    if (other.nearest == a || other.nearest == b) {
      find_nearest(d, j);
    } else if (cost_at(d, j, a) < other.nearest_cost) {
      other.nearest_cost = cost_at(d, j, a);
      other.nearest = a;
    }
  }
}

// Sorts the CFH's nodes created since the last iteration into the subtree or not; a new
// member starts from zero (it was created during the iteration that just ended).
void follow_new_nodes(const Cfh &c, DynState &d) {
  std::uint32_t count = c.node_count.load(std::memory_order_relaxed);
  for (std::uint32_t i = d.scanned; i < count; ++i) {
    std::uint32_t parent = c.nodes[i].parent;
    if (parent == kNoNode || !d.in_subtree[parent]) continue;
    if (d.in_subtree[parent] == 1 && d.members < d.member_cap) {
      d.in_subtree[i] = 1;
      d.member_node[d.members] = i;
      d.member_class[d.members] = class_of(c.nodes[i]);
      ++d.members;
    } else {
      d.in_subtree[i] = 2; // in the subtree, not followed
      ++d.untracked;
    }
  }
  d.scanned = count;
}

void begin_update(DynState &d) {
  d.seq.store(d.seq.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
}

void end_update(DynState &d) {
  d.seq.store(d.seq.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

} // namespace

void dyn_configure(const Config &config) {
  pthread_mutex_lock(&g_dyn.lock);
  if (const char *v = config.clusters) {
    char *end = nullptr;
    errno = 0;
    unsigned long long n = std::strtoull(v, &end, 10);
    if (!std::strcmp(v, "all")) {
      g_dyn.limit = kKeepAll;
    } else if (end == v || *end || errno || n < 1 || n > kMostClusters || *v == '-') {
      std::fprintf(stderr,
                   "idb: ignoring IDB_CLUSTERS=%s (expected a whole number from 1 to %u, or "
                   "all); the run goes on without dynamics\n",
                   v, kMostClusters);
      g_dyn.off = true;
    } else {
      g_dyn.limit = std::uint32_t(n);
    }
  }
  if (config.dynamic && *config.dynamic && !g_dyn.off) read_dynamic_setting(config.dynamic);
  pthread_mutex_unlock(&g_dyn.lock);
}

void dyn_mark_probe(int id) {
  pthread_mutex_lock(&g_dyn.lock);
  if (!listed(g_dyn.ids, g_dyn.id_count, id) && g_dyn.id_count < kListed)
    g_dyn.ids[g_dyn.id_count++] = id;
  g_dyn.any = true;
  pthread_mutex_unlock(&g_dyn.lock);
}

bool dyn_wanted(int kind, int id) {
  if (!__atomic_load_n(&g_dyn.any, __ATOMIC_RELAXED)) return false;
  pthread_mutex_lock(&g_dyn.lock);
  bool by_setting = g_dyn.by_id && g_dyn.setting_id == id;
  bool wanted = !g_dyn.off && (by_setting || listed(g_dyn.ids, g_dyn.id_count, id));
  ProbeInfo info{};
  bool known = probe_info(id, info);
  if (!wanted && !g_dyn.off && g_dyn.line > 0 && known)
    wanted = info.line == g_dyn.line && same_file(info.file, g_dyn.file);
  if (wanted && kind != IDB_LOOP) {
    char why[300];
    if (listed(g_dyn.ids, g_dyn.id_count, id))
      std::snprintf(why, sizeof why, "idb_dynamic_probe(%d)", id);
    else if (by_setting)
      std::snprintf(why, sizeof why, "IDB_DYNAMIC=%d", id);
    else
      std::snprintf(why, sizeof why, "IDB_DYNAMIC=%s:%d", g_dyn.file, g_dyn.line);
    refuse_kind(id, kind, known ? info.description : nullptr, why);
    wanted = false;
  }
  pthread_mutex_unlock(&g_dyn.lock);
  return wanted;
}

bool dyn_attach(Cfh &c, std::uint32_t node) {
  for (std::uint32_t p = c.nodes[node].parent; p != kNoNode; p = c.nodes[p].parent)
    if (c.nodes[p].mode & kModeDynamic) {
      report_once(g_dyn.nested_reported,
                  "idb: the dynamic loop probe %d (%s) runs inside another dynamic probe's "
                  "iterations; only the outermost one's activations are iterations\n",
                  c.nodes[node].probe);
      return false;
    }
  if (c.dyn_count >= kMaxDynamicNodes) {
    report_once(g_dyn.full_reported,
                "idb: more than 8 dynamic nodes in one CFH; the dynamic probe %d (%s) is not "
                "followed where it is reached next\n",
                c.nodes[node].probe);
    return false;
  }
  auto *d = static_cast<DynState *>(std::calloc(1, sizeof(DynState)));
  if (!d) return false;
  std::uint32_t limit = g_dyn.limit;
  d->node = node;
  d->limit = limit;
  d->slots = limit == kKeepAll ? kKeepAllIterations : limit + 1;
  d->max_iterations = limit == kKeepAll ? kKeepAllIterations : kMaxIterations;
  d->member_cap = c.max_nodes < kMemberCap ? c.max_nodes : kMemberCap;
  std::size_t cap = d->member_cap, slots = d->slots;
  std::size_t sizes[] = {aligned(sizeof(std::uint32_t) * cap),
                         aligned(cap),
                         aligned(c.max_nodes),
                         aligned(sizeof(DynBase) * cap),
                         aligned(sizeof(DynCluster) * slots),
                         aligned(sizeof(DynEntry) * slots * cap),
                         aligned(sizeof(std::uint32_t) * slots),
                         aligned(sizeof(std::uint32_t) * d->max_iterations),
                         aligned(limit == kKeepAll ? 0 : sizeof(double) * slots * slots)};
  std::size_t total = 0;
  for (std::size_t s : sizes)
    total += s;
  void *block = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (block == MAP_FAILED) {
    report_once(g_dyn.reserve_reported,
                "idb: no memory to reserve for the dynamic probe %d (%s); the run goes on "
                "without its iterations\n",
                c.nodes[node].probe);
    std::free(d);
    return false;
  }
  auto *at = static_cast<unsigned char *>(block);
  d->member_node = reinterpret_cast<std::uint32_t *>(at);
  d->member_class = at += sizes[0];
  d->in_subtree = at += sizes[1];
  d->base = reinterpret_cast<DynBase *>(at += sizes[2]);
  d->clusters = reinterpret_cast<DynCluster *>(at += sizes[3]);
  d->entries = reinterpret_cast<DynEntry *>(at += sizes[4]);
  d->free_slots = reinterpret_cast<std::uint32_t *>(at += sizes[5]);
  d->forest = reinterpret_cast<std::uint32_t *>(at += sizes[6]);
  d->cost = reinterpret_cast<double *>(at += sizes[7]);
  d->reserved = total;
  for (std::uint32_t s = 0; s < d->slots; ++s) // slot 0 is taken first
    d->free_slots[s] = d->slots - 1 - s;
  d->free_count = d->slots;
  d->member_node[0] = node;
  d->member_class[0] = class_of(c.nodes[node]);
  d->members = 1;
  d->in_subtree[node] = 1;
  d->scanned = node + 1;
  c.dyn[c.dyn_count] = d;
  __atomic_store_n(&c.dyn_count, c.dyn_count + 1, __ATOMIC_RELEASE);
  return true;
}

void dyn_iteration_end(Cfh &c, std::uint32_t node) {
  DynState *state = state_of(c, node);
  if (!state) return;
  DynState &d = *state;
  if (d.iterations >= d.max_iterations || d.free_count == 0) {
    ++d.dropped;
    return;
  }
  begin_update(d);
  follow_new_nodes(c, d);
  std::uint32_t s = d.free_slots[--d.free_count];
  DynCluster &k = d.clusters[s];
  DynEntry *e = d.entries + std::size_t(s) * d.member_cap;
  double f[kDynFeatures] = {};
  std::uint64_t signature = 0;
  for (std::uint32_t m = 0; m < d.members; ++m) {
    const idb_stats_t &st = c.nodes[d.member_node[m]].stats;
    double untimed = double(cfh_untimed(c, d.member_node[m]));
    DynBase now{double(st.count) + untimed, st.sum + st.sampled_sum, untimed - double(st.sampled),
                double(st.bytes_sent + st.bytes_recv)};
    DynBase &was = d.base[m];
    // This iteration's throttled activations at the mean as it stands now; the earlier
    // iterations keep the value they were given.
    e[m] = DynEntry{now.visits - was.visits,
                    now.ticks - was.ticks +
                        (now.unsampled - was.unsampled) * idb_stats_untimed_mean(&st)};
    f[kBytes] += now.bytes - was.bytes;
    was = now;
    if (e[m].visits > 0) signature += mix(m);
    f[kVisits] += e[m].visits;
    if (d.member_class[m] == kDynP2p) f[kP2p] += e[m].ticks;
    if (d.member_class[m] == kDynCollective) f[kCollective] += e[m].ticks;
  }
  f[kTime] = e[0].ticks;
  double outside = f[kTime] - f[kP2p] - f[kCollective];
  f[kCompute] = outside > 0 ? outside : 0;
  std::uint32_t iteration = std::uint32_t(d.iterations);
  k.iterations = 1;
  k.signature = signature;
  k.root = iteration;
  k.width = d.members;
  k.mixed = 0;
  for (int j = 0; j < kDynFeatures; ++j) {
    k.features[j] = f[j];
    d.feature_sums[j] += f[j];
  }
  d.forest[iteration] = iteration;
  ++d.iterations;
  ++d.live;
  if (d.limit != kKeepAll) {
    if (scale_moved(d))
      rescale(d); // the new cluster's costs included
    else
      connect(d, s);
    if (d.live > d.limit) merge_nearest(d);
  }
  end_update(d);
}

void dyn_release(Cfh &c) {
  for (std::uint32_t i = 0; i < c.dyn_count; ++i) {
    munmap(c.dyn[i]->member_node, c.dyn[i]->reserved);
    std::free(c.dyn[i]);
  }
  c.dyn_count = 0;
}

namespace {

struct RootSlot {
  std::uint32_t root, slot;
};

int by_root(const void *a, const void *b) {
  std::uint32_t x = static_cast<const RootSlot *>(a)->root;
  std::uint32_t y = static_cast<const RootSlot *>(b)->root;
  return x < y ? -1 : x > y;
}

// The DYN section payload of one state into `t`; false when the state is not consistent
// (another thread changed it meanwhile) or memory ran out.
bool put_state(ByteBuffer &t, const DynState &d, double ticks_per_second) {
  std::uint64_t iterations = d.iterations;
  std::uint32_t members = d.members, live = d.live;
  if (iterations > d.max_iterations || members > d.member_cap || live > d.slots) return false;
  auto *roots = static_cast<RootSlot *>(std::malloc(sizeof(RootSlot) * (live + 1)));
  auto *order = static_cast<std::uint32_t *>(std::malloc(sizeof(std::uint32_t) * (live + 1)));
  auto *ordinal = static_cast<std::uint32_t *>(std::malloc(sizeof(std::uint32_t) * d.slots));
  bool ok = roots && order && ordinal;
  std::uint32_t found = 0;
  for (std::uint32_t s = 0; ok && s < d.slots; ++s) {
    ordinal[s] = kNoNode;
    if (d.clusters[s].iterations == 0) continue;
    if (found == live)
      ok = false;
    else
      roots[found++] = RootSlot{d.clusters[s].root, s};
  }
  ok = ok && found == live;
  if (ok) std::qsort(roots, live, sizeof(RootSlot), by_root);
  // The runs of the iteration-to-cluster map, clusters numbered by first iteration.
  ByteBuffer runs;
  std::uint32_t numbered = 0, previous = kNoNode;
  std::uint32_t length = 0; // iterations are fewer than 2^32 (kMaxIterations)
  for (std::uint64_t i = 0; ok && i < iterations; ++i) {
    std::uint32_t r = std::uint32_t(i);
    for (int step = 0; ok && d.forest[r] != r; ++step) {
      r = d.forest[r];
      ok = step < 64 && r < iterations;
    }
    RootSlot key{r, 0};
    const auto *hit =
        ok ? static_cast<const RootSlot *>(std::bsearch(&key, roots, live, sizeof key, by_root))
           : nullptr;
    if (!hit) {
      ok = false;
      break;
    }
    if (ordinal[hit->slot] == kNoNode) {
      ordinal[hit->slot] = numbered;
      order[numbered++] = hit->slot;
    }
    std::uint32_t cluster = ordinal[hit->slot];
    if (cluster != previous && length) {
      runs.put(length);
      runs.put(previous);
      length = 0;
    }
    previous = cluster;
    ++length;
  }
  if (ok && length) {
    runs.put(length);
    runs.put(previous);
  }
  ok = ok && numbered == live && !runs.failed;
  if (ok) {
    t.put(d.node);
    t.put(members);
    t.put(live);
    t.put(std::uint32_t(runs.size / IDB_DYN_RUN_SIZE));
    t.put(iterations);
    t.put(d.dropped);
    t.put(d.untracked);
    t.put(d.mixed);
    for (std::uint32_t m = 0; m < members; ++m)
      t.put(d.member_node[m]);
    for (std::uint32_t o = 0; o < live; ++o) {
      const DynCluster &k = d.clusters[order[o]];
      const DynEntry *e = d.entries + std::size_t(order[o]) * d.member_cap;
      t.put(k.iterations);
      for (std::uint32_t m = 0; m < members; ++m) {
        bool covered = m < k.width;
        t.put(covered ? e[m].visits : 0.0);
        t.put(covered ? e[m].ticks / ticks_per_second : 0.0);
      }
    }
    t.put(runs.data, runs.size);
  }
  std::free(roots);
  std::free(order);
  std::free(ordinal);
  return ok && !t.failed;
}

} // namespace

std::uint32_t put_dynamics(ByteBuffer &b, const Cfh &c, double ticks_per_second) {
  std::uint32_t count = __atomic_load_n(&c.dyn_count, __ATOMIC_ACQUIRE);
  std::uint32_t sections = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    const DynState &d = *c.dyn[i];
    std::uint32_t before = d.seq.load(std::memory_order_acquire);
    if (before & 1) continue;
    ByteBuffer t;
    bool ok = put_state(t, d, ticks_per_second);
    std::atomic_thread_fence(std::memory_order_acquire);
    if (!ok || d.seq.load(std::memory_order_relaxed) != before) continue;
    std::uint32_t clusters = 0;
    std::memcpy(&clusters, t.data + 8, sizeof clusters);
    std::size_t at = begin_section(b, IDB_SECTION_DYN, clusters);
    b.put(t.data, t.size);
    end_section(b, at);
    ++sections;
  }
  return sections;
}

} // namespace idb::rt

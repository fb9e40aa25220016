// The summary mode's data structures: records and their merge, the parsed CFH sections of
// one rank, and the union of the ranks' CFH structures with its byte form.
#include "summary_core.h"

#include "crc32.h"
#include "idb/histogram.h"
#include "idb/profile_format.h"
#include "idb/wait_states.h"
#include "section.h"

#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace idb::mpi {

namespace {

using rt::begin_section;
using rt::end_section;

constexpr std::uint32_t kNone = 0xFFFFFFFFu;

void spread_one(Spread &s, double value, int rank) {
  s.min = s.max = s.mean = value;
  s.m2 = 0.0;
  s.rank_min = s.rank_max = rank;
}

void spread_merge(Spread &a, const Spread &b, double na, double nb) {
  if (b.min < a.min || (b.min == a.min && b.rank_min < a.rank_min)) {
    a.min = b.min;
    a.rank_min = b.rank_min;
  }
  if (b.max > a.max || (b.max == a.max && b.rank_max < a.rank_max)) {
    a.max = b.max;
    a.rank_max = b.rank_max;
  }
  double n = na + nb, delta = b.mean - a.mean;
  a.mean += delta * (nb / n);
  a.m2 += b.m2 + delta * delta * (na * nb / n);
}

std::uint64_t key_of(std::uint32_t parent, std::int32_t probe) {
  return (std::uint64_t(parent) << 32) | std::uint32_t(probe);
}

// Room for one more node in the parent and probe arrays.
bool grow(UnionCfh &c) {
  std::uint32_t capacity = c.capacity ? c.capacity * 2 : 64;
  auto *parent = static_cast<std::uint32_t *>(std::realloc(c.parent, capacity * 4ull));
  if (parent) c.parent = parent;
  auto *probe = static_cast<std::int32_t *>(std::realloc(c.probe, capacity * 4ull));
  if (probe) c.probe = probe;
  if (!parent || !probe) return false;
  c.capacity = capacity;
  return true;
}

} // namespace

void summary_clear(SummaryRecord &r) {
  std::memset(&r, 0, sizeof r);
}

void summary_from_rank(SummaryRecord &r, const idb_stats_t &stats, int rank) {
  r.all = stats;
  r.ranks = 1;
  r.unused = 0;
  const double values[kSpreads] = {stats.sum, double(stats.count), stats.cpu_sum,
                                   double(stats.bytes_sent), double(stats.bytes_recv)};
  for (int q = 0; q < kSpreads; ++q)
    spread_one(r.spread[q], values[q], rank);
}

void summary_merge(SummaryRecord &a, const SummaryRecord &b) {
  if (b.ranks == 0) return;
  if (a.ranks == 0) {
    a = b;
    return;
  }
  idb_stats_merge(&a.all, &b.all);
  for (int q = 0; q < kSpreads; ++q)
    spread_merge(a.spread[q], b.spread[q], double(a.ranks), double(b.ranks));
  a.ranks += b.ranks;
}

int parse_cfh_sections(const unsigned char *data, std::size_t size, std::uint32_t count,
                       LocalCfh **out) {
  *out = static_cast<LocalCfh *>(std::calloc(count ? count : 1, sizeof(LocalCfh)));
  if (!*out) return -1;
  Reader r{data, data + size};
  int cfhs = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    auto type = r.get<std::uint32_t>();
    auto items = r.get<std::uint32_t>();
    auto length = r.get<std::uint64_t>();
    r.skip(8); // checksum, reserved
    if (!r.ok || std::size_t(r.end - r.at) < length) return -1;
    const unsigned char *end = r.at + length;
    if (type == IDB_SECTION_WAIT) { // the waits of the CFH before it
      if (cfhs == 0 || (*out)[cfhs - 1].waits ||
          length != std::uint64_t(items) * IDB_WAIT_ITEM_SIZE)
        return -1;
      LocalCfh &c = (*out)[cfhs - 1];
      c.wait_items = items;
      c.waits = r.skip(std::size_t(length));
      continue;
    }
    if (type == IDB_SECTION_DYN) { // a rank's iterations: the summary keeps none
      if (cfhs == 0) return -1;
      r.skip(std::size_t(length));
      continue;
    }
    if (type == IDB_SECTION_HIST) { // the histograms of the CFH before it
      if (cfhs == 0 || (*out)[cfhs - 1].hists) return -1;
      LocalCfh &c = (*out)[cfhs - 1];
      auto scheme = r.get<std::uint32_t>();
      auto unit = r.get<std::uint32_t>();
      if (!r.ok || scheme != IDB_HIST_SUB_BITS || unit != IDB_HIST_UNIT_NS) return -1;
      c.hist_items = items;
      c.hist_bytes = std::size_t(end - r.at);
      c.hists = r.skip(c.hist_bytes);
      continue;
    }
    LocalCfh &c = (*out)[cfhs++];
    c.count = items;
    r.skip(4); // rank: this rank's
    c.thread = r.get<std::int32_t>();
    c.flags = r.get<std::uint32_t>();
    c.record_size = r.get<std::uint32_t>();
    for (std::uint64_t &counter : c.counters)
      counter = r.get<std::uint64_t>();
    r.text(c.name, sizeof c.name);
    c.records = r.skip(std::size_t(c.count) * c.record_size);
    if (!r.ok || type != IDB_SECTION_CFH || r.at != end || c.count == 0 ||
        c.record_size < IDB_NODE_RECORD_SIZE)
      return -1;
  }
  return cfhs;
}

void local_node(const LocalCfh &c, std::uint32_t i, std::uint32_t &parent, std::int32_t &probe,
                idb_stats_t &s) {
  const unsigned char *p = c.records + std::size_t(i) * c.record_size;
  std::memcpy(&parent, p, 4);
  std::memcpy(&probe, p + 4, 4);
  p += 8;
#define IDB_GET_FIELD(field, type, unit, merge, group, column)                                     \
  std::memcpy(&s.field, p, 8);                                                                     \
  p += 8;
  IDB_STATS_FIELDS(IDB_GET_FIELD)
#undef IDB_GET_FIELD
}

void Union::reset() {
  for (std::uint32_t i = 0; i < count; ++i) {
    std::free(cfhs[i].parent);
    std::free(cfhs[i].probe);
    cfhs[i].index.release();
  }
  std::free(cfhs);
  cfhs = nullptr;
  count = capacity = 0;
  failed = false;
}

int Union::cfh(std::uint32_t flags, std::int32_t thread, const char *name) {
  std::uint32_t named = flags & IDB_CFH_FLAG_NAMED;
  for (std::uint32_t i = 0; i < count; ++i)
    if ((cfhs[i].flags & IDB_CFH_FLAG_NAMED) == named && !std::strcmp(cfhs[i].name, name))
      return int(i);
  if (count == capacity) {
    std::uint32_t bigger = capacity ? capacity * 2 : 8;
    auto *p = static_cast<UnionCfh *>(std::realloc(cfhs, bigger * sizeof(UnionCfh)));
    if (!p) return failed = true, -1;
    cfhs = p;
    capacity = bigger;
  }
  UnionCfh &c = cfhs[count];
  c = UnionCfh{};
  c.flags = named;
  c.thread = thread;
  std::strncpy(c.name, name, sizeof c.name - 1);
  if (union_node(c, kNone, 0, true) != 0) return failed = true, -1; // the root
  return int(count++);
}

std::uint64_t Union::total_nodes() const {
  return count ? offset(count - 1) + cfhs[count - 1].count : 0;
}

std::uint64_t Union::offset(std::uint32_t cfh) const {
  std::uint64_t at = 0;
  for (std::uint32_t i = 0; i < cfh; ++i)
    at += cfhs[i].count;
  return at;
}

std::uint32_t union_node(UnionCfh &c, std::uint32_t parent, std::int32_t probe, bool add) {
  std::uint64_t key = key_of(parent, probe);
  if (const std::uint32_t *node = c.index.find(key)) return *node;
  if (!add || (c.count == c.capacity && !grow(c))) return kNone;
  if (!c.index.insert(key, c.count)) return kNone;
  c.parent[c.count] = parent;
  c.probe[c.count] = probe;
  return c.count++;
}

namespace {

// Maps `local`'s nodes to `c`'s, adding the missing ones when `add`. map[i] is kNone for
// a node that is absent. False when a parent does not precede its child.
bool map_nodes(UnionCfh &c, const LocalCfh &local, std::uint32_t *map, bool add) {
  for (std::uint32_t i = 0; i < local.count; ++i) {
    std::uint32_t parent = 0;
    std::int32_t probe = 0;
    idb_stats_t stats;
    local_node(local, i, parent, probe, stats);
    if (i == 0) {
      map[0] = 0;
      continue;
    }
    if (parent >= i) return false;
    map[i] = map[parent] == kNone ? kNone : union_node(c, map[parent], probe, add);
  }
  return true;
}

// The union CFH of `local`'s name (named or not), or -1.
int union_cfh_of(const Union &u, const LocalCfh &local) {
  std::uint32_t named = local.flags & IDB_CFH_FLAG_NAMED;
  for (std::uint32_t k = 0; k < u.count; ++k)
    if ((u.cfhs[k].flags & IDB_CFH_FLAG_NAMED) == named && !std::strcmp(u.cfhs[k].name, local.name))
      return int(k);
  return -1;
}

void put_stats(ByteBuffer &b, const idb_stats_t &s) {
#define IDB_PUT_FIELD(field, type, unit, merge, group, column) b.put(s.field);
  IDB_STATS_FIELDS(IDB_PUT_FIELD)
#undef IDB_PUT_FIELD
}

void put_cfh_section(ByteBuffer &b, const UnionCfh &c, const SummaryRecord *r,
                     const std::uint64_t *k) {
  std::size_t at = begin_section(b, IDB_SECTION_CFH, c.count);
  b.put(std::int32_t(-1));
  b.put(c.thread);
  b.put(std::uint32_t(c.flags | IDB_CFH_FLAG_SUMMARY));
  b.put(std::uint32_t(IDB_NODE_RECORD_SIZE));
  for (int i = 0; i < 4; ++i)
    b.put(k[i]);
  b.put_text(c.name);
  for (std::uint32_t i = 0; i < c.count; ++i) {
    b.put(i == 0 ? IDB_NO_PARENT : c.parent[i]);
    b.put(c.probe[i]);
    put_stats(b, r[i].all);
  }
  end_section(b, at);
}

// One histogram as HIST sections and messages hold it: level, size, (bucket, count) pairs.
void put_sparse(ByteBuffer &b, const SparseHist &s) {
  b.put(s.level);
  b.put(s.size);
  for (std::uint32_t k = 0; k < s.size; ++k) {
    b.put(s.buckets[k]);
    b.put(s.counts[k]);
  }
}

// The merged histograms of the CFH whose nodes start at `first` in `h`: those that add up
// to the node's merged count (a rank without histograms leaves the others short).
void put_hist_section(ByteBuffer &b, const UnionCfh &c, const SummaryRecord *r, const HistSet &h,
                      std::uint64_t first) {
  std::size_t at = begin_section(b, IDB_SECTION_HIST, 0);
  b.put(std::uint32_t(IDB_HIST_SUB_BITS));
  b.put(std::uint32_t(IDB_HIST_UNIT_NS));
  std::uint32_t items = 0;
  for (std::uint32_t i = 0; i < c.count; ++i) {
    const SparseHist &s = h.nodes[first + i];
    std::uint64_t sum = 0;
    for (std::uint32_t k = 0; k < s.size; ++k)
      sum += s.counts[k];
    if (s.size == 0 || sum != r[i].all.count) continue;
    b.put(i);
    put_sparse(b, s);
    ++items;
  }
  end_section(b, at, items);
}

// One spread as SUMMARY and WAIT_SPREAD sections hold it (40 bytes).
void put_spread(ByteBuffer &b, const Spread &s) {
  for (double v : {s.min, s.max, s.mean, s.m2})
    b.put(v);
  b.put(s.rank_min);
  b.put(s.rank_max);
}

void put_spread_section(ByteBuffer &b, const UnionCfh &c, const SummaryRecord *r) {
  std::size_t at = begin_section(b, IDB_SECTION_SUMMARY, c.count);
  b.put(std::uint32_t(IDB_SUMMARY_RECORD_SIZE));
  b.put(std::uint32_t(0));
  for (std::uint32_t i = 0; i < c.count; ++i) {
    b.put(r[i].ranks);
    b.put(std::uint32_t(0));
    for (const Spread &s : r[i].spread)
      put_spread(b, s);
  }
  end_section(b, at);
}

} // namespace

void union_add_local(Union &u, const LocalCfh *local, int count) {
  for (int i = 0; i < count && !u.failed; ++i) {
    int at = u.cfh(local[i].flags, local[i].thread, local[i].name);
    auto *map = static_cast<std::uint32_t *>(std::malloc(local[i].count * 4ull));
    if (at < 0 || !map || !map_nodes(u.cfhs[at], local[i], map, true)) u.failed = true;
    std::free(map);
  }
}

void union_put(const Union &u, ByteBuffer &out) {
  out.put(u.count);
  for (std::uint32_t i = 0; i < u.count; ++i) {
    const UnionCfh &c = u.cfhs[i];
    out.put(c.flags);
    out.put(c.thread);
    out.put_text(c.name);
    out.put(c.count);
    for (std::uint32_t n = 0; n < c.count; ++n) {
      out.put(n == 0 ? kNone : c.parent[n]);
      out.put(c.probe[n]);
    }
  }
}

bool union_merge(Union &u, Reader &in) {
  auto count = in.get<std::uint32_t>();
  for (std::uint32_t i = 0; i < count && in.ok && !u.failed; ++i) {
    auto flags = in.get<std::uint32_t>();
    auto thread = in.get<std::int32_t>();
    char name[64];
    in.text(name, sizeof name);
    auto nodes = in.get<std::uint32_t>();
    int at = in.ok ? u.cfh(flags, thread, name) : -1;
    auto *map = static_cast<std::uint32_t *>(std::malloc(nodes * 4ull + 4));
    if (at < 0 || !map) {
      std::free(map);
      return false;
    }
    for (std::uint32_t n = 0; n < nodes && in.ok; ++n) {
      auto parent = in.get<std::uint32_t>();
      auto probe = in.get<std::int32_t>();
      if (n == 0)
        map[0] = 0;
      else if (parent >= n)
        in.ok = false;
      else
        map[n] = union_node(u.cfhs[at], map[parent], probe, true);
    }
    std::free(map);
  }
  return in.ok && !u.failed;
}

bool records_of_rank(const Union &u, const LocalCfh *local, int count, int rank,
                     SummaryRecord *records) {
  std::uint64_t total = u.total_nodes();
  for (std::uint64_t i = 0; i < total; ++i)
    summary_clear(records[i]);
  for (int i = 0; i < count; ++i) {
    int at = union_cfh_of(u, local[i]);
    auto *map = static_cast<std::uint32_t *>(std::malloc(local[i].count * 4ull));
    bool ok = at >= 0 && map && map_nodes(u.cfhs[at], local[i], map, false);
    SummaryRecord *base = records + (ok ? u.offset(std::uint32_t(at)) : 0);
    for (std::uint32_t n = 0; ok && n < local[i].count; ++n) {
      std::uint32_t parent = 0;
      std::int32_t probe = 0;
      idb_stats_t stats;
      local_node(local[i], n, parent, probe, stats);
      ok = map[n] != kNone;
      if (ok) summary_from_rank(base[map[n]], stats, rank);
    }
    std::free(map);
    if (!ok) return false;
  }
  return true;
}

std::uint32_t put_summary_sections(const Union &u, const SummaryRecord *records,
                                   const std::uint64_t *counters, const HistSet *hists,
                                   const WaitRecord *waits, std::uint64_t nwaits, ByteBuffer &out) {
  bool with_hists = hists && !hists->failed && hists->count == u.total_nodes();
  std::uint32_t sections = 0;
  std::uint64_t w = 0;
  for (std::uint32_t i = 0; i < u.count; ++i) {
    std::uint64_t base = u.offset(i), end = base + u.cfhs[i].count;
    const SummaryRecord *r = records + base;
    put_cfh_section(out, u.cfhs[i], r, counters + std::size_t(4) * i);
    put_spread_section(out, u.cfhs[i], r);
    sections += 2;
    if (with_hists) put_hist_section(out, u.cfhs[i], r, *hists, base), ++sections;
    std::uint64_t first = w;
    while (w < nwaits && waits[w].node < end)
      ++w;
    if (w == first) continue;
    std::size_t at = begin_section(out, IDB_SECTION_WAIT, std::uint32_t(w - first));
    for (std::uint64_t k = first; k < w; ++k) {
      out.put(std::uint32_t(waits[k].node - base));
      out.put(waits[k].pattern);
      out.put(waits[k].seconds);
      out.put(waits[k].instances);
    }
    end_section(out, at);
    at = begin_section(out, IDB_SECTION_WAIT_SPREAD, std::uint32_t(w - first));
    for (std::uint64_t k = first; k < w; ++k) {
      out.put(std::uint32_t(waits[k].node - base));
      out.put(waits[k].pattern);
      out.put(waits[k].ranks);
      out.put(std::uint32_t(0));
      put_spread(out, waits[k].spread);
    }
    end_section(out, at);
    sections += 2;
  }
  return sections;
}

namespace {

int by_node_pattern(const void *a, const void *b) {
  const auto &x = *static_cast<const RankWait *>(a), &y = *static_cast<const RankWait *>(b);
  if (x.node != y.node) return x.node < y.node ? -1 : 1;
  if (x.pattern != y.pattern) return x.pattern < y.pattern ? -1 : 1;
  return 0;
}

} // namespace

bool waits_of_rank(const Union &u, const LocalCfh *local, int count, RankWait **out,
                   std::uint64_t *n) {
  std::uint64_t items = 0;
  for (int i = 0; i < count; ++i)
    items += local[i].wait_items;
  *n = 0;
  *out = static_cast<RankWait *>(std::malloc(sizeof(RankWait) * (items + 1)));
  if (!*out) return false;
  for (int i = 0; i < count; ++i) {
    if (!local[i].wait_items) continue;
    int at = union_cfh_of(u, local[i]);
    auto *map = static_cast<std::uint32_t *>(std::malloc(local[i].count * 4ull));
    bool ok = at >= 0 && map && map_nodes(u.cfhs[at], local[i], map, false);
    Reader r{local[i].waits,
             local[i].waits + std::size_t(local[i].wait_items) * IDB_WAIT_ITEM_SIZE};
    for (std::uint32_t k = 0; ok && k < local[i].wait_items; ++k) {
      auto node = r.get<std::uint32_t>();
      auto pattern = r.get<std::uint32_t>();
      auto seconds = r.get<double>();
      auto instances = r.get<std::uint64_t>();
      ok = r.ok && node < local[i].count && map[node] != kNone && pattern < IDB_WAIT_PATTERN_COUNT;
      if (ok)
        (*out)[(*n)++] = {u.offset(std::uint32_t(at)) + map[node], pattern, seconds, instances};
    }
    std::free(map);
    if (!ok) return false;
  }
  std::qsort(*out, *n, sizeof(RankWait), by_node_pattern);
  std::uint64_t kept = 0; // a thread's CFHs of one name share the union's nodes
  for (std::uint64_t i = 0; i < *n; ++i) {
    RankWait &w = (*out)[i];
    if (kept > 0 && by_node_pattern(&(*out)[kept - 1], &w) == 0) {
      (*out)[kept - 1].seconds += w.seconds;
      (*out)[kept - 1].instances += w.instances;
    } else {
      (*out)[kept++] = w;
    }
  }
  *n = kept;
  return true;
}

void wait_mask(const RankWait *waits, std::uint64_t n, unsigned char *mask) {
  for (std::uint64_t i = 0; i < n; ++i)
    mask[waits[i].node] =
        static_cast<unsigned char>(mask[waits[i].node] | (1u << waits[i].pattern));
}

bool wait_records(const unsigned char *mask, std::uint64_t total, const SummaryRecord *records,
                  const RankWait *waits, std::uint64_t nwaits, int rank, WaitRecord **out,
                  std::uint64_t *n) {
  std::uint64_t keys = 0;
  for (std::uint64_t i = 0; i < total; ++i)
    for (unsigned p = 0; p < 8; ++p)
      keys += (mask[i] >> p) & 1u;
  *n = 0;
  *out = static_cast<WaitRecord *>(std::calloc(keys + 1, sizeof(WaitRecord)));
  if (!*out) return false;
  std::uint64_t mine = 0; // waits and the keys are both in (node, pattern) order
  for (std::uint64_t i = 0; i < total; ++i)
    for (std::uint32_t p = 0; p < 8; ++p) {
      if (!((mask[i] >> p) & 1u)) continue;
      WaitRecord &w = (*out)[(*n)++];
      w.node = i;
      w.pattern = p;
      while (mine < nwaits &&
             (waits[mine].node < i || (waits[mine].node == i && waits[mine].pattern < p)))
        ++mine;
      if (records[i].ranks == 0) continue; // this rank never reached the node
      bool waited = mine < nwaits && waits[mine].node == i && waits[mine].pattern == p;
      w.ranks = 1;
      w.seconds = waited ? waits[mine].seconds : 0.0;
      w.instances = waited ? waits[mine].instances : 0;
      spread_one(w.spread, w.seconds, rank);
    }
  return true;
}

void wait_merge(WaitRecord &a, const WaitRecord &b) {
  if (b.ranks == 0) return;
  if (a.ranks == 0) {
    a = b;
    return;
  }
  a.seconds += b.seconds;
  a.instances += b.instances;
  spread_merge(a.spread, b.spread, double(a.ranks), double(b.ranks));
  a.ranks += b.ranks;
}

HistSet::~HistSet() {
  for (std::uint64_t i = 0; i < count; ++i) {
    std::free(nodes[i].buckets);
    std::free(nodes[i].counts);
  }
  std::free(nodes);
}

bool HistSet::init(std::uint64_t total) {
  nodes = static_cast<SparseHist *>(std::calloc(total ? total : 1, sizeof(SparseHist)));
  count = nodes ? total : 0;
  failed = !nodes;
  return nodes != nullptr;
}

bool HistSet::add(std::uint64_t node, std::uint32_t level, const std::uint32_t *buckets,
                  const std::uint64_t *counts, std::uint32_t size) {
  if (failed || node >= count || level > IDB_HIST_MAX_LEVEL) return false;
  SparseHist &s = nodes[node];
  std::uint32_t to = s.size ? (s.level > level ? s.level : level) : level;
  // Both at the coarser level, merged into fresh arrays (sizes add up at most).
  std::uint32_t most = s.size + size;
  auto *b = static_cast<std::uint32_t *>(std::malloc(4ull * most + 4));
  auto *n = static_cast<std::uint64_t *>(std::malloc(8ull * most + 8));
  if (!b || !n) {
    std::free(b);
    std::free(n);
    failed = true;
    return false;
  }
  std::uint32_t i = 0, j = 0, k = 0;
  auto push = [&](std::uint32_t bucket, std::uint64_t value) {
    if (k > 0 && b[k - 1] == bucket) {
      n[k - 1] += value;
    } else {
      b[k] = bucket;
      n[k++] = value;
    }
  };
  while (i < s.size || j < size) {
    std::uint32_t mine = i < s.size ? s.buckets[i] >> (to - s.level) : 0xFFFFFFFFu;
    std::uint32_t theirs = j < size ? buckets[j] >> (to - level) : 0xFFFFFFFFu;
    if (mine <= theirs)
      push(mine, s.counts[i++]);
    else
      push(theirs, counts[j++]);
  }
  std::free(s.buckets);
  std::free(s.counts);
  s.buckets = b;
  s.counts = n;
  s.size = s.capacity = k;
  s.level = to;
  return true;
}

namespace {

// Reads one histogram (level, size, pairs) into the scratch arrays, checked: false when
// it is malformed.
bool get_hist(Reader &in, std::uint32_t &level, std::uint32_t &size, std::uint32_t *&buckets,
              std::uint64_t *&counts) {
  level = in.get<std::uint32_t>();
  size = in.get<std::uint32_t>();
  if (!in.ok || level > IDB_HIST_MAX_LEVEL || size == 0 ||
      std::size_t(in.end - in.at) / IDB_HIST_PAIR_SIZE < size)
    return false;
  buckets = static_cast<std::uint32_t *>(std::malloc(4ull * size));
  counts = static_cast<std::uint64_t *>(std::malloc(8ull * size));
  if (!buckets || !counts) return false;
  for (std::uint32_t k = 0; k < size; ++k) {
    buckets[k] = in.get<std::uint32_t>();
    counts[k] = in.get<std::uint64_t>();
    if (buckets[k] >= idb_hist_buckets_at(level) || (k > 0 && buckets[k] <= buckets[k - 1]))
      return false;
  }
  return in.ok;
}

} // namespace

bool hists_of_rank(const Union &u, const LocalCfh *local, int count, HistSet &h) {
  for (int i = 0; i < count; ++i) {
    if (!local[i].hists) continue;
    int at = union_cfh_of(u, local[i]);
    if (at < 0) return false;
    auto *map = static_cast<std::uint32_t *>(std::malloc(local[i].count * 4ull));
    bool ok = map && map_nodes(u.cfhs[at], local[i], map, false);
    std::uint64_t first = u.offset(std::uint32_t(at));
    Reader in{local[i].hists, local[i].hists + local[i].hist_bytes};
    for (std::uint32_t k = 0; ok && k < local[i].hist_items; ++k) {
      auto node = in.get<std::uint32_t>();
      std::uint32_t level = 0, size = 0, *buckets = nullptr;
      std::uint64_t *counts = nullptr;
      ok = get_hist(in, level, size, buckets, counts) && node < local[i].count &&
           map[node] != kNone && h.add(first + map[node], level, buckets, counts, size);
      std::free(buckets);
      std::free(counts);
    }
    std::free(map);
    if (!ok) return false;
  }
  return true;
}

void hist_put(const HistSet &h, ByteBuffer &out) {
  std::uint64_t present = 0;
  for (std::uint64_t i = 0; i < h.count; ++i)
    present += h.nodes[i].size ? 1 : 0;
  out.put(present);
  for (std::uint64_t i = 0; i < h.count; ++i) {
    const SparseHist &s = h.nodes[i];
    if (!s.size) continue;
    out.put(i);
    put_sparse(out, s);
  }
}

bool hist_take(HistSet &h, Reader &in) {
  auto present = in.get<std::uint64_t>();
  for (std::uint64_t k = 0; k < present && in.ok; ++k) {
    auto node = in.get<std::uint64_t>();
    std::uint32_t level = 0, size = 0, *buckets = nullptr;
    std::uint64_t *counts = nullptr;
    bool ok =
        get_hist(in, level, size, buckets, counts) && h.add(node, level, buckets, counts, size);
    std::free(buckets);
    std::free(counts);
    if (!ok) return false;
  }
  return in.ok;
}

} // namespace idb::mpi

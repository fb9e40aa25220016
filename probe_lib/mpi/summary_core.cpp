// The summary mode's data structures: records and their merge, the parsed CFH sections of
// one rank, and the union of the ranks' CFH structures with its byte form.
#include "summary_core.h"

#include "crc32.h"
#include "idb/profile_format.h"
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
  for (std::uint32_t i = 0; i < count; ++i) {
    LocalCfh &c = (*out)[i];
    auto type = r.get<std::uint32_t>();
    c.count = r.get<std::uint32_t>();
    auto length = r.get<std::uint64_t>();
    r.skip(8); // checksum, reserved
    const unsigned char *end = r.at + length;
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
  return int(count);
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

void put_spread_section(ByteBuffer &b, const UnionCfh &c, const SummaryRecord *r) {
  std::size_t at = begin_section(b, IDB_SECTION_SUMMARY, c.count);
  b.put(std::uint32_t(IDB_SUMMARY_RECORD_SIZE));
  b.put(std::uint32_t(0));
  for (std::uint32_t i = 0; i < c.count; ++i) {
    b.put(r[i].ranks);
    b.put(std::uint32_t(0));
    for (const Spread &s : r[i].spread) {
      for (double v : {s.min, s.max, s.mean, s.m2})
        b.put(v);
      b.put(s.rank_min);
      b.put(s.rank_max);
    }
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
    std::uint32_t named = local[i].flags & IDB_CFH_FLAG_NAMED;
    int at = -1;
    for (std::uint32_t k = 0; k < u.count && at < 0; ++k)
      if ((u.cfhs[k].flags & IDB_CFH_FLAG_NAMED) == named &&
          !std::strcmp(u.cfhs[k].name, local[i].name))
        at = int(k);
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
                                   const std::uint64_t *counters, ByteBuffer &out) {
  for (std::uint32_t i = 0; i < u.count; ++i) {
    const SummaryRecord *r = records + u.offset(i);
    put_cfh_section(out, u.cfhs[i], r, counters + std::size_t(4) * i);
    put_spread_section(out, u.cfhs[i], r);
  }
  return 2 * u.count;
}

} // namespace idb::mpi

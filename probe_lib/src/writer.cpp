// Profile serialisation into a growing buffer, checksummed section by section.
#include "writer.h"

#include "dynamics.h"

#include "byte_buffer.h"
#include "crc32.h"
#include "idb/profile_format.h"
#include "probes.h"
#include "section.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the profile writer assumes little-endian");

namespace idb::rt {

namespace {

// A field appended to the table makes a longer record: a new minor version of the format.
static_assert(8 + IDB_STATS_RECORD_BYTES == IDB_NODE_RECORD_SIZE,
              "the node record is the parent, the probe and the table's fields");

void put_probe(const ProbeInfo &p, void *context) {
  auto &b = *static_cast<ByteBuffer *>(context);
  b.put(std::int32_t(p.id));
  b.put(std::uint32_t(p.kind));
  b.put(std::int32_t(p.line));
  b.put_text(p.description);
  b.put_text(p.file);
  b.put_text(p.function);
}

void count_probe(const ProbeInfo &, void *context) {
  ++*static_cast<std::uint32_t *>(context);
}

// A field in the profile's units: seconds for times, as it is for counts and bytes.
double in_seconds(double value, double seconds_per_tick, idb_stats_unit unit) {
  switch (unit) {
  case IDB_UNIT_TICKS:
    return value * seconds_per_tick;
  case IDB_UNIT_TICKS2:
    return value * seconds_per_tick * seconds_per_tick;
  case IDB_UNIT_NS:
    return value * 1e-9;
  case IDB_UNIT_COUNT:
  case IDB_UNIT_BYTES:
    break;
  }
  return value;
}

void put_field(ByteBuffer &b, std::uint64_t value, double, idb_stats_unit) {
  b.put(value);
}
void put_field(ByteBuffer &b, double value, double seconds_per_tick, idb_stats_unit unit) {
  b.put(in_seconds(value, seconds_per_tick, unit));
}

// `open_ticks` >= 0: the node is still open in a thread that finalize does not own; its
// activation so far is written as one more sample, leaving the live record alone. The
// noise written is the measured extra plus the calibrated cost of each activation, timed
// or throttled (a sample, a timed one); the root has none. `untimed`: every throttled activation
// (cfh_untimed). Returns the count written (the open activation included), which the node's
// histogram must match.
std::uint64_t put_node(ByteBuffer &b, const Node &n, const WriteJob &job, double open_ticks,
                       std::uint64_t untimed) {
  const double s = 1.0 / job.ticks_per_second;
  idb_stats_t st = n.stats;
  st.throttled = untimed;
  if (open_ticks >= 0) idb_stats_add(&st, open_ticks);
  st.noise = n.parent == kNoNode
                 ? 0.0
                 : double(st.count + st.sampled) * job.noise_ticks +
                       double(st.throttled - st.sampled) * job.throttled_ticks + st.noise;
  b.put(n.parent);
  b.put(n.probe);
#define IDB_PUT_FIELD(field, type, unit, merge, group, column)                                     \
  put_field(b, st.field, s, IDB_UNIT_##unit);
  IDB_STATS_FIELDS(IDB_PUT_FIELD)
#undef IDB_PUT_FIELD
  return st.count;
}

// Snapshot of the frames a CFH still has open: per node the ticks its open activation has
// run until the end of the run, -1 for nodes not open. Reads another thread's live stack,
// so the depth is read once and bounded. Returns the number of open frames above the
// root, or -1 when memory is exhausted.
long open_frames(const Cfh &c, std::uint32_t count, std::uint64_t end, double *open_ticks) {
  for (std::uint32_t i = 0; i < count; ++i)
    open_ticks[i] = -1.0;
  std::uint32_t depth = c.depth;
  if (depth > c.max_depth + 1) depth = 0;
  for (std::uint32_t k = 0; k < depth; ++k) {
    const Frame &f = c.stack[k];
    if (f.node < count && !(f.special & kSpecialThrottled)) // throttled: never timed
      open_ticks[f.node] = f.t0 < end ? double(end - f.t0) : 0.0;
  }
  return depth > 1 ? long(depth - 1) : 0;
}

// The HIST section of a CFH whose nodes have histograms: each node's as it would be
// written, with the open activation counted once more. A node whose histogram does not
// add up to the count its record was written with (`written`: another thread went on
// timing it while the profile was written, as after a SIGTERM) is left out rather than
// written inconsistent.
void put_hists(ByteBuffer &b, const Cfh &c, std::uint32_t count, const double *open_ticks,
               const std::uint64_t *written) {
  constexpr std::uint32_t kMax = kHistWindow + 1; // the window and an open activation
  std::uint32_t buckets[kMax];
  std::uint64_t counts[kMax];
  std::size_t at = begin_section(b, IDB_SECTION_HIST, 0);
  b.put(std::uint32_t(IDB_HIST_SUB_BITS));
  b.put(std::uint32_t(IDB_HIST_UNIT_NS));
  std::uint32_t items = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    double extra = open_ticks[i] >= 0 ? double(hist_ns(c, std::uint64_t(open_ticks[i]))) : -1.0;
    std::uint32_t level = 0;
    std::uint32_t n = cfh_hist_read(c, i, extra, &level, buckets, counts, kMax);
    std::uint64_t sum = 0;
    for (std::uint32_t k = 0; k < n && k < kMax; ++k)
      sum += counts[k];
    if (n == 0 || n > kMax || sum != written[i]) continue;
    b.put(i);
    b.put(level);
    b.put(n);
    for (std::uint32_t k = 0; k < n; ++k) {
      b.put(buckets[k]);
      b.put(counts[k]);
    }
    ++items;
  }
  end_section(b, at, items);
}

// The WAIT section of a CFH whose nodes waited (cfh_add_wait keeps the items in order).
// A wait is bounded by its activation's duration, measured in another clock; the item is
// capped at the node's wall total in seconds so that rounding never makes it exceed it.
void put_waits(ByteBuffer &b, const Cfh &c, const WriteJob &job, std::uint32_t count) {
  std::size_t at = begin_section(b, IDB_SECTION_WAIT, 0);
  std::uint32_t items = 0;
  for (std::uint32_t i = 0; i < c.wait_count; ++i) {
    const WaitItem &w = c.waits[i];
    if (w.node >= count) continue;
    const idb_stats_t &s = c.nodes[w.node].stats;
    double total = s.sum / job.ticks_per_second;
    b.put(w.node);
    b.put(w.pattern);
    b.put(w.seconds < total ? w.seconds : total);
    b.put(w.instances < s.count ? w.instances : s.count);
    ++items;
  }
  end_section(b, at, items);
}

// Writes the CFH's section and, with histograms on, its HIST section, and its WAIT
// section when the replay found waits; returns how many.
std::uint32_t put_cfh(ByteBuffer &b, const Cfh &c, const WriteJob &job) {
  std::uint32_t count = c.node_count.load(std::memory_order_acquire);
  auto *open_ticks = static_cast<double *>(std::malloc(sizeof(double) * count));
  auto *written = static_cast<std::uint64_t *>(std::malloc(sizeof(std::uint64_t) * count));
  if (!open_ticks || !written) {
    std::free(open_ticks);
    std::free(written);
    b.failed = true;
    return 0;
  }
  long open = open_frames(c, count, job.end_ticks, open_ticks);
  std::size_t at = begin_section(b, IDB_SECTION_CFH, count);
  b.put(std::int32_t(job.rank));
  b.put(std::int32_t(c.thread));
  b.put(std::uint32_t(c.named ? IDB_CFH_FLAG_NAMED : 0u));
  b.put(std::uint32_t(IDB_NODE_RECORD_SIZE));
  b.put(c.overflow);
  b.put(c.mismatches);
  b.put(c.unclosed + std::uint64_t(open) + c.uncounted);
  b.put(c.depth_overflow);
  b.put_text(c.name);
  for (std::uint32_t i = 0; i < count; ++i)
    written[i] = put_node(b, c.nodes[i], job, open_ticks[i], cfh_untimed(c, i));
  end_section(b, at);
  if (c.hist_mult) put_hists(b, c, count, open_ticks, written);
  std::free(open_ticks);
  std::free(written);
  std::uint32_t sections = c.hist_mult ? 2 : 1;
  if (c.wait_count) {
    put_waits(b, c, job, count);
    ++sections;
  }
  return sections + put_dynamics(b, c, job.ticks_per_second);
}

bool write_all(int fd, const unsigned char *data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= std::size_t(n);
  }
  return true;
}

bool fail(char *error, std::size_t size, const char *what, const char *path) {
  std::snprintf(error, size, "%s %s: %s", what, path, std::strerror(errno));
  return false;
}

} // namespace

bool serialize_probes(Bytes &probes) {
  ByteBuffer p;
  std::uint32_t count = 0;
  // One pass counts and writes, so a probe registered meanwhile cannot skew the count.
  struct Counted {
    ByteBuffer *buffer;
    std::uint32_t *count;
  } counted{&p, &count};
  probe_visit(
      [](const ProbeInfo &info, void *context) {
        auto *k = static_cast<Counted *>(context);
        put_probe(info, k->buffer);
        ++*k->count;
      },
      &counted);
  bool ok = !p.failed;
  std::size_t size = p.size;
  probes = ok ? Bytes{p.take(), size, count} : Bytes{nullptr, 0, 0};
  return ok;
}

bool serialize_cfhs(const WriteJob &job, Bytes &sections) {
  ByteBuffer c;
  std::uint32_t count = 0;
  for (const Cfh *h = job.cfhs; h; h = h->next)
    count += put_cfh(c, *h, job);
  bool ok = !c.failed;
  std::size_t size = c.size;
  sections = ok ? Bytes{c.take(), size, count} : Bytes{nullptr, 0, 0};
  return ok;
}

bool write_profile(const char *path, const WriteJob &job, char *error, std::size_t error_size) {
  ByteBuffer b;
  b.put(IDB_PROFILE_MAGIC, IDB_PROFILE_MAGIC_SIZE);
  b.put(std::uint16_t(IDB_PROFILE_VERSION_MAJOR));
  b.put(std::uint16_t(IDB_PROFILE_VERSION_MINOR));
  b.put(b.failed ? 0u : crc32(0, b.data, 12));

  std::size_t at = begin_section(b, IDB_SECTION_META, std::uint32_t(job.meta_count));
  for (std::size_t i = 0; i < job.meta_count; ++i) {
    b.put_text(job.meta[i].key);
    b.put_text(job.meta[i].value, job.meta[i].size);
  }
  end_section(b, at);

  std::uint32_t probes = 0;
  probe_visit(count_probe, &probes);
  at = begin_section(b, IDB_SECTION_PROBES, probes);
  probe_visit(put_probe, &b);
  end_section(b, at);

  std::uint32_t sections = 2; // META and PROBES
  if (job.sections) {
    b.put(job.sections, job.sections_size);
    sections += job.section_count;
  } else {
    for (const Cfh *c = job.cfhs; c; c = c->next)
      sections += put_cfh(b, *c, job);
  }

  at = begin_section(b, IDB_SECTION_END, sections);
  b.put(std::uint64_t(b.size + 8));
  end_section(b, at);
  if (b.failed) {
    std::snprintf(error, error_size, "out of memory while writing %s", path);
    return false;
  }

  // A path that names something other than a regular file (IDB_OUT=/dev/null, a FIFO) is
  // written in place: renaming over it would replace the device with a file.
  struct stat st {};
  if (::stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return fail(error, error_size, "cannot open", path);
    bool ok = write_all(fd, b.data, b.size);
    ok = (::close(fd) == 0) && ok;
    return ok || fail(error, error_size, "cannot write", path);
  }
  char temp[4096];
  if (std::snprintf(temp, sizeof temp, "%s.tmp.%ld", path, long(getpid())) >= int(sizeof temp)) {
    std::snprintf(error, error_size, "profile path too long: %s", path);
    return false;
  }
  int fd = ::open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    return fail(error, error_size, "cannot create", temp);
  }
  bool ok = write_all(fd, b.data, b.size) && ::fsync(fd) == 0;
  ok = (::close(fd) == 0) && ok;
  if (!ok) {
    fail(error, error_size, "cannot write", temp);
    ::unlink(temp);
    return false;
  }
  if (::rename(temp, path) != 0) {
    fail(error, error_size, "cannot rename the profile to", path);
    ::unlink(temp);
    return false;
  }
  return true;
}

} // namespace idb::rt

// Parsing and validation of profile files. A Cursor walks a byte range and remembers the
// first failure; every section is checksummed before its payload is read.
#include "idb/profile.hpp"

#include "crc32.h"
#include "idb/histogram.h"
#include "idb/input_file.hpp"
#include "idb/probe.h"
#include "idb/profile_format.h"
#include "idb/wait_states.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_set>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the profile reader assumes little-endian");

namespace idb::profile {

namespace {

// The largest profile read: 4,096 ranks of 10,000 nodes each are about 5 GB.
constexpr std::size_t kMaxProfileBytes = std::size_t(8) << 30;

struct Cursor {
  std::string_view bytes;
  std::size_t at = 0;
  std::size_t base = 0; // offset of `bytes` in the file, for messages
  std::string error;

  bool fail(const std::string &what) {
    if (error.empty()) error = what + " at byte " + std::to_string(base + at);
    return false;
  }
  bool need(std::size_t n, const char *what) {
    if (!error.empty()) return false;
    if (bytes.size() - at < n) return fail(std::string("truncated ") + what);
    return true;
  }
  template <class T> T get(const char *what) {
    T value{};
    if (need(sizeof value, what)) {
      std::memcpy(&value, bytes.data() + at, sizeof value);
      at += sizeof value;
    }
    return value;
  }
  std::string text(const char *what) {
    auto n = get<std::uint32_t>(what);
    if (!need(n, what)) return {};
    std::string s(bytes.substr(at, n));
    at += n;
    return s;
  }
  bool done() const { return at == bytes.size(); }
};

struct Section {
  std::uint32_t type = 0, count = 0;
  std::size_t offset = 0; // of the payload in the file
  std::string_view payload;
};

// What the sections read so far say that later ones must agree with: the order of
// docs/profile-format.md (one META first, then one PROBES, then the CFHs), the probe ids,
// and the run's rank count.
struct Seen {
  int meta = 0, probes = 0, cfhs = 0;
  int hist_of = -1;   // the CFH (by count) the last HIST section belonged to
  int wait_of = -1;   // and the last WAIT section
  int spread_of = -1; // and the last WAIT_SPREAD section
  std::unordered_set<std::int32_t> probe_ids;
  std::int64_t nprocs = 1;
};

// Reads one section header and checks its checksum.
bool next_section(Cursor &file, Section &s) {
  std::size_t start = file.at;
  if (!file.need(IDB_SECTION_HEADER_SIZE, "section header")) return false;
  unsigned char header[IDB_SECTION_HEADER_SIZE];
  std::memcpy(header, file.bytes.data() + start, sizeof header);
  std::uint64_t length = 0;
  std::uint32_t stored = 0, reserved = 0;
  std::memcpy(&s.type, header, 4);
  std::memcpy(&s.count, header + 4, 4);
  std::memcpy(&length, header + 8, 8);
  std::memcpy(&stored, header + 16, 4);
  std::memcpy(&reserved, header + 20, 4);
  file.at += IDB_SECTION_HEADER_SIZE;
  if (length > file.bytes.size() - file.at) {
    file.at = start;
    return file.fail("truncated section (type " + std::to_string(s.type) + ", " +
                     std::to_string(length) + " bytes announced)");
  }
  std::memset(header + 16, 0, 4);
  std::uint32_t crc = crc32(0, header, sizeof header);
  crc = crc32(crc, file.bytes.data() + file.at, length);
  if (crc != stored) {
    file.at = start;
    return file.fail("checksum mismatch in section of type " + std::to_string(s.type));
  }
  if (reserved != 0) {
    file.at = start + 20;
    return file.fail("non-zero reserved field in the header of a section of type " +
                     std::to_string(s.type));
  }
  s.offset = file.at;
  s.payload = file.bytes.substr(file.at, length);
  file.at += length;
  return true;
}

// `text` as a whole number from `low` to `high`, or nullopt.
std::optional<std::int64_t> whole_number(const std::string &text, std::int64_t low,
                                         std::int64_t high) {
  if (text.empty() || text[0] == ' ' || text[0] == '+') return std::nullopt;
  char *end = nullptr;
  errno = 0;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (*end || errno || value < low || value > high) return std::nullopt;
  return value;
}

// `text` as a finite number of at least `low`, or nullopt.
std::optional<double> finite_number(const std::string &text, double low) {
  if (text.empty() || text[0] == ' ') return std::nullopt;
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (*end || !std::isfinite(value) || value < low) return std::nullopt;
  return value;
}

// Why the value of the META key `key` breaks docs/profile-format.md, or "" (keys it does
// not constrain are free text).
std::string meta_problem(const std::string &key, const std::string &value) {
  constexpr std::int64_t kMaxRanks = 0x7fffffff;
  auto bad = [&](const char *what) {
    return "META " + key + " '" + value.substr(0, 40) + "' is not " + what;
  };
  if (key == "nprocs" && !whole_number(value, 1, kMaxRanks)) return bad("a rank count, 1 or more");
  if (key == "rank" && !whole_number(value, 0, kMaxRanks - 1)) return bad("a rank, 0 or more");
  if ((key == "threads" || key == "pid" || key == "max_nodes" || key == "max_depth") &&
      !whole_number(value, 0, std::numeric_limits<std::int64_t>::max()))
    return bad("a whole number, 0 or more");
  if (key == "timer_hz" && !finite_number(value, std::numeric_limits<double>::min()))
    return bad("a finite frequency above 0");
  if ((key == "start_unix" || key == "end_unix" || key == "noise_per_activation_s" ||
       key == "throttled_noise_per_activation_s" || key == "throttle_below_s" ||
       key == "throttle_early_below_s") &&
      !finite_number(value, 0))
    return bad("a finite number, 0 or more");
  return "";
}

bool read_meta(const Section &s, Profile &p, Cursor &c, Seen &seen) {
  std::size_t rank_at = 0;
  for (std::uint32_t i = 0; i < s.count && c.error.empty(); ++i) {
    std::size_t pair_at = c.at;
    std::string key = c.text("metadata key");
    std::string value = c.text("metadata value");
    if (!c.error.empty()) break;
    if (p.meta.count(key)) {
      c.at = pair_at;
      return c.fail("META key '" + key + "' given twice");
    }
    if (std::string problem = meta_problem(key, value); !problem.empty()) {
      c.at = pair_at;
      return c.fail(problem);
    }
    if (key == "rank") rank_at = pair_at;
    if (key == "argv") {
      std::size_t from = 0;
      while (from <= value.size() && !value.empty()) {
        std::size_t end = value.find('\0', from);
        if (end == std::string::npos) end = value.size();
        p.argv.push_back(value.substr(from, end - from));
        from = end + 1;
      }
    } else if (key.rfind("attr.", 0) == 0) {
      p.attributes[key.substr(5)] = value;
    }
    p.meta[key] = std::move(value);
  }
  if (!c.error.empty()) return false;
  seen.nprocs = p.meta.count("nprocs") ? std::stoll(p.meta["nprocs"]) : 1;
  if (p.meta.count("rank") && std::stoll(p.meta["rank"]) >= seen.nprocs) {
    c.at = rank_at;
    return c.fail("META rank " + p.meta["rank"] + " is not below nprocs " + p.meta["nprocs"]);
  }
  return true;
}

bool read_probes(const Section &s, Profile &p, Cursor &c, Seen &seen) {
  // A probe takes at least 24 bytes (three numbers, three empty strings): a count the
  // payload cannot hold must not reserve memory before the cursor refuses it.
  p.probes.reserve(std::min<std::size_t>(s.count, s.payload.size() / 24));
  for (std::uint32_t i = 0; i < s.count && c.error.empty(); ++i) {
    std::size_t probe_at = c.at;
    Probe probe;
    probe.id = c.get<std::int32_t>("probe id");
    probe.kind = int(c.get<std::uint32_t>("probe kind"));
    probe.line = c.get<std::int32_t>("probe line");
    probe.description = c.text("probe description");
    probe.file = c.text("probe file");
    probe.function = c.text("probe function");
    if (!c.error.empty()) break;
    if (probe.kind < IDB_PROC || probe.kind > IDB_COMM) {
      c.at = probe_at;
      return c.fail("probe " + std::to_string(probe.id) + " has an unknown kind " +
                    std::to_string(probe.kind));
    }
    if (!seen.probe_ids.insert(probe.id).second) {
      c.at = probe_at;
      return c.fail("probe id " + std::to_string(probe.id) + " appears twice in the probe table");
    }
    p.probes.push_back(std::move(probe));
  }
  return c.error.empty();
}

// One node record of `record` bytes: a record of an older minor version holds fewer
// fields, and those it lacks stay 0.
void read_node(Cursor &c, Node &n, std::uint32_t record) {
  std::size_t end = c.at + record;
  n.parent = c.get<std::uint32_t>("node");
  n.probe = c.get<std::int32_t>("node");
#define IDB_GET_FIELD(field, type, unit, merge, group, column)                                     \
  if (c.at + sizeof(IDB_STATS_CTYPE(type)) <= end)                                                 \
    n.stats.field = c.get<IDB_STATS_CTYPE(type)>("node");
  IDB_STATS_FIELDS(IDB_GET_FIELD)
#undef IDB_GET_FIELD
}

// A statistic as the database can hold it: a time finite and 0 or more, a count or byte
// total within a signed 64-bit column.
bool field_ok(double value) {
  return std::isfinite(value) && value >= 0;
}
bool field_ok(std::uint64_t value) {
  return value <= std::uint64_t(std::numeric_limits<std::int64_t>::max());
}
const char *field_rule(double) {
  return " is not a finite value, 0 or more";
}
const char *field_rule(std::uint64_t) {
  return " is more than a database column holds";
}
std::string field_text(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}
std::string field_text(std::uint64_t value) {
  return std::to_string(value);
}

// Why node `i` breaks docs/profile-format.md, or "".
std::string node_problem(std::uint32_t i, const Node &n, const Seen &seen) {
  std::string where = "node " + std::to_string(i) + " (probe " + std::to_string(n.probe) + ")";
  if (!seen.probe_ids.count(n.probe)) return where + " names a probe not in the probe table";
#define IDB_CHECK_FIELD(field, type, unit, merge, group, column)                                   \
  if (!field_ok(n.stats.field))                                                                    \
    return where + ": " + (column) + " " + field_text(n.stats.field) + field_rule(n.stats.field);
  IDB_STATS_FIELDS(IDB_CHECK_FIELD)
#undef IDB_CHECK_FIELD
  if (n.stats.sampled > n.stats.throttled) // samples are throttled activations timed
    return where + ": sampled " + std::to_string(n.stats.sampled) + " is more than its " +
           std::to_string(n.stats.throttled) + " throttled activations";
  return "";
}

bool read_cfh(const Section &s, Profile &p, Cursor &c, const Seen &seen) {
  Cfh cfh;
  cfh.rank = c.get<std::int32_t>("CFH header");
  cfh.thread = c.get<std::int32_t>("CFH header");
  auto flags = c.get<std::uint32_t>("CFH header");
  cfh.named = (flags & IDB_CFH_FLAG_NAMED) != 0;
  cfh.summary = (flags & IDB_CFH_FLAG_SUMMARY) != 0;
  auto record = c.get<std::uint32_t>("CFH header");
  cfh.overflow = c.get<std::uint64_t>("CFH header");
  cfh.mismatches = c.get<std::uint64_t>("CFH header");
  cfh.unclosed = c.get<std::uint64_t>("CFH header");
  cfh.depth_overflow = c.get<std::uint64_t>("CFH header");
  cfh.name = c.text("CFH name");
  if (!c.error.empty()) return false;
  if (cfh.summary ? cfh.rank != -1 : (cfh.rank < 0 || cfh.rank >= seen.nprocs)) {
    c.at = 0;
    return c.fail(cfh.summary ? "summary CFH of rank " + std::to_string(cfh.rank) + ", not -1"
                              : "CFH of rank " + std::to_string(cfh.rank) + " in a run of " +
                                    std::to_string(seen.nprocs) + " ranks");
  }
  const std::uint64_t counters[] = {cfh.overflow, cfh.mismatches, cfh.unclosed, cfh.depth_overflow};
  for (std::size_t k = 0; k < 4; ++k)
    if (!field_ok(counters[k])) {
      c.at = 16 + 8 * k;
      return c.fail("CFH counter " + std::to_string(counters[k]) +
                    " is more than a database column holds");
    }
  if (record < IDB_NODE_RECORD_SIZE_1_0)
    return c.fail("node record size " + std::to_string(record) + " too small");
  if ((c.bytes.size() - c.at) != std::uint64_t(record) * s.count)
    return c.fail("CFH section holds " + std::to_string(c.bytes.size() - c.at) + " bytes for " +
                  std::to_string(s.count) + " nodes");
  if (s.count == 0) return c.fail("CFH without a root node");
  cfh.nodes.resize(s.count);
  for (std::uint32_t i = 0; i < s.count; ++i) {
    std::size_t start = c.at;
    read_node(c, cfh.nodes[i], record);
    c.at = start + record; // fields a newer minor version appended are skipped
    std::uint32_t parent = cfh.nodes[i].parent;
    if (i == 0 ? parent != kNoParent : parent >= i) {
      c.at = start;
      return c.fail("node " + std::to_string(i) + " has an invalid parent");
    }
    if (std::string problem = node_problem(i, cfh.nodes[i], seen); !problem.empty()) {
      c.at = start;
      return c.fail(problem);
    }
  }
  p.cfhs.push_back(std::move(cfh));
  return true;
}

void read_spread(Cursor &c, RankSpread &s) {
  s.min = c.get<double>("summary record");
  s.max = c.get<double>("summary record");
  s.mean = c.get<double>("summary record");
  s.m2 = c.get<double>("summary record");
  s.rank_min = c.get<std::int32_t>("summary record");
  s.rank_max = c.get<std::int32_t>("summary record");
}

// A SUMMARY section belongs to the summary CFH just before it, node for node.
bool read_summary(const Section &s, Profile &p, Cursor &c) {
  if (p.cfhs.empty() || !p.cfhs.back().summary || !p.cfhs.back().spread.empty())
    return c.fail("summary section without its summary CFH before it");
  Cfh &cfh = p.cfhs.back();
  auto record = c.get<std::uint32_t>("summary header");
  c.get<std::uint32_t>("summary header");
  if (!c.error.empty()) return false;
  if (record < IDB_SUMMARY_RECORD_SIZE)
    return c.fail("summary record size " + std::to_string(record) + " too small");
  if (s.count != cfh.nodes.size() || (c.bytes.size() - c.at) != std::uint64_t(record) * s.count)
    return c.fail("summary section does not match its CFH's " + std::to_string(cfh.nodes.size()) +
                  " nodes");
  cfh.spread.resize(s.count);
  for (NodeSpread &n : cfh.spread) {
    std::size_t start = c.at;
    n.ranks = c.get<std::uint32_t>("summary record");
    c.get<std::uint32_t>("summary record");
    for (RankSpread *q : {&n.total, &n.count, &n.cpu, &n.sent, &n.received})
      read_spread(c, *q);
    if (!c.error.empty()) return false;
    bool finite = true;
    for (const RankSpread *q : {&n.total, &n.count, &n.cpu, &n.sent, &n.received})
      finite = finite && std::isfinite(q->min) && std::isfinite(q->max) && std::isfinite(q->mean) &&
               std::isfinite(q->m2) && q->m2 >= 0;
    if (!finite) {
      c.at = start;
      return c.fail("summary record of node " + std::to_string(&n - cfh.spread.data()) +
                    " holds a value that is not finite");
    }
    c.at = start + record; // fields a newer minor version appended are skipped
  }
  return c.error.empty();
}

// A HIST section belongs to the CFH just before it (after its SUMMARY section, if any):
// each histogram names one of its nodes, in increasing order, and its counts add up to
// that node's count.
bool read_hists(const Section &s, Profile &p, Cursor &c, Seen &seen) {
  if (p.cfhs.empty()) return c.fail("HIST section without a CFH before it");
  if (seen.hist_of == seen.cfhs) return c.fail("a second HIST section for one CFH");
  seen.hist_of = seen.cfhs;
  Cfh &cfh = p.cfhs.back();
  auto scheme = c.get<std::uint32_t>("HIST header");
  auto unit = c.get<std::uint32_t>("HIST header");
  if (!c.error.empty()) return false;
  if (scheme != IDB_HIST_SUB_BITS || unit != IDB_HIST_UNIT_NS) {
    c.at = 0;
    return c.fail("histogram bucket scheme " + std::to_string(scheme) + " in unit " +
                  std::to_string(unit) + " is not known (this reader reads scheme " +
                  std::to_string(IDB_HIST_SUB_BITS) + " in nanoseconds, unit " +
                  std::to_string(IDB_HIST_UNIT_NS) + ")");
  }
  std::int64_t previous = -1;
  for (std::uint32_t k = 0; k < s.count && c.error.empty(); ++k) {
    std::size_t start = c.at;
    auto node = c.get<std::uint32_t>("histogram");
    auto level = c.get<std::uint32_t>("histogram");
    auto size = c.get<std::uint32_t>("histogram");
    if (!c.error.empty()) return false;
    c.at = start;
    if (node >= cfh.nodes.size() || std::int64_t(node) <= previous)
      return c.fail(
          "histogram of node " + std::to_string(node) +
          (node >= cfh.nodes.size() ? ", which its CFH does not have" : ", out of node order"));
    std::string where = "histogram of node " + std::to_string(node);
    if (level > IDB_HIST_MAX_LEVEL)
      return c.fail(where + " has level " + std::to_string(level) + " (at most " +
                    std::to_string(IDB_HIST_MAX_LEVEL) + ")");
    if (size == 0) return c.fail(where + " has no bucket");
    c.at = start + 12;
    if ((c.bytes.size() - c.at) / IDB_HIST_PAIR_SIZE < size) return c.fail("truncated " + where);
    Histogram h;
    h.level = level;
    h.buckets.resize(size);
    std::uint64_t sum = 0;
    for (HistBucket &b : h.buckets) {
      std::size_t pair = c.at;
      b.index = c.get<std::uint32_t>("histogram");
      b.count = c.get<std::uint64_t>("histogram");
      c.at = pair;
      if (b.index >= idb_hist_buckets_at(level) ||
          (&b > h.buckets.data() && b.index <= (&b - 1)->index))
        return c.fail(where + ": bucket " + std::to_string(b.index) +
                      (b.index >= idb_hist_buckets_at(level) ? " is past the last of its level"
                                                             : " out of order"));
      if (b.count == 0 || b.count > std::uint64_t(std::numeric_limits<std::int64_t>::max()) - sum)
        return c.fail(where + ": bucket " + std::to_string(b.index) + " has count " +
                      std::to_string(b.count) + (b.count == 0 ? "" : ", past what a column holds"));
      sum += b.count;
      c.at = pair + IDB_HIST_PAIR_SIZE;
    }
    Node &n = cfh.nodes[node];
    if (sum != n.stats.count) {
      c.at = start;
      return c.fail(where + " (probe " + std::to_string(n.probe) + ") counts " +
                    std::to_string(sum) + " activations, but the node has " +
                    std::to_string(n.stats.count));
    }
    n.hist = std::move(h);
    previous = node;
  }
  return c.error.empty();
}

// A WAIT section belongs to the CFH just before it: each item names one of its nodes and
// a pattern, in increasing order, with seconds no more than the node's wall total and
// instances no more than its count.
bool read_waits(const Section &s, Profile &p, Cursor &c, Seen &seen) {
  if (p.cfhs.empty()) return c.fail("WAIT section without a CFH before it");
  if (seen.wait_of == seen.cfhs) return c.fail("a second WAIT section for one CFH");
  seen.wait_of = seen.cfhs;
  Cfh &cfh = p.cfhs.back();
  std::int64_t previous = -1;
  for (std::uint32_t k = 0; k < s.count && c.error.empty(); ++k) {
    std::size_t start = c.at;
    auto node = c.get<std::uint32_t>("wait state");
    auto pattern = c.get<std::uint32_t>("wait state");
    auto seconds = c.get<double>("wait state");
    auto instances = c.get<std::uint64_t>("wait state");
    if (!c.error.empty()) return false;
    c.at = start;
    std::int64_t key = std::int64_t(node) * IDB_WAIT_PATTERN_COUNT + pattern;
    if (node >= cfh.nodes.size())
      return c.fail("wait state of node " + std::to_string(node) + ", which its CFH does not have");
    std::string where = "wait state of node " + std::to_string(node);
    if (pattern >= IDB_WAIT_PATTERN_COUNT)
      return c.fail(where + " has pattern " + std::to_string(pattern) + " (at most " +
                    std::to_string(IDB_WAIT_PATTERN_COUNT - 1) + ")");
    if (key <= previous) return c.fail(where + " out of (node, pattern) order");
    const Node &n = cfh.nodes[node];
    // The replay bounds each wait by its activation's duration; the sum of several in
    // seconds may round a little past the node's total.
    if (!std::isfinite(seconds) || seconds < 0 || seconds > n.stats.sum * (1 + 1e-9) + 1e-9)
      return c.fail(where + " (" + idb_wait_pattern_name(pattern) + ") waited " +
                    std::to_string(seconds) + " s, but the node took " +
                    std::to_string(n.stats.sum) + " s");
    if (instances == 0 || instances > n.stats.count)
      return c.fail(where + " (" + idb_wait_pattern_name(pattern) + ") has " +
                    std::to_string(instances) + " instances, but the node has " +
                    std::to_string(n.stats.count) + " activations");
    cfh.nodes[node].waits.push_back({pattern, seconds, instances, 0, {}});
    previous = key;
    c.at = start + IDB_WAIT_ITEM_SIZE;
  }
  return c.error.empty();
}

// A WAIT_SPREAD section follows the WAIT section of a summary CFH: one item per wait, in
// the same order, with the seconds' spread over the ranks that reached the node.
bool read_wait_spread(const Section &s, Profile &p, Cursor &c, Seen &seen) {
  if (p.cfhs.empty() || !p.cfhs.back().summary || seen.wait_of != seen.cfhs)
    return c.fail("WAIT_SPREAD section without a summary CFH and its WAIT section before it");
  if (seen.spread_of == seen.cfhs) return c.fail("a second WAIT_SPREAD section for one CFH");
  seen.spread_of = seen.cfhs;
  Cfh &cfh = p.cfhs.back();
  std::vector<std::pair<std::uint32_t, Wait *>> waits; // (node, wait) in the WAIT order
  for (std::uint32_t i = 0; i < cfh.nodes.size(); ++i)
    for (Wait &w : cfh.nodes[i].waits)
      waits.emplace_back(i, &w);
  if (s.count != waits.size())
    return c.fail("WAIT_SPREAD section has " + std::to_string(s.count) + " items for " +
                  std::to_string(waits.size()) + " waits");
  for (std::uint32_t k = 0; k < s.count; ++k) {
    std::size_t start = c.at;
    auto node = c.get<std::uint32_t>("wait spread");
    auto pattern = c.get<std::uint32_t>("wait spread");
    auto ranks = c.get<std::uint32_t>("wait spread");
    c.get<std::uint32_t>("wait spread");
    RankSpread spread;
    read_spread(c, spread);
    if (!c.error.empty()) return false;
    auto [expected, wait] = waits[k];
    Wait &w = *wait;
    c.at = start;
    std::string where = "wait spread " + std::to_string(k);
    if (node != expected || pattern != w.pattern)
      return c.fail(where + " names node " + std::to_string(node) + " and pattern " +
                    std::to_string(pattern) + ", not the WAIT section's");
    if (ranks == 0 || ranks > seen.nprocs)
      return c.fail(where + " counts " + std::to_string(ranks) + " ranks of " +
                    std::to_string(seen.nprocs));
    auto rank_ok = [&](std::int32_t r) { return r >= 0 && r < seen.nprocs; };
    if (!rank_ok(spread.rank_min) || !rank_ok(spread.rank_max))
      return c.fail(where + " names rank " +
                    std::to_string(rank_ok(spread.rank_min) ? spread.rank_max : spread.rank_min) +
                    " of " + std::to_string(seen.nprocs));
    bool sane = spread.max <= w.seconds * (1 + 1e-9) + 1e-12 && std::isfinite(spread.min) &&
                std::isfinite(spread.max) && std::isfinite(spread.mean) &&
                std::isfinite(spread.m2) && spread.min >= 0 &&
                spread.min <= spread.mean * (1 + 1e-9) && spread.mean <= spread.max * (1 + 1e-9) &&
                spread.m2 >= 0 &&
                std::abs(spread.mean * ranks - w.seconds) <= 1e-6 * w.seconds + 1e-9;
    if (!sane)
      return c.fail(where + " is not a spread of the node's " + std::to_string(w.seconds) + " s");
    w.ranks = ranks;
    w.spread = spread;
    c.at = start + IDB_WAIT_SPREAD_ITEM_SIZE;
  }
  return c.error.empty();
}

bool read_header(Cursor &c, Profile &p) {
  if (!c.need(IDB_PROFILE_HEADER_SIZE, "file header")) return false;
  if (std::memcmp(c.bytes.data(), IDB_PROFILE_MAGIC, IDB_PROFILE_MAGIC_SIZE) != 0)
    return c.fail("not an IDB profile (bad magic)");
  c.at = IDB_PROFILE_MAGIC_SIZE;
  p.version_major = c.get<std::uint16_t>("version");
  p.version_minor = c.get<std::uint16_t>("version");
  auto stored = c.get<std::uint32_t>("header checksum");
  if (crc32(0, c.bytes.data(), 12) != stored) {
    c.at = 12;
    return c.fail("checksum mismatch in file header");
  }
  if (p.version_major != IDB_PROFILE_VERSION_MAJOR) {
    c.at = 8;
    return c.fail("profile format version " + std::to_string(p.version_major) + "." +
                  std::to_string(p.version_minor) + " is not supported (this reader reads " +
                  std::to_string(IDB_PROFILE_VERSION_MAJOR) + ".x)");
  }
  return true;
}

// A DYN section belongs to the CFH just before it (docs/profile-format.md): its members
// are the dynamic node and distinct nodes of its subtree; the clusters' iterations add up
// to the iterations, which are no more than the node's activations; the runs cover every
// iteration, each naming a cluster, and each cluster's runs add up to its iterations;
// sums are finite and not negative, and no member's activations over the clusters exceed
// its own.
bool read_dynamics(const Section &s, Profile &p, Cursor &c) {
  if (p.cfhs.empty()) return c.fail("DYN section without a CFH before it");
  Cfh &cfh = p.cfhs.back();
  Dynamics d;
  d.node = c.get<std::uint32_t>("dynamics");
  auto members = c.get<std::uint32_t>("dynamics");
  auto clusters = c.get<std::uint32_t>("dynamics");
  auto runs = c.get<std::uint32_t>("dynamics");
  d.iterations = c.get<std::uint64_t>("dynamics");
  d.dropped = c.get<std::uint64_t>("dynamics");
  d.untracked = c.get<std::uint64_t>("dynamics");
  d.mixed = c.get<std::uint64_t>("dynamics");
  if (!c.error.empty()) return false;
  std::string where = "dynamics of node " + std::to_string(d.node);
  if (d.node >= cfh.nodes.size())
    return c.fail("dynamics of node " + std::to_string(d.node) + ", which its CFH does not have");
  for (const Dynamics &other : cfh.dynamics)
    if (other.node == d.node)
      return c.fail("a second DYN section for node " + std::to_string(d.node));
  if (clusters != s.count)
    return c.fail(where + " announces " + std::to_string(s.count) + " clusters but has " +
                  std::to_string(clusters));
  const Node &dyn = cfh.nodes[d.node];
  if (d.iterations > dyn.stats.count + dyn.stats.throttled)
    return c.fail(where + " has " + std::to_string(d.iterations) +
                  " iterations, but the node has " + std::to_string(dyn.stats.count) +
                  " activations");
  if ((d.iterations == 0) != (clusters == 0) || clusters > d.iterations || members == 0 ||
      members > cfh.nodes.size() || runs > d.iterations)
    return c.fail(where + " has " + std::to_string(members) + " members, " +
                  std::to_string(clusters) + " clusters and " + std::to_string(runs) +
                  " runs for " + std::to_string(d.iterations) + " iterations");
  if (d.iterations > 0xFFFFFFFFu) return c.fail(where + " has more iterations than a run can hold");
  std::size_t need = std::size_t(members) * 4 +
                     std::size_t(clusters) * (8 + std::size_t(members) * IDB_DYN_ENTRY_SIZE) +
                     std::size_t(runs) * IDB_DYN_RUN_SIZE;
  if (!c.need(need, "dynamics")) return false;
  std::vector<char> member(cfh.nodes.size(), 0);
  for (std::uint32_t m = 0; m < members; ++m) {
    auto node = c.get<std::uint32_t>("dynamics");
    bool under = node < cfh.nodes.size() && !member[node];
    if (under && m == 0)
      under = node == d.node;
    else if (under) {
      std::uint32_t up = cfh.nodes[node].parent; // parents precede children
      while (up != kNoParent && up != d.node)
        up = cfh.nodes[up].parent;
      under = up == d.node;
    }
    if (!under)
      return c.fail(
          where + ": member " + std::to_string(m) + " is node " + std::to_string(node) +
          (m == 0 ? ", not the dynamic node" : ", which is not in its subtree or is listed twice"));
    member[node] = 1;
    d.members.push_back(node);
  }
  std::vector<double> visits(members, 0.0);
  std::uint64_t clustered = 0;
  for (std::uint32_t k = 0; k < clusters; ++k) {
    DynCluster cluster;
    cluster.iterations = c.get<std::uint64_t>("dynamics");
    if (cluster.iterations == 0 || cluster.iterations > d.iterations - clustered)
      return c.fail(where + ": cluster " + std::to_string(k) + " has " +
                    std::to_string(cluster.iterations) + " iterations");
    clustered += cluster.iterations;
    for (std::uint32_t m = 0; m < members; ++m) {
      double v = c.get<double>("dynamics"), sec = c.get<double>("dynamics");
      if (!std::isfinite(v) || v < 0 || !std::isfinite(sec) || sec < 0)
        return c.fail(where + ": cluster " + std::to_string(k) + " member " + std::to_string(m) +
                      " has " + std::to_string(v) + " activations and " + std::to_string(sec) +
                      " s");
      visits[m] += v;
      cluster.visits.push_back(v);
      cluster.seconds.push_back(sec);
    }
    d.clusters.push_back(std::move(cluster));
  }
  if (clustered != d.iterations)
    return c.fail(where + ": the clusters hold " + std::to_string(clustered) + " of " +
                  std::to_string(d.iterations) + " iterations");
  for (std::uint32_t m = 0; m < members; ++m) {
    const idb_stats_t &st = cfh.nodes[d.members[m]].stats;
    double most = double(st.count + st.throttled);
    if (visits[m] > most * (1 + 1e-12) + 0.5)
      return c.fail(where + ": member " + std::to_string(m) + " has " + std::to_string(visits[m]) +
                    " activations over the clusters, but the node has " +
                    std::to_string(st.count + st.throttled));
  }
  std::vector<std::uint64_t> covered(clusters, 0);
  std::uint64_t iteration = 0;
  for (std::uint32_t r = 0; r < runs; ++r) {
    DynRun run;
    run.length = c.get<std::uint32_t>("dynamics");
    run.cluster = c.get<std::uint32_t>("dynamics");
    if (run.length == 0 || run.length > d.iterations - iteration || run.cluster >= clusters ||
        (r > 0 && run.cluster == d.runs.back().cluster))
      return c.fail(where + ": run " + std::to_string(r) + " of " + std::to_string(run.length) +
                    " iterations in cluster " + std::to_string(run.cluster) + " at iteration " +
                    std::to_string(iteration));
    if (covered[run.cluster] == 0 && run.cluster > 0 && covered[run.cluster - 1] == 0)
      return c.fail(where + ": cluster " + std::to_string(run.cluster) + " starts before cluster " +
                    std::to_string(run.cluster - 1));
    covered[run.cluster] += run.length;
    iteration += run.length;
    d.runs.push_back(run);
  }
  if (iteration != d.iterations)
    return c.fail(where + ": the runs cover " + std::to_string(iteration) + " of " +
                  std::to_string(d.iterations) + " iterations");
  for (std::uint32_t k = 0; k < clusters; ++k)
    if (covered[k] != d.clusters[k].iterations)
      return c.fail(where + ": cluster " + std::to_string(k) + " holds " +
                    std::to_string(d.clusters[k].iterations) + " iterations, its runs " +
                    std::to_string(covered[k]));
  cfh.dynamics.push_back(std::move(d));
  return c.error.empty();
}

// Why section `s` cannot come where it is (docs/profile-format.md: one META first, then
// one PROBES, then the CFHs with their SUMMARYs), or "".
std::string order_problem(const Section &s, const Seen &seen) {
  switch (s.type) {
  case IDB_SECTION_META:
    return seen.meta ? "a second META section"
                     : (seen.probes || seen.cfhs ? "META section after other sections" : "");
  case IDB_SECTION_PROBES:
    if (seen.probes) return "a second PROBES section";
    return seen.meta ? (seen.cfhs ? "PROBES section after a CFH section" : "")
                     : "PROBES section before the META section";
  case IDB_SECTION_CFH:
    return seen.probes ? "" : "CFH section before the PROBES section";
  case IDB_SECTION_SUMMARY:
    return seen.probes ? "" : "SUMMARY section before the PROBES section";
  case IDB_SECTION_HIST:
    return seen.probes ? "" : "HIST section before the PROBES section";
  case IDB_SECTION_WAIT:
    return seen.probes ? "" : "WAIT section before the PROBES section";
  case IDB_SECTION_WAIT_SPREAD:
    return seen.probes ? "" : "WAIT_SPREAD section before the PROBES section";
  case IDB_SECTION_DYN:
    return seen.probes ? "" : "DYN section before the PROBES section";
  default:
    return "";
  }
}

bool read_section(const Section &s, Profile &p, Seen &seen, std::string &error) {
  Cursor c{s.payload, 0, s.offset, {}};
  if (std::string problem = order_problem(s, seen); !problem.empty()) {
    c.base = s.offset - IDB_SECTION_HEADER_SIZE;
    c.fail(problem);
    error = c.error;
    return false;
  }
  bool ok = true;
  switch (s.type) {
  case IDB_SECTION_META:
    ok = read_meta(s, p, c, seen);
    ++seen.meta;
    break;
  case IDB_SECTION_PROBES:
    ok = read_probes(s, p, c, seen);
    ++seen.probes;
    break;
  case IDB_SECTION_CFH:
    ok = read_cfh(s, p, c, seen);
    ++seen.cfhs;
    break;
  case IDB_SECTION_SUMMARY:
    ok = read_summary(s, p, c);
    break;
  case IDB_SECTION_HIST:
    ok = read_hists(s, p, c, seen);
    break;
  case IDB_SECTION_WAIT:
    ok = read_waits(s, p, c, seen);
    break;
  case IDB_SECTION_WAIT_SPREAD:
    ok = read_wait_spread(s, p, c, seen);
    break;
  case IDB_SECTION_DYN:
    ok = read_dynamics(s, p, c);
    break;
  default:
    return true; // a section of a newer minor version: skipped
  }
  bool records = s.type == IDB_SECTION_CFH || s.type == IDB_SECTION_SUMMARY; // sized above
  if (ok && !records && !c.done()) c.fail("unexpected bytes in section");
  error = c.error;
  return c.error.empty();
}

} // namespace

void merge_waits(std::vector<Wait> &into, const std::vector<Wait> &more) {
  for (const Wait &w : more) {
    auto it = std::lower_bound(into.begin(), into.end(), w.pattern,
                               [](const Wait &a, std::uint32_t p) { return a.pattern < p; });
    if (it != into.end() && it->pattern == w.pattern) {
      it->seconds += w.seconds;
      it->instances += w.instances;
      it->ranks = 0;
      it->spread = {};
    } else {
      into.insert(it, w);
    }
  }
}

std::uint32_t Dynamics::member_of(std::uint32_t node_index) const {
  for (std::uint32_t m = 0; m < members.size(); ++m)
    if (members[m] == node_index) return m;
  return kNoMember;
}

std::vector<double> Dynamics::series(std::uint32_t member, bool seconds) const {
  std::vector<double> out;
  out.reserve(iterations);
  for (const DynRun &run : runs) {
    const DynCluster &k = clusters[run.cluster];
    double sum = member < k.visits.size() ? (seconds ? k.seconds : k.visits)[member] : 0.0;
    out.insert(out.end(), run.length, sum / double(k.iterations));
  }
  return out;
}

std::vector<std::uint32_t> Dynamics::cluster_of_iterations() const {
  std::vector<std::uint32_t> out;
  out.reserve(iterations);
  for (const DynRun &run : runs)
    out.insert(out.end(), run.length, run.cluster);
  return out;
}

double wait_seconds(const std::vector<Wait> &waits) {
  double sum = 0;
  for (const Wait &w : waits)
    sum += w.seconds;
  return sum;
}

std::string Profile::get(const std::string &key, const std::string &fallback) const {
  auto it = meta.find(key);
  return it == meta.end() ? fallback : it->second;
}

double Profile::number(const std::string &key, double fallback) const {
  auto it = meta.find(key);
  if (it == meta.end()) return fallback;
  char *end = nullptr;
  double v = std::strtod(it->second.c_str(), &end);
  return end && *end == '\0' && end != it->second.c_str() ? v : fallback;
}

const Probe *Profile::probe(std::int32_t id) const {
  for (const Probe &p : probes)
    if (p.id == id) return &p;
  return nullptr;
}

ReadResult parse_profile(std::string_view bytes) {
  ReadResult result;
  Profile p;
  Cursor file{bytes, 0, 0, {}};
  if (!read_header(file, p)) return {std::nullopt, file.error};
  std::uint32_t sections = 0;
  Seen seen;
  for (;;) {
    Section s;
    if (!next_section(file, s)) return {std::nullopt, file.error};
    if (s.type == IDB_SECTION_END) {
      Cursor end{s.payload, 0, s.offset, {}};
      auto length = end.get<std::uint64_t>("end section");
      if (!end.error.empty()) return {std::nullopt, end.error};
      if (s.count != sections || length != bytes.size() || !file.done())
        return {std::nullopt, "end section does not match the file (" + std::to_string(sections) +
                                  " sections, " + std::to_string(bytes.size()) + " bytes)"};
      break;
    }
    ++sections;
    std::string error;
    if (!read_section(s, p, seen, error)) return {std::nullopt, error};
  }
  if (!seen.meta) return {std::nullopt, "profile has no metadata section"};
  if (!seen.probes) return {std::nullopt, "profile has no PROBES section"};
  result.profile = std::move(p);
  return result;
}

ReadResult read_profile(const std::string &path) {
  std::string data;
  if (std::string why = files::read_input_file(path, kMaxProfileBytes, data); !why.empty())
    return {std::nullopt, "cannot open " + path + ": " + why};
  ReadResult r = parse_profile(data);
  if (!r.profile) r.error = path + ": " + r.error;
  return r;
}

} // namespace idb::profile

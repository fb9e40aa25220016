// Parsing and validation of profile files. A Cursor walks a byte range and remembers the
// first failure; every section is checksummed before its payload is read.
#include "idb/profile.hpp"

#include "crc32.h"
#include "idb/input_file.hpp"
#include "idb/profile_format.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>

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
  if (crc != stored || reserved != 0) {
    file.at = start;
    return file.fail("checksum mismatch in section of type " + std::to_string(s.type));
  }
  s.offset = file.at;
  s.payload = file.bytes.substr(file.at, length);
  file.at += length;
  return true;
}

bool read_meta(const Section &s, Profile &p, Cursor &c) {
  for (std::uint32_t i = 0; i < s.count && c.error.empty(); ++i) {
    std::string key = c.text("metadata key");
    std::string value = c.text("metadata value");
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
  return c.error.empty();
}

bool read_probes(const Section &s, Profile &p, Cursor &c) {
  // A probe takes at least 24 bytes (three numbers, three empty strings): a count the
  // payload cannot hold must not reserve memory before the cursor refuses it.
  p.probes.reserve(std::min<std::size_t>(s.count, s.payload.size() / 24));
  for (std::uint32_t i = 0; i < s.count && c.error.empty(); ++i) {
    Probe probe;
    probe.id = c.get<std::int32_t>("probe id");
    probe.kind = int(c.get<std::uint32_t>("probe kind"));
    probe.line = c.get<std::int32_t>("probe line");
    probe.description = c.text("probe description");
    probe.file = c.text("probe file");
    probe.function = c.text("probe function");
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

bool read_cfh(const Section &s, Profile &p, Cursor &c) {
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
    if (i == 0 ? parent != kNoParent : parent >= i)
      return c.fail("node " + std::to_string(i) + " has an invalid parent");
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
    c.at = start + record; // fields a newer minor version appended are skipped
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

bool read_section(const Section &s, Profile &p, std::string &error) {
  Cursor c{s.payload, 0, s.offset, {}};
  bool ok = true;
  switch (s.type) {
  case IDB_SECTION_META:
    ok = read_meta(s, p, c);
    break;
  case IDB_SECTION_PROBES:
    ok = read_probes(s, p, c);
    break;
  case IDB_SECTION_CFH:
    ok = read_cfh(s, p, c);
    break;
  case IDB_SECTION_SUMMARY:
    ok = read_summary(s, p, c);
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
    if (!read_section(s, p, error)) return {std::nullopt, error};
  }
  if (p.meta.empty()) return {std::nullopt, "profile has no metadata section"};
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

// libFuzzer target for the profile reader's semantic layer (tests/common/run_fuzzer.sh
// builds it with clang and runs it for a bounded time). The input is read as a profile
// file, and before the reader sees it the harness reseals it: the header's checksum, every
// section's length clamped to what follows, its checksum recomputed and its reserved word
// cleared, and an END section that matches. So the fuzzer spends its time on content the
// checksums would otherwise hide. For any input the reader must not crash or leak, and an
// accepted profile must keep every rule of docs/profile-format.md that later stages rely
// on: node probes in the probe table, parents before children, ranks within nprocs, times
// finite and not negative, counts within a signed 64-bit column.
#include "crc32.h"
#include "idb/profile.hpp"
#include "idb/profile_format.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <set>
#include <string>

namespace {

void check(bool ok) {
  if (!ok) std::abort();
}

void put_u32(std::string &bytes, std::size_t at, std::uint32_t value) {
  std::memcpy(bytes.data() + at, &value, 4);
}

void put_u64(std::string &bytes, std::size_t at, std::uint64_t value) {
  std::memcpy(bytes.data() + at, &value, 8);
}

// `input` with valid checksums, section lengths that fit, and a matching END section.
std::string reseal(std::string input) {
  if (input.size() < IDB_PROFILE_HEADER_SIZE) return input;
  std::memcpy(input.data(), IDB_PROFILE_MAGIC, IDB_PROFILE_MAGIC_SIZE);
  put_u32(input, 12, idb::crc32(0, input.data(), 12));
  std::string out = input.substr(0, IDB_PROFILE_HEADER_SIZE);
  std::size_t at = IDB_PROFILE_HEADER_SIZE;
  std::uint32_t sections = 0;
  while (input.size() - at >= IDB_SECTION_HEADER_SIZE) {
    std::string header = input.substr(at, IDB_SECTION_HEADER_SIZE);
    at += IDB_SECTION_HEADER_SIZE;
    std::uint32_t type = 0;
    std::uint64_t length = 0;
    std::memcpy(&type, header.data(), 4);
    std::memcpy(&length, header.data() + 8, 8);
    if (type == IDB_SECTION_END) break;
    length = std::min<std::uint64_t>(length, input.size() - at);
    std::string payload = input.substr(at, std::size_t(length));
    at += std::size_t(length);
    put_u64(header, 8, length);
    put_u32(header, 16, 0);
    put_u32(header, 20, 0);
    std::uint32_t crc = idb::crc32(0, header.data(), header.size());
    put_u32(header, 16, idb::crc32(crc, payload.data(), payload.size()));
    out += header + payload;
    ++sections;
  }
  std::string end(IDB_SECTION_HEADER_SIZE + 8, '\0');
  put_u32(end, 0, IDB_SECTION_END);
  put_u32(end, 4, sections);
  put_u64(end, 8, 8);
  put_u64(end, IDB_SECTION_HEADER_SIZE, out.size() + end.size());
  std::uint32_t crc = idb::crc32(0, end.data(), IDB_SECTION_HEADER_SIZE);
  put_u32(end, 16, idb::crc32(crc, end.data() + IDB_SECTION_HEADER_SIZE, 8));
  return out + end;
}

bool time_ok(double t) {
  return std::isfinite(t) && t >= 0;
}

bool column_ok(std::uint64_t n) {
  return n <= std::uint64_t(std::numeric_limits<std::int64_t>::max());
}

void check_accepted(const idb::profile::Profile &p) {
  std::set<std::int32_t> ids;
  for (const idb::profile::Probe &probe : p.probes) {
    check(ids.insert(probe.id).second);
    check(probe.kind >= 1 && probe.kind <= 4);
  }
  long nprocs = std::strtol(p.get("nprocs", "1").c_str(), nullptr, 10);
  check(nprocs >= 1);
  for (const idb::profile::Cfh &cfh : p.cfhs) {
    check(cfh.summary ? cfh.rank == -1 : cfh.rank >= 0 && cfh.rank < nprocs);
    check(!cfh.nodes.empty() && cfh.nodes[0].parent == idb::profile::kNoParent);
    for (std::size_t i = 0; i < cfh.nodes.size(); ++i) {
      const idb::profile::Node &n = cfh.nodes[i];
      check(i == 0 || n.parent < i);
      check(ids.count(n.probe) == 1);
      const idb_stats_t &s = n.stats;
      for (double t : {s.sum, s.min, s.max, s.mean, s.m2, s.cpu_sum, s.cpu_min, s.cpu_max, s.noise,
                       s.sampled_sum})
        check(time_ok(t));
      for (std::uint64_t c :
           {s.count, s.cpu_count, s.bytes_sent, s.bytes_recv, s.throttled, s.sampled})
        check(column_ok(c));
    }
    check(cfh.spread.empty() || cfh.spread.size() == cfh.nodes.size());
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::string bytes = reseal(std::string(reinterpret_cast<const char *>(data), size));
  idb::profile::ReadResult r = idb::profile::parse_profile(bytes);
  check(r.profile.has_value() == r.error.empty());
  if (r.profile) check_accepted(*r.profile);
  return 0;
}

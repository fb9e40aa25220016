// Synthetic per-rank CFH sections, built with the layout of docs/profile-format.md.
#include "synthetic_ranks.hpp"

#include "crc32.h"
#include "idb/profile_format.h"
#include "idb/stats.h"

#include <cstring>
#include <vector>

namespace idb::test {

namespace {

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

template <class T> void put(std::string &out, T value) {
  out.append(reinterpret_cast<const char *>(&value), sizeof value);
}

void put_text(std::string &out, const std::string &text) {
  put(out, std::uint32_t(text.size()));
  out += text;
}

void section(std::string &out, std::uint32_t type, std::uint32_t count, const std::string &body) {
  std::string header(IDB_SECTION_HEADER_SIZE, '\0');
  std::uint64_t length = body.size();
  std::memcpy(header.data(), &type, 4);
  std::memcpy(header.data() + 4, &count, 4);
  std::memcpy(header.data() + 8, &length, 8);
  std::uint32_t crc = idb::crc32(0, header.data(), header.size());
  crc = idb::crc32(crc, body.data(), body.size());
  std::memcpy(header.data() + 16, &crc, 4);
  out += header;
  out += body;
}

// Statistics of node `k` on `rank`: counts and bytes exact integers, times in seconds.
idb_stats_t stats_of(std::uint32_t k, int rank) {
  std::uint64_t h = mix((std::uint64_t(k) << 20) ^ std::uint64_t(rank));
  idb_stats_t s;
  idb_stats_clear(&s);
  s.count = 1 + h % 1000;
  s.mean = 1e-6 * double(1 + (h >> 10) % 5000);
  s.min = s.mean * 0.5;
  s.max = s.mean * (1.5 + double(rank % 7));
  s.sum = s.mean * double(s.count);
  s.m2 = s.mean * s.mean * 0.1 * double(s.count);
  s.cpu_count = s.count / 2;
  s.cpu_sum = s.sum * 0.4;
  s.cpu_min = s.min * 0.4;
  s.cpu_max = s.max * 0.4;
  s.noise = 1e-8 * double(s.count);
  s.bytes_sent = (h >> 24) % 4096;
  s.bytes_recv = (h >> 36) % 4096;
  s.throttled = (h >> 48) % 3 == 0 ? (h >> 50) % 100000 : 0;
  return s;
}

std::string cfh_section_body(const std::string &name, bool named, int rank,
                             const SyntheticShape &shape, std::uint32_t &count) {
  // Global node k > 0 hangs under global node mix(k) % k; a rank keeps a node unless the
  // draw drops it (1 in 8) or its parent was dropped.
  std::vector<std::uint32_t> local(shape.nodes, 0xFFFFFFFFu);
  std::string records;
  count = 0;
  for (std::uint32_t k = 0; k < shape.nodes; ++k) {
    std::uint32_t parent = k == 0 ? 0xFFFFFFFFu : std::uint32_t(mix(k) % k);
    bool keep = k == 0 || (local[parent] != 0xFFFFFFFFu &&
                           mix((std::uint64_t(k) << 32) ^ std::uint64_t(rank) ^ 77) % 8 != 0);
    if (!keep) continue;
    local[k] = count++;
    put(records, k == 0 ? IDB_NO_PARENT : local[parent]);
    put(records, std::int32_t(k));
    idb_stats_t s = stats_of(k + (named ? 100000 : 0), rank);
#define IDB_PUT_FIELD(field, type, unit, merge, group, column) put(records, s.field);
    IDB_STATS_FIELDS(IDB_PUT_FIELD)
#undef IDB_PUT_FIELD
  }
  std::string body;
  put(body, std::int32_t(rank));
  put(body, std::int32_t(0));
  put(body, std::uint32_t(named ? IDB_CFH_FLAG_NAMED : 0));
  put(body, std::uint32_t(IDB_NODE_RECORD_SIZE));
  for (std::uint64_t counter :
       {std::uint64_t(rank), std::uint64_t(0), std::uint64_t(1), std::uint64_t(0)})
    put(body, counter);
  put_text(body, name);
  return body + records;
}

} // namespace

RankSections synthetic_rank(int rank, const SyntheticShape &shape) {
  RankSections out;
  std::uint32_t count = 0; // known once the body is built
  std::string body = cfh_section_body("thread 0", false, rank, shape, count);
  section(out.bytes, IDB_SECTION_CFH, count, body);
  out.count = 1;
  if (shape.named_cfh && rank % 2 == 0) {
    body = cfh_section_body("solver", true, rank, shape, count);
    section(out.bytes, IDB_SECTION_CFH, count, body);
    out.count = 2;
  }
  return out;
}

std::string profile_file(const std::string &sections, std::uint32_t count, int nprocs,
                         const char *mode, const SyntheticShape &shape) {
  std::string out(IDB_PROFILE_MAGIC, IDB_PROFILE_MAGIC_SIZE);
  put(out, std::uint16_t(IDB_PROFILE_VERSION_MAJOR));
  put(out, std::uint16_t(IDB_PROFILE_VERSION_MINOR));
  put(out, idb::crc32(0, out.data(), 12));
  std::string meta;
  put_text(meta, "program");
  put_text(meta, "synthetic");
  put_text(meta, "nprocs");
  put_text(meta, std::to_string(nprocs));
  put_text(meta, "mpi_mode");
  put_text(meta, mode);
  section(out, IDB_SECTION_META, 3, meta);
  std::string probes;
  for (std::uint32_t id = 0; id < shape.nodes; ++id) {
    put(probes, std::int32_t(id));
    put(probes, std::uint32_t(1 + id % 4)); // a kind: PROC, LOOP, CALL or COMM
    put(probes, std::int32_t(0));
    put_text(probes, "probe " + std::to_string(id));
    put_text(probes, "");
    put_text(probes, "");
  }
  section(out, IDB_SECTION_PROBES, shape.nodes, probes);
  out += sections;
  std::string end;
  put(end, std::uint64_t(out.size() + IDB_SECTION_HEADER_SIZE + 8));
  section(out, IDB_SECTION_END, count + 2, end);
  return out;
}

} // namespace idb::test

// The full mode's merge: each rank's message is its probe table and its CFH sections;
// a rank absorbs its children's messages (registering their probes in its own table,
// appending their sections after its own) and sends the result to its parent, so rank 0
// ends with every section in rank order and writes them under its metadata.
#include "merge.h"

#include "blob.h"
#include "ext.h"
#include "full_core.h"
#include "own_profile.h"
#include "summary.h"
#include "wait_states.h"

#include "idb/probe.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace idb::mpi {

namespace {

constexpr int kTag = 7353;
constexpr unsigned long long kPiece = 1ull << 30;

// Registers the probes of a PROBES payload in this process's table (known ids stay).
bool absorb_probes(Reader &r, std::uint32_t count) {
  static char description[4096], file[4096], function[1024];
  for (std::uint32_t i = 0; i < count && r.ok; ++i) {
    auto id = r.get<std::int32_t>();
    auto kind = r.get<std::uint32_t>();
    auto line = r.get<std::int32_t>();
    r.text(description, sizeof description);
    r.text(file, sizeof file);
    r.text(function, sizeof function);
    if (r.ok)
      idb_register_probe(int(kind), id, description, *file ? file : nullptr, line,
                         *function ? function : nullptr);
  }
  return r.ok;
}

// A message: this rank's probe table (put_probe_table), then the sections (full_core.h).
void put_message(ByteBuffer &out, const ByteBuffer &sections, std::uint32_t section_count) {
  put_probe_table(out);
  put_sections(out, sections, section_count);
}

// Absorbs a child's message; false when it is malformed.
bool absorb_message(const unsigned char *data, std::size_t size, ByteBuffer &sections,
                    std::uint32_t &section_count) {
  Reader r{data, data + size};
  return take_probe_table(r) && take_sections(r, sections, section_count);
}

// Returns, on rank 0, whether the profile was written (true elsewhere).
bool merge_full(MPI_Comm comm, int rank, int size) {
  ByteBuffer sections;
  std::uint32_t section_count = 0;
  idb_ext_bytes_t own{};
  if (idb_ext_local_data(nullptr, &own) == 0) {
    sections.put(own.data, own.size);
    section_count = own.count;
  }
  std::free(own.data);
  reduce_up(
      comm, rank, size,
      [&](const unsigned char *data, unsigned long long bytes, int from) {
        if (data && bytes > 0 && !absorb_message(data, bytes, sections, section_count))
          std::fprintf(stderr, "idb: error: the profile data of ranks %d and up arrived damaged\n",
                       from);
        return true;
      },
      [&](ByteBuffer &message) { put_message(message, sections, section_count); });
  if (rank != 0) return true;
  idb_ext_bytes_t all{sections.data, sections.size, section_count};
  return idb_ext_write(&all, "full") == 0;
}

} // namespace

void put_probe_table(ByteBuffer &out) {
  idb_ext_bytes_t probes{};
  idb_ext_local_data(&probes, nullptr);
  out.put(probes.count);
  out.put(std::uint64_t(probes.size));
  out.put(probes.data, probes.size);
  std::free(probes.data);
}

bool take_probe_table(Reader &in) {
  auto count = in.get<std::uint32_t>();
  auto bytes = in.get<std::uint64_t>();
  const unsigned char *probes = in.skip(bytes);
  if (!in.ok) return false;
  Reader table{probes, probes + bytes};
  return absorb_probes(table, count);
}

bool send_bytes(const unsigned char *data, unsigned long long size, int to, MPI_Comm comm) {
  PMPI_Send(&size, 1, MPI_UNSIGNED_LONG_LONG, to, kTag, comm);
  for (unsigned long long at = 0; at < size; at += kPiece) {
    unsigned long long n = size - at < kPiece ? size - at : kPiece;
    PMPI_Send(data + at, int(n), MPI_BYTE, to, kTag, comm);
  }
  return true;
}

bool recv_bytes(unsigned char **data, unsigned long long *size, int from, MPI_Comm comm) {
  PMPI_Recv(size, 1, MPI_UNSIGNED_LONG_LONG, from, kTag, comm, MPI_STATUS_IGNORE);
  *data = static_cast<unsigned char *>(std::malloc(*size ? *size : 1));
  // The pieces are received even without memory, so the sender is never left blocked.
  static unsigned char sink[1 << 16];
  for (unsigned long long at = 0; at < *size; at += kPiece) {
    unsigned long long n = *size - at < kPiece ? *size - at : kPiece;
    if (*data) {
      PMPI_Recv(*data + at, int(n), MPI_BYTE, from, kTag, comm, MPI_STATUS_IGNORE);
      continue;
    }
    for (unsigned long long k = 0; k < n; k += sizeof sink) {
      unsigned long long part = n - k < sizeof sink ? n - k : sizeof sink;
      PMPI_Recv(sink, int(part), MPI_BYTE, from, kTag, comm, MPI_STATUS_IGNORE);
    }
  }
  if (!*data) {
    std::fprintf(stderr, "idb: error: out of memory receiving %llu bytes of profile data\n", *size);
    *size = 0;
  }
  return *data != nullptr;
}

Mode read_mode() {
  const char *v = std::getenv("IDB_MPI_MODE");
  if (!v || !*v || !std::strcmp(v, "full")) return Mode::Full;
  if (!std::strcmp(v, "summary")) return Mode::Summary;
  if (!std::strcmp(v, "rank")) return Mode::Rank;
  std::fprintf(stderr, "idb: ignoring IDB_MPI_MODE=%s (expected full, summary or rank)\n", v);
  return Mode::Full;
}

const char *mode_name(Mode mode) {
  switch (mode) {
  case Mode::Summary:
    return "summary";
  case Mode::Rank:
    return "rank";
  case Mode::Full:
    break;
  }
  return "full";
}

void finalize_profile() {
  Mode mode = run_mode();
  // Every rank takes part unless probes are off everywhere (IDB_ENABLE=0, which all ranks
  // share): a rank whose runtime has finished already brings what it has.
  if (idb_ext_stop() < 0) return;
  if (mode == Mode::Rank) {
    save_own_profile(nullptr, 0); // unless a SIGTERM got there first
    return;
  }
  // The spill comes before the first collective (the wait replay's): a rank that dies
  // before its MPI_Finalize would hold the others there until the launcher's SIGTERM.
  // It holds no wait states; the replay that finds them needs every rank.
  char spill[4096] = "";
  if (spill_on()) save_own_profile(spill, sizeof spill);
  wait_replay(); // its waits go into the CFHs the merge takes
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm;
  PMPI_Comm_dup(MPI_COMM_WORLD, &comm);
  bool written =
      mode == Mode::Summary ? merge_summary(comm, rank, size) : merge_full(comm, rank, size);
  // The spills go once rank 0 has written the merged profile, and only then.
  int merged = rank == 0 && written ? 1 : 0;
  PMPI_Bcast(&merged, 1, MPI_INT, 0, comm);
  if (merged && spill[0]) std::remove(spill);
  PMPI_Comm_free(&comm);
}

} // namespace idb::mpi

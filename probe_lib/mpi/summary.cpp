// merge_summary: the structure's round trip, the records' reduction, rank 0's write.
#include "summary.h"

#include "ext.h"
#include "merge.h"
#include "summary_core.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace idb::mpi {

namespace {

// Up the tree: every rank ends with its subtree's structure and probes in `u` (rank 0:
// everyone's). False when a message from below was malformed.
bool gather_structure(Union &u, MPI_Comm comm, int rank, int size) {
  return reduce_up(
      comm, rank, size,
      [&](const unsigned char *data, unsigned long long bytes, int) {
        if (!data) return false;
        Reader r{data, data + bytes};
        return take_probe_table(r) && union_merge(u, r);
      },
      [&](ByteBuffer &message) {
        put_probe_table(message);
        union_put(u, message);
      });
}

// Down again: rank 0's union replaces every other rank's.
void broadcast_structure(Union &u, MPI_Comm comm, int rank) {
  ByteBuffer out;
  if (rank == 0) union_put(u, out);
  unsigned long long size = out.failed ? 0 : out.size;
  PMPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  if (rank != 0 && !out.reserve(size)) size = 0; // reported below: records fail
  for (unsigned long long at = 0; at < size; at += 1ull << 30) {
    unsigned long long n = size - at < (1ull << 30) ? size - at : 1ull << 30;
    PMPI_Bcast(out.data + at, int(n), MPI_BYTE, 0, comm);
  }
  if (rank == 0) return;
  u.reset();
  Reader r{out.data, out.data + size};
  if (size == 0 || !union_merge(u, r)) u.failed = true;
}

void combine(void *in, void *inout, int *len, MPI_Datatype *) {
  auto *a = static_cast<const SummaryRecord *>(in);
  auto *b = static_cast<SummaryRecord *>(inout);
  for (int i = 0; i < *len; ++i)
    summary_merge(b[i], a[i]);
}

// The four counters of each union CFH from this rank's CFHs of the same name.
void local_counters(const Union &u, const LocalCfh *local, int count, std::uint64_t *out) {
  for (std::uint32_t k = 0; k < 4 * u.count; ++k)
    out[k] = 0;
  for (int i = 0; i < count; ++i)
    for (std::uint32_t k = 0; k < u.count; ++k)
      if (!std::strcmp(u.cfhs[k].name, local[i].name) &&
          (u.cfhs[k].flags & 1u) == (local[i].flags & 1u))
        for (int c = 0; c < 4; ++c)
          out[4 * k + c] += local[i].counters[c];
}

// The histograms up the tree, merged at every step: rank 0 ends with everyone's. A rank
// whose own or whose subtree's could not be formed marks its message, and then the
// profile goes without histograms.
void gather_hists(HistSet &h, MPI_Comm comm, int rank, int size) {
  reduce_up(
      comm, rank, size,
      [&](const unsigned char *data, unsigned long long bytes, int) {
        Reader r{data, data + (data ? bytes : 0)};
        if (!data || r.get<std::uint32_t>() != 1 || !hist_take(h, r)) h.failed = true;
        return true;
      },
      [&](ByteBuffer &message) {
        message.put(std::uint32_t(h.failed ? 0 : 1));
        if (!h.failed) hist_put(h, message);
      });
}

void combine_waits(void *in, void *inout, int *len, MPI_Datatype *) {
  auto *a = static_cast<const WaitRecord *>(in);
  auto *b = static_cast<WaitRecord *>(inout);
  for (int i = 0; i < *len; ++i)
    wait_merge(b[i], a[i]);
}

// The waits of every rank to rank 0, with their spread over the ranks that reached each
// node: which (node, pattern) pairs any rank waited in (a bitwise OR of one byte per
// node), then one record per pair from every rank, reduced. Before the records'
// reduction, which overwrites rank 0's own. On rank 0, *out gets the merged records
// (freed by the caller); false when some rank could not form its own (then no rank
// writes waits).
bool gather_waits(const Union &u, const LocalCfh *local, int count, const SummaryRecord *records,
                  MPI_Comm comm, int rank, WaitRecord **out, std::uint64_t *n) {
  std::uint64_t total = u.total_nodes(), nmine = 0;
  RankWait *mine = nullptr;
  auto *mask = static_cast<unsigned char *>(std::calloc(total + 1, 1));
  int ok = waits_of_rank(u, local, count, &mine, &nmine) && mask ? 1 : 0;
  if (ok) wait_mask(mine, nmine, mask);
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
  if (ok) PMPI_Allreduce(MPI_IN_PLACE, mask, int(total), MPI_UNSIGNED_CHAR, MPI_BOR, comm);
  *out = nullptr;
  *n = 0;
  ok = ok && wait_records(mask, total, records, mine, nmine, rank, out, n) ? 1 : 0;
  PMPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
  std::free(mine);
  std::free(mask);
  if (ok && *n > 0) {
    MPI_Datatype type;
    PMPI_Type_contiguous(int(sizeof(WaitRecord)), MPI_BYTE, &type);
    PMPI_Type_commit(&type);
    MPI_Op op;
    PMPI_Op_create(combine_waits, 1, &op);
    PMPI_Reduce(rank == 0 ? MPI_IN_PLACE : *out, *out, int(*n), type, op, 0, comm);
    PMPI_Op_free(&op);
    PMPI_Type_free(&type);
  }
  if (!ok || rank != 0) {
    std::free(*out);
    *out = nullptr;
    *n = 0;
  }
  return ok != 0;
}

// The reduction of the records and counters to rank 0, which writes the file.
bool reduce_and_write(const Union &u, SummaryRecord *records, std::uint64_t *counters,
                      const HistSet &hists, const WaitRecord *waits, std::uint64_t nwaits,
                      MPI_Comm comm, int rank) {
  MPI_Datatype type;
  PMPI_Type_contiguous(int(sizeof(SummaryRecord)), MPI_BYTE, &type);
  PMPI_Type_commit(&type);
  MPI_Op op;
  PMPI_Op_create(combine, 1, &op);
  int total = int(u.total_nodes());
  PMPI_Reduce(rank == 0 ? MPI_IN_PLACE : records, records, total, type, op, 0, comm);
  PMPI_Reduce(rank == 0 ? MPI_IN_PLACE : counters, counters, int(4 * u.count),
              MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, comm);
  PMPI_Op_free(&op);
  PMPI_Type_free(&type);
  if (rank != 0) return true;
  ByteBuffer sections;
  if (hists.failed)
    std::fprintf(stderr, "idb: warning: the summary profile is written without duration "
                         "histograms (out of memory)\n");
  std::uint32_t count = put_summary_sections(u, records, counters, &hists, waits, nwaits, sections);
  if (sections.failed) {
    std::fprintf(stderr, "idb: error: profile not written: out of memory\n");
    return false;
  }
  idb_ext_bytes_t all{sections.data, sections.size, count};
  return idb_ext_write(&all, "summary") == 0;
}

} // namespace

bool merge_summary(MPI_Comm comm, int rank, int size) {
  idb_ext_bytes_t own{};
  idb_ext_local_data(nullptr, &own);
  LocalCfh *local = nullptr;
  int count = parse_cfh_sections(own.data, own.size, own.count, &local);
  Union u;
  if (count > 0) union_add_local(u, local, count);
  bool ok = count >= 0 && !u.failed;
  ok = gather_structure(u, comm, rank, size) && ok;
  broadcast_structure(u, comm, rank);
  std::uint64_t total = u.total_nodes();
  auto *records = static_cast<SummaryRecord *>(std::malloc(sizeof(SummaryRecord) * (total + 1)));
  auto *counters = static_cast<std::uint64_t *>(std::malloc(8ull * (4 * u.count + 1)));
  ok = ok && !u.failed && records && counters && total < (1ull << 31) &&
       records_of_rank(u, local, count, rank, records);
  int all_ok = ok ? 1 : 0;
  PMPI_Allreduce(MPI_IN_PLACE, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  bool written = false;
  if (all_ok) {
    local_counters(u, local, count, counters);
    HistSet hists;
    if (!hists.init(total) || !hists_of_rank(u, local, count, hists)) hists.failed = true;
    gather_hists(hists, comm, rank, size);
    WaitRecord *waits = nullptr;
    std::uint64_t nwaits = 0;
    if (!gather_waits(u, local, count, records, comm, rank, &waits, &nwaits) && rank == 0)
      std::fprintf(stderr, "idb: warning: the summary profile is written without wait states "
                           "(out of memory or damaged data)\n");
    written = reduce_and_write(u, records, counters, hists, waits, nwaits, comm, rank);
    std::free(waits);
  } else {
    if (rank == 0)
      std::fprintf(stderr, "idb: error: the summary could not be formed (out of memory or "
                           "damaged data); every rank writes its own profile instead\n");
    idb_ext_write(nullptr, "rank");
  }
  std::free(records);
  std::free(counters);
  std::free(local);
  std::free(own.data);
  return written;
}

} // namespace idb::mpi

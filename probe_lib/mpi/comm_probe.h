// The COMM probes of the PMPI layer: one probe per MPI function, with a fixed id and the
// function's name, opened around the PMPI call unless an instrumenter-placed COMM probe
// encloses it (ext.h, docs/mpi.md), and the byte counts the wrappers attribute.
#pragma once

#include "ext.h"

#include <cstdint>
#include <mpi.h>

namespace idb::mpi {

// Every wrapped function, in a fixed order: a function's probe id is -1000 minus its
// position, so new functions go at the end and ids never change.
// One group of related calls per line, in the fixed order.
// clang-format off
#define IDB_MPI_FUNCTIONS(X) \
  X(MPI_Init) X(MPI_Init_thread) \
  X(MPI_Send) X(MPI_Bsend) X(MPI_Ssend) X(MPI_Rsend) X(MPI_Recv) \
  X(MPI_Isend) X(MPI_Ibsend) X(MPI_Issend) X(MPI_Irsend) X(MPI_Irecv) \
  X(MPI_Sendrecv) X(MPI_Sendrecv_replace) \
  X(MPI_Wait) X(MPI_Waitall) X(MPI_Waitany) X(MPI_Waitsome) \
  X(MPI_Test) X(MPI_Testall) X(MPI_Testany) X(MPI_Testsome) \
  X(MPI_Probe) X(MPI_Iprobe) \
  X(MPI_Barrier) X(MPI_Bcast) X(MPI_Reduce) X(MPI_Allreduce) \
  X(MPI_Gather) X(MPI_Gatherv) X(MPI_Scatter) X(MPI_Scatterv) \
  X(MPI_Allgather) X(MPI_Allgatherv) X(MPI_Alltoall) X(MPI_Alltoallv) \
  X(MPI_Reduce_scatter) X(MPI_Reduce_scatter_block) \
  X(MPI_Scan) X(MPI_Exscan) \
  X(MPI_Comm_split) X(MPI_Comm_dup) \
  X(MPI_Comm_create) X(MPI_Comm_free) X(MPI_Comm_split_type) X(MPI_Cart_create) \
  X(MPI_Start) X(MPI_Startall)
// clang-format on

enum Function : int {
#define IDB_MPI_ENUM_(name) k_##name,
  IDB_MPI_FUNCTIONS(IDB_MPI_ENUM_)
#undef IDB_MPI_ENUM_
      kFunctionCount
};

constexpr int kFirstProbeId = -1000;

constexpr int probe_id(Function f) {
  return kFirstProbeId - int(f);
}

// The function's name, e.g. "MPI_Allreduce": the probe's description.
const char *function_name(Function f);

// count elements of `type` in bytes; 0 for a null type or a count below 1.
inline std::uint64_t bytes_of(long long count, MPI_Datatype type) {
  if (count <= 0 || type == MPI_DATATYPE_NULL) return 0;
  int size = 0;
  PMPI_Type_size(type, &size);
  return size > 0 ? std::uint64_t(count) * std::uint64_t(size) : 0;
}

// Bytes a completed receive delivered, from its status.
inline std::uint64_t received_bytes(const MPI_Status *status, MPI_Datatype type) {
  int count = 0;
  PMPI_Get_count(status, type, &count);
  if (count != MPI_UNDEFINED) return bytes_of(count, type);
  PMPI_Get_count(status, MPI_BYTE, &count); // a partly filled derived type
  return count > 0 ? std::uint64_t(count) : 0;
}

// Sum of counts[0..n) elements of `type`.
inline std::uint64_t bytes_of(const int *counts, int n, MPI_Datatype type) {
  long long total = 0;
  for (int i = 0; counts && i < n; ++i)
    total += counts[i];
  return bytes_of(total, type);
}

inline int comm_size(MPI_Comm comm) {
  int size = 1;
  PMPI_Comm_size(comm, &size);
  return size;
}

inline int comm_rank(MPI_Comm comm) {
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  return rank;
}

// One wrapped call: opens the function's COMM probe (or defers to the enclosing COMM
// probe), and on end() adds the bytes and closes it.
class Call {
public:
  explicit Call(Function f)
      : id_(probe_id(f)), opened_(idb_ext_comm_begin(id_, function_name(f))) {}
  ~Call() { idb_ext_comm_end(opened_, id_, sent_, received_); }
  Call(const Call &) = delete;
  Call &operator=(const Call &) = delete;

  // False when probes do not record: the wrapper then skips counting bytes.
  bool on() const { return opened_ >= 0; }
  void sent(std::uint64_t bytes) { sent_ += bytes; }
  void received(std::uint64_t bytes) { received_ += bytes; }

private:
  int id_;
  int opened_;
  std::uint64_t sent_ = 0, received_ = 0;
};

} // namespace idb::mpi

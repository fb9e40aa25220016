// PMPI wrappers of collectives. Bytes are what the call's arguments say this rank's
// buffers hand to MPI (sent) and get from it (received), not what the algorithm moves on
// the wire: a broadcast counts its buffer once at the root as sent and once at every
// other rank as received; a gather's root receives every rank's block, its own included.
// MPI_IN_PLACE counts the rank's own block as if it had been passed apart.
#include "comm_probe.h"
#include "wait_states.h"

using namespace idb::mpi;

namespace {

bool in_place(const void *buf) {
  return buf == MPI_IN_PLACE;
}

} // namespace

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  Call call(k_MPI_Barrier);
  WaitEvent wait(call);
  int rc = PMPI_Barrier(comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::barrier, comm);
  return rc;
}

int MPI_Bcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  Call call(k_MPI_Bcast);
  WaitEvent wait(call);
  int rc = PMPI_Bcast(buffer, count, type, root, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::broadcast, comm, root);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  if (comm_rank(comm) == root)
    call.sent(bytes_of(count, type));
  else
    call.received(bytes_of(count, type));
  return rc;
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               int root, MPI_Comm comm) {
  Call call(k_MPI_Reduce);
  WaitEvent wait(call);
  int rc = PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::reduce, comm, root);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  call.sent(bytes_of(count, type));
  if (comm_rank(comm) == root) call.received(bytes_of(count, type));
  return rc;
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  Call call(k_MPI_Allreduce);
  WaitEvent wait(call);
  int rc = PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::nxn, comm);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  call.sent(bytes_of(count, type));
  call.received(bytes_of(count, type));
  return rc;
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call(k_MPI_Gather);
  WaitEvent wait(call);
  int rc = PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::reduce, comm, root);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  bool is_root = comm_rank(comm) == root;
  call.sent(in_place(sendbuf) ? bytes_of(recvcount, recvtype) : bytes_of(sendcount, sendtype));
  if (is_root) call.received(bytes_of((long long)recvcount * comm_size(comm), recvtype));
  return rc;
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm) {
  Call call(k_MPI_Gatherv);
  WaitEvent wait(call);
  int rc =
      PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::reduce, comm, root);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  int rank = comm_rank(comm);
  if (rank == root) {
    call.received(bytes_of(recvcounts, comm_size(comm), recvtype));
    call.sent(in_place(sendbuf) ? bytes_of(recvcounts[rank], recvtype)
                                : bytes_of(sendcount, sendtype));
  } else {
    call.sent(bytes_of(sendcount, sendtype));
  }
  return rc;
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Call call(k_MPI_Scatter);
  WaitEvent wait(call);
  int rc = PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::broadcast, comm, root);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  bool is_root = comm_rank(comm) == root;
  if (is_root) call.sent(bytes_of((long long)sendcount * comm_size(comm), sendtype));
  call.received(is_root && in_place(recvbuf) ? bytes_of(sendcount, sendtype)
                                             : bytes_of(recvcount, recvtype));
  return rc;
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm) {
  Call call(k_MPI_Scatterv);
  WaitEvent wait(call);
  int rc = PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                         comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::broadcast, comm, root);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  int rank = comm_rank(comm);
  if (rank == root) {
    call.sent(bytes_of(sendcounts, comm_size(comm), sendtype));
    call.received(in_place(recvbuf) ? bytes_of(sendcounts[rank], sendtype)
                                    : bytes_of(recvcount, recvtype));
  } else {
    call.received(bytes_of(recvcount, recvtype));
  }
  return rc;
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  Call call(k_MPI_Allgather);
  WaitEvent wait(call);
  int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::nxn, comm);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  call.sent(in_place(sendbuf) ? bytes_of(recvcount, recvtype) : bytes_of(sendcount, sendtype));
  call.received(bytes_of((long long)recvcount * comm_size(comm), recvtype));
  return rc;
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm) {
  Call call(k_MPI_Allgatherv);
  WaitEvent wait(call);
  int rc =
      PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::nxn, comm);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  call.sent(in_place(sendbuf) ? bytes_of(recvcounts[comm_rank(comm)], recvtype)
                              : bytes_of(sendcount, sendtype));
  call.received(bytes_of(recvcounts, comm_size(comm), recvtype));
  return rc;
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  Call call(k_MPI_Alltoall);
  WaitEvent wait(call);
  int rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::nxn, comm);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  long long size = comm_size(comm);
  call.sent(in_place(sendbuf) ? bytes_of(recvcount * size, recvtype)
                              : bytes_of(sendcount * size, sendtype));
  call.received(bytes_of(recvcount * size, recvtype));
  return rc;
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm) {
  Call call(k_MPI_Alltoallv);
  WaitEvent wait(call);
  int rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                          recvtype, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::nxn, comm);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  int size = comm_size(comm);
  call.sent(in_place(sendbuf) ? bytes_of(recvcounts, size, recvtype)
                              : bytes_of(sendcounts, size, sendtype));
  call.received(bytes_of(recvcounts, size, recvtype));
  return rc;
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  Call call(k_MPI_Reduce_scatter);
  WaitEvent wait(call);
  int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::nxn, comm);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  call.sent(bytes_of(recvcounts, comm_size(comm), type));
  call.received(bytes_of(recvcounts[comm_rank(comm)], type));
  return rc;
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm) {
  Call call(k_MPI_Reduce_scatter_block);
  WaitEvent wait(call);
  int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
  if (rc == MPI_SUCCESS) wait.collective(WaitKind::nxn, comm);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  call.sent(bytes_of((long long)recvcount * comm_size(comm), type));
  call.received(bytes_of(recvcount, type));
  return rc;
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm) {
  Call call(k_MPI_Scan);
  int rc = PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  call.sent(bytes_of(count, type));
  call.received(bytes_of(count, type));
  return rc;
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm) {
  Call call(k_MPI_Exscan);
  int rc = PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
  if (rc != MPI_SUCCESS || !call.on()) return rc;
  call.sent(bytes_of(count, type));
  call.received(bytes_of(count, type));
  return rc;
}

} // extern "C"

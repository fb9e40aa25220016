// PMPI wrappers of point-to-point calls: blocking and non-blocking sends and receives,
// sendrecv and probes. Sends count their buffer's bytes as sent; a blocking receive
// counts what its status says arrived; a non-blocking receive registers its request, and
// the wait or test that completes it counts what arrived (pmpi_complete.cpp, docs/mpi.md).
// Each call records its wait-state event (wait_states.h).
// Probes carry time only.
#include "comm_probe.h"
#include "pending_requests.h"
#include "wait_states.h"

using namespace idb::mpi;

namespace {

// A status to read the received count from when the caller ignores it.
MPI_Status *status_or(MPI_Status *status, MPI_Status &local) {
  return status == MPI_STATUS_IGNORE ? &local : status;
}

int send_call(Function f, const void *buf, int count, MPI_Datatype type, int dest, int tag,
              MPI_Comm comm) {
  Call call(f);
  WaitEvent wait(call);
  int rc = MPI_SUCCESS;
  switch (f) {
  case k_MPI_Bsend:
    rc = PMPI_Bsend(buf, count, type, dest, tag, comm);
    break;
  case k_MPI_Ssend:
    rc = PMPI_Ssend(buf, count, type, dest, tag, comm);
    break;
  case k_MPI_Rsend:
    rc = PMPI_Rsend(buf, count, type, dest, tag, comm);
    break;
  default:
    rc = PMPI_Send(buf, count, type, dest, tag, comm);
  }
  if (rc == MPI_SUCCESS && call.on() && dest != MPI_PROC_NULL) call.sent(bytes_of(count, type));
  if (rc == MPI_SUCCESS) wait.send(f == k_MPI_Ssend, comm, dest, tag);
  return rc;
}

int isend_call(Function f, const void *buf, int count, MPI_Datatype type, int dest, int tag,
               MPI_Comm comm, MPI_Request *request) {
  Call call(f);
  WaitEvent wait(call);
  int rc = MPI_SUCCESS;
  switch (f) {
  case k_MPI_Ibsend:
    rc = PMPI_Ibsend(buf, count, type, dest, tag, comm, request);
    break;
  case k_MPI_Issend:
    rc = PMPI_Issend(buf, count, type, dest, tag, comm, request);
    break;
  case k_MPI_Irsend:
    rc = PMPI_Irsend(buf, count, type, dest, tag, comm, request);
    break;
  default:
    rc = PMPI_Isend(buf, count, type, dest, tag, comm, request);
  }
  if (rc == MPI_SUCCESS && call.on() && dest != MPI_PROC_NULL) call.sent(bytes_of(count, type));
  if (rc != MPI_SUCCESS) return rc;
  // The message leaves when the call starts. A synchronous one's wait for its receiver is
  // in the call that completes it, which joins this event through the request.
  std::uint32_t event = 0;
  if (f == k_MPI_Issend)
    event = wait.posted_ssend(comm, dest, tag);
  else
    wait.send(false, comm, dest, tag);
  if (event)
    pending_add_ssend(*request, event);
  else
    pending_forget(*request); // a handle that a freed receive request left in the table
  return rc;
}

} // namespace

extern "C" {

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send_call(k_MPI_Send, buf, count, type, dest, tag, comm);
}

int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send_call(k_MPI_Bsend, buf, count, type, dest, tag, comm);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send_call(k_MPI_Ssend, buf, count, type, dest, tag, comm);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  return send_call(k_MPI_Rsend, buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status) {
  Call call(k_MPI_Recv);
  WaitEvent wait(call);
  MPI_Status local;
  MPI_Status *st = status_or(status, local);
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, st);
  if (rc == MPI_SUCCESS && call.on() && source != MPI_PROC_NULL)
    call.received(received_bytes(st, type));
  if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) wait.received(comm, *st);
  return rc;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *request) {
  return isend_call(k_MPI_Isend, buf, count, type, dest, tag, comm, request);
}

int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) {
  return isend_call(k_MPI_Ibsend, buf, count, type, dest, tag, comm, request);
}

int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) {
  return isend_call(k_MPI_Issend, buf, count, type, dest, tag, comm, request);
}

int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) {
  return isend_call(k_MPI_Irsend, buf, count, type, dest, tag, comm, request);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *request) {
  Call call(k_MPI_Irecv);
  WaitEvent wait(call);
  int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  if (rc != MPI_SUCCESS || !call.on() || source == MPI_PROC_NULL) return rc;
  // Counted when it completes; only a full table falls back to the posted size.
  if (!pending_add(*request, false, wait.posted_recv(comm, source, tag)))
    call.received(bytes_of(count, type));
  return rc;
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status) {
  Call call(k_MPI_Sendrecv);
  WaitEvent wait(call);
  MPI_Status local;
  MPI_Status *st = status_or(status, local);
  int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                         source, recvtag, comm, st);
  if (rc == MPI_SUCCESS && call.on()) {
    if (dest != MPI_PROC_NULL) call.sent(bytes_of(sendcount, sendtype));
    if (source != MPI_PROC_NULL) call.received(received_bytes(st, recvtype));
  }
  if (rc == MPI_SUCCESS) { // the send starts first, as in the call
    wait.send(false, comm, dest, sendtag);
    if (source != MPI_PROC_NULL) wait.received(comm, *st);
  }
  return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag, int source,
                         int recvtag, MPI_Comm comm, MPI_Status *status) {
  Call call(k_MPI_Sendrecv_replace);
  WaitEvent wait(call);
  MPI_Status local;
  MPI_Status *st = status_or(status, local);
  int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, st);
  if (rc == MPI_SUCCESS && call.on()) {
    if (dest != MPI_PROC_NULL) call.sent(bytes_of(count, type));
    if (source != MPI_PROC_NULL) call.received(received_bytes(st, type));
  }
  if (rc == MPI_SUCCESS) {
    wait.send(false, comm, dest, sendtag);
    if (source != MPI_PROC_NULL) wait.received(comm, *st);
  }
  return rc;
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  Call call(k_MPI_Probe);
  return PMPI_Probe(source, tag, comm, status);
}

int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
  Call call(k_MPI_Iprobe);
  return PMPI_Iprobe(source, tag, comm, flag, status);
}

} // extern "C"

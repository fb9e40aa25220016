// PMPI wrappers of persistent requests and of MPI_Request_free. MPI_Recv_init and the four
// MPI_*send_init calls only register their request (pending_requests.h): they are local
// and cheaper than a probe, so they are not probes. MPI_Start and MPI_Startall are COMM
// probes and count, at every start, the bytes of the persistent sends they start; a
// persistent receive's bytes are counted by the wait or test that completes each start
// (pmpi_complete.cpp). Each start records what a non-blocking call would (wait_states.h):
// a send, or the post of a receive or synchronous send that its completion joins.
// MPI_Request_free takes a request out of the table.
#include "comm_probe.h"
#include "pending_requests.h"
#include "wait_states.h"

using namespace idb::mpi;

namespace {

int send_init(int rc, int count, MPI_Datatype type, MPI_Comm comm, int dest, int tag,
              const MPI_Request *request, bool synchronous = false) {
  if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL)
    pending_add_send(*request, bytes_of(count, type), {comm, dest, tag, synchronous});
  return rc;
}

// One started request: a persistent send's bytes and its wait event, or a persistent
// receive's post.
void started(Call &call, WaitEvent &wait, MPI_Request request) {
  Started s = pending_started(request);
  if (!s.found) return;
  const Envelope &at = s.where;
  if (!s.send) {
    if (std::uint32_t event = wait.posted_recv(at.comm, at.peer, at.tag))
      pending_mark(request, event);
    return;
  }
  call.sent(s.bytes);
  if (!at.synchronous)
    wait.send(false, at.comm, at.peer, at.tag);
  else if (std::uint32_t event = wait.posted_ssend(at.comm, at.peer, at.tag))
    pending_mark(request, event);
}

} // namespace

extern "C" {

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Request *request) {
  int rc = PMPI_Recv_init(buf, count, type, source, tag, comm, request);
  if (rc == MPI_SUCCESS && source != MPI_PROC_NULL)
    pending_add(*request, true, 0, {comm, source, tag, false});
  return rc;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request) {
  return send_init(PMPI_Send_init(buf, count, type, dest, tag, comm, request), count, type, comm,
                   dest, tag, request);
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request) {
  return send_init(PMPI_Bsend_init(buf, count, type, dest, tag, comm, request), count, type, comm,
                   dest, tag, request);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request) {
  return send_init(PMPI_Ssend_init(buf, count, type, dest, tag, comm, request), count, type, comm,
                   dest, tag, request, true);
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request) {
  return send_init(PMPI_Rsend_init(buf, count, type, dest, tag, comm, request), count, type, comm,
                   dest, tag, request);
}

int MPI_Start(MPI_Request *request) {
  Call call(k_MPI_Start);
  WaitEvent wait(call);
  int rc = PMPI_Start(request);
  if (rc == MPI_SUCCESS && call.on()) started(call, wait, *request);
  return rc;
}

int MPI_Startall(int count, MPI_Request requests[]) {
  Call call(k_MPI_Startall);
  WaitEvent wait(call);
  int rc = PMPI_Startall(count, requests);
  for (int i = 0; rc == MPI_SUCCESS && call.on() && pending_any() && i < count; ++i)
    started(call, wait, requests[i]);
  return rc;
}

int MPI_Request_free(MPI_Request *request) {
  MPI_Request before = *request;
  int rc = PMPI_Request_free(request);
  if (rc == MPI_SUCCESS) pending_forget(before);
  return rc;
}

} // extern "C"

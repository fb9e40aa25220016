// PMPI wrappers of persistent requests and of MPI_Request_free. MPI_Recv_init and the four
// MPI_*send_init calls only register their request (pending_requests.h): they are local
// and cheaper than a probe, so they are not probes. MPI_Start and MPI_Startall are COMM
// probes and count, at every start, the bytes of the persistent sends they start; a
// persistent receive's bytes are counted by the wait or test that completes each start
// (pmpi_complete.cpp). MPI_Request_free takes a request out of the table.
#include "comm_probe.h"
#include "pending_requests.h"

using namespace idb::mpi;

namespace {

int send_init(int rc, int count, MPI_Datatype type, int dest, const MPI_Request *request) {
  if (rc == MPI_SUCCESS && dest != MPI_PROC_NULL) pending_add_send(*request, bytes_of(count, type));
  return rc;
}

} // namespace

extern "C" {

int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                  MPI_Request *request) {
  int rc = PMPI_Recv_init(buf, count, type, source, tag, comm, request);
  if (rc == MPI_SUCCESS && source != MPI_PROC_NULL) pending_add(*request, true);
  return rc;
}

int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request *request) {
  return send_init(PMPI_Send_init(buf, count, type, dest, tag, comm, request), count, type, dest,
                   request);
}

int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request) {
  return send_init(PMPI_Bsend_init(buf, count, type, dest, tag, comm, request), count, type, dest,
                   request);
}

int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request) {
  return send_init(PMPI_Ssend_init(buf, count, type, dest, tag, comm, request), count, type, dest,
                   request);
}

int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request *request) {
  return send_init(PMPI_Rsend_init(buf, count, type, dest, tag, comm, request), count, type, dest,
                   request);
}

int MPI_Start(MPI_Request *request) {
  Call call(k_MPI_Start);
  int rc = PMPI_Start(request);
  if (rc == MPI_SUCCESS && call.on()) call.sent(pending_started(*request));
  return rc;
}

int MPI_Startall(int count, MPI_Request requests[]) {
  Call call(k_MPI_Startall);
  int rc = PMPI_Startall(count, requests);
  for (int i = 0; rc == MPI_SUCCESS && call.on() && pending_any() && i < count; ++i)
    call.sent(pending_started(requests[i]));
  return rc;
}

int MPI_Request_free(MPI_Request *request) {
  MPI_Request before = *request;
  int rc = PMPI_Request_free(request);
  if (rc == MPI_SUCCESS) pending_forget(before);
  return rc;
}

} // extern "C"

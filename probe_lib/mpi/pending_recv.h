// The receives still in flight: MPI_Irecv and MPI_Recv_init register their request, and
// the wait and test wrappers, once a request completes, look it up to count the bytes its
// status says arrived (docs/mpi.md, "Bytes") rather than the posted size. A fixed table
// (no allocation), open addressing keyed by the request handle, guarded by one mutex that
// is never taken while no receive is pending. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <mpi.h>

namespace idb::mpi {

// Registers a receive request; a handle already present (a freed request's handle that
// MPI reused) is overwritten. False when the table is full: the caller then counts the
// posted size instead.
bool pending_add(MPI_Request request, bool persistent);

// How many receives are registered; read without the lock (pending_any).
extern std::atomic<std::uint32_t> pending_live;

// True when some receive is registered: the wrappers skip all bookkeeping otherwise.
inline bool pending_any() {
  return pending_live.load(std::memory_order_relaxed) != 0;
}

// True when `request` is a registered receive. Removes it unless it is persistent (a
// persistent request stays until MPI_Request_free).
bool pending_take(MPI_Request request);

// Removes `request` whatever its kind (MPI_Request_free, or a handle a send reused).
void pending_forget(MPI_Request request);

// Bytes a request that has just completed with `status` delivered: what the status says
// arrived when it is a registered receive (0 when cancelled), else 0. Read as a count of
// MPI_BYTE, not of the receive's datatype, which the program may have freed by now (Open
// MPI and MPICH keep the byte count in the status).
std::uint64_t pending_completed(MPI_Request request, const MPI_Status &status);

} // namespace idb::mpi

// The requests the layer follows after the call that made them: receives in flight
// (MPI_Irecv, MPI_Recv_init), whose wait or test counts the bytes their status says
// arrived rather than the posted size, and persistent sends (MPI_Send_init and its
// buffered, synchronous and ready forms), whose every MPI_Start counts their bytes
// (docs/mpi.md, "Bytes"). A fixed table (no allocation), open addressing keyed by the
// request handle, guarded by one mutex that is never taken while the table is empty.
// Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <mpi.h>

namespace idb::mpi {

// Registers a receive request; a handle already present (a freed request's handle that
// MPI reused) is overwritten. False when the table is full: the caller then counts the
// posted size instead.
bool pending_add(MPI_Request request, bool persistent);

// Registers a persistent send request that hands `bytes` to MPI at each start. False when
// the table is full (its starts then count nothing).
bool pending_add_send(MPI_Request request, std::uint64_t bytes);

// The bytes a start of `request` sends: a registered persistent send's, else 0.
std::uint64_t pending_started(MPI_Request request);

// How many requests are registered; read without the lock (pending_any).
extern std::atomic<std::uint32_t> pending_live;

// True when some request is registered: the wrappers skip all bookkeeping otherwise.
inline bool pending_any() {
  return pending_live.load(std::memory_order_relaxed) != 0;
}

// True when `request` is a registered receive. Removes it unless it is persistent (a
// persistent request stays until MPI_Request_free). A persistent send is not a receive.
bool pending_take(MPI_Request request);

// Removes `request` whatever its kind (MPI_Request_free, or a handle a send reused).
void pending_forget(MPI_Request request);

// Bytes a request that has just completed with `status` delivered: what the status says
// arrived when it is a registered receive (0 when cancelled), else 0. Read as a count of
// MPI_BYTE, not of the receive's datatype, which the program may have freed by now (Open
// MPI and MPICH keep the byte count in the status).
std::uint64_t pending_completed(MPI_Request request, const MPI_Status &status);

} // namespace idb::mpi

// The requests the layer follows after the call that made them: receives in flight
// (MPI_Irecv, MPI_Recv_init), whose wait or test counts the bytes their status says
// arrived rather than the posted size, and persistent sends (MPI_Send_init and its
// buffered, synchronous and ready forms), whose every MPI_Start counts their bytes
// (docs/mpi.md, "Bytes"). While wait states are recorded (wait_states.h), an entry also
// holds the wait event of the request's latest post (a receive's, or a synchronous
// send's: MPI_Issend, MPI_Ssend_init), which the completing call joins to its own. A fixed
// table (no allocation), open addressing keyed by the request handle, guarded by one mutex
// that is never taken while the table is empty. Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <mpi.h>

namespace idb::mpi {

// Where a persistent request sends or receives from, for its starts' wait events.
struct Envelope {
  MPI_Comm comm = MPI_COMM_NULL;
  int peer = MPI_PROC_NULL, tag = 0;
  bool synchronous = false; // MPI_Ssend_init
};

// Registers a receive request (`event`: its post's wait event, 0 for none; `where`: a
// persistent receive's envelope); a handle already present (a freed request's handle that
// MPI reused) is overwritten. False when the table is full: the caller then counts the
// posted size instead.
bool pending_add(MPI_Request request, bool persistent, std::uint32_t event = 0,
                 const Envelope &where = {});

// Registers a persistent send request that hands `bytes` to MPI at each start. False when
// the table is full (its starts then count nothing).
bool pending_add_send(MPI_Request request, std::uint64_t bytes, const Envelope &where);

// Registers a synchronous send started by MPI_Issend whose post is wait event `event`.
void pending_add_ssend(MPI_Request request, std::uint32_t event);

// What a start of `request` starts: a registered persistent request's kind, bytes per
// start (sends) and envelope.
struct Started {
  bool found = false, send = false;
  std::uint64_t bytes = 0;
  Envelope where;
};
Started pending_started(MPI_Request request);

// Sets the wait event of a registered request's latest post (MPI_Start).
void pending_mark(MPI_Request request, std::uint32_t event);

// How many requests are registered; read without the lock (pending_any).
extern std::atomic<std::uint32_t> pending_live;

// True when some request is registered: the wrappers skip all bookkeeping otherwise.
inline bool pending_any() {
  return pending_live.load(std::memory_order_relaxed) != 0;
}

// Removes `request` whatever its kind (MPI_Request_free, or a handle a send reused).
void pending_forget(MPI_Request request);

// What a request that has just completed with `status` did: the bytes it delivered (what
// the status says arrived when it is a registered receive, 0 when cancelled), and the wait
// event of its post (0 for none, or when cancelled). Read as a count of MPI_BYTE, not of
// the receive's datatype, which the program may have freed by now (Open MPI and MPICH keep
// the byte count in the status). Removes the request unless it is persistent (a persistent
// request stays until MPI_Request_free).
struct Completed {
  std::uint64_t bytes = 0;
  std::uint32_t event = 0;
};
Completed pending_completed(MPI_Request request, const MPI_Status &status);

} // namespace idb::mpi

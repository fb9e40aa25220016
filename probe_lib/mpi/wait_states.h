// Wait states without trace files (docs/mpi.md, "Wait states"). While the program runs,
// the wrappers append one fixed-size event per point-to-point or collective call to a
// per-process buffer of bounded size (IDB_WAIT_BUFFER, 64 MiB by default; when it is full,
// recording stops and the coverage says so). At MPI_Finalize the ranks replay their own
// communication on private duplicates of the communicators, each rank walking its events
// in order: a send passes its start time to its receiver, a synchronous send's receiver
// answers with its own, a collective exchanges the ranks' arrival times, and each rank
// computes how long its calls waited in each pattern of idb/wait_states.h. Non-blocking
// calls are replayed as they ran: a receive is posted where MPI_Irecv or MPI_Start posted
// it and completed where the wait or test completed it, whose call is the one that waited
// (late sender in MPI_Waitall); likewise the answer a synchronous send awaits (MPI_Issend,
// MPI_Ssend_init: late receiver in the MPI_Wait that completes it). The waits go
// to the runtime (idb_ext_add_waits) and from there into the profile's WAIT sections.
//
// Times are on rank 0's clock: ranks on rank 0's host share its time-stamp counter; the
// others map theirs by ping-pong against rank 0 at initialisation and at finalize (the
// minimum round trip), interpolated linearly. The replay only ever waits for messages and
// collectives the program itself completed earlier, so it cannot deadlock where the program
// did not: point-to-point traffic is replayed per (communicator, sender, receiver, tag)
// only when both sides recorded the same number of messages, and each communicator's
// collectives up to the count every member recorded. IDB_WAIT=0 turns it all off.
#pragma once

#include "comm_probe.h"

#include <cstdint>
#include <mpi.h>

namespace idb::mpi {

// posted_recv: MPI_Irecv or MPI_Start of a persistent receive; posted_ssend: MPI_Issend or
// MPI_Start of a synchronous persistent send; completed: one request a wait or test
// completed, joined to its post.
enum class WaitKind : std::uint8_t {
  send,
  ssend,
  recv,
  barrier,
  nxn,
  broadcast,
  reduce,
  posted_recv,
  posted_ssend,
  completed,
  skipped // a slot reserved past the buffer's end
};

// A request a wait or test call completed: its post's event (from posted()) and, for a
// receive, the status's source and tag.
struct Finished {
  std::uint32_t event;
  int source, tag;
};

// True while events are being recorded: IDB_WAIT is not 0, more than one rank, a mode
// whose finalize is collective, and the buffer not full.
bool wait_recording();

// One wrapped call's event: the enter time at construction, the rest at the call's end.
// Records nothing unless `call` records and wait_recording() holds.
class WaitEvent {
public:
  explicit WaitEvent(const Call &call);
  // A send to `dest` (synchronous: the sender waits for the receive to start).
  void send(bool synchronous, MPI_Comm comm, int dest, int tag);
  // A completed receive: its source and tag from the status.
  void received(MPI_Comm comm, const MPI_Status &status);
  // A collective of `kind` on `comm` (`root` for broadcast and reduce kinds).
  void collective(WaitKind kind, MPI_Comm comm, int root = 0);
  // A receive posted (`source` and `tag` as posted: the completion says which matched) or
  // a synchronous send started: the event to register with the request, 0 for none.
  std::uint32_t posted_recv(MPI_Comm comm, int source, int tag);
  std::uint32_t posted_ssend(MPI_Comm comm, int dest, int tag);
  // The `n` posted requests this wait or test call completed, in one group.
  void completed(const Finished *done, int n);

private:
  bool on_;
  std::uint64_t enter_ = 0;
};

// After MPI_Init: reads the settings, reserves the buffer, duplicates MPI_COMM_WORLD and
// takes the first clock offsets. Collective over MPI_COMM_WORLD.
void wait_init();

// After a wrapped constructor produced `comm` (MPI_COMM_NULL on ranks outside it):
// duplicates it for the replay. Collective over `comm`.
void wait_comm_created(MPI_Comm comm);

// Before MPI_Comm_free of `comm`: its duplicates stay for the replay.
void wait_comm_freed(MPI_Comm comm);

// At MPI_Finalize, after idb_ext_stop and before the profile is combined: the replay,
// its waits handed to the runtime and its coverage to the metadata. Collective over
// MPI_COMM_WORLD when recording was on.
void wait_replay();

} // namespace idb::mpi

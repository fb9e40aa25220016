// One profile per run: at MPI_Finalize the ranks' data travel up a binomial tree over a
// private copy of MPI_COMM_WORLD to rank 0, which writes the file (docs/mpi.md). The mode
// comes from IDB_MPI_MODE: `full` (every rank's CFHs), `summary` (per node the
// cross-rank statistics, summary.h) or `rank` (no collective: every rank writes its own
// file).
#pragma once

#include "blob.h"

#include <mpi.h>

#include <cstdlib>

namespace idb::mpi {

enum class Mode { Full, Summary, Rank };

// IDB_MPI_MODE; an unknown value is reported on stderr and read as `full`. Read once per
// run, through run_mode() (own_profile.h).
Mode read_mode();
const char *mode_name(Mode mode);

// Stops the runtime and writes the run's profile as the mode says, with this rank's spill
// first when spilling is on (own_profile.h). Collective over MPI_COMM_WORLD except in
// `rank` mode. Does nothing when probes do not record.
void finalize_profile();

// Moves a byte buffer from `from` to `to` over `comm`: its size, then the bytes in pieces
// an int count can hold. Returns false (reported) when memory runs out on the receiver.
bool send_bytes(const unsigned char *data, unsigned long long size, int to, MPI_Comm comm);
bool recv_bytes(unsigned char **data, unsigned long long *size, int from, MPI_Comm comm);

// The binomial tree towards rank 0 that both merges walk: for each child, in order, its
// subtree's message goes to `absorb(data, bytes, from)` (data is nullptr when memory ran
// out receiving it); then every rank but 0 builds its own message with `message(blob)`,
// which now holds its whole subtree, and sends it to its parent. False when an absorb
// said so.
template <class Absorb, class Message>
bool reduce_up(MPI_Comm comm, int rank, int size, Absorb absorb, Message message) {
  bool ok = true;
  for (int mask = 1; mask < size; mask <<= 1) {
    if (rank & mask) {
      ByteBuffer out;
      message(out);
      send_bytes(out.failed ? nullptr : out.data, out.failed ? 0 : out.size, rank - mask, comm);
      return ok;
    }
    if (rank + mask >= size) continue;
    unsigned char *data = nullptr;
    unsigned long long bytes = 0;
    bool received = recv_bytes(&data, &bytes, rank + mask, comm);
    ok = absorb(received ? data : nullptr, bytes, rank + mask) && ok;
    std::free(data);
  }
  return ok;
}

// This rank's probe table as u32 count, u64 bytes and a PROBES payload; and the reverse:
// registers a received table's probes in this rank's (false when it is malformed).
void put_probe_table(ByteBuffer &out);
bool take_probe_table(Reader &in);

} // namespace idb::mpi

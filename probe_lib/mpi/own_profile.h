// A rank's own profile outside the merge (docs/mpi.md, "What happens when a rank
// aborts"): the spill written before the merge at MPI_Finalize, and the profile a rank
// writes when the launcher ends the job with SIGTERM or the rank calls MPI_Abort.
// Whichever comes first writes it; the others find it written (or wait while it is being
// written), so no rank writes it twice.
#pragma once

#include "merge.h"

#include <cstddef>

namespace idb::mpi {

// Reads IDB_MPI_MODE and IDB_MPI_SPILL once for the run of `size` ranks (rank 0 reports an
// invalid value) and, when spilling is on and the program has no SIGTERM handler of its
// own, starts the thread that writes the profile on SIGTERM and installs the handler that
// wakes it. Call once, from the MPI_Init wrappers, once MPI is up.
void setup_own_profile(int rank, int size);

// The run's mode and whether this rank spills, as setup_own_profile read them (read on
// first use when it was not called).
Mode run_mode();
bool spill_on();

// Stops the runtime and writes this rank's own profile, unless another thread has: in the
// per-rank mode the rank's file, else its spill (IDB_OUT expanded, then .rank<r>.idbprof),
// whose path goes to `path` ("" when this call wrote none; may be null). While another
// thread is writing it, waits until that is done. Returns true when this call wrote (or
// tried to write) it. Thread-safe; not signal-safe. Calls no MPI function.
bool save_own_profile(char *path, std::size_t size);

} // namespace idb::mpi

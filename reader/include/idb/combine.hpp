// Combining per-rank profiles into one, as if the ranks had merged at finalize: what
// `idb run` does with the files of a run in IDB_MPI_MODE=rank, or of an MPI program that
// does not link libidb_mpi.
#pragma once

#include "idb/profile.hpp"

#include <string>
#include <vector>

namespace idb::profile {

struct CombineResult {
  std::optional<Profile> profile; // set on success
  std::string error;              // otherwise: why not
};

// One profile holding every CFH of `ranks`, in rank order, the union of their probe
// tables (the first description of an id wins) and the metadata of the lowest rank, with
// `nprocs` the larger of its own value and the number of distinct ranks. Refuses an empty
// list, profiles of different programs, and two profiles of the same rank.
CombineResult combine_ranks(std::vector<Profile> ranks);

} // namespace idb::profile

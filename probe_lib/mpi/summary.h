// The summary mode's merge at MPI_Finalize (docs/mpi.md): the union of the ranks' CFH
// structures travels up the binomial tree and back down by broadcast, then every rank
// fills one fixed-size record per union node and an MPI reduction with IDB's own operator
// combines them at rank 0, which writes one CFH per CFH name with the merged statistics
// and the cross-rank spread. The file's size follows the union of the trees, not the
// number of ranks.
#pragma once

#include <mpi.h>

namespace idb::mpi {

// Collective over `comm`. When a rank cannot take part (memory), every rank writes its
// own profile instead, as in `rank` mode. Returns, on rank 0, whether the summary profile
// was written (true elsewhere).
bool merge_summary(MPI_Comm comm, int rank, int size);

} // namespace idb::mpi

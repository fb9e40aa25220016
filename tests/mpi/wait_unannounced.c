/* A stream whose receiver recorded its message but whose sender did not, beside a stream
 * the other way on the same tag that both ends recorded: the replay must leave out both
 * directions on both ranks, or it waits for ever. Two ranks; run with IDB_WAIT_BUFFER=480
 * (ten events a rank).
 *   rank 0: MPI_Send to rank 1, then MPI_Recv from rank 1 (tag 5): two events;
 *   rank 1: MPI_Recv from rank 0 (tag 5), then six MPI_Sendrecv with itself (tag 9, two
 *           events each: its buffer is full after four and a half), then MPI_Send to
 *           rank 0 (tag 5), which it therefore does not record.
 * Exits 0 when every message arrived. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1, value = 7, in = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "wait_unannounced: needs 2 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (rank == 0) {
    MPI_Send(&value, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    MPI_Recv(&in, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&in, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int k = 0; k < 6; ++k)
      MPI_Sendrecv(&value, 1, MPI_INT, 1, 9, &in, 1, MPI_INT, 1, 9, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    MPI_Send(&value, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return in == 7 ? 0 : 1;
}

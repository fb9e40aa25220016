/* Links the installed PMPI layer from an MPI program: one probe around an allreduce. */
#include <idb/probe.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, one = 1, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  {
    IDB_PROC_SCOPE(1);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0) printf("consumer mpi: %d ranks\n", sum);
  MPI_Finalize();
  return 0;
}

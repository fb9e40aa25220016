/* Passes a token around a ring of ranks, then reduces a sum. */
#include <mpi.h>
#include <stdio.h>

static int pass_token(int rank, int size, int rounds) {
  int token = 0, r;
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (r = 0; r < rounds; r++) {
    if (rank == 0) {
      token++;
      MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token++;
      MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
    }
  }
  return token;
}

int main(int argc, char **argv) {
  int rank, size, token, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  token = pass_token(rank, size, 3);
  MPI_Allreduce(&token, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("ranks %d token %d sum %d\n", size, token, sum);
  MPI_Finalize();
  return 0;
}

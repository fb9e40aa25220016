/* A C MPI program with a known communication pattern, for the PMPI layer's tests.
 * Usage: comm_pattern ITERATIONS [SLOW_RANK]
 * Per iteration, under PROC probe 1 "step": a ring MPI_Sendrecv of 16 ints; an
 * MPI_Isend/MPI_Irecv ring of 8 doubles completed by MPI_Waitall; an MPI_Allreduce of 3
 * doubles; an MPI_Allreduce of 5 ints inside an instrumenter-style COMM probe 2 (so the
 * PMPI layer adds its bytes there and opens no node); an MPI_Bcast of 10 ints from rank
 * 0; an MPI_Gather of 2 ints to rank 0; and LOOP probe 3 "compute", where SLOW_RANK
 * spins about 2 ms longer than the others. Once, outside the loop: MPI_Comm_dup, a
 * barrier on the copy, MPI_Comm_free. */
#include <idb/probe.h>

#include <mpi.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void spin(double seconds) {
  double end = now_s() + seconds;
  while (now_s() < end) {
  }
}

static void step(int rank, int size, int slow_rank) {
  IDB_PROC_SCOPE(1);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int ints_out[16] = {0}, ints_in[16];
  MPI_Sendrecv(ints_out, 16, MPI_INT, right, 1, ints_in, 16, MPI_INT, left, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  double d_out[8] = {0}, d_in[8];
  MPI_Request requests[2];
  MPI_Irecv(d_in, 8, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(d_out, 8, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &requests[1]);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  double three[3] = {1, 2, 3}, sums[3];
  MPI_Allreduce(three, sums, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  {
    IDB_COMM_SCOPE(2, "halo allreduce");
    int five[5] = {0}, five_sum[5];
    MPI_Allreduce(five, five_sum, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  int ten[10] = {0};
  MPI_Bcast(ten, 10, MPI_INT, 0, MPI_COMM_WORLD);
  int two[2] = {rank, rank}, gathered[2 * 64];
  MPI_Gather(two, 2, MPI_INT, gathered, 2, MPI_INT, 0, MPI_COMM_WORLD);
  {
    IDB_LOOP_SCOPE(3, "compute");
    spin(rank == slow_rank ? 0.0025 : 0.0005);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int iterations = argc > 1 ? atoi(argv[1]) : 10;
  int slow_rank = argc > 2 ? atoi(argv[2]) : -1;
  if (size > 64) MPI_Abort(MPI_COMM_WORLD, 2);
  MPI_Comm copy;
  MPI_Comm_dup(MPI_COMM_WORLD, &copy);
  MPI_Barrier(copy);
  MPI_Comm_free(&copy);
  for (int i = 0; i < iterations; ++i)
    step(rank, size, slow_rank);
  MPI_Finalize();
  return 0;
}

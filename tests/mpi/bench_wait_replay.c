/* Benchmark: what the wait-state replay adds to MPI_Finalize, by the number of recorded
 * calls, and what its setup adds to MPI_Init. Every rank makes ROUNDS rounds of one
 * MPI_Sendrecv around the ring and one MPI_Allreduce (three recorded events a round: a
 * send, a receive, a collective), or with "nb" of MPI_Irecv from the left, MPI_Isend to the
 * right and MPI_Waitall, then MPI_Allreduce (four: a post, a send, a completion, a
 * collective); then times MPI_Finalize. Rank 0 prints the events it recorded, its MPI_Init
 * time, the rounds' own time and its finalize time in seconds (the replay redoes the
 * rounds' communication, so its time follows theirs). Run it with IDB_WAIT=1 and IDB_WAIT=0
 * in turns: the difference is the recording's setup and the replay (the merge of the
 * profile is the same in both).
 * Usage: mpirun -np RANKS bench_wait_replay [ROUNDS [nb]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  double before_init = now_s();
  MPI_Init(&argc, &argv);
  double init = now_s() - before_init;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long rounds = argc > 1 ? atol(argv[1]) : 1000;
  int nonblocking = argc > 2 && !strcmp(argv[2], "nb");
  int right = (rank + 1) % size, left = (rank + size - 1) % size, out = rank, in = 0, sum = 0;
  double start = now_s();
  for (long i = 0; i < rounds; ++i) {
    if (nonblocking) {
      MPI_Request r[2];
      MPI_Irecv(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &r[0]);
      MPI_Isend(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &r[1]);
      MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else {
      MPI_Sendrecv(&out, 1, MPI_INT, right, 1, &in, 1, MPI_INT, left, 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    }
    MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  double t0 = now_s();
  MPI_Finalize();
  double took = now_s() - t0;
  if (rank == 0)
    printf("events/rank %ld init_s %.4f rounds_s %.4f finalize_s %.4f\n",
           (nonblocking ? 4 : 3) * rounds, init, t0 - start, took);
  return 0;
}

/* Benchmark: what the wait-state replay adds to MPI_Finalize, by the number of recorded
 * calls. Every rank makes ROUNDS rounds of one MPI_Sendrecv around the ring and one
 * MPI_Allreduce (three recorded events a round: a send, a receive, a collective), then
 * times MPI_Finalize; rank 0 prints the events it recorded, the rounds' own time and its
 * finalize time in seconds (the replay redoes the rounds' communication, so its time
 * follows theirs). Run it with IDB_WAIT=1 and IDB_WAIT=0 in turns: the difference is the replay
 * (the merge of the profile is the same in both).
 * Usage: mpirun -np RANKS bench_wait_replay [ROUNDS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long rounds = argc > 1 ? atol(argv[1]) : 1000;
  int right = (rank + 1) % size, left = (rank + size - 1) % size, out = rank, in = 0, sum = 0;
  double start = now_s();
  for (long i = 0; i < rounds; ++i) {
    MPI_Sendrecv(&out, 1, MPI_INT, right, 1, &in, 1, MPI_INT, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Allreduce(&in, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  double t0 = now_s();
  MPI_Finalize();
  double took = now_s() - t0;
  if (rank == 0)
    printf("events/rank %ld rounds_s %.4f finalize_s %.4f\n", 3 * rounds, t0 - start, took);
  return 0;
}

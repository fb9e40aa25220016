/* Benchmark: the time MPI_Finalize takes on rank 0 when the PMPI layer merges every rank's
 * profile first, for a tree of about NODES nodes per rank (a root, NODES/100 PROC probes,
 * 100 LOOP probes under each). Run it under each IDB_MPI_MODE and with IDB_ENABLE=0 (the
 * library's own finalize alone); rank 0 prints the seconds from a barrier before
 * MPI_Finalize to its return. The profile's size is the file IDB_OUT names.
 * Usage: mpirun -np 16 --oversubscribe bench_finalize_merge [NODES] */
#include <idb/probe.h>

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
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int nodes = argc > 1 ? atoi(argv[1]) : 5000;
  int outer = nodes / 100 > 0 ? nodes / 100 : 1;
  for (int i = 0; i < outer; ++i) {
    idb_start(IDB_PROC, 1 + i, "outer");
    for (int k = 0; k < 100; ++k) {
      idb_start(IDB_LOOP, 100000 + k, "inner");
      idb_stop(100000 + k);
    }
    idb_stop(1 + i);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now_s();
  MPI_Finalize();
  double t1 = now_s();
  if (rank == 0) printf("finalize_s %.6f nodes_per_rank %d\n", t1 - t0, 1 + outer * 101 + 2);
  return 0;
}

/* An MPI_THREAD_MULTIPLE program for the PMPI layer's tests: two threads per rank each
 * run ITERATIONS ring exchanges (MPI_Sendrecv on their own tag) under PROC probe 20
 * "worker"; thread t moves 8 (t + 1) ints each way per exchange. Prints "single" and
 * exits 0 when the MPI library does not provide MPI_THREAD_MULTIPLE.
 * Usage: threads_comm ITERATIONS */
#include <idb/probe.h>

#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int g_rank, g_size, g_iterations;

static void *worker(void *arg) {
  int t = (int)(long)arg;
  int out[16] = {0}, in[16];
  int right = (g_rank + 1) % g_size, left = (g_rank + g_size - 1) % g_size;
  IDB_PROC_SCOPE(20);
  for (int i = 0; i < g_iterations; ++i)
    MPI_Sendrecv(out, 8 * (t + 1), MPI_INT, right, t, in, 8 * (t + 1), MPI_INT, left, t,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return NULL;
}

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  g_iterations = argc > 1 ? atoi(argv[1]) : 10;
  if (provided < MPI_THREAD_MULTIPLE) {
    if (g_rank == 0) printf("single\n");
    MPI_Finalize();
    return 0;
  }
  pthread_t threads[2];
  for (long t = 0; t < 2; ++t)
    pthread_create(&threads[t], NULL, worker, (void *)t);
  for (int t = 0; t < 2; ++t)
    pthread_join(threads[t], NULL);
  MPI_Finalize();
  return 0;
}

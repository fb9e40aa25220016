/* Benchmark: what the PMPI layer adds to an MPI call. On one rank, times N calls of
 * MPI_Test on MPI_REQUEST_NULL, MPI_Send of one int to MPI_PROC_NULL and MPI_Allreduce of
 * one int, and N rounds of a receive from itself (MPI_Irecv posted for 4 ints, MPI_Send of
 * 1 int, MPI_Wait: three wrapped calls and the layer's table of pending receives), each
 * through the wrapper (MPI_*) and bare (PMPI_*), in the same process; prints
 * the best of five rounds in ns per call and the difference. Run it with IDB_ENABLE=0 too:
 * the wrapper's cost when probes are off.
 * Usage: mpirun -np 1 bench_pmpi_call [CALLS] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum { kTest, kSend, kAllreduce, kRecvWait };

static int self; /* this rank */

/* The rank receives one int from itself into a buffer posted for four. */
static void recv_from_self(int bare) {
  int in[4], one = 1;
  MPI_Request request;
  if (bare) {
    PMPI_Irecv(in, 4, MPI_INT, self, 0, MPI_COMM_WORLD, &request);
    PMPI_Send(&one, 1, MPI_INT, self, 0, MPI_COMM_WORLD);
    PMPI_Wait(&request, MPI_STATUS_IGNORE);
  } else {
    MPI_Irecv(in, 4, MPI_INT, self, 0, MPI_COMM_WORLD, &request);
    MPI_Send(&one, 1, MPI_INT, self, 0, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
}

static void call(int which, int bare) {
  MPI_Request request = MPI_REQUEST_NULL;
  int flag = 0, one = 1, sum = 0;
  switch (which) {
  case kTest:
    if (bare)
      PMPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    else
      MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
    break;
  case kSend:
    if (bare)
      PMPI_Send(&one, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    else
      MPI_Send(&one, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    break;
  case kAllreduce:
    if (bare)
      PMPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else
      MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    break;
  default:
    recv_from_self(bare);
  }
}

static double best_ns(int which, int bare, long calls) {
  double best = 1e300;
  for (int round = 0; round < 5; ++round) {
    double t0 = now_s();
    for (long i = 0; i < calls; ++i)
      call(which, bare);
    double ns = (now_s() - t0) * 1e9 / (double)calls;
    if (ns < best) best = ns;
  }
  return best;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &self);
  long calls = argc > 1 ? atol(argv[1]) : 200000;
  const char *names[] = {"MPI_Test(REQUEST_NULL)", "MPI_Send(PROC_NULL, 1 int)",
                         "MPI_Allreduce(1 int, 1 rank)", "Irecv+Send+Wait (self, 1 int)"};
  const char *enabled = getenv("IDB_ENABLE");
  printf("probes %s, %ld calls per round, best of 5\n", enabled && enabled[0] == '0' ? "off" : "on",
         calls);
  printf("%-30s %12s %12s %12s\n", "call", "wrapped ns", "bare ns", "added ns");
  for (int which = kTest; which <= kRecvWait; ++which) {
    double wrapped = best_ns(which, 0, calls), bare = best_ns(which, 1, calls);
    printf("%-30s %12.1f %12.1f %12.1f\n", names[which], wrapped, bare, wrapped - bare);
  }
  MPI_Finalize();
  return 0;
}

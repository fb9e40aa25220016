/* An MPI program for the tests of what survives when a rank dies before MPI_Finalize.
 * Usage: abort_pattern abort|mpi_abort|handler [DIR]
 * Every rank runs PROC probe 1 "setup" around 10 barriers. Then ranks 0 and 1 block in an
 * MPI_Ssend to rank 2 that it never receives, and rank 3 computes for ever in LOOP probe 3
 * "compute" (PROC probe 4 "step", again and again), after sending rank 2 one message from
 * inside it. Rank 2 waits until it has seen all three messages (MPI_Probe for the
 * blocked sends), so the others are known to be where they are, then dies: abort() with
 * `abort` and `handler`, MPI_Abort with `mpi_abort`. The launcher then ends the others.
 * With `handler`, every rank installs its own SIGTERM handler before MPI_Init; it creates
 * DIR/handled.<rank>, then waits for the launcher's SIGKILL (so that its exit does not
 * hasten the others' end) and exits with status 7 if none comes. A rank whose handler is
 * gone after MPI_Init says so on stderr. */
#include <idb/probe.h>

#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { kBlockedTag = 5, kComputingTag = 6 };

static char marker[4096]; /* set before the handler can run for a reason of ours */

static void on_sigterm(int sig) {
  (void)sig;
  if (marker[0]) {
    int fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) close(fd);
  }
  struct timespec wait = {30, 0};
  nanosleep(&wait, NULL);
  _exit(7);
}

static void setup(void) {
  IDB_PROC_SCOPE(1);
  for (int i = 0; i < 10; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
}

static void step(void) {
  IDB_PROC_SCOPE(4);
  volatile double x = 1.0;
  for (int i = 0; i < 20000; ++i)
    x = x * 1.0000001 + 1e-9;
}

static void compute(void) {
  IDB_LOOP_SCOPE(3, "compute");
  step();
  int one = 1;
  MPI_Send(&one, 1, MPI_INT, 2, kComputingTag, MPI_COMM_WORLD);
  for (;;)
    step();
}

static void die(const char *how) {
  int blocked[2];
  for (int from = 0; from < 2; ++from) /* the message stays unreceived: they stay blocked */
    MPI_Probe(from, kBlockedTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(blocked, 1, MPI_INT, 3, kComputingTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (strcmp(how, "mpi_abort") == 0) MPI_Abort(MPI_COMM_WORLD, 3);
  abort();
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "abort";
  int own_handler = strcmp(how, "handler") == 0;
  if (own_handler) signal(SIGTERM, on_sigterm);
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) MPI_Abort(MPI_COMM_WORLD, 2);
  if (own_handler) {
    struct sigaction now;
    sigaction(SIGTERM, NULL, &now);
    if (now.sa_handler != on_sigterm) fprintf(stderr, "rank %d: SIGTERM handler replaced\n", rank);
    snprintf(marker, sizeof marker, "%s/handled.%d", argc > 2 ? argv[2] : ".", rank);
  }
  setup();
  if (rank == 2) die(how);
  if (rank == 3) compute();
  MPI_Ssend(&rank, 1, MPI_INT, 2, kBlockedTag, MPI_COMM_WORLD);
  MPI_Finalize(); /* never reached: rank 2 dies first */
  return 0;
}

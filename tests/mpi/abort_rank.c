/* An MPI program whose last rank aborts, for the tests of what an aborting rank loses.
 * Usage: abort_rank before|after FILE...
 * Every rank runs PROC probe 1 around a barrier. With `before`, the last rank aborts
 * instead of calling MPI_Finalize, once every FILE exists (the other ranks' profiles:
 * waiting for them keeps the test free of races); with `after`, it calls MPI_Finalize,
 * waits for the FILEs the same way, then aborts. */
#include <idb/probe.h>

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void wait_for_files(int count, char **files) {
  for (int tries = 0; tries < 3000; ++tries) { /* 30 s at most */
    int present = 0;
    for (int i = 0; i < count; ++i)
      present += access(files[i], F_OK) == 0;
    if (present == count) return;
    struct timespec pause = {0, 10 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
  /* The tests look for this line: the files should have come long before. */
  fprintf(stderr, "abort_rank: the other ranks' files never appeared\n");
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  {
    IDB_PROC_SCOPE(1);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  int before = argc > 1 && strcmp(argv[1], "before") == 0;
  if (rank == size - 1 && before) {
    wait_for_files(argc - 2, argv + 2);
    abort();
  }
  MPI_Finalize();
  if (rank == size - 1) {
    wait_for_files(argc - 2, argv + 2);
    abort();
  }
  return 0;
}

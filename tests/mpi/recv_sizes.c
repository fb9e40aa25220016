/* A C MPI program whose non-blocking receives are posted larger than the messages that
 * arrive, completed by every kind of wait and test, for the PMPI layer's byte counts.
 * Usage: recv_sizes ITERATIONS
 * Per iteration, in a ring, each phase a PROC probe of its own (the function's name): each
 * rank posts MPI_Irecv of 100 ints from the left, sends 10 ints to the right with
 * MPI_Isend, and completes both with MPI_Wait (statuses ignored), MPI_Waitall, MPI_Waitany,
 * MPI_Waitsome, MPI_Test, MPI_Testall, MPI_Testany or MPI_Testsome; a persistent receive
 * and send (MPI_Recv_init, MPI_Send_init, three starts by MPI_Startall and MPI_Start,
 * MPI_Wait with a status the program checks); a receive that is
 * cancelled (nothing arrives); and a receive released with MPI_Request_free before its
 * message arrives (at most 64 iterations); and 48 receives and sends in flight at once,
 * completed by one MPI_Waitsome over all of them. Every status the program asks for is
 * checked (source, count): exit 1 when one is wrong. */
#include <idb/probe.h>

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kPosted = 100, kSent = 10, kMaxIterations = 64, kMany = 48 };

static int left, right, failed;

static void check(const MPI_Status *s, const char *where) {
  int count = -1;
  MPI_Get_count(s, MPI_INT, &count);
  if (s->MPI_SOURCE != left || count != kSent) {
    fprintf(stderr, "%s: status says source %d count %d\n", where, s->MPI_SOURCE, count);
    failed = 1;
  }
}

/* Posts the ring's receive (requests[0]) and send (requests[1]). */
static void post(int *in, const int *out, MPI_Request requests[2]) {
  MPI_Irecv(in, kPosted, MPI_INT, left, 1, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(out, kSent, MPI_INT, right, 1, MPI_COMM_WORLD, &requests[1]);
}

static void by_wait(void) {
  IDB_PROC_SCOPE(10);
  int in[kPosted], out[kSent] = {0};
  MPI_Request r[2];
  post(in, out, r);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
}

static void by_waitall(void) {
  IDB_PROC_SCOPE(11);
  int in[kPosted], out[kSent] = {0};
  MPI_Request r[2];
  MPI_Status s[2];
  post(in, out, r);
  MPI_Waitall(2, r, s);
  check(&s[0], "MPI_Waitall");
}

static void by_waitany(void) {
  IDB_PROC_SCOPE(12);
  int in[kPosted], out[kSent] = {0}, index = 0;
  MPI_Request r[2];
  post(in, out, r);
  for (int done = 0; done < 2; ++done)
    MPI_Waitany(2, r, &index, MPI_STATUS_IGNORE);
}

static void by_waitsome(void) {
  IDB_PROC_SCOPE(13);
  int in[kPosted], out[kSent] = {0}, n = 0, indices[2];
  MPI_Request r[2];
  post(in, out, r);
  for (int done = 0; done < 2; done += n)
    MPI_Waitsome(2, r, &n, indices, MPI_STATUSES_IGNORE);
}

static void by_test(void) {
  IDB_PROC_SCOPE(14);
  int in[kPosted], out[kSent] = {0}, flag = 0;
  MPI_Request r[2];
  MPI_Status s;
  post(in, out, r);
  do
    MPI_Test(&r[0], &flag, &s);
  while (!flag);
  check(&s, "MPI_Test");
  MPI_Wait(&r[1], MPI_STATUS_IGNORE);
}

static void by_testall(void) {
  IDB_PROC_SCOPE(15);
  int in[kPosted], out[kSent] = {0}, flag = 0;
  MPI_Request r[2];
  post(in, out, r);
  do
    MPI_Testall(2, r, &flag, MPI_STATUSES_IGNORE);
  while (!flag);
}

static void by_testany(void) {
  IDB_PROC_SCOPE(16);
  int in[kPosted], out[kSent] = {0}, flag = 0, index = 0;
  MPI_Request r[2];
  MPI_Status s;
  post(in, out, r);
  for (int done = 0; done < 2;) {
    MPI_Testany(2, r, &index, &flag, &s);
    if (flag && index == 0) check(&s, "MPI_Testany");
    done += flag && index != MPI_UNDEFINED;
  }
}

static void by_testsome(void) {
  IDB_PROC_SCOPE(17);
  int in[kPosted], out[kSent] = {0}, n = 0, indices[2];
  MPI_Request r[2];
  post(in, out, r);
  for (int done = 0; done < 2; done += n == MPI_UNDEFINED ? 0 : n)
    MPI_Testsome(2, r, &n, indices, MPI_STATUSES_IGNORE);
}

/* A persistent receive and a persistent send, started together twice (MPI_Startall) and
 * once apart (MPI_Start), then freed. */
static void by_persistent(void) {
  IDB_PROC_SCOPE(18);
  int in[kPosted], out[kSent] = {0};
  MPI_Request r[2];
  MPI_Status s;
  MPI_Recv_init(in, kPosted, MPI_INT, left, 2, MPI_COMM_WORLD, &r[0]);
  MPI_Send_init(out, kSent, MPI_INT, right, 2, MPI_COMM_WORLD, &r[1]);
  for (int k = 0; k < 3; ++k) {
    if (k < 2) {
      MPI_Startall(2, r);
    } else {
      MPI_Start(&r[0]);
      MPI_Start(&r[1]);
    }
    MPI_Wait(&r[0], &s);
    check(&s, "MPI_Wait (persistent)");
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
  }
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
}

/* kMany receives and sends in flight at once, completed in whatever order they finish by
 * one MPI_Waitsome over all of them (more requests than the layer keeps on its stack). */
static void by_many(void) {
  IDB_PROC_SCOPE(20);
  static int in[kMany][kPosted], out[kSent];
  MPI_Request r[2 * kMany];
  int n = 0, indices[2 * kMany];
  for (int k = 0; k < kMany; ++k)
    MPI_Irecv(in[k], kPosted, MPI_INT, left, 5, MPI_COMM_WORLD, &r[k]);
  for (int k = 0; k < kMany; ++k)
    MPI_Isend(out, kSent, MPI_INT, right, 5, MPI_COMM_WORLD, &r[kMany + k]);
  for (int done = 0; done < 2 * kMany; done += n)
    MPI_Waitsome(2 * kMany, r, &n, indices, MPI_STATUSES_IGNORE);
}

/* A receive nothing matches, cancelled; then one released before its message comes. */
static void by_cancel_and_free(int iteration) {
  IDB_PROC_SCOPE(19);
  /* The freed receive may fill its buffer after this function returns: one static buffer
   * per iteration. */
  static int freed_in[kMaxIterations][kPosted];
  int in[kPosted], out[kSent] = {0};
  MPI_Request r;
  MPI_Status s;
  MPI_Irecv(in, kPosted, MPI_INT, left, 3, MPI_COMM_WORLD, &r);
  MPI_Cancel(&r);
  MPI_Wait(&r, &s);
  int cancelled = 0;
  MPI_Test_cancelled(&s, &cancelled);
  if (!cancelled) failed = 1; /* nothing was ever sent with tag 3 */
  MPI_Irecv(freed_in[iteration], kPosted, MPI_INT, left, 4, MPI_COMM_WORLD, &r);
  MPI_Request_free(&r);
  MPI_Send(out, kSent, MPI_INT, right, 4, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD); /* the freed receive has matched by the next phase's end */
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  int iterations = argc > 1 ? atoi(argv[1]) : 5;
  if (iterations < 0 || iterations > kMaxIterations) MPI_Abort(MPI_COMM_WORLD, 2);
  for (int i = 0; i < iterations; ++i) {
    by_wait();
    by_waitall();
    by_waitany();
    by_waitsome();
    by_test();
    by_testall();
    by_testany();
    by_testsome();
    by_persistent();
    by_cancel_and_free(i);
    by_many();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return failed;
}

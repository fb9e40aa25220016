/* A C MPI program calling every wrapped function that comm_pattern.c and collectives.cpp
 * leave out, with known sizes, for the PMPI layer's byte counts. Needs an even number of
 * ranks (synchronous sends go even rank first), at most 64.
 * Usage: more_calls ITERATIONS
 * Per iteration, in a ring (right = rank + 1, left = rank - 1), each group a PROC probe of
 * its own (the function's name):
 *   sends():       MPI_Ssend of 3 ints and MPI_Recv; MPI_Bsend of 5 ints and MPI_Recv;
 *                  MPI_Rsend of 7 ints into a posted MPI_Irecv (MPI_Barrier first, MPI_Wait);
 *                  MPI_Ibsend, MPI_Issend, MPI_Irsend of 2 ints each into posted receives,
 *                  MPI_Waitall; MPI_Sendrecv_replace of 6 ints.
 *   probes():      MPI_Isend of 4 ints, MPI_Probe, MPI_Recv, MPI_Wait; the same with
 *                  MPI_Iprobe until it finds the message.
 *   collectives(): MPI_Gatherv of rank + 1 ints to rank 0; MPI_Gather of 2 ints, in place at
 *                  rank 0; MPI_Scatterv of rank + 1 ints from rank 0; MPI_Scatter of 2 ints,
 *                  in place at rank 0; MPI_Allgather of 3 ints; MPI_Alltoallv sending j + 1
 *                  ints to rank j; MPI_Reduce_scatter with counts rank + 1; MPI_Exscan of 2
 *                  longs; MPI_Allreduce of 5 doubles in place.
 *   comms():       MPI_Comm_split, MPI_Comm_create, MPI_Comm_split_type, MPI_Cart_create,
 *                  each communicator freed with MPI_Comm_free. */
#include <idb/probe.h>

#include <mpi.h>
#include <stdlib.h>

enum { kMaxRanks = 64 };

static int rank, size, left, right;

static void sends(void) {
  IDB_PROC_SCOPE(30);
  int out[8] = {0}, in[8], small[3][2], tiny[2] = {0};
  if (rank % 2 == 0) {
    MPI_Ssend(out, 3, MPI_INT, right, 1, MPI_COMM_WORLD);
    MPI_Recv(in, 3, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(in, 3, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Ssend(out, 3, MPI_INT, right, 1, MPI_COMM_WORLD);
  }
  MPI_Bsend(out, 5, MPI_INT, right, 2, MPI_COMM_WORLD);
  MPI_Recv(in, 5, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Request r[6];
  MPI_Irecv(in, 7, MPI_INT, left, 3, MPI_COMM_WORLD, &r[0]);
  MPI_Barrier(MPI_COMM_WORLD); /* every receive posted before the ready sends */
  MPI_Rsend(out, 7, MPI_INT, right, 3, MPI_COMM_WORLD);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  for (int k = 0; k < 3; ++k)
    MPI_Irecv(small[k], 2, MPI_INT, left, 4 + k, MPI_COMM_WORLD, &r[k]);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Ibsend(tiny, 2, MPI_INT, right, 4, MPI_COMM_WORLD, &r[3]);
  MPI_Issend(tiny, 2, MPI_INT, right, 5, MPI_COMM_WORLD, &r[4]);
  MPI_Irsend(tiny, 2, MPI_INT, right, 6, MPI_COMM_WORLD, &r[5]);
  MPI_Waitall(6, r, MPI_STATUSES_IGNORE);
  MPI_Sendrecv_replace(out, 6, MPI_INT, right, 7, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void probes(void) {
  IDB_PROC_SCOPE(31);
  int out[4] = {0}, in[4], flag = 0;
  MPI_Request r;
  MPI_Status s;
  MPI_Isend(out, 4, MPI_INT, right, 8, MPI_COMM_WORLD, &r);
  MPI_Probe(left, 8, MPI_COMM_WORLD, &s);
  MPI_Recv(in, 4, MPI_INT, left, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Isend(out, 4, MPI_INT, right, 9, MPI_COMM_WORLD, &r);
  while (!flag)
    MPI_Iprobe(left, 9, MPI_COMM_WORLD, &flag, &s);
  MPI_Recv(in, 4, MPI_INT, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static void collectives(void) {
  IDB_PROC_SCOPE(32);
  static int all[kMaxRanks * kMaxRanks], counts[kMaxRanks], displs[kMaxRanks], mine[kMaxRanks];
  static int ones[kMaxRanks], rdispls[kMaxRanks];
  for (int j = 0, at = 0; j < size; at += j + 1, ++j) {
    counts[j] = j + 1; /* rank j's block in the v-calls */
    displs[j] = at;
    ones[j] = rank + 1; /* Alltoallv: every rank sends this rank rank + 1 ints */
    rdispls[j] = j * (rank + 1);
  }
  MPI_Gatherv(mine, rank + 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gather(rank == 0 ? MPI_IN_PLACE : mine, 2, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatterv(all, counts, displs, MPI_INT, mine, rank + 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatter(all, 2, MPI_INT, rank == 0 ? MPI_IN_PLACE : mine, 2, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Allgather(mine, 3, MPI_INT, all, 3, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoallv(all, counts, displs, MPI_INT, mine, ones, rdispls, MPI_INT, MPI_COMM_WORLD);
  MPI_Reduce_scatter(all, mine, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  long two[2] = {rank, rank}, prefix[2];
  MPI_Exscan(two, prefix, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  double five[5] = {1, 2, 3, 4, 5};
  MPI_Allreduce(MPI_IN_PLACE, five, 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

static void comms(void) {
  IDB_PROC_SCOPE(33);
  MPI_Comm c;
  MPI_Group g;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &c);
  MPI_Comm_free(&c);
  MPI_Comm_group(MPI_COMM_WORLD, &g);
  MPI_Comm_create(MPI_COMM_WORLD, g, &c);
  MPI_Group_free(&g);
  MPI_Comm_free(&c);
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &c);
  MPI_Comm_free(&c);
  int dims[1] = {size}, periodic[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periodic, 0, &c);
  MPI_Comm_free(&c);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size % 2 || size > kMaxRanks) MPI_Abort(MPI_COMM_WORLD, 2);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  int buffer_bytes = 1 << 16;
  void *buffer = malloc((size_t)buffer_bytes);
  MPI_Buffer_attach(buffer, buffer_bytes);
  int iterations = argc > 1 ? atoi(argv[1]) : 3;
  for (int i = 0; i < iterations; ++i) {
    sends();
    probes();
    collectives();
    comms();
  }
  MPI_Buffer_detach(&buffer, &buffer_bytes);
  free(buffer);
  MPI_Finalize();
  return 0;
}

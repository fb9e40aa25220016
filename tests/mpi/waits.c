/* Wait states whose answer is known, for the wait-state tests. Usage (4 ranks): waits PREFIX
 * Seven scenarios, each inside PROC probe 11 to 17 so that its MPI calls get nodes of their
 * own, each after a barrier that lines the ranks up:
 *   11 late sender     rank 1 sleeps 200 ms, then sends to rank 0, which receives at once
 *   12 late receiver   rank 2 sends synchronously to rank 3, which sleeps 150 ms first
 *   13 wait at NxN     rank r sleeps 60 r ms, then MPI_Allreduce
 *   14 at barrier      rank r sleeps 50 (3 - r) ms, then MPI_Barrier
 *   15 late broadcast  the root, rank 2, sleeps 120 ms, then MPI_Bcast
 *   16 early reduce    every rank but the root, rank 0, sleeps 100 ms, then MPI_Reduce
 *   17 sub-communicator  the even and the odd ranks apart: rank r sleeps 80 (r / 2) ms,
 *                      then MPI_Allreduce on its half
 *   18 non-blocking    rank 0 posts MPI_Irecv from ranks 1 and 3 and waits in MPI_Waitall;
 *                      rank 1 sleeps 100 ms, then MPI_Isend and MPI_Wait; rank 3 sleeps
 *                      180 ms, then MPI_Send: rank 0's Waitall waits for the later one
 *   19 persistent and synchronous  rank 2 starts MPI_Issend to rank 3 and waits for it in
 *                      MPI_Wait, then MPI_Send; rank 3 sleeps 150 ms, then starts a
 *                      persistent receive (MPI_Recv_init, MPI_Start, MPI_Wait) twice: rank
 *                      2's Wait waits for rank 3's first start (late receiver)
 *   20 out of order    rank 0 posts two MPI_Irecv from rank 1 with one tag and waits for
 *                      the second first; rank 1 sends one message at once and the other
 *                      120 ms later: the first MPI_Wait waits for the later message (a
 *                      replay that paired receives by completion order would find none)
 * Each rank reads CLOCK_MONOTONIC just before each call (one clock for the whole host, which
 * MPI_Wtime is not: Open MPI counts it from each process's own start); the ranks then
 * exchange those times and write the waits they imply to PREFIX-RANK.txt, one "probe
 * pattern seconds" line each (pattern as idb/wait_states.h numbers them): what the replay
 * must find. */
#include <idb/probe.h>

#include <mpi.h>
#include <stdio.h>
#include <time.h>

enum { kLateSender, kLateReceiver, kNxN, kBarrier, kBroadcast, kReduce };

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double clamp_wait(double w) {
  return w > 0 ? w : 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) {
    if (rank == 0) fprintf(stderr, "waits: needs 4 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char path[4096];
  snprintf(path, sizeof path, "%s-%d.txt", argc > 1 ? argv[1] : "waits", rank);
  FILE *out = fopen(path, "w");
  if (!out) MPI_Abort(MPI_COMM_WORLD, 1);
  enum { kScenarios = 15 };
  double enter[kScenarios] = {0}, all[4][kScenarios];
  int value = rank, result = 0;

  MPI_Barrier(MPI_COMM_WORLD);
  {
    IDB_PROC_SCOPE(11);
    if (rank == 1) {
      sleep_ms(200);
      enter[0] = now();
      MPI_Send(&value, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    } else if (rank == 0) {
      enter[0] = now();
      MPI_Recv(&result, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  {
    IDB_PROC_SCOPE(12);
    if (rank == 2) {
      enter[1] = now();
      MPI_Ssend(&value, 1, MPI_INT, 3, 6, MPI_COMM_WORLD);
    } else if (rank == 3) {
      sleep_ms(150);
      enter[1] = now();
      MPI_Recv(&result, 1, MPI_INT, 2, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  {
    IDB_PROC_SCOPE(13);
    sleep_ms(60 * rank);
    enter[2] = now();
    MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  {
    IDB_PROC_SCOPE(14);
    sleep_ms(50 * (3 - rank));
    enter[3] = now();
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  {
    IDB_PROC_SCOPE(15);
    if (rank == 2) sleep_ms(120);
    enter[4] = now();
    MPI_Bcast(&value, 1, MPI_INT, 2, MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  {
    IDB_PROC_SCOPE(16);
    if (rank != 0) sleep_ms(100);
    enter[5] = now();
    MPI_Reduce(&value, &result, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  }
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Barrier(MPI_COMM_WORLD);
  {
    IDB_PROC_SCOPE(17);
    sleep_ms(80 * (rank / 2));
    enter[6] = now();
    MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_SUM, half);
  }
  MPI_Comm_free(&half);
  MPI_Barrier(MPI_COMM_WORLD);
  {
    IDB_PROC_SCOPE(18);
    int from1 = 0, from3 = 0;
    MPI_Request requests[2];
    if (rank == 0) {
      MPI_Irecv(&from1, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &requests[0]);
      MPI_Irecv(&from3, 1, MPI_INT, MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &requests[1]);
      enter[7] = now();
      MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    } else if (rank == 1) {
      sleep_ms(100);
      enter[7] = now();
      MPI_Isend(&value, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &requests[0]);
      MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
    } else if (rank == 3) {
      sleep_ms(180);
      enter[7] = now();
      MPI_Send(&value, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  {
    IDB_PROC_SCOPE(19);
    MPI_Request request;
    if (rank == 2) {
      MPI_Issend(&value, 1, MPI_INT, 3, 9, MPI_COMM_WORLD, &request);
      enter[8] = now();
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      enter[9] = now();
      MPI_Send(&value, 1, MPI_INT, 3, 9, MPI_COMM_WORLD);
    } else if (rank == 3) {
      MPI_Recv_init(&result, 1, MPI_INT, 2, 9, MPI_COMM_WORLD, &request);
      sleep_ms(150);
      enter[8] = now();
      MPI_Start(&request);
      enter[10] = now();
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      MPI_Start(&request);
      enter[11] = now();
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      MPI_Request_free(&request);
    }
  }

  MPI_Barrier(MPI_COMM_WORLD);
  {
    IDB_PROC_SCOPE(20);
    int first = 0, second = 0;
    MPI_Request requests[2];
    if (rank == 0) {
      MPI_Irecv(&first, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, &requests[0]);
      MPI_Irecv(&second, 1, MPI_INT, 1, 10, MPI_COMM_WORLD, &requests[1]);
      enter[12] = now();
      MPI_Wait(&requests[1], MPI_STATUS_IGNORE);
      enter[13] = now();
      MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      enter[12] = now();
      MPI_Send(&value, 1, MPI_INT, 0, 10, MPI_COMM_WORLD);
      sleep_ms(120);
      enter[13] = now();
      MPI_Send(&value, 1, MPI_INT, 0, 10, MPI_COMM_WORLD);
    }
  }

  MPI_Allgather(enter, kScenarios, MPI_DOUBLE, all, kScenarios, MPI_DOUBLE, MPI_COMM_WORLD);
  if (rank == 0) fprintf(out, "11 %d %.9f\n", kLateSender, clamp_wait(all[1][0] - all[0][0]));
  if (rank == 2) fprintf(out, "12 %d %.9f\n", kLateReceiver, clamp_wait(all[3][1] - all[2][1]));
  double last = 0, last_barrier = 0;
  for (int r = 0; r < 4; ++r) {
    last = all[r][2] > last ? all[r][2] : last;
    last_barrier = all[r][3] > last_barrier ? all[r][3] : last_barrier;
  }
  fprintf(out, "13 %d %.9f\n", kNxN, clamp_wait(last - enter[2]));
  fprintf(out, "14 %d %.9f\n", kBarrier, clamp_wait(last_barrier - enter[3]));
  if (rank != 2) fprintf(out, "15 %d %.9f\n", kBroadcast, clamp_wait(all[2][4] - enter[4]));
  if (rank == 0) {
    double first = all[1][5];
    for (int r = 2; r < 4; ++r)
      first = all[r][5] < first ? all[r][5] : first;
    fprintf(out, "16 %d %.9f\n", kReduce, clamp_wait(first - enter[5]));
  }
  int partner = rank ^ 2; /* the other member of this rank's half */
  double half_last = all[partner][6] > enter[6] ? all[partner][6] : enter[6];
  fprintf(out, "17 %d %.9f\n", kNxN, clamp_wait(half_last - enter[6]));
  if (rank == 0) {
    double later = all[1][7] > all[3][7] ? all[1][7] : all[3][7];
    fprintf(out, "18 %d %.9f\n", kLateSender, clamp_wait(later - enter[7]));
  }
  if (rank == 2) fprintf(out, "19 %d %.9f\n", kLateReceiver, clamp_wait(all[3][8] - enter[8]));
  if (rank == 0) /* the second receive holds the later message */
    fprintf(out, "20 %d %.9f\n", kLateSender,
            clamp_wait(all[1][13] - enter[12]) + clamp_wait(all[1][12] - enter[13]));
  if (rank == 3) /* both messages were on their way before each wait: nearly 0 */
    fprintf(out, "19 %d %.9f\n", kLateSender,
            clamp_wait(all[2][8] - enter[10]) + clamp_wait(all[2][9] - enter[11]));
  fclose(out);
  MPI_Finalize();
  return 0;
}

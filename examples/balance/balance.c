/* A bag of independent tasks shared out among MPI ranks in one of three ways chosen at
 * run time, to show what each does to load balance:
 *   equal   each rank takes a contiguous block of the same number of tasks;
 *   master  rank 0 hands out one task at a time to whichever worker asks (master/worker);
 *   skewed  the last rank takes three times the share of the others (a deliberate
 *           imbalance, the kind a bad partition produces).
 * A task is a numerical integration whose cost grows with its index, so blocks of equal
 * size are not equal work either. Usage: balance [equal|master|skewed [TASKS [SIZE]]].
 * Prints the sum of all task results, the same in every mode. */
#include <mpi.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kTagWork = 1, kTagResult = 2, kTagStop = 3 };

/* The integral of sin(x)^2 * exp(-x / (task + 1)) over [0, 10] by the midpoint rule with
 * size * (1 + task % 7) intervals: the work of one task. */
static double run_task(int task, int size) {
  int steps = size * (1 + task % 7);
  double h = 10.0 / steps, sum = 0.0, decay = 1.0 / (task + 1);
  for (int k = 0; k < steps; ++k) {
    double x = (k + 0.5) * h, s = sin(x);
    sum += s * s * exp(-x * decay);
  }
  return sum * h;
}

/* Tasks [first, last), each result into results[task]. */
static void run_block(int first, int last, int size, double *results) {
  for (int task = first; task < last; ++task)
    results[task] = run_task(task, size);
}

/* The block of rank `rank` when rank r has weight[r] shares of `tasks`. */
static void block_of(int rank, int nprocs, int tasks, const int *weight, int *first, int *last) {
  int total = 0, before = 0;
  for (int r = 0; r < nprocs; ++r) {
    total += weight[r];
    if (r < rank) before += weight[r];
  }
  *first = (int)((long)tasks * before / total);
  *last = (int)((long)tasks * (before + weight[rank]) / total);
}

static void distribute_static(int skewed, int tasks, int size, double *results) {
  int rank, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int *weight = malloc(sizeof(int) * (size_t)nprocs);
  for (int r = 0; r < nprocs; ++r)
    weight[r] = (skewed && r == nprocs - 1) ? 3 : 1;
  int first, last;
  block_of(rank, nprocs, tasks, weight, &first, &last);
  run_block(first, last, size, results);
  free(weight);
}

/* Rank 0: answers each worker's request with the next task, or with a stop once none
 * is left; collects every result. */
static void master(int tasks, int nprocs, double *results) {
  int next = 0, running = nprocs - 1;
  while (running > 0) {
    double message[2]; /* task index (or -1 for "ready"), result */
    MPI_Status status;
    MPI_Recv(message, 2, MPI_DOUBLE, MPI_ANY_SOURCE, kTagResult, MPI_COMM_WORLD, &status);
    if (message[0] >= 0) results[(int)message[0]] = message[1];
    if (next < tasks) {
      MPI_Send(&next, 1, MPI_INT, status.MPI_SOURCE, kTagWork, MPI_COMM_WORLD);
      ++next;
    } else {
      MPI_Send(&next, 1, MPI_INT, status.MPI_SOURCE, kTagStop, MPI_COMM_WORLD);
      --running;
    }
  }
}

static void worker(int size) {
  double message[2] = {-1.0, 0.0};
  for (;;) {
    MPI_Send(message, 2, MPI_DOUBLE, 0, kTagResult, MPI_COMM_WORLD);
    int task;
    MPI_Status status;
    MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == kTagStop) return;
    message[0] = task;
    message[1] = run_task(task, size);
  }
}

static void distribute_master(int tasks, int size, double *results) {
  int rank, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs == 1)
    run_block(0, tasks, size, results); /* no workers: the master does it all */
  else if (rank == 0)
    master(tasks, nprocs, results);
  else
    worker(size);
}

/* The sum of every task's result in task order, on rank 0 (where the master mode keeps
 * them; the static modes send theirs there). */
static double total(const double *results, int tasks) {
  double *all = calloc((size_t)tasks, sizeof(double));
  MPI_Reduce(results, all, tasks, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  double sum = 0.0;
  for (int task = 0; task < tasks; ++task)
    sum += all[task];
  free(all);
  return sum;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char *mode = argc > 1 ? argv[1] : "equal";
  int tasks = argc > 2 ? atoi(argv[2]) : 2000, size = argc > 3 ? atoi(argv[3]) : 4000;
  int known = !strcmp(mode, "equal") || !strcmp(mode, "master") || !strcmp(mode, "skewed");
  if (!known || tasks < 1 || size < 1) {
    if (rank == 0) fprintf(stderr, "usage: balance [equal|master|skewed [TASKS [SIZE]]]\n");
    MPI_Finalize();
    return 2;
  }
  double *results = calloc((size_t)tasks, sizeof(double));
  if (!strcmp(mode, "master"))
    distribute_master(tasks, size, results);
  else
    distribute_static(!strcmp(mode, "skewed"), tasks, size, results);
  double sum = total(results, tasks);
  if (rank == 0) printf("balance: %s, %d tasks of size %d, sum %.12e\n", mode, tasks, size, sum);
  free(results);
  MPI_Finalize();
  return 0;
}

/* Heat diffusion on a ring of cells shared out among MPI ranks, stepped in time, with the
 * three things a whole-run profile cannot show and IDB's dynamics can:
 *   a step     from step --refine-at on, each time step takes twice the sweeps (the
 *              solver refines its time step);
 *   spikes     every --checkpoint-every steps the field is gathered on rank 0 and
 *              checksummed (a checkpoint);
 *   a drift    on rank --drift-rank a hot spot grows: its cells take extra inner sweeps,
 *              a 400th of the cells more every step.
 * Each step exchanges halo cells with the neighbours (MPI_Sendrecv) and reduces the
 * largest change over every rank (MPI_Allreduce), so the other ranks wait for the
 * drifting one there.
 * Usage: heat [--cells N] [--steps N] [--refine-at N] [--checkpoint-every N]
 *             [--drift-rank R]
 * Prints the field's sum and the last step's largest change, the same for any build. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct options {
  int cells, steps, refine_at, checkpoint_every, drift_rank;
};

static void usage(void) {
  fprintf(stderr, "usage: heat [--cells N] [--steps N] [--refine-at N] [--checkpoint-every N] "
                  "[--drift-rank R]\n");
  exit(2);
}

static struct options parse(int argc, char **argv) {
  struct options o = {200000, 600, 300, 50, 2};
  for (int i = 1; i < argc; ++i) {
    int *field = NULL;
    if (!strcmp(argv[i], "--cells"))
      field = &o.cells;
    else if (!strcmp(argv[i], "--steps"))
      field = &o.steps;
    else if (!strcmp(argv[i], "--refine-at"))
      field = &o.refine_at;
    else if (!strcmp(argv[i], "--checkpoint-every"))
      field = &o.checkpoint_every;
    else if (!strcmp(argv[i], "--drift-rank"))
      field = &o.drift_rank;
    if (!field || i + 1 >= argc) usage();
    char *end = NULL;
    long value = strtol(argv[++i], &end, 10);
    if (*end || value < 0 || value > 100000000) usage();
    *field = (int)value;
  }
  if (o.cells < 2 || o.checkpoint_every < 1) usage();
  return o;
}

/* Sends the edge cells to the neighbours on the ring and takes theirs into the halo cells
 * u[0] and u[n + 1]. */
static void exchange_halos(double *u, int n, int left, int right) {
  MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(&u[n], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
}

/* One explicit diffusion sweep over cells 1..n, `hot` of them (from the first) swept
 * `extra` more times; returns the largest change. */
static double sweep(double *u, double *next, int n, int hot, int extra) {
  double largest = 0.0;
  for (int round = 0; round <= extra; ++round) {
    int last = round == 0 ? n : hot;
    for (int i = 1; i <= last; ++i) {
      next[i] = u[i] + 0.25 * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
      double change = next[i] > u[i] ? next[i] - u[i] : u[i] - next[i];
      if (change > largest) largest = change;
    }
    for (int i = 1; i <= last; ++i)
      u[i] = next[i];
  }
  return largest;
}

/* Gathers every rank's cells on rank 0, which checksums them; returns the checksum there
 * (0 on the other ranks). */
static double checkpoint(const double *u, int n, int rank, int nprocs) {
  double *all = rank == 0 ? malloc(sizeof(double) * (size_t)n * (size_t)nprocs) : NULL;
  MPI_Gather(&u[1], n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double sum = 0.0;
  if (rank == 0) {
    for (int pass = 0; pass < 10; ++pass) /* a checksum that costs what a write would */
      for (long i = 0; i < (long)n * nprocs; ++i)
        sum += all[i] * (double)((i + pass) % 7 + 1);
    free(all);
  }
  return sum;
}

/* The time steps; returns the last step's largest change over every rank. */
static double simulate(double *u, double *next, const struct options *o, int rank, int nprocs,
                       double *checksum) {
  int left = (rank + nprocs - 1) % nprocs, right = (rank + 1) % nprocs;
  double change = 0.0;
  for (int step = 0; step < o->steps; ++step) {
    exchange_halos(u, o->cells, left, right);
    int sweeps = step < o->refine_at ? 1 : 2;
    long grown = (long)step * o->cells / 400;
    int hot = rank == o->drift_rank ? (grown < o->cells ? (int)grown : o->cells) : 0;
    double local = 0.0;
    for (int s = 0; s < sweeps; ++s) {
      double c = sweep(u, next, o->cells, hot, 2);
      if (c > local) local = c;
    }
    MPI_Allreduce(&local, &change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (step % o->checkpoint_every == o->checkpoint_every - 1)
      *checksum += checkpoint(u, o->cells, rank, nprocs);
  }
  return change;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  struct options o = parse(argc, argv);
  double *u = calloc((size_t)o.cells + 2, sizeof(double));
  double *next = calloc((size_t)o.cells + 2, sizeof(double));
  for (int i = 1; i <= o.cells; ++i) /* a warm band in each rank's middle */
    u[i] = (i > o.cells / 3 && i < 2 * o.cells / 3) ? 100.0 : 0.0;
  double checksum = 0.0;
  double change = simulate(u, next, &o, rank, nprocs, &checksum);
  double local = 0.0, total = 0.0;
  for (int i = 1; i <= o.cells; ++i)
    local += u[i];
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("heat: %d ranks, %d steps: field sum %.6f, last change %.6e, checksums %.6e\n", nprocs,
           o.steps, total, change, checksum);
  free(u);
  free(next);
  MPI_Finalize();
  return 0;
}

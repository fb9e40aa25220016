/* Jacobi relaxation of the 2-D heat equation on a square plate, split into row bands
 * that worker threads sweep in parallel, with probes placed by hand: the demo of the
 * probe runtime. Usage: jacobi [N [ITERATIONS [THREADS]]]. Prints the residual history
 * and the final mean temperature, identical with probes on or off. */
#include <idb/probe.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { P_MAIN = 1, P_INIT, P_ITERATE, P_SWEEP, P_BAND, P_RESIDUAL, P_SWAP };

typedef struct {
  int n;
  double *u, *next;
} plate_t;

typedef struct {
  plate_t *plate;
  int first, last; /* interior rows [first, last) */
} band_t;

static void init_plate(plate_t *p) {
  IDB_PROC_SCOPE(P_INIT);
  for (int i = 0; i < p->n; ++i)
    for (int j = 0; j < p->n; ++j) {
      double edge = (i == 0) ? 100.0 : 0.0; /* the top edge is held hot */
      p->u[i * p->n + j] = p->next[i * p->n + j] = edge;
    }
}

static void *sweep_band(void *arg) {
  band_t *b = arg;
  IDB_SCOPE(IDB_PROC, P_BAND, "sweep_band");
  int n = b->plate->n;
  const double *u = b->plate->u;
  double *next = b->plate->next;
  for (int i = b->first; i < b->last; ++i)
    for (int j = 1; j < n - 1; ++j)
      next[i * n + j] =
          0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] + u[i * n + j + 1]);
  return NULL;
}

static void sweep(plate_t *p, int threads) {
  IDB_PROC_SCOPE(P_SWEEP);
  pthread_t tid[16];
  band_t band[16];
  int rows = p->n - 2;
  for (int t = 0; t < threads; ++t) {
    band[t].plate = p;
    band[t].first = 1 + rows * t / threads;
    band[t].last = 1 + rows * (t + 1) / threads;
    if (t > 0) pthread_create(&tid[t], NULL, sweep_band, &band[t]);
  }
  sweep_band(&band[0]);
  for (int t = 1; t < threads; ++t)
    pthread_join(tid[t], NULL);
}

static double residual(const plate_t *p) {
  IDB_PROC_SCOPE(P_RESIDUAL);
  double sum = 0.0;
  for (int k = 0; k < p->n * p->n; ++k) {
    double d = p->next[k] - p->u[k];
    sum += d * d;
  }
  return sqrt(sum);
}

static void swap(plate_t *p) {
  IDB_PROC_SCOPE(P_SWAP);
  double *t = p->u;
  p->u = p->next;
  p->next = t;
}

int main(int argc, char **argv) {
  IDB_PROC_SCOPE(P_MAIN);
  int n = argc > 1 ? atoi(argv[1]) : 400;
  int iterations = argc > 2 ? atoi(argv[2]) : 200;
  int threads = argc > 3 ? atoi(argv[3]) : 2;
  if (n < 3 || iterations < 1 || threads < 1 || threads > 16) {
    fprintf(stderr, "usage: jacobi [N>=3 [ITERATIONS>=1 [THREADS 1..16]]]\n");
    return 2;
  }
  plate_t p = {n, malloc(sizeof(double) * n * n), malloc(sizeof(double) * n * n)};
  if (!p.u || !p.next) {
    fprintf(stderr, "jacobi: out of memory\n");
    return 1;
  }
  init_plate(&p);
  {
    IDB_LOOP_SCOPE(P_ITERATE, "iterations");
    for (int it = 1; it <= iterations; ++it) {
      sweep(&p, threads);
      double r = residual(&p);
      swap(&p);
      if (it % (iterations / 4 > 0 ? iterations / 4 : 1) == 0)
        printf("iteration %5d  residual %.6e\n", it, r);
    }
  }
  double total = 0.0;
  for (int k = 0; k < n * n; ++k)
    total += p.u[k];
  printf("mean temperature %.6f\n", total / ((double)n * n));
  free(p.u);
  free(p.next);
  return 0;
}

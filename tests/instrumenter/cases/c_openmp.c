/* OpenMP parallel loops: a `parallel for` whose clauses can be dealt to its team and its
 * loop is split in two, so its probe opens on every thread; one with default(none) is
 * wrapped whole, on the encountering thread alone. */
#include <stdio.h>

static long work(int i) {
  long s = 0;
  for (int k = 0; k < 200; ++k)
    s += (i * 7 + k) % 13;
  return s;
}

static long dealt(int n) {
  long total = 0;
  int last = -1;
  int i;
  /* the team's clauses and the loop's, over two lines */
#pragma omp parallel for reduction(+ : total) schedule(static) num_threads(3) \
    firstprivate(last) lastprivate(last)
  for (i = 0; i < n; i++) {
    last = i;
    total += work(i);
  }
  return total + last;
}

static long kept_whole(int n) {
  long total = 0;
#pragma omp parallel for default(none) shared(n) reduction(+ : total) num_threads(3) \
    schedule(static)
  for (int i = 0; i < n; i++)
    total += work(i);
  return total;
}

/* `ordered` without a parenthesis, before another clause. */
static long in_order(int n) {
  long total = 0;
  int i;
#pragma omp parallel for ordered schedule(static) num_threads(3)
  for (i = 0; i < n; i++) {
    long w = work(i);
#pragma omp ordered
    total = total * 3 % 1000003 + w;
  }
  return total;
}

/* Code shares the directive's conditional: the loop's probe goes around the construct,
 * its block opening on the line before the directive. */
static long guarded(int n) {
  long total = 0;
  int i;
#ifdef _OPENMP
  total = 1;
#pragma omp parallel for reduction(+ : total) num_threads(3)
#endif
  for (i = 0; i < n; i++)
    total += work(i);
  return total;
}

/* A guard that holds the directive alone: split all the same. */
static long guard_only(int n) {
  long total = 0;
  int i;
#ifdef _OPENMP
#pragma omp parallel for reduction(+ : total) schedule(static) num_threads(3)
#endif
  for (i = 0; i < n; i++)
    total += work(i);
  return total;
}

static long region(int n) {
  long total = 0;
#pragma omp parallel num_threads(3)
  {
#pragma omp for reduction(+ : total) schedule(static)
    for (int i = 0; i < n; i++)
      total += work(i);
  }
  return total;
}

int main(void) {
  printf("dealt %ld\n", dealt(300));
  printf("kept whole %ld\n", kept_whole(300));
  printf("region %ld\n", region(300));
  printf("in order %ld\n", in_order(300));
  printf("guarded %ld\n", guarded(300));
  printf("guard only %ld\n", guard_only(300));
  return 0;
}

/* PROC probes close on every way out: early return, `return f(x);`, falling off the end,
 * goto to the exit, switch fall-through, recursion, exit() from deep inside. */
/* The layout is part of what this case tests: */
/* clang-format off */
#include <stdio.h>
#include <stdlib.h>

static int square(int x) {
  int y = x;
  y *= x;
  return y;
}

static int classify(int x) {
  int r = 0;
  if (x < 0) return -1;
  if (x == 0) return square(x);
  switch (x % 3) {
  case 0:
    r += 1;
    /* fall through */
  case 1:
    r += 10;
    break;
  default:
    return square(r + x);
  }
  return r;
}

static void report(const char *what, int value) {
  if (value > 100) {
    printf("%s: big\n", what);
    return;
  }
  printf("%s: %d\n", what, value);
}

static int find_first_even(const int *a, int n) {
  int i;
  int found = -1;
  for (i = 0; i < n; i++)
    if (a[i] % 2 == 0) goto done;
  return found;
done:
  found = i;
  return found;
}

static long fact(int n) {
  long r = 1;
  if (n <= 1) return r;
  r = n * fact(n - 1);
  return r;
}

static void maybe_exit(int code) {
  int twice = code * 2;
  if (code > 0) {
    printf("exiting with %d\n", twice);
    fflush(stdout);
    exit(code);
  }
  printf("not exiting\n");
}

int main(void) {
  int a[5] = {1, 3, 6, 7, 8};
  int i;
  for (i = -1; i < 6; i++) report("classify", classify(i));
  report("first even", find_first_even(a, 5));
  report("none even", find_first_even(a, 2));
  report("fact", (int)fact(10));
  maybe_exit(0);
  maybe_exit(3);
  return 0;
}

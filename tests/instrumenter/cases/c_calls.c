/* CALL probes keep every statement's meaning: calls in conditions and initialisers, in
 * unbraced if/else and loop bodies, `return f(x);`, variadic functions, calls through
 * pointers, calls inside macros, setjmp/longjmp across an instrumented call. */
/* The layout is part of what this case tests: */
/* clang-format off */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>

#define LOG_VALUE(v) printf("value %d\n", (v))

static jmp_buf escape;
static int calls;

static int next(int x) {
  calls++;
  return x + 1;
}

static int sum_all(int n, ...) {
  va_list ap;
  int total = 0;
  va_start(ap, n);
  while (n-- > 0) total += va_arg(ap, int);
  va_end(ap);
  return total;
}

static void jump_out(int code) {
  if (code) longjmp(escape, code);
  calls--;
}

static int twice(int x) { return next(next(x) - 1); }

int main(void) {
  int (*fp)(int) = next;
  int a = next(1);
  int b;
  if (next(a) > 2) b = next(a);
  else b = 0;
  for (b = 0; b < 3; b++) a = next(a);
  while (next(0) < 0) calls = -100;
  LOG_VALUE(next(a));
  a = fp(a);
  printf("%d %d %d\n", a, b, sum_all(3, 1, 2, 3));
  if (setjmp(escape) == 0) {
    jump_out(0);
    jump_out(7);
    printf("not reached\n");
  } else {
    printf("escaped\n");
  }
  printf("%d %d\n", twice(5), calls);
  return 0;
}

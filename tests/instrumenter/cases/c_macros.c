/* Nothing is inserted inside macro expansions, nor into functions a macro defines, nor
 * into code from system headers; a function never called still reaches the profile's
 * probe table through the registration constructor. */
/* The layout is part of what this case tests: */
/* clang-format off */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define DEFINE_GETTER(name, value)                                                         \
  static int name(void) {                                                                  \
    int v = value;                                                                         \
    v += 0;                                                                                \
    return v;                                                                              \
  }
#define REPEAT(n, body)                                                                    \
  do {                                                                                     \
    int k_;                                                                                \
    for (k_ = 0; k_ < (n); k_++) body;                                                     \
  } while (0)

#define TWICE(x) ((x) * 2)

DEFINE_GETTER(forty_two, 42)

/* A loop whose unbraced body ends in a whole macro invocation is the file's text: its
 * probe closes after the ';'. */
static int doubled_sum(const int *a, int n) {
  int s = 0;
  int i;
  for (i = 0; i < n; i++)
    s += TWICE(a[i]);
  printf("doubled %d\n", s);
  return s;
}

static int count_upper(const char *s) {
  int n = 0;
  size_t i;
  for (i = 0; i < strlen(s); i++)
    if (isupper((unsigned char)s[i])) n++;
  return n;
}

static void never_called(void) {
  int x = 1;
  x++;
  printf("%d\n", x);
}

int main(int argc, char **argv) {
  int total = 0;
  int values[3] = {1, 2, 3};
  REPEAT(3, total += forty_two());
  printf("%d %d %d\n", total, count_upper("Hello World"), doubled_sum(values, 3));
  if (argc > 5) never_called();
  (void)argv;
  return 0;
}

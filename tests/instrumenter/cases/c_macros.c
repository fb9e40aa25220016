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

DEFINE_GETTER(forty_two, 42)

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
  REPEAT(3, total += forty_two());
  printf("%d %d\n", total, count_upper("Hello World"));
  if (argc > 5) never_called();
  (void)argv;
  return 0;
}

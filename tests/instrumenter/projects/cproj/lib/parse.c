/* Parses whitespace-separated numbers. */
#include "stats.h"

#include <stdlib.h>

int parse_numbers(const char *text, double *out, int max) {
  int n = 0;
  char *end;
  while (n < max) {
    double x = strtod(text, &end);
    if (end == text) break;
    out[n++] = x;
    text = end;
  }
  return n;
}

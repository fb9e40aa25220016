/* Declarations spelled through macros that Clang (which idb-instrument parses with) and
 * GCC define differently. Under Clang `inline` below means `static inline`; under GCC it
 * stays C99 `inline`, an inline definition with external linkage that may not call the
 * probe header's static functions and has no definition to call once it is too large to
 * inline (always_inline keeps the pristine build linking at -O1). Such functions get no
 * probe; macros both compilers define alike change nothing. */
#include <stdio.h>

#ifdef __clang__
#define inline static inline
#endif

#if defined(__GNUC__) && !defined(__clang__)
#define SCALE_API static
#else
#define SCALE_API static inline
#endif

#ifdef __GNUC__ /* both compilers define it */
#define HOT __attribute__((hot))
#else
#define HOT
#endif

inline __attribute__((always_inline)) int weighted_sum(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * (i % 3) + (a[i] >> 1) - (i & 1);
  return s;
}

SCALE_API int scaled(const int *a, int n, int k) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += k * a[i] - i;
  return s;
}

HOT static int checksum(const int *a, int n) {
  unsigned h = 2166136261u;
  for (int i = 0; i < n; i++)
    h = (h ^ (unsigned)a[i]) * 16777619u;
  return (int)(h >> 1);
}

int main(void) {
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = i * 7 % 13;
  printf("%d %d %d\n", weighted_sum(a, 100), scaled(a, 100, 3), checksum(a, 100));
  return 0;
}

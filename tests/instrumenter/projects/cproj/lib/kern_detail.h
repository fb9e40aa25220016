/* Found beside kern.h, which includes it by a quoted name. */
static inline double square(double x) {
  return x * x;
}

/* Running statistics over parsed numbers. */
#ifndef STATS_H
#define STATS_H
struct stats {
  int n;
  double sum, sumsq;
};
void stats_add(struct stats *s, double x);
double stats_stddev(const struct stats *s);
int parse_numbers(const char *text, double *out, int max);
#endif

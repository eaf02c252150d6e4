/* stats.h - the statistics of a set of scores (one module, tested against reference values). */
#ifndef THREADSOUP_STATS_H
#define THREADSOUP_STATS_H

#include <stddef.h>

typedef struct stats_summary {
  size_t n;
  double mean;
  double sd; /* sample standard deviation (n - 1); 0 when n < 2 */
  double min;
  double max;
} stats_summary;

void stats_summarize(const double *values, size_t n, stats_summary *out);
/* Percent difference of `value` against `reference`: +5 means 5 % higher. */
double stats_percent_change(double value, double reference);

#endif

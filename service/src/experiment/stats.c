/* stats.c - summary statistics of scores; Welford's update keeps the variance exact for scores of
   any size. */
#include "stats.h"

#include <math.h>

void stats_summarize(const double *values, size_t n, stats_summary *out) {
  out->n = n;
  out->mean = out->sd = out->min = out->max = 0;
  if (n == 0)
    return;
  double mean = 0, m2 = 0;
  out->min = out->max = values[0];
  for (size_t i = 0; i < n; i++) {
    double delta = values[i] - mean;
    mean += delta / (double)(i + 1);
    m2 += delta * (values[i] - mean);
    if (values[i] < out->min)
      out->min = values[i];
    if (values[i] > out->max)
      out->max = values[i];
  }
  out->mean = mean;
  out->sd = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0;
}

double stats_percent_change(double value, double reference) {
  if (reference == 0)
    return NAN;
  return (value - reference) / reference * 100.0;
}

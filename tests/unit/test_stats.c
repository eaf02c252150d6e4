/* test_stats.c - summary statistics against values computed by hand (and by R). */
#include <math.h>

#include "check.h"
#include "experiment/stats.h"

static int close_to(double a, double b, double tolerance) { return fabs(a - b) <= tolerance; }

static void summary_of_known_values(void) {
  /* R: x <- c(2,4,4,4,5,5,7,9); mean(x) = 5; sd(x) = 2.13809 */
  double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
  stats_summary s;
  stats_summarize(x, 8, &s);
  CHECK_INT(s.n, 8);
  CHECK(close_to(s.mean, 5.0, 1e-12));
  CHECK(close_to(s.sd, 2.138089935, 1e-9));
  CHECK(close_to(s.min, 2, 0) && close_to(s.max, 9, 0));
}

static void large_scores_keep_their_variance(void) {
  /* A naive sum of squares loses these digits; Welford's update does not. */
  double x[] = {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
  stats_summary s;
  stats_summarize(x, 4, &s);
  CHECK(close_to(s.mean, 1e9 + 10, 1e-6));
  CHECK(close_to(s.sd, sqrt(30.0), 1e-6));
}

static void edge_cases(void) {
  stats_summary s;
  stats_summarize(NULL, 0, &s);
  CHECK_INT(s.n, 0);
  double one = 3.5;
  stats_summarize(&one, 1, &s);
  CHECK(close_to(s.mean, 3.5, 0) && s.sd == 0);
  CHECK(close_to(stats_percent_change(95, 100), -5.0, 1e-12));
  CHECK(close_to(stats_percent_change(110, 100), 10.0, 1e-12));
  CHECK(isnan(stats_percent_change(1, 0)));
}

int main(void) {
  RUN_CASE(summary_of_known_values);
  RUN_CASE(large_scores_keep_their_variance);
  RUN_CASE(edge_cases);
  return check_summary();
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* calibration_fit.h - the positive control: whether burns of known CPU cost (2, 5, 10 %) cost
   what they should, judged by the slope of measured on expected cost through the origin with its
   interval (pure C11 + libm, no state; reference values from tests/reference/gls_reference.py,
   error rates from seeded simulations in test_stats_calibration).

   ---------------------------------------------------------------------------------------------
   COSTS on the log scale: a burn of e % of the CPU should cut a rate to (1 - e/100) of the
   baseline, so its expected cost is x = -log(1 - e/100), and its measured cost is
   y = -mean log(condition / baseline) over the blocks (+mean log for times, which grow by
   1 / (1 - e/100)). The burns share the baseline, so y has the covariance of gls.h; the slope
   is the GLS fit y = s x (one parameter), with its t (or z) interval.

   THE VERDICT:
     passed                 the slope's interval covers 1, or the largest burn's own interval
                            covers its expected cost, and the slope's interval lies above 0 (the
                            burns were seen at all);
     costs less / more      not passed and the slope's interval lies wholly below / above 1;
     inconclusive           otherwise: too noisy to tell (the interval covers 0 and 1).
   The rule it replaces passed whenever the largest burn came out slower, which a burn that costs
   half what it should does nearly always.
   --------------------------------------------------------------------------------------------- */
#ifndef THREADSOUP_STATS_CALIBRATION_FIT_H
#define THREADSOUP_STATS_CALIBRATION_FIT_H

#include <stddef.h>

typedef enum calib_verdict {
  CALIB_INCONCLUSIVE = 0,
  CALIB_PASSED,
  CALIB_COSTS_LESS,
  CALIB_COSTS_MORE
} calib_verdict;

typedef struct calib_result {
  int status;                       /* 0 or a negative gls_status (see gls.h) */
  int n;                            /* burns */
  double df;                        /* INFINITY: known covariance, z */
  double slope, slope_se;           /* s */
  double slope_low, slope_high;     /* its interval at the given confidence */
  int largest;                      /* the index of the largest expected cost */
  double largest_expected;          /* its x */
  double largest_measured;          /* its y */
  double largest_low, largest_high; /* y's interval */
  calib_verdict verdict;
} calib_result;

/* From costs on the log scale: expected x[0..n-1] (> 0), measured y, their covariance v (n x n,
   row-major) with df as in gls_run. confidence 0 means 0.95. Returns 0 or a negative gls_status
   (verdict inconclusive, numbers NaN). */
int calib_fit_run(const double *expected, const double *measured, int n, const double *v, double df,
                  double confidence, calib_result *out);

/* From a blocked run: burn i of burn_percent[i] % (0 < e < 100) has scores conditions[i][b],
   the baseline baseline[b] (NaN: missing); the covariance comes from the complete blocks
   (gls_effects_from_blocks). lower_is_faster: the scores are times. */
int calib_fit_from_blocks(const double *burn_percent, const double *baseline,
                          const double *const *conditions, int k, size_t blocks,
                          int lower_is_faster, double confidence, calib_result *out);

/* "passed", "costs less than expected", "costs more than expected", "inconclusive". */
const char *calib_verdict_name(calib_verdict v);

#endif

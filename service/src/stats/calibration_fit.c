/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* calibration_fit.c - the slope of measured on expected burn cost and the calibration verdict
   (the method: calibration_fit.h). */
#include "calibration_fit.h"

#include <math.h>

#include "dist.h"
#include "gls.h"

static void result_clear(calib_result *out, int n) {
  out->status = GLS_OK;
  out->n = n;
  out->df = out->slope = out->slope_se = out->slope_low = out->slope_high = NAN;
  out->largest = -1;
  out->largest_expected = out->largest_measured = out->largest_low = out->largest_high = NAN;
  out->verdict = CALIB_INCONCLUSIVE;
}

int calib_fit_run(const double *expected, const double *measured, int n, const double *v, double df,
                  double confidence, calib_result *out) {
  if (!out)
    return GLS_EINVAL;
  result_clear(out, n);
  confidence = confidence == 0 ? 0.95 : confidence;
  if (!expected || n < 1 || n > GLS_MAX_POINTS)
    return out->status = GLS_EINVAL;
  for (int i = 0; i < n; i++)
    if (!(expected[i] > 0 && isfinite(expected[i])))
      return out->status = GLS_EVALUE;
  gls_fit f;
  int rc = gls_run(measured, expected, n, 1, v, df, confidence, &f);
  if (rc)
    return out->status = rc;
  out->df = df;
  out->slope = f.coef[0];
  out->slope_se = f.se[0];
  out->slope_low = f.ci_low[0];
  out->slope_high = f.ci_high[0];
  int big = 0;
  for (int i = 1; i < n; i++)
    if (expected[i] > expected[big])
      big = i;
  double half = dist_t_quantile(1 - (1 - confidence) / 2, df) * sqrt(v[big * n + big]);
  out->largest = big;
  out->largest_expected = expected[big];
  out->largest_measured = measured[big];
  out->largest_low = measured[big] - half;
  out->largest_high = measured[big] + half;

  int slope_covers = out->slope_low <= 1 && out->slope_high >= 1;
  int largest_covers = out->largest_low <= expected[big] && out->largest_high >= expected[big];
  if ((slope_covers || largest_covers) && out->slope_low > 0)
    out->verdict = CALIB_PASSED;
  else if (out->slope_high < 1)
    out->verdict = CALIB_COSTS_LESS;
  else if (out->slope_low > 1)
    out->verdict = CALIB_COSTS_MORE;
  return out->status = GLS_OK;
}

int calib_fit_from_blocks(const double *burn_percent, const double *baseline,
                          const double *const *conditions, int k, size_t blocks,
                          int lower_is_faster, double confidence, calib_result *out) {
  if (!out)
    return GLS_EINVAL;
  result_clear(out, k);
  if (!burn_percent || k < 1 || k > GLS_MAX_POINTS)
    return out->status = GLS_EINVAL;
  double x[GLS_MAX_POINTS], y[GLS_MAX_POINTS], v[GLS_MAX_POINTS * GLS_MAX_POINTS], df;
  for (int i = 0; i < k; i++) {
    if (!(burn_percent[i] > 0 && burn_percent[i] < 100))
      return out->status = GLS_EVALUE;
    x[i] = -log1p(-burn_percent[i] / 100);
  }
  int rc = gls_effects_from_blocks(baseline, conditions, k, blocks, y, v, &df, NULL);
  if (rc)
    return out->status = rc;
  if (!lower_is_faster)
    for (int i = 0; i < k; i++)
      y[i] = -y[i];
  return calib_fit_run(x, y, k, v, df, confidence, out);
}

/* The names, in the order of calib_verdict. */
static const char *const verdict_names[] = {"inconclusive", "passed", "costs less than expected",
                                            "costs more than expected"};

const char *calib_verdict_name(calib_verdict v) {
  return (unsigned)v < sizeof verdict_names / sizeof verdict_names[0] ? verdict_names[v]
                                                                      : "inconclusive";
}

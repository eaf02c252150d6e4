/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* drift.c - the trend of a blocked run's scores or effects, flagged against the margin (the
   method: drift.h). */
#include "drift.h"

#include <math.h>

#include "stats.h"
#include "dist.h"

static int value_bad(double x) { return !isnan(x) && !(x > 0 && isfinite(x)); }

/* The trend of log(values[b] / divisor[b]) over the blocks where both exist; of log(values[b])
   when of_ratio is 0 (divisor unused). */
static int trend(const double *values, int of_ratio, const double *divisor, size_t blocks,
                 double confidence, double margin, drift_trend *out) {
  if (!out)
    return DRIFT_EINVAL;
  out->n = 0;
  out->slope = out->se = out->df = NAN;
  out->change_percent = out->change_low = out->change_high = NAN;
  out->flagged = 0;
  confidence = confidence == 0 ? 0.95 : confidence;
  margin = margin == 0 ? STATS_DEFAULT_MARGIN_PERCENT : margin;
  out->confidence = confidence;
  out->margin_percent = margin;
  if ((blocks > 0 && (!values || (of_ratio && !divisor))) ||
      !(confidence > 0.5 && confidence < 1) || !(margin > 0 && isfinite(margin)))
    return out->status = DRIFT_EINVAL;
  for (size_t b = 0; b < blocks; b++)
    if (value_bad(values[b]) || (divisor && value_bad(divisor[b])))
      return out->status = DRIFT_EVALUE;

  /* Two passes: the means, then the centred sums (stable for long runs). */
  double sx = 0, sy = 0, first = NAN, last = NAN;
  size_t n = 0;
  for (size_t b = 0; b < blocks; b++) {
    if (isnan(values[b]) || (divisor && isnan(divisor[b])))
      continue;
    double y = divisor ? log(values[b] / divisor[b]) : log(values[b]);
    if (n == 0)
      first = (double)b;
    last = (double)b;
    sx += (double)b;
    sy += y;
    n++;
  }
  out->n = n;
  if (n < DRIFT_MIN_BLOCKS)
    return out->status = DRIFT_ETOOFEW;
  double mx = sx / (double)n, my = sy / (double)n, sxx = 0, sxy = 0, syy = 0;
  for (size_t b = 0; b < blocks; b++) {
    if (isnan(values[b]) || (divisor && isnan(divisor[b])))
      continue;
    double dx = (double)b - mx;
    double dy = (divisor ? log(values[b] / divisor[b]) : log(values[b])) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  double slope = sxy / sxx, df = (double)n - 2;
  double rss = syy - slope * sxy;
  double se = sqrt((rss > 0 ? rss : 0) / df / sxx);
  double span = last - first, half = dist_t_quantile(1 - (1 - confidence) / 2, df) * se * span;
  double change = slope * span, band = log1p(margin / 100);
  out->slope = slope;
  out->se = se;
  out->df = df;
  out->change_percent = 100 * expm1(change);
  out->change_low = 100 * expm1(change - half);
  out->change_high = 100 * expm1(change + half);
  out->flagged = change - half > band || change + half < -band;
  return out->status = DRIFT_OK;
}

int drift_of_scores(const double *values, size_t blocks, double confidence, double margin_percent,
                    drift_trend *out) {
  return trend(values, 0, NULL, blocks, confidence, margin_percent, out);
}

int drift_of_effect(const double *baseline, const double *condition, size_t blocks,
                    double confidence, double margin_percent, drift_trend *out) {
  return trend(condition, 1, baseline, blocks, confidence, margin_percent, out);
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* blocked.c - the paired comparison of a condition with the baseline over blocks, on log ratios
   (the method: blocked.h). */
#include "blocked.h"

#include <math.h>

#include "dist.h"

/* Fills every number with NaN and the verdict "inconclusive": what an error leaves. */
static void result_clear(blocked_result *out) {
  out->status = BLOCKED_OK;
  out->paired = 0;
  out->pairs = out->n_baseline = out->n_condition = 0;
  out->log_effect = out->sd_log = out->se = out->df = NAN;
  out->confidence = out->equivalence_alpha = out->margin_percent = NAN;
  out->percent = out->ci_low = out->ci_high = out->eq_low = out->eq_high = NAN;
  out->t = out->p = out->tost_p = NAN;
  out->within_margin = 0;
  out->verdict = STATS_INCONCLUSIVE;
}

static int fail(blocked_result *out, int status) {
  out->status = status;
  return status;
}

/* A score is usable when finite and above 0; NaN is a missing score. */
static int score_bad(double x) { return !isnan(x) && !(x > 0 && isfinite(x)); }

static double to_percent(double log_ratio) { return 100 * expm1(log_ratio); }

/* Mean and sample variance (n - 1) of the logs of the present scores (or of the log ratios of
   complete blocks when `other` is given); *n gets how many there were. */
static void log_moments(const double *x, const double *other, size_t blocks, size_t *n,
                        double *mean, double *var) {
  size_t k = 0;
  double m = 0, ss = 0;
  for (size_t b = 0; b < blocks; b++) {
    if (isnan(x[b]) || (other && isnan(other[b])))
      continue;
    double v = other ? log(x[b] / other[b]) : log(x[b]);
    k++;
    double delta = v - m; /* Welford: stable for values far from 0 */
    m += delta / (double)k;
    ss += delta * (v - m);
  }
  *n = k;
  *mean = m;
  *var = k > 1 ? ss / (double)(k - 1) : NAN;
}

int blocked_compare(const double *baseline, const double *condition, size_t blocks,
                    const blocked_options *options, blocked_result *out) {
  if (!out)
    return BLOCKED_EINVAL;
  result_clear(out);
  double confidence =
      options && options->confidence != 0 ? options->confidence : BLOCKED_DEFAULT_CONFIDENCE;
  double eq_alpha = options && options->equivalence_alpha != 0 ? options->equivalence_alpha
                                                               : BLOCKED_DEFAULT_EQUIVALENCE_ALPHA;
  double margin = options && options->margin_percent != 0 ? options->margin_percent
                                                          : STATS_DEFAULT_MARGIN_PERCENT;
  int lower_is_faster = options && options->lower_is_faster;
  if ((blocks > 0 && (!baseline || !condition)) || !(confidence > 0.5 && confidence < 1) ||
      !(eq_alpha > 0 && eq_alpha < 0.5) || !(margin > 0 && isfinite(margin)))
    return fail(out, BLOCKED_EINVAL);
  out->confidence = confidence;
  out->equivalence_alpha = eq_alpha;
  out->margin_percent = margin;
  for (size_t b = 0; b < blocks; b++)
    if (score_bad(baseline[b]) || score_bad(condition[b]))
      return fail(out, BLOCKED_ESCORE);

  double mean_b, var_b, mean_c, var_c, mean_d, var_d;
  log_moments(baseline, NULL, blocks, &out->n_baseline, &mean_b, &var_b);
  log_moments(condition, NULL, blocks, &out->n_condition, &mean_c, &var_c);
  log_moments(condition, baseline, blocks, &out->pairs, &mean_d, &var_d);

  double effect, se, df;
  if (out->pairs >= BLOCKED_MIN_PAIRS) {
    out->paired = 1;
    out->n_baseline = out->n_condition = out->pairs;
    out->sd_log = sqrt(var_d);
    effect = mean_d;
    se = out->sd_log / sqrt((double)out->pairs);
    df = (double)out->pairs - 1;
  } else {
    if (out->n_baseline < 2 || out->n_condition < 2)
      return fail(out, BLOCKED_ETOOFEW);
    double vb = var_b / (double)out->n_baseline, vc = var_c / (double)out->n_condition;
    effect = mean_c - mean_b;
    se = sqrt(vb + vc);
    /* Welch-Satterthwaite; when both spreads are 0 any df gives the same point interval. */
    df = vb + vc > 0 ? (vb + vc) * (vb + vc) /
                           (vb * vb / (double)(out->n_baseline - 1) +
                            vc * vc / (double)(out->n_condition - 1))
                     : (double)(out->n_baseline + out->n_condition - 2);
  }
  out->log_effect = effect;
  out->se = se;
  out->df = df;
  out->percent = to_percent(effect);

  double band = log1p(margin / 100);
  double half = dist_t_quantile(1 - (1 - confidence) / 2, df) * se;
  double eq_half = dist_t_quantile(1 - eq_alpha, df) * se;
  out->ci_low = to_percent(effect - half);
  out->ci_high = to_percent(effect + half);
  out->eq_low = to_percent(effect - eq_half);
  out->eq_high = to_percent(effect + eq_half);
  if (se > 0) {
    out->t = effect / se;
    out->p = 2 * dist_t_cdf(-fabs(out->t), df);
    double p_low = dist_t_cdf(-(effect + band) / se, df); /* H0: effect <= -band */
    double p_high = dist_t_cdf((effect - band) / se, df); /* H0: effect >= +band */
    out->tost_p = p_low > p_high ? p_low : p_high;
  } else { /* every block gave the same ratio: the interval is that point */
    out->t = effect == 0 ? 0 : copysign(INFINITY, effect);
    out->p = effect == 0 ? 1 : 0;
    out->tost_p = fabs(effect) < band ? 0 : 1;
  }

  /* The verdict from exactly the intervals above (their bounds on the log scale). */
  out->within_margin = effect - eq_half > -band && effect + eq_half < band;
  if (effect - half > 0 || effect + half < 0)
    out->verdict = (effect > 0) != (lower_is_faster != 0) ? STATS_FASTER : STATS_SLOWER;
  else if (out->within_margin)
    out->verdict = STATS_NO_EFFECT;
  return BLOCKED_OK;
}

double blocked_detectable_percent(double sd_log, size_t blocks, double confidence, double power) {
  if (blocks < 2 || !(sd_log >= 0 && isfinite(sd_log)) || !(confidence > 0 && confidence < 1) ||
      !(power > 0 && power < 1))
    return NAN;
  double df = (double)blocks - 1;
  double delta = (dist_t_quantile(1 - (1 - confidence) / 2, df) + dist_t_quantile(power, df)) *
                 sd_log / sqrt((double)blocks);
  return -to_percent(-delta);
}

/* The effect interval's half-width, as a log ratio, in n blocks. */
static double half_width_log(double sd_log, long n, double confidence, double power) {
  (void)power;
  return dist_t_quantile(1 - (1 - confidence) / 2, (double)(n - 1)) * sd_log / sqrt((double)n);
}

/* The detectable effect, as a log ratio, in n blocks. */
static double detectable_log(double sd_log, long n, double confidence, double power) {
  return (dist_t_quantile(1 - (1 - confidence) / 2, (double)(n - 1)) +
          dist_t_quantile(power, (double)(n - 1))) *
         sd_log / sqrt((double)n);
}

/* The first n in [BLOCKED_MIN_PAIRS, BLOCKED_BLOCKS_MAX] whose width(n) is at most `target` (a
   log ratio; the widths fall as n grows, so a bisection finds it); BLOCKED_BLOCKS_MAX + 1 when
   even that many are not enough; 0 when an argument is out of range. */
static long first_blocks(double (*width)(double, long, double, double), double sd_log,
                         double target, double confidence, double power) {
  if (!(sd_log >= 0 && isfinite(sd_log)) || !(target > 0 && isfinite(target)) ||
      !(confidence > 0 && confidence < 1) || !(power > 0 && power < 1))
    return 0;
  if (width(sd_log, BLOCKED_BLOCKS_MAX, confidence, power) > target)
    return BLOCKED_BLOCKS_MAX + 1;
  if (width(sd_log, BLOCKED_MIN_PAIRS, confidence, power) <= target)
    return BLOCKED_MIN_PAIRS;
  long lo = BLOCKED_MIN_PAIRS, hi = BLOCKED_BLOCKS_MAX; /* width(lo) > target >= width(hi) */
  while (hi - lo > 1) {
    long mid = lo + (hi - lo) / 2;
    if (width(sd_log, mid, confidence, power) <= target)
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

long blocked_blocks_for_half_width(double sd_log, double target_percent, double confidence) {
  return first_blocks(half_width_log, sd_log, log1p(target_percent / 100), confidence,
                      BLOCKED_POWER);
}

long blocked_blocks_for_detectable(double sd_log, double target_percent, double confidence,
                                   double power) {
  /* As blocked_detectable_percent, a slowdown of a rate: 100 (1 - exp(-delta)) <= target. */
  if (!(target_percent > 0 && target_percent < 100))
    return 0;
  return first_blocks(detectable_log, sd_log, -log1p(-target_percent / 100), confidence, power);
}

long blocked_further_blocks(const blocked_result *r, double target_percent) {
  if (!r || !r->paired)
    return -1;
  long need = blocked_blocks_for_half_width(r->sd_log, target_percent, r->confidence);
  if (need == 0)
    return -1;
  long have = (long)r->pairs;
  return need > have ? need - have : 0;
}

int blocked_variance_ratio_of(const double *baseline, const double *condition, size_t blocks,
                              double confidence, blocked_variance_ratio *out) {
  if (!out)
    return BLOCKED_EINVAL;
  out->ratio = out->ci_low = out->ci_high = out->df_condition = out->df_baseline = NAN;
  if ((blocks > 0 && (!baseline || !condition)) || !(confidence > 0 && confidence < 1))
    return BLOCKED_EINVAL;
  for (size_t b = 0; b < blocks; b++)
    if (score_bad(baseline[b]) || score_bad(condition[b]))
      return BLOCKED_ESCORE;
  size_t nb, nc;
  double mb, vb, mc, vc;
  log_moments(baseline, NULL, blocks, &nb, &mb, &vb);
  log_moments(condition, NULL, blocks, &nc, &mc, &vc);
  if (nb < 2 || nc < 2 || !(vb > 0))
    return BLOCKED_ETOOFEW;
  double dc = (double)nc - 1, db = (double)nb - 1, alpha = 1 - confidence;
  out->ratio = vc / vb;
  out->df_condition = dc;
  out->df_baseline = db;
  out->ci_low = out->ratio / dist_f_quantile(1 - alpha / 2, dc, db);
  out->ci_high = out->ratio / dist_f_quantile(alpha / 2, dc, db);
  return BLOCKED_OK;
}

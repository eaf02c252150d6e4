/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* stats.c - summary statistics of scores and the comparison of a load condition against the
   baseline (bootstrap CI, Welch's t, Mann-Whitney U, TOST, verdict). Welford's update keeps the
   variance exact for scores of any size. No global mutable state: the random generator lives on
   the caller's stack, seeded by the caller. */
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/rng.h"

/* ---------------------------------------------------------------------------------------------
   Summaries */

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

/* Ascending, NaN last: a consistent order whatever the values (qsort needs one). */
static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  if (isnan(x) || isnan(y))
    return (isnan(x) != 0) - (isnan(y) != 0);
  return (x > y) - (x < y);
}

/* The median of values already sorted. */
static double sorted_median(const double *sorted, size_t n) {
  if (n == 0)
    return NAN;
  if (n % 2)
    return sorted[n / 2];
  return sorted[n / 2 - 1] + (sorted[n / 2] - sorted[n / 2 - 1]) / 2;
}

/* The median of values into *out (NaN when n is 0); -1 when out of memory. */
static int median_of(const double *values, size_t n, double *out) {
  *out = NAN;
  if (n == 0)
    return 0;
  double *copy = malloc(n * sizeof *copy);
  if (!copy)
    return -1;
  memcpy(copy, values, n * sizeof *copy);
  qsort(copy, n, sizeof *copy, compare_doubles);
  *out = sorted_median(copy, n);
  free(copy);
  return 0;
}

double stats_median(const double *values, size_t n) {
  double median;
  return median_of(values, n, &median) ? NAN : median;
}

int stats_describe(const double *values, size_t n, stats_description *out) {
  stats_summary s;
  stats_summarize(values, n, &s);
  out->n = s.n;
  out->mean = s.mean;
  out->sd = s.sd;
  out->min = s.min;
  out->max = s.max;
  out->median = 0;
  out->cv = 0;
  if (n == 0)
    return 0;
  out->cv = s.mean != 0 ? s.sd / s.mean : NAN;
  return median_of(values, n, &out->median);
}

/* ---------------------------------------------------------------------------------------------
   Special functions */

/* log Gamma(x) for x > 0: the recurrence up to x >= 10, then Stirling's series (error below
   1e-16 relative there). Our own, because libm's lgamma writes the global signgam. */
static double log_gamma(double x) {
  double shift = 0;
  if (x < 10) {
    double product = 1;
    while (x < 10) {
      product *= x;
      x += 1;
    }
    shift = log(product);
  }
  double z = 1 / (x * x);
  double series =
      (1.0 / 12 +
       z * (-1.0 / 360 +
            z * (1.0 / 1260 + z * (-1.0 / 1680 + z * (1.0 / 1188 + z * (-691.0 / 360360))))));
  return (x - 0.5) * log(x) - x + 0.91893853320467274178 /* log(sqrt(2 pi)) */ + series / x - shift;
}

/* The continued fraction of I_x(a, b) (Numerical Recipes' betacf), modified Lentz method;
   y = 1 - x, passed separately so it keeps its digits. */
static double beta_fraction(double a, double b, double x) {
  const double tiny = 1e-300, eps = 1e-16;
  double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (fabs(d) < tiny)
    d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 100000; m++) {
    double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (fabs(d) < tiny)
      d = tiny;
    c = 1 + aa / c;
    if (fabs(c) < tiny)
      c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (fabs(d) < tiny)
      d = tiny;
    c = 1 + aa / c;
    if (fabs(c) < tiny)
      c = tiny;
    d = 1 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1) < eps)
      break;
  }
  return h;
}

/* I_x(a, b) with y = 1 - x given exactly. */
static double incbeta_xy(double a, double b, double x, double y) {
  if (!(a > 0) || !(b > 0) || !(x >= 0) || !(y >= 0) || isnan(x) || isnan(y))
    return NAN;
  if (x == 0)
    return 0;
  if (y == 0)
    return 1;
  double log_front = log_gamma(a + b) - log_gamma(a) - log_gamma(b) + a * log(x) + b * log(y);
  double front = exp(log_front);
  if (x < (a + 1) / (a + b + 2))
    return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, y) / b;
}

double stats_incbeta(double a, double b, double x) {
  if (!(x >= 0 && x <= 1))
    return NAN;
  return incbeta_xy(a, b, x, 1 - x);
}

/* P(|T| >= |t|) for df degrees of freedom: I_{df/(df+t^2)}(df/2, 1/2). */
static double t_two_sided(double t, double df) {
  if (isnan(t) || !(df > 0))
    return NAN;
  if (isinf(t))
    return 0;
  double t2 = t * t;
  if (t2 == 0)
    return 1;
  /* x = df / (df + t^2) and 1 - x = t^2 / (df + t^2), each computed directly. */
  double x, y;
  if (t2 < df) {
    double r = t2 / df;
    x = 1 / (1 + r);
    y = r / (1 + r);
  } else {
    double r = df / t2;
    x = r / (1 + r);
    y = 1 / (1 + r);
  }
  return incbeta_xy(df / 2, 0.5, x, y);
}

double stats_t_cdf(double t, double df) {
  if (isnan(t) || !(df > 0))
    return NAN;
  double tail = t_two_sided(t, df) / 2; /* P(T >= |t|) */
  return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df > 0))
    return NAN;
  if (p == 0.5)
    return 0;
  /* Solve for the upper tail q = P(T >= t) with t > 0, then mirror. */
  double q = p < 0.5 ? p : 1 - p;
  double lo = 0, hi = 1;
  while (t_two_sided(hi, df) / 2 > q && hi < 1e300)
    hi *= 2;
  for (int i = 0; i < 2000 && hi - lo > 4 * DBL_EPSILON * hi; i++) {
    double mid = lo + (hi - lo) / 2;
    if (t_two_sided(mid, df) / 2 > q)
      lo = mid;
    else
      hi = mid;
  }
  double t = lo + (hi - lo) / 2;
  return p < 0.5 ? -t : t;
}

/* ---------------------------------------------------------------------------------------------
   Welch's t-test */

static void mean_var(const double *x, size_t n, double *mean, double *var) {
  stats_summary s;
  stats_summarize(x, n, &s);
  *mean = s.mean;
  *var = s.sd * s.sd;
}

int stats_welch(const double *x, size_t nx, const double *y, size_t ny, stats_welch_result *out) {
  out->t = out->df = out->p = out->se = NAN;
  if (nx < 2 || ny < 2)
    return -1;
  double mx, vx, my, vy;
  mean_var(x, nx, &mx, &vx);
  mean_var(y, ny, &my, &vy);
  double ax = vx / (double)nx, ay = vy / (double)ny;
  double se2 = ax + ay;
  out->se = sqrt(se2);
  double diff = mx - my;
  if (se2 == 0) {
    /* Two constant groups: the difference is either exactly nothing or certain. */
    out->t = diff == 0 ? 0 : (diff > 0 ? INFINITY : -INFINITY);
    out->df = (double)(nx + ny - 2);
    out->p = diff == 0 ? 1 : 0;
    return 0;
  }
  out->t = diff / out->se;
  out->df = se2 * se2 / (ax * ax / (double)(nx - 1) + ay * ay / (double)(ny - 1));
  out->p = t_two_sided(out->t, out->df);
  return 0;
}

/* ---------------------------------------------------------------------------------------------
   Mann-Whitney U */

typedef struct ranked {
  double value;
  int group; /* 0: x, 1: y */
} ranked;

static int compare_ranked(const void *a, const void *b) {
  return compare_doubles(&((const ranked *)a)->value, &((const ranked *)b)->value);
}

/* P(U >= u) under the null hypothesis for groups of m and n without ties: the number of
   arrangements with each U is the coefficient of q^U in the Gaussian binomial [m+n choose m]_q,
   built as the product over i of (1 - q^(n+i)) / (1 - q^i). Whole numbers below 2^53 (m, n <=
   STATS_MW_EXACT_MAX), so the doubles are exact. */
static double mw_exact_sf(double u, size_t m, size_t n) {
  double c[STATS_MW_EXACT_MAX * STATS_MW_EXACT_MAX + 1];
  size_t top = m * n;
  for (size_t k = 0; k <= top; k++)
    c[k] = 0;
  c[0] = 1;
  for (size_t i = 1; i <= m; i++) {
    /* times (1 - q^(n+i)); the degree stays within i*n after the division below */
    for (size_t k = top; k >= n + i; k--)
      c[k] -= c[k - (n + i)];
    /* divided by (1 - q^i): a running sum with stride i */
    for (size_t k = i; k <= top; k++)
      c[k] += c[k - i];
  }
  double total = 0, upper = 0;
  for (size_t k = 0; k <= top; k++) {
    total += c[k];
    if ((double)k >= u - 1e-9)
      upper += c[k];
  }
  return upper / total;
}

int stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
                       stats_mw_result *out) {
  out->u = out->p = NAN;
  out->exact = 0;
  if (nx == 0 || ny == 0)
    return -1;
  size_t n = nx + ny;
  ranked *all = malloc(n * sizeof *all);
  if (!all)
    return -1;
  for (size_t i = 0; i < nx; i++)
    all[i] = (ranked){x[i], 0};
  for (size_t i = 0; i < ny; i++)
    all[nx + i] = (ranked){y[i], 1};
  qsort(all, n, sizeof *all, compare_ranked);
  /* Mid-ranks; the tie term sums t^3 - t over the groups of ties. */
  double rank_sum_x = 0, tie_term = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j + 1 < n && all[j + 1].value == all[i].value)
      j++;
    double rank = ((double)i + (double)j) / 2 + 1, t = (double)(j - i + 1);
    tie_term += t * t * t - t;
    for (size_t k = i; k <= j; k++)
      if (all[k].group == 0)
        rank_sum_x += rank;
    i = j + 1;
  }
  free(all);
  double dx = (double)nx, dy = (double)ny, dn = (double)n;
  double u1 = rank_sum_x - dx * (dx + 1) / 2;
  double u2 = dx * dy - u1;
  double big = u1 > u2 ? u1 : u2;
  out->u = u1;
  if (tie_term == 0 && nx <= STATS_MW_EXACT_MAX && ny <= STATS_MW_EXACT_MAX) {
    out->exact = 1;
    double p = 2 * mw_exact_sf(big, nx, ny);
    out->p = p > 1 ? 1 : p;
    return 0;
  }
  double mu = dx * dy / 2;
  double var = dx * dy / 12 * ((dn + 1) - tie_term / (dn * (dn - 1)));
  if (!(var > 0)) {
    out->p = 1; /* every score tied: nothing tells the groups apart */
    return 0;
  }
  double z = (big - mu - 0.5) / sqrt(var);
  double p = erfc(z / sqrt(2.0)); /* 2 * P(Z >= z) */
  out->p = p > 1 ? 1 : p;
  return 0;
}

/* ---------------------------------------------------------------------------------------------
   The bootstrap: splitmix64 seeds xoshiro256**, state on the caller's stack */

typedef struct rng {
  uint64_t s[4];
} rng;

static void rng_seed(rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++)
    r->s[i] = ts_splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

/* A uniform index below n (n >= 1), without modulo bias. */
static size_t rng_below(rng *r, size_t n) {
  uint64_t bound = (uint64_t)n, threshold = (0 - bound) % bound, x;
  do
    x = rng_next(r);
  while (x < threshold);
  return (size_t)(x % bound);
}

static double resample_mean(rng *r, const double *x, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += x[rng_below(r, n)];
  return sum / (double)n;
}

/* The q quantile of sorted values, linear between order statistics (R's type 7). */
static double sorted_quantile(const double *sorted, size_t n, double q) {
  double h = (double)(n - 1) * q;
  size_t lo = (size_t)floor(h);
  if (lo + 1 >= n)
    return sorted[n - 1];
  return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

/* The percentile bootstrap of d = 100 * (ratio of means - 1), each group resampled on its own:
   95 % and 90 % intervals from the same resamples. Baseline scores must be > 0. */
static int bootstrap_percent(const double *base, size_t nb, const double *cond, size_t nc,
                             unsigned resamples, uint64_t seed, double ci95[2], double ci90[2]) {
  double *d = malloc((size_t)resamples * sizeof *d);
  if (!d)
    return -1;
  rng r;
  rng_seed(&r, seed);
  for (unsigned b = 0; b < resamples; b++) {
    double mb = resample_mean(&r, base, nb);
    double mc = resample_mean(&r, cond, nc);
    d[b] = 100 * (mc / mb - 1);
  }
  qsort(d, resamples, sizeof *d, compare_doubles);
  ci95[0] = sorted_quantile(d, resamples, 0.025);
  ci95[1] = sorted_quantile(d, resamples, 0.975);
  ci90[0] = sorted_quantile(d, resamples, 0.05);
  ci90[1] = sorted_quantile(d, resamples, 0.95);
  free(d);
  return 0;
}

/* ---------------------------------------------------------------------------------------------
   The comparison and the verdict */

static int all_finite(const double *x, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i]))
      return 0;
  return 1;
}

static void options_resolve(const stats_options *options, uint64_t *seed, unsigned *resamples,
                            double *margin) {
  *seed = options ? options->seed : 0;
  *resamples = options && options->resamples ? options->resamples : STATS_DEFAULT_RESAMPLES;
  *margin = options && options->margin_percent > 0 && isfinite(options->margin_percent)
                ? options->margin_percent
                : STATS_DEFAULT_MARGIN_PERCENT;
}

int stats_compare(const double *baseline, size_t nb, const double *condition, size_t nc,
                  const stats_options *options, stats_comparison *out) {
  uint64_t seed;
  unsigned resamples;
  double margin;
  options_resolve(options, &seed, &resamples, &margin);

  out->percent = out->ci95_low = out->ci95_high = out->ci90_low = out->ci90_high = NAN;
  out->welch_ci95_low = out->welch_ci95_high = out->tost_p = NAN;
  out->welch.t = out->welch.df = out->welch.p = out->welch.se = NAN;
  out->mann_whitney.u = out->mann_whitney.p = NAN;
  out->mann_whitney.exact = 0;
  out->margin_percent = margin;
  out->too_few = out->unusable = 0;
  out->within_margin = 0;
  out->verdict = STATS_INCONCLUSIVE;

  if (stats_describe(baseline, nb, &out->baseline) ||
      stats_describe(condition, nc, &out->condition))
    return -1;
  if (nb > 0 && nc > 0 && out->baseline.mean != 0)
    out->percent = 100 * (out->condition.mean / out->baseline.mean - 1);
  out->too_few = nb < STATS_MIN_TRIALS || nc < STATS_MIN_TRIALS;
  out->unusable = !all_finite(baseline, nb) || !all_finite(condition, nc) ||
                  (nb > 0 && !(out->baseline.min > 0));
  if (out->too_few || out->unusable)
    return 0;

  double ci95[2], ci90[2];
  if (bootstrap_percent(baseline, nb, condition, nc, resamples, seed, ci95, ci90) ||
      stats_mann_whitney(condition, nc, baseline, nb, &out->mann_whitney))
    return -1;
  out->ci95_low = ci95[0];
  out->ci95_high = ci95[1];
  out->ci90_low = ci90[0];
  out->ci90_high = ci90[1];

  stats_welch(condition, nc, baseline, nb, &out->welch);
  double mb = out->baseline.mean, diff = out->condition.mean - mb, se = out->welch.se;
  double delta = margin / 100 * mb; /* the margin in score units */
  if (se > 0) {
    double tq = stats_t_quantile(0.975, out->welch.df);
    out->welch_ci95_low = 100 * (diff - tq * se) / mb;
    out->welch_ci95_high = 100 * (diff + tq * se) / mb;
    /* TOST: H0 "diff <= -delta" and H0 "diff >= +delta", each one-sided */
    double p_low = 1 - stats_t_cdf((diff + delta) / se, out->welch.df);
    double p_high = stats_t_cdf((diff - delta) / se, out->welch.df);
    out->tost_p = p_low > p_high ? p_low : p_high;
  } else {
    out->welch_ci95_low = out->welch_ci95_high = 100 * diff / mb;
    out->tost_p = fabs(diff) < delta ? 0 : 1;
  }

  int ci_excludes_zero = out->ci95_low > 0 || out->ci95_high < 0;
  int direction_agrees = (out->ci95_low > 0) == (diff > 0);
  out->within_margin = out->ci90_low > -margin && out->ci90_high < margin && out->tost_p < 0.05;
  if (ci_excludes_zero && direction_agrees && out->welch.p < 0.05)
    out->verdict = diff > 0 ? STATS_FASTER : STATS_SLOWER;
  else if (out->within_margin)
    out->verdict = STATS_NO_EFFECT;
  return 0;
}

const char *stats_verdict_name(stats_verdict v) {
  switch (v) {
  case STATS_SLOWER:
    return "slower";
  case STATS_FASTER:
    return "faster";
  case STATS_NO_EFFECT:
    return "no measurable effect";
  case STATS_INCONCLUSIVE:
    break;
  }
  return "inconclusive";
}

/* Two decimals when the numbers are below 1 (so "0.04" does not print as "0.0"), else one. */
static int decimals_for(double a, double b, double c) {
  double m = fabs(a);
  if (fabs(b) > m)
    m = fabs(b);
  if (fabs(c) > m)
    m = fabs(c);
  return m < 1 ? 2 : 1;
}

/* No "-0.0". */
static double unsigned_zero(double x) { return x == 0 ? 0 : x; }

#define PLUS_MINUS "\xC2\xB1"

int stats_format_verdict(const stats_comparison *c, char *buf, size_t size) {
  if (c->unusable)
    return snprintf(buf, size,
                    "inconclusive: unusable scores (not finite, or a baseline score "
                    "at or below 0)");
  if (c->too_few)
    return snprintf(buf, size,
                    "inconclusive: too few trials (%zu baseline, %zu condition; at "
                    "least %d each)",
                    c->baseline.n, c->condition.n, STATS_MIN_TRIALS);
  switch (c->verdict) {
  case STATS_SLOWER:
  case STATS_FASTER: {
    int slower = c->verdict == STATS_SLOWER;
    /* a slowdown is told as a positive number: "slower by 3.2 % (95 % CI 2.1 to 4.3 %)" */
    double by = slower ? -c->percent : c->percent;
    double lo = slower ? -c->ci95_high : c->ci95_low, hi = slower ? -c->ci95_low : c->ci95_high;
    int dp = decimals_for(by, lo, hi);
    if (c->within_margin)
      return snprintf(buf, size,
                      "%s by %.*f %% (95 %% CI %.*f to %.*f %%; within the " PLUS_MINUS
                      "%.1f %% margin)",
                      slower ? "slower" : "faster", dp, by, dp, lo, dp, hi, c->margin_percent);
    return snprintf(buf, size, "%s by %.*f %% (95 %% CI %.*f to %.*f %%)",
                    slower ? "slower" : "faster", dp, by, dp, lo, dp, hi);
  }
  case STATS_NO_EFFECT:
    return snprintf(buf, size, "no measurable effect (within " PLUS_MINUS "%.1f %%)",
                    c->margin_percent);
  case STATS_INCONCLUSIVE:
    break;
  }
  int dp = decimals_for(c->percent, c->ci95_low, c->ci95_high);
  return snprintf(buf, size,
                  "inconclusive: %+.*f %% (95 %% CI %.*f to %.*f %%), neither an effect nor "
                  "within " PLUS_MINUS "%.1f %%",
                  dp, unsigned_zero(c->percent), dp, unsigned_zero(c->ci95_low), dp,
                  unsigned_zero(c->ci95_high), c->margin_percent);
}

/* ---------------------------------------------------------------------------------------------
   Sensitivity */

/* (t(0.975, df) + t(0.80, df)): the detectable effect in standard errors. */
static double detectable_in_se(double df) {
  return stats_t_quantile(0.975, df) + stats_t_quantile(STATS_POWER, df);
}

int stats_sensitivity_of(const double *baseline, size_t nb, const double *condition, size_t nc,
                         stats_sensitivity *out) {
  out->detectable_percent = out->se_percent = out->df = NAN;
  stats_welch_result w;
  if (stats_welch(condition, nc, baseline, nb, &w) != 0)
    return -1;
  double mb, vb;
  mean_var(baseline, nb, &mb, &vb);
  if (!(mb > 0) || !isfinite(w.se))
    return -1;
  out->df = w.df;
  out->se_percent = 100 * w.se / mb;
  out->detectable_percent = w.se == 0 ? 0 : detectable_in_se(w.df) * out->se_percent;
  return 0;
}

/* Welch's standard error (squared) and degrees of freedom with n scores in each group and standard
   deviations sb and sc (in %). */
static double se2_df_with(long n, double sb, double sc, double *df) {
  double ab = sb * sb / (double)n, ac = sc * sc / (double)n, se2 = ab + ac;
  *df = se2 > 0 ? se2 * se2 / ((ab * ab + ac * ac) / (double)(n - 1)) : NAN;
  return se2;
}

double stats_detectable_for_trials(long n, double sb, double sc) {
  if (n < 2 || !(sb >= 0) || !(sc >= 0) || !isfinite(sb) || !isfinite(sc))
    return NAN;
  double df, se2 = se2_df_with(n, sb, sc, &df);
  return se2 == 0 ? 0 : detectable_in_se(df) * sqrt(se2);
}

double stats_half_width_for_trials(long n, double sb, double sc) {
  if (n < 2 || !(sb >= 0) || !(sc >= 0) || !isfinite(sb) || !isfinite(sc))
    return NAN;
  double df, se2 = se2_df_with(n, sb, sc, &df);
  return se2 == 0 ? 0 : stats_t_quantile(0.975, df) * sqrt(se2);
}

/* The first n in [STATS_MIN_TRIALS, STATS_TRIALS_NEEDED_MAX] whose width(n, sb, sc) is at most
   target (width shrinks as n grows); STATS_TRIALS_NEEDED_MAX + 1 when none; 0 for bad arguments. */
static long trials_for(double (*width)(long, double, double), double sb, double sc, double target) {
  if (!(target > 0) || !isfinite(target) || !(sb >= 0) || !isfinite(sb) || !(sc >= 0) ||
      !isfinite(sc))
    return 0;
  long low = STATS_MIN_TRIALS;
  if (width(low, sb, sc) <= target)
    return low;
  if (width(STATS_TRIALS_NEEDED_MAX, sb, sc) > target)
    return STATS_TRIALS_NEEDED_MAX + 1;
  long high = STATS_TRIALS_NEEDED_MAX;
  while (high - low > 1) {
    long mid = low + (high - low) / 2;
    if (width(mid, sb, sc) <= target)
      high = mid;
    else
      low = mid;
  }
  return high;
}

long stats_trials_for_detectable(double sd_baseline_percent, double sd_condition_percent,
                                 double target_percent) {
  return trials_for(stats_detectable_for_trials, sd_baseline_percent, sd_condition_percent,
                    target_percent);
}

long stats_trials_for_half_width(double sd_baseline_percent, double sd_condition_percent,
                                 double target_percent) {
  return trials_for(stats_half_width_for_trials, sd_baseline_percent, sd_condition_percent,
                    target_percent);
}

/* ---------------------------------------------------------------------------------------------
   Adaptive repetition */

int stats_precision_reached(const double *baseline, size_t nb, const double *const *conditions,
                            const size_t *counts, size_t k, double target_percent,
                            const stats_options *options, double *worst_half_width) {
  double worst = 0;
  int reached = 1;
  for (size_t i = 0; i < k; i++) {
    stats_comparison c;
    if (stats_compare(baseline, nb, conditions[i], counts[i], options, &c))
      return -1;
    double half;
    if (c.too_few || c.unusable) {
      half = INFINITY;
    } else {
      half = (c.ci95_high - c.ci95_low) / 2;
      double welch_half = (c.welch_ci95_high - c.welch_ci95_low) / 2;
      if (welch_half > half)
        half = welch_half;
      if (isnan(half))
        half = INFINITY;
    }
    if (half > worst)
      worst = half;
    if (!(half <= target_percent))
      reached = 0;
  }
  if (worst_half_width)
    *worst_half_width = worst;
  return reached;
}

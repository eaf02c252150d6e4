/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* stats.c - the description of a condition's scores, the t distribution the other statistics
   build on, the verdicts' names and the unpaired comparison's sensitivity (Welch). Welford's
   update keeps the variance exact for scores of any size. */
#include "stats.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------------------
   Summaries */

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

/* Mean and sample variance (n - 1) by Welford's update, exact for scores of any size. */
static void mean_var(const double *x, size_t n, double *mean, double *var) {
  double m = 0, m2 = 0;
  for (size_t i = 0; i < n; i++) {
    double delta = x[i] - m;
    m += delta / (double)(i + 1);
    m2 += delta * (x[i] - m);
  }
  *mean = m;
  *var = n > 1 ? m2 / (double)(n - 1) : 0;
}

int stats_describe(const double *values, size_t n, stats_description *out) {
  double mean, var;
  mean_var(values, n, &mean, &var);
  out->n = n;
  out->mean = mean;
  out->sd = sqrt(var);
  out->min = out->max = out->median = out->cv = 0;
  if (n == 0)
    return 0;
  out->min = out->max = values[0];
  for (size_t i = 1; i < n; i++) {
    out->min = values[i] < out->min ? values[i] : out->min;
    out->max = values[i] > out->max ? values[i] : out->max;
  }
  out->cv = mean != 0 ? out->sd / mean : NAN;
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

/* One step of the modified Lentz method: folds the term aa into c and d and returns the factor
   by which the fraction's value changes (both the even and the odd terms take this step). */
static double lentz_step(double aa, double *c, double *d) {
  const double tiny = 1e-300;
  *d = 1 + aa * *d;
  if (fabs(*d) < tiny)
    *d = tiny;
  *c = 1 + aa / *c;
  if (fabs(*c) < tiny)
    *c = tiny;
  *d = 1 / *d;
  return *d * *c;
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
    h *= lentz_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d);
    double del = lentz_step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d);
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

typedef struct stats_welch_result {
  double t;  /* (mean(x) - mean(y)) / sqrt(var(x)/nx + var(y)/ny) */
  double df; /* Welch-Satterthwaite degrees of freedom */
  double p;  /* two-sided p-value */
  double se; /* the standard error of mean(x) - mean(y) */
} stats_welch_result;

/* Welch's unequal-variance t-test of x against y (nx, ny >= 2, else -1 and NaN fields). When
   both variances are 0, p is 1 for equal means and 0 otherwise. */
static int welch(const double *x, size_t nx, const double *y, size_t ny, stats_welch_result *out) {
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
   Verdicts */

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
  if (welch(condition, nc, baseline, nb, &w) != 0)
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

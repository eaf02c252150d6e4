/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* dist.c - normal, Student t and F quantiles and distribution functions for the blocked
   statistics. */
#include "dist.h"

#include <float.h>
#include <math.h>

#include "stats.h"

/* pi, spelled out: strict C11 has no M_PI. */
#define DIST_PI 3.14159265358979323846

double dist_normal_cdf(double z) {
  if (isnan(z))
    return NAN;
  return 0.5 * erfc(-z / sqrt(2.0));
}

/* Acklam's coefficients: central region and tails of the inverse normal CDF. */
static const double acklam_a[6] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                   -2.759285104469687e+02, 1.383577518672690e+02,
                                   -3.066479806614716e+01, 2.506628277459239e+00};
static const double acklam_b[5] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                   -1.556989798598866e+02, 6.680131188771972e+01,
                                   -1.328068155288572e+01};
static const double acklam_c[6] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                   -2.400758277161838e+00, -2.549732539343734e+00,
                                   4.374664141464968e+00,  2.938163982698783e+00};
static const double acklam_d[4] = {7.784695709041462e-03, 3.224671290700398e-01,
                                   2.445134137142996e+00, 3.754408661907416e+00};

static double acklam_tail(double q) {
  double r = sqrt(-2 * log(q));
  const double *c = acklam_c, *d = acklam_d;
  return (((((c[0] * r + c[1]) * r + c[2]) * r + c[3]) * r + c[4]) * r + c[5]) /
         ((((d[0] * r + d[1]) * r + d[2]) * r + d[3]) * r + 1);
}

double dist_normal_quantile(double p) {
  if (!(p > 0 && p < 1))
    return NAN;
  double x;
  if (p < 0.02425) {
    x = acklam_tail(p);
  } else if (p > 1 - 0.02425) {
    x = -acklam_tail(1 - p);
  } else {
    const double *a = acklam_a, *b = acklam_b;
    double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  /* One Halley step on the tail that keeps its digits: e = Phi(x) - p. */
  double e = p < 0.5 ? dist_normal_cdf(x) - p : (1 - p) - dist_normal_cdf(-x);
  double u = e * sqrt(2 * DIST_PI) * exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

/* Beyond this many degrees of freedom the incomplete beta loses digits (its parameters dwarf x),
   and the t distribution is the normal one with a 1/df correction to about 1e-12. */
#define DIST_T_NORMAL_DF 1e7

double dist_t_cdf(double t, double df) {
  if (isnan(t) || !(df > 0))
    return NAN;
  if (isinf(df))
    return dist_normal_cdf(t);
  if (df > DIST_T_NORMAL_DF) /* the first-order correction of the normal approximation */
    return dist_normal_cdf(t * (1 - 1 / (4 * df)) / sqrt(1 + t * t / (2 * df)));
  return stats_t_cdf(t, df);
}

/* The Cornish-Fisher expansion of the t quantile around the normal one (Abramowitz and Stegun
   26.7.5): good to about 1e-3 from df = 3 on, the start of the secant steps. */
static double t_guess(double z, double df) {
  double z2 = z * z;
  double g1 = (z2 + 1) * z / 4;
  double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
  double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
  return z + g1 / df + g2 / (df * df) + g3 / (df * df * df);
}

double dist_t_quantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df > 0))
    return NAN;
  if (isinf(df))
    return dist_normal_quantile(p);
  if (df > DIST_T_NORMAL_DF)
    return t_guess(dist_normal_quantile(p), df);
  if (p == 0.5)
    return 0;
  /* Closed forms for one and two degrees of freedom. */
  if (df == 1)
    return tan(DIST_PI * (p - 0.5));
  if (df == 2)
    return (2 * p - 1) / sqrt(2 * p * (1 - p));
  /* Solve P(T <= -t) = q for t > 0 with q the smaller tail, then mirror. */
  double q = p < 0.5 ? p : 1 - p;
  double t0 = -t_guess(dist_normal_quantile(q), df);
  if (!(t0 > 0))
    t0 = 1;
  double t1 = t0 * 1.001;
  /* The secant on log tail probability: log P is nearly linear in t far out, so it also
     converges where P itself spans orders of magnitude. */
  double lq = log(q);
  double f0 = log(stats_t_cdf(-t0, df)) - lq, f1 = log(stats_t_cdf(-t1, df)) - lq;
  for (int i = 0; i < 60 && f1 != 0 && f1 != f0; i++) {
    double t2 = t1 - f1 * (t1 - t0) / (f1 - f0);
    if (!(t2 > 0))
      t2 = t1 / 2;
    t0 = t1;
    f0 = f1;
    t1 = t2;
    f1 = log(stats_t_cdf(-t1, df)) - lq;
    if (fabs(t1 - t0) <= 1e-14 * t1)
      break;
  }
  /* Far in the tail (p below about 1e-100) the secant may not settle: bisect there instead. */
  if (!(fabs(log(stats_t_cdf(-t1, df)) - lq) < 1e-9))
    return stats_t_quantile(p, df);
  return p < 0.5 ? -t1 : t1;
}

double dist_f_cdf(double f, double d1, double d2) {
  if (isnan(f) || !(d1 > 0) || !(d2 > 0))
    return NAN;
  if (f <= 0)
    return 0;
  if (isinf(f))
    return 1;
  return stats_incbeta(d1 / 2, d2 / 2, d1 * f / (d1 * f + d2));
}

double dist_f_quantile(double p, double d1, double d2) {
  if (!(p > 0 && p < 1) || !(d1 > 0) || !(d2 > 0))
    return NAN;
  /* Bisect x = d1 f / (d1 f + d2) in (0, 1), where I_x(d1/2, d2/2) is monotone and bounded:
     called once per comparison, so plain bisection to the last bit is fast enough. */
  double lo = 0, hi = 1;
  for (int i = 0; i < 200 && hi - lo > DBL_EPSILON * hi; i++) {
    double mid = lo + (hi - lo) / 2;
    if (stats_incbeta(d1 / 2, d2 / 2, mid) < p)
      lo = mid;
    else
      hi = mid;
  }
  double x = lo + (hi - lo) / 2;
  return d2 * x / (d1 * (1 - x));
}

/* The regularized lower incomplete gamma P(a, x): its series below x = a + 1, else 1 minus the
   continued fraction of Q by the modified Lentz method (both to about 1e-15). */
static double gamma_lower(double a, double x) {
  if (x <= 0)
    return 0;
  double front = exp(-x + a * log(x) - lgamma(a));
  if (x < a + 1) {
    double term = 1 / a, sum = term;
    for (int n = 1; n < 1000 && fabs(term) > fabs(sum) * 1e-16; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return sum * front;
  }
  double tiny = 1e-300, b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int n = 1; n < 1000; n++) {
    double an = -n * (n - a);
    b += 2;
    d = an * d + b;
    d = fabs(d) < tiny ? tiny : d;
    c = b + an / c;
    c = fabs(c) < tiny ? tiny : c;
    d = 1 / d;
    double step = d * c;
    h *= step;
    if (fabs(step - 1) < 1e-16)
      break;
  }
  return 1 - front * h;
}

double dist_chi2_quantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df > 0) || isinf(df))
    return NAN;
  /* P(df/2, x/2) rises with x: bracket, then bisect to the last bit. */
  double lo = 0, hi = df + 10 * sqrt(2 * df) + 10;
  while (gamma_lower(df / 2, hi / 2) < p)
    hi *= 2;
  for (int i = 0; i < 200 && hi - lo > DBL_EPSILON * hi; i++) {
    double mid = lo + (hi - lo) / 2;
    if (gamma_lower(df / 2, mid / 2) < p)
      lo = mid;
    else
      hi = mid;
  }
  return lo + (hi - lo) / 2;
}

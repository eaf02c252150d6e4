/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* fit.c - weighted least squares and the hinge fit of the cost model (fit.h): normal equations
   solved on columns scaled to unit size, so predictors that move together are told apart from
   ones that are merely large or small. */
#include "fit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats.h"

/* A pivot below this, on the scaled normal equations (unit diagonal), means the predictors are
   (nearly) a combination of each other: their correlation is 1 to within about 1e-5. */
#define FIT_COLLINEAR 1e-10

double fit_chi2_sf(double x, int df) {
  if (df < 1 || isnan(x))
    return NAN;
  if (x <= 0)
    return 1;
  double sum = 0;
  if (df % 2 == 0) { /* e^(-x/2) * sum_{i < df/2} (x/2)^i / i! */
    double term = 1;
    for (int i = 0; i < df / 2; i++) {
      sum += term;
      term *= x / 2 / (i + 1);
    }
    return fmin(1, exp(-x / 2) * sum);
  }
  /* erfc(sqrt(x/2)) + sqrt(2/pi) e^(-x/2) sum_{r=1}^{(df-1)/2} x^(r-1/2) / (1*3*...*(2r-1)) */
  double term = sqrt(x);
  for (int r = 1; r <= (df - 1) / 2; r++) {
    sum += term;
    term *= x / (2 * r + 1);
  }
  return fmin(1, erfc(sqrt(x / 2)) + sqrt(2 / 3.14159265358979323846) * exp(-x / 2) * sum);
}

double fit_f_sf(double f, double d1, double d2) {
  if (!(d1 > 0) || !(d2 > 0) || isnan(f))
    return NAN;
  if (f <= 0)
    return 1;
  if (isinf(f))
    return 0;
  return stats_incbeta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f));
}

static void fail(char *why, const char *prefix, const char *text) {
  snprintf(why, FIT_WHY_MAX, "%s: %s", prefix, text);
}

/* Checks every point: weights at least 0, values finite where the weight is not 0. Returns the
   points with a weight above 0, or -1 (why filled). */
static int usable_points(const double *y, const double *const *x, int predictors, const double *w,
                         int n, const char *prefix, char *why) {
  int used = 0;
  char text[120];
  if (n < 0 || n > FIT_MAX_POINTS) {
    snprintf(text, sizeof text, "%d points (0 to %d accepted)", n, FIT_MAX_POINTS);
    fail(why, prefix, text);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    if (!(w[i] >= 0) || isinf(w[i])) {
      snprintf(text, sizeof text, "point %d has weight %g (a finite number at least 0 accepted)",
               i + 1, w[i]);
      fail(why, prefix, text);
      return -1;
    }
    if (w[i] == 0)
      continue;
    int finite = isfinite(y[i]);
    for (int j = 0; j < predictors; j++)
      finite = finite && isfinite(x[j][i]);
    if (!finite) {
      snprintf(text, sizeof text, "point %d is not a finite number", i + 1);
      fail(why, prefix, text);
      return -1;
    }
    used++;
  }
  return used;
}

/* Inverts the p x p symmetric matrix a (positive semidefinite) into inv, after scaling it to a
   unit diagonal. Returns 0, -1 when a column is 0 (*bad = its index), -2 when the columns are
   (nearly) dependent. */
static int invert_scaled(double a[FIT_MAX_PARAMS][FIT_MAX_PARAMS], int p,
                         double inv[FIT_MAX_PARAMS][FIT_MAX_PARAMS], int *bad) {
  double d[FIT_MAX_PARAMS], m[FIT_MAX_PARAMS][2 * FIT_MAX_PARAMS];
  for (int i = 0; i < p; i++) {
    if (!(a[i][i] > 0)) {
      *bad = i;
      return -1;
    }
    d[i] = sqrt(a[i][i]);
  }
  for (int i = 0; i < p; i++)
    for (int j = 0; j < 2 * p; j++)
      m[i][j] = j < p ? a[i][j] / (d[i] * d[j]) : (j - p == i);
  for (int c = 0; c < p; c++) { /* Gauss-Jordan with partial pivoting */
    int best = c;
    for (int r = c + 1; r < p; r++)
      if (fabs(m[r][c]) > fabs(m[best][c]))
        best = r;
    if (fabs(m[best][c]) < FIT_COLLINEAR)
      return -2;
    for (int j = 0; j < 2 * p; j++) {
      double t = m[c][j];
      m[c][j] = m[best][j];
      m[best][j] = t;
    }
    double pivot = m[c][c];
    for (int j = 0; j < 2 * p; j++)
      m[c][j] /= pivot;
    for (int r = 0; r < p; r++) {
      if (r == c || m[r][c] == 0)
        continue;
      double factor = m[r][c];
      for (int j = 0; j < 2 * p; j++)
        m[r][j] -= factor * m[c][j];
    }
  }
  for (int i = 0; i < p; i++)
    for (int j = 0; j < p; j++)
      inv[i][j] = m[i][p + j] / (d[i] * d[j]);
  return 0;
}

static void wls_clear(fit_wls *out, int predictors, int intercept) {
  memset(out, 0, sizeof *out);
  out->intercept = intercept ? 1 : 0;
  out->params = predictors + out->intercept;
  out->df = out->rss = out->scale = out->r2 = out->chi2_p = NAN;
  for (int i = 0; i < FIT_MAX_PARAMS; i++) {
    out->coef[i] = out->se[i] = out->ci_low[i] = out->ci_high[i] = NAN;
    for (int j = 0; j < FIT_MAX_PARAMS; j++)
      out->cov[i][j] = NAN;
  }
}

/* Column j of point i of the design: the intercept's 1 first when there is one. */
static double design(const double *const *x, int intercept, int j, int i) {
  return intercept ? (j == 0 ? 1 : x[j - 1][i]) : x[j][i];
}

int fit_wls_run(const double *y, const double *const *x, int predictors, const double *w, int n,
                int intercept, fit_wls *out) {
  static const char prefix[] = "cannot fit";
  if (predictors < (intercept ? 0 : 1) || predictors > FIT_MAX_PREDICTORS) {
    wls_clear(out, 0, intercept);
    snprintf(out->why, sizeof out->why, "%s: %d predictors (1 to %d accepted)", prefix, predictors,
             FIT_MAX_PREDICTORS);
    return 0;
  }
  wls_clear(out, predictors, intercept);
  int p = out->params;
  int used = usable_points(y, x, predictors, w, n, prefix, out->why);
  if (used < 0)
    return 0;
  out->n = used;
  if (used < p + 1) {
    snprintf(out->why, sizeof out->why,
             "%s: %d point%s with a weight above 0 for %d parameter%s; at least %d are needed to "
             "know the uncertainty",
             prefix, used, used == 1 ? "" : "s", p, p == 1 ? "" : "s", p + 1);
    return 0;
  }
  double a[FIT_MAX_PARAMS][FIT_MAX_PARAMS] = {{0}}, c[FIT_MAX_PARAMS] = {0};
  for (int i = 0; i < n; i++) {
    if (w[i] == 0)
      continue;
    for (int j = 0; j < p; j++) {
      double xj = design(x, intercept, j, i);
      c[j] += w[i] * xj * y[i];
      for (int k = 0; k < p; k++)
        a[j][k] += w[i] * xj * design(x, intercept, k, i);
    }
  }
  double inv[FIT_MAX_PARAMS][FIT_MAX_PARAMS];
  int bad = 0, rc = invert_scaled(a, p, inv, &bad);
  if (rc == -1) {
    snprintf(out->why, sizeof out->why, "%s: predictor %d is 0 at every point", prefix,
             bad + 1 - out->intercept);
    return 0;
  }
  if (rc == -2) {
    snprintf(out->why, sizeof out->why,
             "%s: the predictors move together (one is a multiple of another%s), so their "
             "effects cannot be told apart",
             prefix, intercept ? " or constant" : "");
    return 0;
  }
  for (int j = 0; j < p; j++) {
    out->coef[j] = 0;
    for (int k = 0; k < p; k++)
      out->coef[j] += inv[j][k] * c[k];
  }
  double rss = 0, sw = 0, swy = 0;
  for (int i = 0; i < n; i++) {
    if (w[i] == 0)
      continue;
    double fitted = 0;
    for (int j = 0; j < p; j++)
      fitted += out->coef[j] * design(x, intercept, j, i);
    rss += w[i] * (y[i] - fitted) * (y[i] - fitted);
    sw += w[i];
    swy += w[i] * y[i];
  }
  double tss = 0;
  for (int i = 0; i < n; i++) {
    double centre = intercept ? swy / sw : 0;
    if (w[i] > 0)
      tss += w[i] * (y[i] - centre) * (y[i] - centre);
  }
  out->df = used - p;
  out->rss = rss;
  out->scale = fmax(1, rss / out->df);
  out->r2 = tss > 0 ? 1 - rss / tss : NAN;
  out->chi2_p = fit_chi2_sf(rss, used - p);
  double t = stats_t_quantile(0.975, out->df);
  for (int j = 0; j < p; j++) {
    for (int k = 0; k < p; k++)
      out->cov[j][k] = out->scale * inv[j][k];
    out->se[j] = sqrt(out->cov[j][j]);
    out->ci_low[j] = out->coef[j] - t * out->se[j];
    out->ci_high[j] = out->coef[j] + t * out->se[j];
  }
  out->ok = 1;
  return 1;
}

double fit_wls_predict(const fit_wls *f, const double *x, double *se) {
  double v[FIT_MAX_PARAMS], value = 0, var = 0;
  if (!f->ok) {
    if (se)
      *se = NAN;
    return NAN;
  }
  for (int j = 0; j < f->params; j++)
    v[j] = f->intercept && j == 0 ? 1 : x[j - f->intercept];
  for (int j = 0; j < f->params; j++) {
    value += f->coef[j] * v[j];
    for (int k = 0; k < f->params; k++)
      var += v[j] * f->cov[j][k] * v[k];
  }
  if (se)
    *se = sqrt(fmax(0, var));
  return value;
}

/* y = b * max(0, x - knot) by weighted least squares: b, and the RSS; 0 when no point with a
   weight lies above the knot. */
static int hinge_at(const double *x, const double *y, const double *w, int n, double knot,
                    double *b, double *rss, double *shh) {
  double sxx = 0, sxy = 0;
  for (int i = 0; i < n; i++) {
    double h = fmax(0, x[i] - knot);
    sxx += w[i] * h * h;
    sxy += w[i] * h * y[i];
  }
  if (!(sxx > 0))
    return 0;
  *b = sxy / sxx;
  *rss = 0;
  for (int i = 0; i < n; i++) {
    double e = y[i] - *b * fmax(0, x[i] - knot);
    *rss += w[i] * e * e;
  }
  *shh = sxx;
  return 1;
}

int fit_hinge_run(const double *x, const double *y, const double *w, int n, fit_hinge *out) {
  static const char prefix[] = "no knee";
  memset(out, 0, sizeof *out);
  out->knot = out->knot_low = out->knot_high = out->slope = out->slope_se = out->rss = NAN;
  out->line_slope = out->line_se = out->line_rss = out->f = out->p = NAN;
  const double *columns[1] = {x};
  int used = usable_points(y, columns, 1, w, n, prefix, out->why);
  if (used < 0)
    return 0;
  out->n = used;
  if (used < 4) {
    snprintf(out->why, sizeof out->why,
             "%s: %d condition%s with a weight above 0; a knee needs at least 4", prefix, used,
             used == 1 ? "" : "s");
    return 0;
  }
  double shh;
  if (!hinge_at(x, y, w, n, 0, &out->line_slope, &out->line_rss, &shh)) {
    snprintf(out->why, sizeof out->why, "%s: no point lies above 0", prefix);
    return 0;
  }
  out->line_se = sqrt(fmax(1, out->line_rss / (used - 1)) / shh);
  double rss[FIT_MAX_POINTS], knots[FIT_MAX_POINTS];
  int candidates = 0;
  for (int i = 0; i < n; i++) {
    if (w[i] == 0)
      continue;
    int above = 0, seen = 0;
    for (int j = 0; j < n; j++) {
      above += w[j] > 0 && x[j] > x[i];
      seen += j < i && w[j] > 0 && x[j] == x[i];
    }
    double b, r, s;
    if (seen || above < 2 || !hinge_at(x, y, w, n, x[i], &b, &r, &s))
      continue;
    knots[candidates] = x[i];
    rss[candidates++] = r;
    /* The smallest RSS wins; on a tie, the smaller knot (the simpler model, nearer the line). */
    if (isnan(out->rss) || r < out->rss || (r == out->rss && x[i] < out->knot)) {
      out->rss = r;
      out->knot = x[i];
      out->slope = b;
      out->slope_se = sqrt(fmax(1, r / (used - 2)) / s);
    }
  }
  if (candidates == 0) {
    snprintf(out->why, sizeof out->why, "%s: no knot has two conditions above it", prefix);
    return 0;
  }
  double df = used - 2;
  if (out->line_rss <= 0 && out->rss <= 0) {
    out->f = 0; /* both fit exactly: nothing for the knot to explain */
  } else {
    out->f = (out->line_rss - out->rss) / (out->rss / df);
  }
  out->p = fit_f_sf(out->f, 1, df);
  double t = stats_t_quantile(0.975, df);
  double bound = out->rss * (1 + t * t / df);
  out->knot_low = out->knot_high = out->knot;
  for (int i = 0; i < candidates; i++)
    if (rss[i] <= bound) {
      out->knot_low = fmin(out->knot_low, knots[i]);
      out->knot_high = fmax(out->knot_high, knots[i]);
    }
  out->knee = out->p < 0.05;
  out->ok = 1;
  if (!out->knee)
    snprintf(out->why, sizeof out->why,
             "%s: a straight line fits as well (F = %.2f, p = %.2g, at least 0.05)", prefix, out->f,
             out->p);
  return 1;
}

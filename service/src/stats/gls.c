/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* gls.c - generalized least squares for effects sharing one baseline, their block-estimated
   covariance, equivalence and the knee test (the method: gls.h). */
#include "gls.h"

#include <math.h>

#include "dist.h"

/* Cholesky factor L (lower, row-major n x n) of the symmetric a; 0, or -1 when a is not
   positive definite (a pivot at or below a relative 1e-13 of its diagonal). */
static int cholesky(const double *a, int n, double *l) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) {
      double s = a[i * n + j];
      for (int m = 0; m < j; m++)
        s -= l[i * n + m] * l[j * n + m];
      if (i == j) {
        if (!(s > 1e-13 * fabs(a[i * n + i])) || !(s > 0))
          return -1;
        l[i * n + i] = sqrt(s);
      } else {
        l[i * n + j] = s / l[j * n + j];
      }
    }
    for (int j = i + 1; j < n; j++)
      l[i * n + j] = 0;
  }
  return 0;
}

/* Solves L z = b in place (forward substitution), b of `columns` columns, row-major n x columns. */
static void forward(const double *l, int n, double *b, int columns) {
  for (int c = 0; c < columns; c++)
    for (int i = 0; i < n; i++) {
      double s = b[i * columns + c];
      for (int m = 0; m < i; m++)
        s -= l[i * n + m] * b[m * columns + c];
      b[i * columns + c] = s / l[i * n + i];
    }
}

static void fit_clear(gls_fit *out, int n, int p, double df, double confidence) {
  out->n = n;
  out->params = p;
  out->df = df;
  out->confidence = confidence;
  out->chi2 = NAN;
  for (int i = 0; i < GLS_MAX_PARAMS; i++) {
    out->coef[i] = out->se[i] = out->ci_low[i] = out->ci_high[i] = NAN;
    for (int j = 0; j < GLS_MAX_PARAMS; j++)
      out->cov[i][j] = NAN;
  }
}

int gls_run(const double *y, const double *x, int n, int p, const double *v, double df,
            double confidence, gls_fit *out) {
  if (!out)
    return GLS_EINVAL;
  fit_clear(out, n, p, df, confidence);
  if (!y || !x || !v || n < 1 || n > GLS_MAX_POINTS || p < 1 || p > GLS_MAX_PARAMS || n < p ||
      !(df > 0) || !(confidence > 0.5 && confidence < 1))
    return out->status = GLS_EINVAL;
  for (int i = 0; i < n; i++) {
    if (!isfinite(y[i]))
      return out->status = GLS_EVALUE;
    for (int j = 0; j < p; j++)
      if (!isfinite(x[i * p + j]))
        return out->status = GLS_EVALUE;
    for (int j = 0; j < n; j++)
      if (!isfinite(v[i * n + j]))
        return out->status = GLS_EVALUE;
  }
  double l[GLS_MAX_POINTS * GLS_MAX_POINTS], ys[GLS_MAX_POINTS];
  double xs[GLS_MAX_POINTS * GLS_MAX_PARAMS];
  if (cholesky(v, n, l))
    return out->status = GLS_ESINGULAR;
  for (int i = 0; i < n; i++) {
    ys[i] = y[i];
    for (int j = 0; j < p; j++)
      xs[i * p + j] = x[i * p + j];
  }
  forward(l, n, ys, 1);
  forward(l, n, xs, p);

  /* The whitened normal equations A b = X*' y*, A = X*' X* (p <= 3: its own Cholesky). */
  double a[GLS_MAX_PARAMS * GLS_MAX_PARAMS], la[GLS_MAX_PARAMS * GLS_MAX_PARAMS];
  double rhs[GLS_MAX_PARAMS];
  for (int j = 0; j < p; j++) {
    rhs[j] = 0;
    for (int i = 0; i < n; i++)
      rhs[j] += xs[i * p + j] * ys[i];
    for (int m = 0; m < p; m++) {
      a[j * p + m] = 0;
      for (int i = 0; i < n; i++)
        a[j * p + m] += xs[i * p + j] * xs[i * p + m];
    }
  }
  if (cholesky(a, p, la))
    return out->status = GLS_ESINGULAR;
  /* A^-1 column by column: L z = e_c, then L' w = z. */
  double inv[GLS_MAX_PARAMS * GLS_MAX_PARAMS];
  for (int c = 0; c < p; c++) {
    double z[GLS_MAX_PARAMS];
    for (int i = 0; i < p; i++) {
      double s = i == c ? 1 : 0;
      for (int m = 0; m < i; m++)
        s -= la[i * p + m] * z[m];
      z[i] = s / la[i * p + i];
    }
    for (int i = p - 1; i >= 0; i--) {
      double s = z[i];
      for (int m = i + 1; m < p; m++)
        s -= la[m * p + i] * inv[m * p + c];
      inv[i * p + c] = s / la[i * p + i];
    }
  }
  double q = dist_t_quantile(1 - (1 - confidence) / 2, df);
  for (int j = 0; j < p; j++) {
    double b = 0;
    for (int m = 0; m < p; m++) {
      b += inv[j * p + m] * rhs[m];
      out->cov[j][m] = inv[j * p + m];
    }
    out->coef[j] = b;
    out->se[j] = sqrt(inv[j * p + j]);
    out->ci_low[j] = b - q * out->se[j];
    out->ci_high[j] = b + q * out->se[j];
  }
  double chi2 = 0;
  for (int i = 0; i < n; i++) {
    double r = ys[i];
    for (int j = 0; j < p; j++)
      r -= xs[i * p + j] * out->coef[j];
    chi2 += r * r;
  }
  out->chi2 = chi2;
  return out->status = GLS_OK;
}

int gls_shared_baseline_cov(const double *se_condition, int k, double se_baseline, double *v) {
  if (!se_condition || !v || k < 1 || k > GLS_MAX_POINTS)
    return GLS_EINVAL;
  if (!(se_baseline >= 0 && isfinite(se_baseline)))
    return GLS_EVALUE;
  for (int i = 0; i < k; i++)
    if (!(se_condition[i] >= 0 && isfinite(se_condition[i])))
      return GLS_EVALUE;
  double shared = se_baseline * se_baseline;
  for (int i = 0; i < k; i++)
    for (int j = 0; j < k; j++)
      v[i * k + j] = shared + (i == j ? se_condition[i] * se_condition[i] : 0);
  return GLS_OK;
}

/* Whether block b has every group's score. */
static int block_complete(const double *baseline, const double *const *conditions, int k,
                          size_t b) {
  if (isnan(baseline[b]))
    return 0;
  for (int i = 0; i < k; i++)
    if (isnan(conditions[i][b]))
      return 0;
  return 1;
}

static double score_of(const double *baseline, const double *const *conditions, int g, size_t b) {
  return log(g == 0 ? baseline[b] : conditions[g - 1][b]);
}

int gls_effects_from_blocks(const double *baseline, const double *const *conditions, int k,
                            size_t blocks, double *effect, double *v, double *df,
                            size_t *blocks_used) {
  if (!baseline || !conditions || !effect || !v || !df || k < 1 || k > GLS_MAX_POINTS)
    return GLS_EINVAL;
  for (int i = 0; i < k; i++)
    if (!conditions[i])
      return GLS_EINVAL;
  int groups = k + 1;
  for (size_t b = 0; b < blocks; b++)
    for (int g = 0; g < groups; g++) {
      double s = g == 0 ? baseline[b] : conditions[g - 1][b];
      if (!isnan(s) && !(s > 0 && isfinite(s)))
        return GLS_EVALUE;
    }
  double mean[GLS_MAX_POINTS + 1] = {0}, grand = 0;
  size_t n = 0;
  for (size_t b = 0; b < blocks; b++) {
    if (!block_complete(baseline, conditions, k, b))
      continue;
    n++;
    for (int g = 0; g < groups; g++)
      mean[g] += score_of(baseline, conditions, g, b);
  }
  if (blocks_used)
    *blocks_used = n;
  if (n < 2)
    return GLS_EVALUE;
  for (int g = 0; g < groups; g++) {
    mean[g] /= (double)n;
    grand += mean[g] / groups;
  }
  double ss = 0;
  for (size_t b = 0; b < blocks; b++) {
    if (!block_complete(baseline, conditions, k, b))
      continue;
    double row = 0;
    for (int g = 0; g < groups; g++)
      row += score_of(baseline, conditions, g, b) / groups;
    for (int g = 0; g < groups; g++) {
      double e = score_of(baseline, conditions, g, b) - mean[g] - row + grand;
      ss += e * e;
    }
  }
  *df = (double)(groups - 1) * (double)(n - 1);
  double s2 = ss / *df;
  for (int i = 0; i < k; i++) {
    effect[i] = mean[i + 1] - mean[0];
    for (int j = 0; j < k; j++)
      v[i * k + j] = (i == j ? 2 : 1) * s2 / (double)n;
  }
  return GLS_OK;
}

double gls_coefficient_p(const gls_fit *f, int j) {
  if (!f || f->status != GLS_OK || j < 0 || j >= f->params)
    return NAN;
  if (!(f->se[j] > 0))
    return f->coef[j] == 0 ? 1 : 0;
  return 2 * dist_t_cdf(-fabs(f->coef[j] / f->se[j]), f->df);
}

double gls_equivalence_p(const gls_fit *f, int j, double margin) {
  if (!f || f->status != GLS_OK || j < 0 || j >= f->params || !(margin > 0 && isfinite(margin)))
    return NAN;
  double b = f->coef[j], se = f->se[j];
  if (!(se > 0))
    return fabs(b) < margin ? 0 : 1;
  double p_low = dist_t_cdf(-(b + margin) / se, f->df); /* H0: b <= -margin */
  double p_high = dist_t_cdf((b - margin) / se, f->df); /* H0: b >= +margin */
  return p_low > p_high ? p_low : p_high;
}

int gls_knee_test(const double *x, const double *y, int n, const double *v, double df, double alpha,
                  gls_knee *out) {
  if (!out)
    return GLS_EINVAL;
  out->candidates = 0;
  out->knee = 0;
  out->knot = out->extra_slope = out->extra_se = out->p_min = NAN;
  out->p = 1;
  out->slope = out->slope_se = NAN;
  if (!x || !(alpha > 0 && alpha < 1))
    return out->status = GLS_EINVAL;
  for (int i = 0; i < n && i < GLS_MAX_POINTS; i++)
    if (!(x[i] > 0 && isfinite(x[i])))
      return out->status = GLS_EVALUE;
  gls_fit line;
  int rc = gls_run(y, x, n, 1, v, df, 0.95, &line);
  if (rc)
    return out->status = rc;
  out->slope = line.coef[0];
  out->slope_se = line.se[0];

  double design[GLS_MAX_POINTS * 2];
  for (int c = 0; c < n; c++) {
    double knot = x[c];
    int below = 0, above = 0, seen = 0;
    for (int i = 0; i < n; i++) {
      below += x[i] <= knot;
      above += x[i] > knot;
      seen |= i < c && x[i] == knot; /* each dose once */
    }
    if (seen || below < 1 || above < 2)
      continue;
    for (int i = 0; i < n; i++) {
      design[i * 2] = x[i];
      design[i * 2 + 1] = x[i] > knot ? x[i] - knot : 0;
    }
    gls_fit hinge;
    if (gls_run(y, design, n, 2, v, df, 0.95, &hinge))
      continue;
    out->candidates++;
    double p = gls_coefficient_p(&hinge, 1);
    if (isnan(out->p_min) || p < out->p_min) {
      out->p_min = p;
      out->knot = knot;
      out->extra_slope = hinge.coef[1];
      out->extra_se = hinge.se[1];
    }
  }
  if (out->candidates > 0) {
    double p = out->candidates * out->p_min;
    out->p = p < 1 ? p : 1;
    out->knee = out->p < alpha;
  }
  return out->status = GLS_OK;
}

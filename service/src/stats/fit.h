/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* fit.h - the cost model's regressions: weighted least squares of the slowdown on wake-ups and
   thread count, and a hinge (broken-stick) fit for the knee of a dose series (pure C, no I/O;
   tested against NumPy/SciPy in test_fit).

   ---------------------------------------------------------------------------------------------
   WEIGHTED LEAST SQUARES (fit_wls): y_i = sum_j b_j x_ij (+ b_0 when `intercept`) + e_i, each
   point weighted w_i = 1 / se_i^2, se_i the standard error of its y. The coefficients solve the
   normal equations (X'WX) b = X'Wy. Their covariance is s^2 (X'WX)^-1 with
       s^2 = max(1, RSS / df),   RSS = sum w_i (y_i - fitted_i)^2,   df = n - parameters:
   the standard errors are the ones the known se_i give (s = 1), widened when the points scatter
   more than their errors allow (s^2 > 1), never narrowed when they scatter less by chance (few
   points make RSS / df a poor estimate). The 95 % CIs use Student's t with df degrees of freedom.
   The residual check: with the se_i right and the model right, RSS follows chi^2 with df degrees
   of freedom; chi2_p = P(chi^2_df >= RSS) below 0.05 says the model misses something.
   R^2 = 1 - RSS / TSS, TSS = sum w_i y_i^2 without an intercept (the model's zero is y = 0),
   sum w_i (y_i - weighted mean)^2 with one.

   THE HINGE (fit_hinge): y = b * max(0, x - k), weighted as above, for each candidate knot k at
   an observed x value with at least two points above it (profile least squares: b is fitted for
   each k, the k with the smallest RSS wins). The straight line y = b * x is the same model with k
   at 0. Hinge against line: F = (RSS_line - RSS_hinge) / (RSS_hinge / (n - 2)) on 1 and n - 2
   degrees of freedom; a knee is reported when p < 0.05 (a knot chosen from the data makes this
   test somewhat optimistic, so the knee must be clear). The knot's range: the candidate knots
   whose RSS is at most RSS_min * (1 + F_0.95(1, n - 2) / (n - 2)), the F-based profile bound.
   --------------------------------------------------------------------------------------------- */
#ifndef THREADSOUP_FIT_H
#define THREADSOUP_FIT_H

#define FIT_MAX_POINTS 64
#define FIT_MAX_PREDICTORS 2
#define FIT_MAX_PARAMS (FIT_MAX_PREDICTORS + 1)
#define FIT_WHY_MAX 160

typedef struct fit_wls {
  int ok;                /* 1: fitted; 0: `why` says why not, the numbers are NaN */
  char why[FIT_WHY_MAX]; /* "cannot fit: ..." when not ok */
  int intercept;         /* 1: coef[0] is the intercept, predictors follow */
  int params;            /* parameters fitted */
  int n;                 /* points with a weight above 0 */
  double df;             /* n - params */
  double coef[FIT_MAX_PARAMS], se[FIT_MAX_PARAMS], ci_low[FIT_MAX_PARAMS], ci_high[FIT_MAX_PARAMS];
  double cov[FIT_MAX_PARAMS][FIT_MAX_PARAMS]; /* s^2 (X'WX)^-1 */
  double rss;                                 /* weighted residual sum of squares */
  double scale;                               /* s^2 = max(1, rss / df) */
  double r2;                                  /* weighted R^2 (see above) */
  double chi2_p;                              /* P(chi^2_df >= rss) */
} fit_wls;

/* Fits y on `predictors` columns (x[j][i] is predictor j of point i), weights w (>= 0; a point
   of weight 0 is left out). Returns 1 when fitted, 0 when not (out->why says why: fewer points
   than parameters plus one, predictors that move together, a weight or value not a finite
   number, ...). Never reads past n points or FIT_MAX_PREDICTORS predictors. */
int fit_wls_run(const double *y, const double *const *x, int predictors, const double *w, int n,
                int intercept, fit_wls *out);

/* The fitted value and its standard error at a point x (predictors values, without the
   intercept's 1). */
double fit_wls_predict(const fit_wls *f, const double *x, double *se);

typedef struct fit_hinge {
  int ok;                     /* 1: both models fitted; 0: `why` says why not */
  char why[FIT_WHY_MAX];      /* "no knee: ..." when not ok, or fitted without a knee */
  int n;                      /* points with a weight above 0 */
  int knee;                   /* 1: the hinge fits better than the line (p < 0.05) */
  double knot;                /* the best knot (an observed x) */
  double knot_low, knot_high; /* the candidate knots within the F bound (see above) */
  double slope, slope_se;     /* b of the best hinge, its standard error (s^2 as in fit_wls) */
  double rss;                 /* the best hinge's RSS */
  double line_slope, line_se, line_rss; /* the straight line through 0 */
  double f, p;                          /* hinge against line */
} fit_hinge;

/* Fits the hinge and the line to (x, y) with weights w. Returns 1 when fitted (out->knee says
   whether there is a knee), 0 when not (fewer than 4 points, no knot with two points above it,
   a weight or value not a finite number; out->why). */
int fit_hinge_run(const double *x, const double *y, const double *w, int n, fit_hinge *out);

/* P(chi^2_df >= x) for a whole df >= 1 (closed forms); NaN otherwise. */
double fit_chi2_sf(double x, int df);
/* P(F_{d1,d2} >= f); NaN for d1, d2 not above 0. */
double fit_f_sf(double f, double d1, double d2);

#endif

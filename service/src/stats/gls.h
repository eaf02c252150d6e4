/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* gls.h - generalized least squares for the effects of load conditions that share one baseline:
   the cost model's coefficients, "does not cost" as an equivalence statement, and a knee test
   whose false rate under a straight line stays at most alpha (pure C11 + libm, no state;
   reference values from tests/reference/gls_reference.py, error rates from seeded simulations in
   test_stats_gls).

   ---------------------------------------------------------------------------------------------
   WHY GLS: the effect of condition i is measured against the same baseline as every other, so
   its error is e_i - e_0: Var = se_i^2 + se_0^2 and Cov(i, j) = se_0^2. Weighted least squares
   that treats the points as independent counts the baseline's error once per point: its
   intervals come out too wide for some coefficients and too narrow for others (98 % and 89 %
   coverage of the cost preset's two in test_stats_gls, where GLS gives 95 %), and its knee test
   is fooled by the shared error. GLS with that covariance V:
       b = (X' V^-1 X)^-1 X' V^-1 y,   Cov(b) = (X' V^-1 X)^-1
   (Cholesky of V, then least squares on the whitened system). With V known the intervals and
   tests use z (df = infinity); with V estimated from the run's blocks they use t on its df.

   V FROM THE BLOCKS (gls_effects_from_blocks): the randomized complete block model
   log score(g, b) = mu_g + beta_b + e, e of one variance s^2, fitted on the complete blocks
   (every group present). The effects mu_i - mu_0 then have Var 2 s^2 / n, Cov s^2 / n, s^2 the
   residual mean square on (G - 1)(n - 1) degrees of freedom: exactly the shared-baseline
   structure, estimated with all the run's degrees of freedom.

   "DOES NOT COST": a coefficient is called negligible only by equivalence, when TOST against
   +-margin rejects (gls_equivalence_p < alpha), never because its interval includes 0.

   THE KNEE: a dose series y_i at doses x_i > 0 (the baseline at dose 0) follows the line
   y = b x under H0. For each candidate knot k (an observed dose with at least one dose at or
   below it and two above) the model y = b x + c max(0, x - k) is fitted and c tested (two-sided,
   z or t). A knot chosen as the best of m candidates makes the smallest p too small (the F test
   of the shipped fit calls a knee in 11.6 % of straight-line runs); here p = min(1, m min p_k)
   (Bonferroni over the candidates), which holds the false rate at most alpha whatever their
   correlation.
   --------------------------------------------------------------------------------------------- */
#ifndef THREADSOUP_STATS_GLS_H
#define THREADSOUP_STATS_GLS_H

#include <stddef.h>

#define GLS_MAX_POINTS 32
#define GLS_MAX_PARAMS 3

typedef enum gls_status {
  GLS_OK = 0,
  GLS_EINVAL = -1,   /* NULL arrays, n or p out of range, confidence not in (0.5, 1), df not > 0 */
  GLS_EVALUE = -2,   /* a value, dose or variance not a finite number (a variance below 0) */
  GLS_ESINGULAR = -3 /* V not positive definite, or predictors that move together */
} gls_status;

typedef struct gls_fit {
  int status; /* a gls_status, as returned */
  int n, params;
  double df;         /* of the t quantiles; INFINITY: V known, z */
  double confidence; /* of the intervals */
  double coef[GLS_MAX_PARAMS], se[GLS_MAX_PARAMS];
  double ci_low[GLS_MAX_PARAMS], ci_high[GLS_MAX_PARAMS];
  double cov[GLS_MAX_PARAMS][GLS_MAX_PARAMS];
  double chi2; /* r' V^-1 r: chi^2 on n - params df when V and the model are right */
} gls_fit;

/* Fits y (n values) on x (n rows of p predictors, row-major, no implicit intercept) with
   covariance v (n x n, row-major). df: INFINITY when v is known, else the degrees of freedom of
   its estimate. Returns 0 or a negative gls_status (numbers NaN). */
int gls_run(const double *y, const double *x, int n, int p, const double *v, double df,
            double confidence, gls_fit *out);

/* V of k effects against one baseline: se_condition[i]^2 + se_baseline^2 on the diagonal,
   se_baseline^2 elsewhere (k x k into v). Returns 0 or GLS_EINVAL / GLS_EVALUE. */
int gls_shared_baseline_cov(const double *se_condition, int k, double se_baseline, double *v);

/* The effects of k conditions against the baseline from a blocked run (scores, NaN missing):
   effect[i] = mean over complete blocks of log(condition_i / baseline), v their covariance
   (k x k) under the block model above, *df its degrees of freedom, *blocks_used the complete
   blocks. Needs at least 2 complete blocks. Returns 0 or a negative gls_status. */
int gls_effects_from_blocks(const double *baseline, const double *const *conditions, int k,
                            size_t blocks, double *effect, double *v, double *df,
                            size_t *blocks_used);

/* Two-sided p of coefficient j against 0, and the TOST p against +-margin (in the coefficient's
   units): "does not cost" when the latter is below alpha. NaN for bad arguments. */
double gls_coefficient_p(const gls_fit *f, int j);
double gls_equivalence_p(const gls_fit *f, int j, double margin);

typedef struct gls_knee {
  int status;                   /* a gls_status, as returned */
  int candidates;               /* knots tried (m) */
  int knee;                     /* 1: p < alpha */
  double knot;                  /* the knot with the smallest p_k (NaN when no candidate) */
  double extra_slope, extra_se; /* c and its standard error at that knot */
  double p_min;                 /* the smallest p_k */
  double p;                     /* min(1, m p_min) */
  double slope, slope_se;       /* b of the straight line y = b x (GLS) */
} gls_knee;

/* The knee test above on doses x (n, each > 0), effects y and their covariance v, df as in
   gls_run. Fewer than one candidate knot is not an error: knee 0, p 1. */
int gls_knee_test(const double *x, const double *y, int n, const double *v, double df, double alpha,
                  gls_knee *out);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* dist.h - the quantiles and distribution functions the blocked statistics need (normal, Student
   t, F, chi-square), fast enough to be called once per comparison inside seeded simulations of
   thousands of runs (pure C11 + libm, no state; checked against SciPy in test_stats_blocked).

   The t and F functions build on stats_incbeta / stats_t_cdf (stats/stats.h, relative
   accuracy about 1e-13). stats_t_quantile there bisects (about 60 evaluations); dist_t_quantile
   starts from a Cornish-Fisher guess and takes secant steps on the lower tail, where the tail
   probability keeps its relative digits, so it needs about six evaluations for the same 1e-12
   (bisection stays the fallback far in the tail, below p = 1e-100 or so). Above 1e7 degrees of
   freedom, where the incomplete beta loses digits, both use the normal distribution with its
   first 1/df correction (relative error about 1e-12 there).
   Every function returns NaN for an argument outside its domain (NaN, p outside (0, 1), df not
   above 0), never crashes. */
#ifndef THREADSOUP_STATS_DIST_H
#define THREADSOUP_STATS_DIST_H

/* Standard normal: P(Z <= z), and its inverse for 0 < p < 1 (Acklam's rational approximation
   refined by one Halley step: relative error below 1e-15). */
double dist_normal_cdf(double z);
double dist_normal_quantile(double p);

/* Student t with df > 0 degrees of freedom (not necessarily whole; infinity means normal): the
   t with P(T <= t) = p, 0 < p < 1, relative accuracy about 1e-12. */
double dist_t_quantile(double p, double df);
/* P(T <= t), df as above (infinity means normal). */
double dist_t_cdf(double t, double df);

/* F distribution with d1, d2 > 0 degrees of freedom: P(F <= f), and the f with P(F <= f) = p. */
double dist_f_cdf(double f, double d1, double d2);
double dist_f_quantile(double p, double d1, double d2);

/* Chi-square with df > 0 (finite) degrees of freedom: the x with P(X <= x) = p, from the
   regularized incomplete gamma (relative accuracy about 1e-14). */
double dist_chi2_quantile(double p, double df);

#endif

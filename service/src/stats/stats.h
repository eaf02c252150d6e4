/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* stats.h - what the other statistics stand on: the description of a condition's scores, the
   incomplete beta and Student's t, the verdicts' names, the default margin, and the sensitivity
   of the unpaired comparison (Welch), which the report uses when a run has too few complete
   blocks to pair (one module, tested against reference values computed with SciPy).

   Scores are "higher is faster". Everything here is pure C11 + libm, keeps no global state and is
   deterministic. The comparison of a condition with the baseline and its verdict are in
   blocked.h (paired within blocks, on log ratios), with Holm across conditions in
   multiplicity.h.

   THE DEFAULT MARGIN M is STATS_DEFAULT_MARGIN_PERCENT = 1 %, a fixed number, not one derived
   from the data: an equivalence margin must be chosen before looking, or noisy data would widen
   its own margin and "prove" no effect. 1 % is about the smallest effect the original experiment
   reported (CPU-Z multi-thread -1.2 %, 7-Zip -1.1 % at 15,000 sleepers), so "no measurable effect"
   is not said of an effect that size (but for the test's 5 % error). A caller that only cares
   about coarser effects passes its own M. */
#ifndef THREADSOUP_STATS_H
#define THREADSOUP_STATS_H

#include <stddef.h>

/* The summary of one condition's scores. */
typedef struct stats_description {
  size_t n;
  double mean;
  double median; /* mean of the two middle values when n is even */
  double sd;     /* sample standard deviation (n - 1); 0 when n < 2 */
  double cv;     /* coefficient of variation sd / mean (a fraction: 0.02 = 2 %); NaN if mean 0 */
  double min;
  double max;
} stats_description;

/* Fills *out (all zero when n is 0). Returns 0, or -1 when out of memory (the median sorts a
   copy). */
int stats_describe(const double *values, size_t n, stats_description *out);
/* The median of values (NaN when n is 0, or out of memory). */
double stats_median(const double *values, size_t n);

/* --- special functions ---------------------------------------------------------------------- */
/* Regularized incomplete beta I_x(a, b), a > 0, b > 0, 0 <= x <= 1 (NaN outside). Continued
   fraction by the modified Lentz method, relative accuracy about 1e-13 or better. */
double stats_incbeta(double a, double b, double x);
/* Student t distribution with df > 0 (not necessarily whole) degrees of freedom: P(T <= t). */
double stats_t_cdf(double t, double df);
/* Its inverse: the t with P(T <= t) = p, 0 < p < 1. */
double stats_t_quantile(double p, double df);

/* --- a condition against the baseline --------------------------------------------------------- */
#define STATS_MIN_TRIALS 3
#define STATS_DEFAULT_MARGIN_PERCENT 1.0

typedef enum stats_verdict {
  STATS_INCONCLUSIVE = 0,
  STATS_SLOWER,
  STATS_FASTER,
  STATS_NO_EFFECT /* no measurable effect: within +-M % */
} stats_verdict;

/* The short name of a verdict: "slower", "faster", "no measurable effect", "inconclusive". */
const char *stats_verdict_name(stats_verdict v);

/* --- sensitivity ----------------------------------------------------------------------------
   What a comparison could have found: the smallest effect Welch's test (two-sided, 5 %) detects
   with 80 % power, given the spread and the counts the run had. With it "no measurable effect"
   and "inconclusive" come with a size: effects at least this large would most likely have been
   seen. The power uses the usual normal-theory approximation with t quantiles,
       detectable = (t(0.975, df) + t(0.80, df)) * se,
   se and df as Welch's; the exact power at that effect (noncentral t) is 0.78 to 0.80 for the
   df a run has (checked against SciPy in test_stats). Effects are in % of the baseline mean. */
#define STATS_POWER 0.80

typedef struct stats_sensitivity {
  double detectable_percent; /* smallest effect found with 80 % power; NaN when a group has fewer
                                than 2 scores or the baseline mean is not above 0; 0 when both
                                groups are constant */
  double se_percent;         /* Welch's standard error of the difference, % of the baseline */
  double df;                 /* Welch-Satterthwaite degrees of freedom */
} stats_sensitivity;

/* The sensitivity of comparing condition with baseline. Returns 0, or -1 (fields NaN) when it
   cannot be computed (see detectable_percent). */
int stats_sensitivity_of(const double *baseline, size_t nb, const double *condition, size_t nc,
                         stats_sensitivity *out);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* stats.h - the statistics of a set of scores and of a load condition against the baseline (one
   module, tested against reference values computed with SciPy and R).

   Scores are "higher is faster". Everything here is pure C11 + libm, keeps no global state and is
   deterministic: the bootstrap draws from a generator seeded by the caller (splitmix64 seeding
   xoshiro256**), so the same scores and the same seed give the same numbers on every platform.

   ---------------------------------------------------------------------------------------------
   THE VERDICT RULE (stats_compare), for a condition's scores against the baseline's:

     d = 100 * (mean(condition) / mean(baseline) - 1)      the % difference of means

   1. "inconclusive" (too few trials) when either group has fewer than STATS_MIN_TRIALS (3)
      scores; also (unusable scores) when a score is not finite or a baseline score is <= 0.
   2. "slower" / "faster" when BOTH
        - the 95 % percentile-bootstrap CI of d excludes 0, and
        - Welch's t-test gives a two-sided p < 0.05,
      agreeing in direction. Two methods must agree, so noise is not called an effect (the
      percentile bootstrap alone gives too narrow a CI for small n; Welch does not).
   3. "no measurable effect (within +-M %)" when BOTH
        - the 90 % percentile-bootstrap CI of d lies strictly inside (-M, +M), and
        - the Welch TOST (two one-sided tests at 5 %, the margin turned into score units as
          M/100 * mean(baseline)) rejects both "d <= -M" and "d >= +M",
      i.e. the difference is shown, at 95 % confidence, to be smaller than M.
   4. "inconclusive" otherwise: the data can neither show an effect nor rule one out; more trials
      (see stats_precision_reached) may decide it.
   Rule 2 is checked before rule 3: a tiny but real effect is reported as an effect (and
   stats_comparison.within_margin says it is also inside the margin).

   THE DEFAULT MARGIN M is STATS_DEFAULT_MARGIN_PERCENT = 1 %, a fixed number, not one derived
   from the data: an equivalence margin must be chosen before looking, or noisy data would widen
   its own margin and "prove" no effect. 1 % is about the smallest effect the original experiment
   reported (CPU-Z multi-thread -1.2 %, 7-Zip -1.1 % at 15,000 sleepers), so "no measurable effect"
   is not said of an effect that size (but for the test's 5 % error). A caller that only cares
   about coarser effects passes its own M.
   --------------------------------------------------------------------------------------------- */
#ifndef THREADSOUP_STATS_H
#define THREADSOUP_STATS_H

#include <stddef.h>
#include <stdint.h>

/* The short summary the text report uses (kept as it was: five fields). */
typedef struct stats_summary {
  size_t n;
  double mean;
  double sd; /* sample standard deviation (n - 1); 0 when n < 2 */
  double min;
  double max;
} stats_summary;

void stats_summarize(const double *values, size_t n, stats_summary *out);
/* Percent difference of `value` against `reference`: +5 means 5 % higher. NaN if reference is 0. */
double stats_percent_change(double value, double reference);

/* The full summary of one condition's scores. (A separate struct, not more fields in
   stats_summary, because report/text.c initialises stats_summary with five positional values and
   -Wmissing-field-initializers would fail that build.) */
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

/* --- tests -------------------------------------------------------------------------------- */
typedef struct stats_welch_result {
  double t;  /* (mean(x) - mean(y)) / sqrt(var(x)/nx + var(y)/ny) */
  double df; /* Welch-Satterthwaite degrees of freedom */
  double p;  /* two-sided p-value */
  double se; /* the standard error of mean(x) - mean(y) */
} stats_welch_result;

/* Welch's unequal-variance t-test of x against y. Needs nx, ny >= 2 (else every field is NaN and
   the return is -1). When both variances are 0, p is 1 for equal means and 0 otherwise. */
int stats_welch(const double *x, size_t nx, const double *y, size_t ny, stats_welch_result *out);

/* The Mann-Whitney U test is exact when there are no ties and both groups are this small. */
#define STATS_MW_EXACT_MAX 10

typedef struct stats_mw_result {
  double u;  /* U of x: pairs with x > y, plus half the tied pairs */
  double p;  /* two-sided p-value */
  int exact; /* 1: exact null distribution; 0: normal approximation with tie and continuity
                correction (SciPy's method="asymptotic", use_continuity=True) */
} stats_mw_result;

/* Mann-Whitney U test of x against y. Returns 0, or -1 when a group is empty or out of memory. */
int stats_mann_whitney(const double *x, size_t nx, const double *y, size_t ny,
                       stats_mw_result *out);

/* --- a condition against the baseline --------------------------------------------------------- */
#define STATS_MIN_TRIALS 3
#define STATS_DEFAULT_RESAMPLES 2000
#define STATS_DEFAULT_MARGIN_PERCENT 1.0

/* Options; an all-zero struct ({0}) means seed 0 and every default. */
typedef struct stats_options {
  uint64_t seed;         /* of the bootstrap; same seed, same result */
  unsigned resamples;    /* bootstrap resamples B; 0 means STATS_DEFAULT_RESAMPLES */
  double margin_percent; /* equivalence margin M in %; <= 0 or NaN means the default (1 %) */
} stats_options;

typedef enum stats_verdict {
  STATS_INCONCLUSIVE = 0,
  STATS_SLOWER,
  STATS_FASTER,
  STATS_NO_EFFECT /* no measurable effect: within +-M % */
} stats_verdict;

typedef struct stats_comparison {
  stats_description baseline, condition;
  double percent;                         /* d: 100 * (mean(condition) / mean(baseline) - 1) */
  double ci95_low, ci95_high;             /* percentile bootstrap of d (ratio of means) */
  double ci90_low, ci90_high;             /* the same resamples, 90 % */
  double welch_ci95_low, welch_ci95_high; /* Welch's CI of the mean difference, in % of the
                                             baseline mean (its uncertainty ignored) */
  stats_welch_result welch;               /* condition against baseline */
  stats_mw_result mann_whitney; /* condition against baseline; reported, not in the verdict */
  double margin_percent;        /* M as used */
  double tost_p;                /* the larger of the two one-sided Welch p-values */
  int too_few;                  /* rule 1: fewer than STATS_MIN_TRIALS scores in a group */
  int unusable;                 /* rule 1: a score not finite, or a baseline score <= 0 */
  int within_margin;            /* rule 3's conditions hold (also set alongside an effect) */
  stats_verdict verdict;
} stats_comparison;

/* Compares a condition's scores with the baseline's and applies the verdict rule above. With
   too_few or unusable set, only the descriptions (and percent, when it exists) are filled; the
   rest is NaN. options may be NULL (all defaults).
   Returns 0, or -1 when out of memory (out->verdict is then STATS_INCONCLUSIVE). */
int stats_compare(const double *baseline, size_t nb, const double *condition, size_t nc,
                  const stats_options *options, stats_comparison *out);

/* The short name of a verdict: "slower", "faster", "no measurable effect", "inconclusive". */
const char *stats_verdict_name(stats_verdict v);

/* The verdict as one line of text, written like snprintf (returns the length it needs), e.g.
     slower by 3.2 % (95 % CI 2.1 to 4.3 %)
     faster by 0.42 % (95 % CI 0.11 to 0.73 %; within the ±1.0 % margin)
     no measurable effect (within ±1.0 %)
     inconclusive: -0.8 % (95 % CI -2.1 to 0.5 %), neither an effect nor within ±1.0 %
     inconclusive: too few trials (2 baseline, 10 condition; at least 3 each)
     inconclusive: unusable scores (not finite, or a baseline score at or below 0)
   The "±" is UTF-8. */
int stats_format_verdict(const stats_comparison *c, char *buf, size_t size);

/* --- sensitivity ----------------------------------------------------------------------------
   What a comparison could have found: the smallest effect Welch's test (two-sided, 5 %) detects
   with 80 % power, given the spread and the counts the run had. With it "no measurable effect"
   and "inconclusive" come with a size: effects at least this large would most likely have been
   seen. The power uses the usual normal-theory approximation with t quantiles,
       detectable = (t(0.975, df) + t(0.80, df)) * se,
   se and df as Welch's; the exact power at that effect (noncentral t) is 0.78 to 0.80 for the
   df a run has (checked against SciPy in test_stats). Effects are in % of the baseline mean. */
#define STATS_POWER 0.80
#define STATS_TRIALS_NEEDED_MAX 100000L

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

/* How many scores each group needs (the same number in both, at least STATS_MIN_TRIALS) for the
   detectable effect to be at most target_percent, when one score's standard deviation is
   sd_baseline_percent and sd_condition_percent (each in % of the baseline mean). Returns that
   number; STATS_TRIALS_NEEDED_MAX + 1 when even that many are not enough; 0 when an argument is
   not a finite number above 0 (a standard deviation may be 0). */
long stats_trials_for_detectable(double sd_baseline_percent, double sd_condition_percent,
                                 double target_percent);

/* The detectable effect (as above) and the 95 % CI half-width of Welch's test, t(0.975, df) * se,
   with n scores in each group of standard deviations sd_baseline_percent and
   sd_condition_percent (in % of the baseline mean): what a planned run can expect. NaN when n < 2
   or a standard deviation is not a finite number >= 0; 0 when both are 0. */
double stats_detectable_for_trials(long n, double sd_baseline_percent, double sd_condition_percent);
double stats_half_width_for_trials(long n, double sd_baseline_percent, double sd_condition_percent);
/* Like stats_trials_for_detectable, for the 95 % CI half-width (what --precision stops on). */
long stats_trials_for_half_width(double sd_baseline_percent, double sd_condition_percent,
                                 double target_percent);

/* --- adaptive repetition -------------------------------------------------------------------- */
/* Whether every comparison is precise enough to stop adding trials: for each of the k conditions
   (conditions[i], counts[i]) against the baseline, both groups have at least STATS_MIN_TRIALS
   scores and the 95 % CI half-width of d is at most target_percent. The half-width is the larger
   of the bootstrap CI's and Welch's (the bootstrap alone is too optimistic for few trials).
   Each condition is compared exactly as stats_compare(baseline, nb, conditions[i], counts[i],
   options, ...) does, so with the same options the CIs are the ones the report will show. The
   largest half-width goes to *worst_half_width when it is not NULL (infinity when a group is too
   small or unusable; 0 when k is 0). Returns 1 (precise enough: stop; also when k is 0), 0 (add a
   block of trials), or -1 (out of memory). */
int stats_precision_reached(const double *baseline, size_t nb, const double *const *conditions,
                            const size_t *counts, size_t k, double target_percent,
                            const stats_options *options, double *worst_half_width);

#endif

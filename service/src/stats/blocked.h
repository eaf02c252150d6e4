/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* blocked.h - a load condition against the baseline when the run was made of blocks (each block
   runs every condition once, in random order): the paired comparison on log ratios, its interval,
   equivalence test and verdict, what it could detect and how many more blocks it needs (pure C11
   + libm, no I/O, no state; reference values from tests/reference/blocked_reference.py and
   error rates from seeded simulations in test_stats_blocked).

   ---------------------------------------------------------------------------------------------
   WHY PAIRED: the machine drifts and a block's trials share its state, so trials of one block
   are correlated (about 0.54 on a busy 2-core machine). Comparing the condition with the
   baseline inside each block removes what the block shares; an analysis that drops the block
   needs 1.4 to 2.4 times the blocks for the same interval.

   WHY GEOMETRIC (logs): a benchmark gives a rate (higher = faster) or a time (lower = faster).
   Per complete block b, d_b = log(condition_b / baseline_b). The effect is the ratio of geometric
   means, exp(mean d), given as a percent change 100 (exp(mean d) - 1). On the log scale a 10 %
   faster rate and the 10 % shorter time that goes with it are the same size with opposite signs,
   the noise of a rate (multiplicative) becomes additive and nearly symmetric, and the margin is
   the same whether the score is a rate or a time. The margin M % is the band
   |mean d| < log(1 + M/100): a ratio between 1/(1 + M/100) and 1 + M/100.

   THE INTERVALS: with n complete blocks, s the standard deviation of the d_b,
       mean d  +-  t(1 - alpha/2, n - 1) s / sqrt(n)           the effect's interval (confidence
                                                               1 - alpha, 0.95 unless Holm-adjusted)
       mean d  +-  t(1 - alpha_eq, n - 1) s / sqrt(n)          the equivalence interval (1 - 2
                                                               alpha_eq, 90 % for alpha_eq = 5 %)
   The second is TOST: both one-sided tests against -+log(1 + M/100) reject at alpha_eq exactly
   when it lies inside the band.

   THE VERDICT is decided by exactly these two intervals, nothing else:
     slower / faster         the effect's interval excludes 0 (the direction is the sign of mean d,
                             turned round when lower scores are faster);
     no measurable effect    otherwise, when the equivalence interval lies inside +-M;
     inconclusive            otherwise, or with too few scores.
   A tiny real effect is reported as an effect; `within_margin` says it is also inside M.

   UNPAIRED FALLBACK: with fewer than BLOCKED_MIN_PAIRS complete blocks (failed trials), the
   comparison uses every score there is: Welch's t on the log scores, flagged `paired = 0`.
   --------------------------------------------------------------------------------------------- */
#ifndef THREADSOUP_STATS_BLOCKED_H
#define THREADSOUP_STATS_BLOCKED_H

#include <stddef.h>

#include "stats.h"

#define BLOCKED_MIN_PAIRS 3
#define BLOCKED_DEFAULT_CONFIDENCE 0.95
#define BLOCKED_DEFAULT_EQUIVALENCE_ALPHA 0.05
#define BLOCKED_POWER 0.80
#define BLOCKED_BLOCKS_MAX 100000L

/* What went wrong, as a negative return; the result is then filled with NaN and the verdict
   "inconclusive". */
typedef enum blocked_status {
  BLOCKED_OK = 0,
  BLOCKED_EINVAL = -1, /* a NULL array or result, a confidence not in (0.5, 1), an equivalence
                          alpha not in (0, 0.5), a margin not a finite number above 0 */
  BLOCKED_ESCORE = -2, /* a score infinite or at or below 0 (NaN is a missing score, accepted) */
  BLOCKED_ETOOFEW = -3 /* fewer than BLOCKED_MIN_PAIRS complete blocks and fewer than 2 scores in
                          a group: nothing to estimate a spread from */
} blocked_status;

/* Options; an all-zero struct means every default. */
typedef struct blocked_options {
  double confidence;        /* of the effect's interval; 0 means BLOCKED_DEFAULT_CONFIDENCE */
  double equivalence_alpha; /* of each one-sided test of TOST; 0 means 0.05 */
  double margin_percent;    /* M; 0 means STATS_DEFAULT_MARGIN_PERCENT (1 %) */
  int lower_is_faster;      /* 1: the scores are times; 0: rates (higher is faster) */
} blocked_options;

typedef struct blocked_result {
  int status;   /* a blocked_status, as returned */
  int paired;   /* 1: on complete blocks; 0: unpaired fallback (Welch on log scores) */
  size_t pairs; /* complete blocks (both scores present) */
  size_t n_baseline, n_condition; /* scores used */
  double log_effect;              /* mean d (paired) or mean log c - mean log b (unpaired) */
  double sd_log;                  /* paired: s of the d_b; unpaired: NaN */
  double se, df;                  /* of log_effect (Welch-Satterthwaite df when unpaired) */
  double confidence;              /* of ci_*, as used */
  double equivalence_alpha;       /* as used */
  double margin_percent;          /* M as used */
  double percent;                 /* 100 (exp(log_effect) - 1) */
  double ci_low, ci_high;         /* the effect's interval, in % */
  double eq_low, eq_high;         /* the equivalence interval, in % */
  double t, p;                    /* log_effect / se and its two-sided p */
  double tost_p;                  /* the larger one-sided p of TOST */
  int within_margin;              /* the equivalence interval lies inside +-M */
  stats_verdict verdict;
} blocked_result;

/* Compares condition with baseline over `blocks` blocks: baseline[b] and condition[b] are the
   scores of block b, NaN when that trial is missing. options may be NULL. Returns 0 or a
   negative blocked_status (also in out->status, unless out is NULL). */
int blocked_compare(const double *baseline, const double *condition, size_t blocks,
                    const blocked_options *options, blocked_result *out);

/* --- planning ------------------------------------------------------------------------------- */
/* The smallest effect (in %, a slowdown of a rate: 100 (1 - exp(-delta))) the paired test at
   `confidence` finds with probability `power` in `blocks` blocks when the log ratios have
   standard deviation sd_log:  delta = (t(1 - alpha/2, n - 1) + t(power, n - 1)) sd_log / sqrt(n)
   (the usual approximation; the exact noncentral-t power at delta is within 0.02 of `power` from
   n = 5 on). NaN when blocks < 2, sd_log not finite >= 0, or a level outside (0, 1). */
double blocked_detectable_percent(double sd_log, size_t blocks, double confidence, double power);

/* The number of blocks (at least BLOCKED_MIN_PAIRS) whose effect interval at `confidence` has a
   half-width of at most target_percent (as a log ratio: log(1 + target/100)) when the log ratios
   have standard deviation sd_log. BLOCKED_BLOCKS_MAX + 1 when even that many are not enough; 0
   when an argument is out of range. */
long blocked_blocks_for_half_width(double sd_log, double target_percent, double confidence);

/* The number of blocks (at least BLOCKED_MIN_PAIRS) whose detectable effect
   (blocked_detectable_percent at `confidence` and `power`) is at most target_percent (in (0,
   100)), found by the same bisection. BLOCKED_BLOCKS_MAX + 1 when even that many are not enough;
   0 when an argument is out of range. */
long blocked_blocks_for_detectable(double sd_log, double target_percent, double confidence,
                                   double power);

/* How many blocks to add to a comparison r (paired) for its interval to reach target_percent,
   from its own spread: blocked_blocks_for_half_width(r->sd_log, ...) - r->pairs, at least 0.
   -1 when r is not a paired result. */
long blocked_further_blocks(const blocked_result *r, double target_percent);

/* --- spread ----------------------------------------------------------------------------------- */
typedef struct blocked_variance_ratio {
  double ratio;           /* var(log condition) / var(log baseline) */
  double ci_low, ci_high; /* ratio / F(1 - alpha/2; dc, db) .. ratio / F(alpha/2; dc, db) */
  double df_condition, df_baseline;
} blocked_variance_ratio;

/* The variance ratio of the condition's log scores to the baseline's (all present scores of each;
   the F interval treats the two groups as independent, so block effects shared by both make it
   wider than it need be, not narrower). Returns 0, or BLOCKED_EINVAL / BLOCKED_ESCORE /
   BLOCKED_ETOOFEW (fewer than 2 scores in a group, or a baseline variance of 0), fields NaN. */
int blocked_variance_ratio_of(const double *baseline, const double *condition, size_t blocks,
                              double confidence, blocked_variance_ratio *out);

#endif

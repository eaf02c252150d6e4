/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* drift.h - whether the machine (or a load's effect) changed during a blocked run: the trend
   over blocks with its interval, flagged only when the change it implies is surely larger than
   the margin (pure C11 + libm, no state; false alarms checked by seeded simulation in
   test_stats_drift).

   ---------------------------------------------------------------------------------------------
   THE TREND: y_b = log of the value of block b (a score, or the block's log ratio of condition
   to baseline); the least-squares line y = a + s b over the blocks present, s with its t
   interval on n - 2 degrees of freedom. The change over the run is s (b_last - b_first), given
   as a percent 100 (exp(change) - 1) with its interval.

   THE FLAG: "the machine changed" (or "the effect changed") only when the change's interval
   lies wholly outside +-M, i.e. the change is shown to be larger than the margin M that the
   run's verdicts use. A test of s = 0 instead fires on any drift a sensitive run can see, and
   with noisy blocks on most runs (87 % of runs with no drift at all for the flag it replaces);
   this one fires, when nothing changed, in at most alpha / 2 of runs (one side of the interval
   must clear the margin, which is harder than clearing 0).
   --------------------------------------------------------------------------------------------- */
#ifndef THREADSOUP_STATS_DRIFT_H
#define THREADSOUP_STATS_DRIFT_H

#include <stddef.h>

#define DRIFT_MIN_BLOCKS 3

typedef enum drift_status {
  DRIFT_OK = 0,
  DRIFT_EINVAL = -1, /* NULL arrays, a confidence not in (0.5, 1), a margin not finite above 0 */
  DRIFT_EVALUE = -2, /* a value infinite or at or below 0 (NaN: missing, accepted) */
  DRIFT_ETOOFEW = -3 /* fewer than DRIFT_MIN_BLOCKS blocks with a value */
} drift_status;

typedef struct drift_trend {
  int status;                     /* a drift_status, as returned */
  size_t n;                       /* blocks used */
  double slope, se, df;           /* s per block on the log scale, its standard error, n - 2 */
  double change_percent;          /* 100 (exp(s (b_last - b_first)) - 1) */
  double change_low, change_high; /* its interval at `confidence`, in % */
  double confidence, margin_percent;
  int flagged; /* the interval lies wholly outside +-margin */
} drift_trend;

/* The trend of values[0..blocks-1] (positive scores, NaN missing) over the blocks. confidence 0
   means 0.95, margin_percent 0 means STATS_DEFAULT_MARGIN_PERCENT. Returns 0 or a negative
   drift_status (numbers NaN, not flagged). */
int drift_of_scores(const double *values, size_t blocks, double confidence, double margin_percent,
                    drift_trend *out);

/* The trend of the condition's effect: of condition[b] / baseline[b] over the complete blocks. */
int drift_of_effect(const double *baseline, const double *condition, size_t blocks,
                    double confidence, double margin_percent, drift_trend *out);

#endif

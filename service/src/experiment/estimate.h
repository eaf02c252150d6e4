/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* estimate.h - what a plan can detect and how long it takes, before it runs: from this machine's
   history of the same benchmarks in the database, or from a short pilot run that becomes history.

   THE ESTIMATE, per benchmark of a plan:
   - history: the done, measured, non-warm-up trials of the plan's reference condition ("baseline",
     else its first) of earlier runs on this host (the run's stored host name) whose stored plan
     has the same work scale; the newest ESTIMATE_MAX_RUNS such runs with at least two scores;
   - spread: the within-run standard deviation, each run's sample standard deviation in % of its
     own mean, pooled over runs by their degrees of freedom, sqrt(sum (n_i - 1) cv_i^2 / sum (n_i -
     1)). Within a run, not across runs: a run compares its conditions with its own interleaved
     baseline, so the slow drift between runs (another day, another temperature) does not widen
     its intervals, and must not widen the estimate;
   - detectable effect with the plan's blocks: stats_detectable_for_trials(blocks, sd, sd), the
     condition assumed as spread as the baseline;
   - time: trials x (median measured trial seconds + settle), summed over benchmarks; the quiet
     gate's waits and the load's start are not in it;
   - a precision target (the plan's --precision, else 1 %): the blocks until the 95 % CI half-width
     is at most the target (stats_trials_for_half_width, what adaptive repetitions stop on), and
     the plan's time with that many blocks. */
#ifndef THREADSOUP_ESTIMATE_H
#define THREADSOUP_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

#include "../store/store.h"
#include "experiment.h"
#include "../plan/plan.h"

#define ESTIMATE_MAX_RUNS 20
#define ESTIMATE_PILOT_PLAN "estimate-pilot"
#define ESTIMATE_PILOT_BLOCKS 5
#define ESTIMATE_DEFAULT_TARGET_PERCENT 1.0

typedef struct estimate_bench {
  char bench[PLAN_BENCH_MAX];
  int have_history;          /* 0: no comparable history; the numbers below are NaN or 0 */
  int runs;                  /* earlier runs whose spread was pooled */
  int trials;                /* their scores */
  double sd_percent;         /* the pooled within-run standard deviation, % of each run's mean */
  double median_seconds;     /* median measured trial seconds; NaN when none was measured */
  double detectable_percent; /* with the plan's blocks (reps) */
  double seconds;            /* this benchmark's trials with reps blocks; NaN: not known */
  long target_blocks;        /* blocks for a 95 % CI half-width <= the target; 0: not
                                known; STATS_TRIALS_NEEDED_MAX + 1: more than that */
  double target_detectable_percent; /* what target_blocks would detect */
} estimate_bench;

typedef struct estimate {
  char host[128];
  char reference[128]; /* the reference condition whose history was read */
  long blocks;         /* the plan's blocks (reps) */
  double settle_s;
  double target_percent; /* the plan's precision, else ESTIMATE_DEFAULT_TARGET_PERCENT */
  int bench_count;
  estimate_bench benches[PLAN_MAX_BENCHES];
  int any_history; /* at least one benchmark has history */
  int all_timed;   /* every benchmark has a median trial time */
} estimate;

/* Estimates plan p from the history in s on `host` (NULL: this machine's name). */
int estimate_plan(store *s, const plan *p, const char *host, estimate *out, ts_err *err);

/* The plan's time in seconds with `blocks` blocks: NaN unless all_timed. */
double estimate_plan_seconds(const estimate *e, const plan *p, long blocks);
/* One benchmark's trials' time with `blocks` blocks; NaN when its trial time is not known. */
double estimate_bench_seconds(const estimate *e, const plan *p, int bench, long blocks);

/* One line for benchmark i, written like snprintf, e.g.
     builtin-st: this plan can tell effects of ±2.4 % or more in about 9 minutes; --precision 1%
     would need about 40 blocks, 25 minutes
     no history of builtin-st on this machine yet: `run --estimate` measures a short pilot */
int estimate_line(const estimate *e, const plan *p, int i, char *buf, size_t len);
/* What the line stands on, e.g. "builtin-st: within-run spread 1.8 % from 3 earlier runs (24
   trials), median trial 2.1 s". 0 and "" without history. */
int estimate_basis(const estimate *e, int i, char *buf, size_t len);

/* "about 40 seconds", "about 9 minutes", "about 2.5 hours", "about 3 days". */
void estimate_duration_words(double seconds, char *buf, size_t len);

/* The pilot of plan p: its reference condition alone, ESTIMATE_PILOT_BLOCKS blocks, at most one
   warm-up, no precision target, named ESTIMATE_PILOT_PLAN; everything else as p. */
void estimate_pilot_plan(const plan *p, plan *pilot);

#endif

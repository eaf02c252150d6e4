/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* estimate.h - what a plan can detect and how long it takes, before it runs: from this machine's
   history of the same benchmarks in the database, or from a short pilot run that becomes history.

   THE ESTIMATE, per benchmark of a plan:
   - history: the done, measured, non-warm-up trials of every condition of earlier runs on this
     host (the run's stored host name) whose stored plan has the same work scale; the newest
     ESTIMATE_MAX_RUNS such runs (a trial stored in a block no run writes, beyond PLAN_MAX_REPS,
     left out);
   - spread: the report compares each condition with its run's reference condition ("baseline",
     else the run's first) within blocks, on log ratios (stats/blocked.h), so the spread that
     decides its intervals is that of the paired log ratios d_b = log(condition_b / reference_b).
     Per run and condition, the sample variance of its d_b (at least 2 complete blocks); pooled
     over every run and condition by degrees of freedom: sd = sqrt(sum (n_i - 1) s_i^2 / sum
     (n_i - 1)). Within a run, not across runs: the slow drift between runs does not widen a
     run's intervals, and must not widen the estimate;
   - its range: the 80 % confidence interval of that pooled sd from the chi-square distribution
     with the pooled degrees of freedom, sd sqrt(df / chi2(0.90, df)) .. sd sqrt(df / chi2(0.10,
     df)): with one short pilot the range is wide, as the truth is;
   - detectable effect with the plan's blocks: blocked_detectable_percent(sd, blocks, 0.95, 80 %
     power), printed with the same at both ends of the sd's range;
   - time: the real wall time of a trial, from finished_at - started_at of the stored trials
     (load start, settle, the quiet gate, census, benchmark and teardown are all in it): per run
     the mean over its trials, moved by the plan's settle minus that run's; the plan's time is
     its trials (warm-ups included) x the median over runs, printed with the 25th to 75th
     percentile over runs (linear interpolation between order statistics, as NumPy's default);
   - a precision target, precision_target(plan) (its precision, else 0.62 x its margin): the
     blocks until the 95 % interval's half-width is at most the target
     (blocked_blocks_for_half_width with the pooled sd, what adaptive repetitions stop on), and
     the plan's time with that many blocks;
   - the same paired log ratios by each run's benchmark runs per trial (iter.count), and the
     trials' wall time besides their benchmark (its measured seconds), moved by the settle as the
     trial time: what iterations = auto chooses from (stats/dimension.h, experiment.c);
   - runs per trial: the plan's iterations, or for auto the count the run would choose from this
     history; the spread is then that of the earlier runs of that count where they have
     DIMENSION_MIN_DF degrees of freedom (else the pooled one above), and each earlier run's trial
     time is its time around the benchmark plus that many of its runs (its wall time as it was
     where those are not known), so runs of another count neither narrow nor lengthen it. */
#ifndef THREADSOUP_ESTIMATE_H
#define THREADSOUP_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

#include "../stats/dimension.h"
#include "../store/store.h"
#include "experiment.h"
#include "../plan/plan.h"

#define ESTIMATE_MAX_RUNS 20
#define ESTIMATE_PILOT_PLAN "estimate-pilot"
#define ESTIMATE_PILOT_BLOCKS 5
#define ESTIMATE_SPREAD_CONFIDENCE 0.80 /* of the pooled sd's interval */

/* The three numbers of a range: its low end, its middle (the estimate itself), its high end. */
enum { ESTIMATE_LOW, ESTIMATE_MID, ESTIMATE_HIGH, ESTIMATE_RANGE };

/* One earlier run's trial times, moved by the plan's settle minus the run's. */
typedef struct estimate_run_time {
  double wall_s;   /* a trial's mean wall time */
  double around_s; /* its mean wall time besides the benchmark; NaN when not known */
  double run_s;    /* one benchmark run's mean seconds; NaN when not known */
} estimate_run_time;

typedef struct estimate_bench {
  char bench[PLAN_BENCH_MAX];
  int have_history;    /* 0: no paired history; the spread and effects below are NaN or 0 */
  int runs;            /* earlier runs whose paired log ratios were pooled */
  int ratios;          /* their log ratios */
  double df;           /* the pooled sd's degrees of freedom */
  int runs_per_trial;  /* the count the estimate is for (estimate.runs_per_trial) */
  int spread_of_count; /* 1: the spread is that of earlier runs of runs_per_trial runs per trial
                          (enough of them, or only they);
                          0: of every count, pooled (too few of that count) */
  int timed_runs;      /* earlier runs whose trials' wall time is known */
  double sd_log[ESTIMATE_RANGE];             /* the pooled sd of the log ratios and its 80 % CI */
  double trial_seconds[ESTIMATE_RANGE];      /* a trial's real wall time: median, 25th, 75th
                                                percentile over runs; NaN when not known */
  double detectable_percent[ESTIMATE_RANGE]; /* with the plan's blocks (reps), at each sd */
  double seconds[ESTIMATE_RANGE];            /* this benchmark's trials with reps blocks */
  long target_blocks;               /* blocks for a 95 % CI half-width <= the target; 0: not known;
                                       BLOCKED_BLOCKS_MAX + 1: more than that */
  double target_detectable_percent; /* what target_blocks would detect */
  dimension_tally by_runs;          /* the same paired log ratios by the runs' runs per trial, for
                                       iterations = auto (stats/dimension.h) */
  double around_seconds; /* a trial's wall time besides its benchmark (load start, settle, gate,
                            census, teardown): the mean over runs, moved by the plan's settle
                            minus the run's; NaN when not known */
  double run_seconds;    /* one benchmark run's seconds, the mean over runs; NaN when not known */
  estimate_run_time times[ESTIMATE_MAX_RUNS]; /* the timed runs' (timed_runs of them) */
  int runs_by_count[DIMENSION_MAX_RUNS + 1];  /* runs and log ratios by runs per trial */
  int ratios_by_count[DIMENSION_MAX_RUNS + 1];
} estimate_bench;

typedef struct estimate {
  char host[128];
  long blocks; /* the plan's blocks (reps) */
  double settle_s;
  double target_percent; /* precision_target(plan) */
  int bench_count;
  estimate_bench benches[PLAN_MAX_BENCHES];
  int any_history;    /* at least one benchmark has history */
  int all_timed;      /* every benchmark has a trial time */
  int runs_per_trial; /* the plan's iterations, or what auto would choose from this history */
} estimate;

/* The dimension_plan (stats/dimension.h) of plan p for trials of around_s around runs of run_s,
   after warm-ups that took warmups_s: its trials per block, the time left for its blocks, its
   least blocks and the usual count. */
void estimate_dimension_plan(const plan *p, double around_s, double run_s, double warmups_s,
                             dimension_plan *d);

/* Estimates plan p from the history in s on `host` (NULL: this machine's name). */
int estimate_plan(store *s, const plan *p, const char *host, estimate *out, ts_err *err);

/* The plan's time in seconds with `blocks` blocks at one end of the range (ESTIMATE_LOW, _MID,
   _HIGH): NaN unless all_timed. */
double estimate_plan_seconds(const estimate *e, const plan *p, long blocks, int end);
/* One benchmark's trials' time with `blocks` blocks; NaN when its trial time is not known. */
double estimate_bench_seconds(const estimate *e, const plan *p, int bench, long blocks, int end);

/* One line for benchmark i, written like snprintf, e.g.
     builtin-st: this plan can tell effects of ±2.4 % (1.9 to 3.3 %) or more in about 9 minutes
     (8 to 11 minutes); --precision 0.62% would need about 47 blocks, about 25 minutes
     no history of builtin-st on this machine yet: `run --estimate` measures a short pilot */
int estimate_line(const estimate *e, const plan *p, int i, char *buf, size_t len);
/* What the line stands on, e.g. "builtin-st: paired spread 1.8 % (80 % CI 1.4 to 2.6 %) from 24
   log ratios of 3 earlier runs on host-a, trial 7.2 s (7.1 to 7.4 s) from 3 runs". 0 and "" without
   history. */
int estimate_basis(const estimate *e, int i, char *buf, size_t len);

/* "about 40 seconds", "about 9 minutes", "about 2.5 hours", "about 3 days". */
void estimate_duration_words(double seconds, char *buf, size_t len);
/* The same with its range when the ends read differently: "about 79 seconds (78 to 81 seconds)". */
void estimate_range_words(const double seconds[ESTIMATE_RANGE], char *buf, size_t len);

/* The pilot of plan p: its reference condition and the first other (so it gives paired log
   ratios; the reference alone when the plan has no other), ESTIMATE_PILOT_BLOCKS blocks, at most
   one warm-up, no precision target, named ESTIMATE_PILOT_PLAN; everything else as p. */
void estimate_pilot_plan(const plan *p, plan *pilot);

#endif

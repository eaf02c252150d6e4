/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* data.h - the report's model: the statistics of one run computed once, from the database, for
   every section in every format (text, csv, json, html), so the formats cannot disagree. */
#ifndef THREADSOUP_REPORT_DATA_H
#define THREADSOUP_REPORT_DATA_H

#include <stdint.h>
#include <stdio.h>

#include "../plan/plan.h"
#include "../experiment/precision.h"
#include "../stats/blocked.h"
#include "../stats/drift.h"
#include "../stats/stats.h"
#include "../store/store.h"

#define REPORT_MAX_CONDITIONS 64
#define REPORT_MAX_BENCHES 16
#define REPORT_METRIC_NAME_MAX 64

/* What report_data_load reads besides the scores. */
enum {
  REPORT_WITH_RUN = 1,    /* the run's row, and its stored plan (used when no plan is given) */
  REPORT_WITH_STATS = 2,  /* the per-condition statistics and verdicts (cells, drift) */
  REPORT_WITH_TRIALS = 4, /* every trial with its metrics (csv, json, html) */
};

typedef struct report_score_list {
  double *values;
  int *seqs;          /* when each was measured */
  int *blocks;        /* the block of each (1-based), for the paired comparison and the drift */
  int64_t *trial_ids; /* the trial of each, whose sub-scores the kernels' comparisons read */
  size_t n;
  size_t cap;
} report_score_list;

/* One condition of one benchmark. */
typedef struct report_cell {
  stats_description d;
  int compared; /* cmp is a comparison with the baseline (not the baseline, has data) */
  /* When compared: the paired comparison within blocks (blocked.h), remade at its Holm level
     across the benchmark's conditions (multiplicity.h), so cmp.ci_low .. cmp.ci_high (at
     cmp.confidence) is the interval that decided slower/faster and cmp.eq_low .. cmp.eq_high the
     one that decided "no measurable effect"; cmp.p is the per-comparison p, cmp.paired 0 for the
     unpaired fallback. Its numbers are NaN when cmp.status is not BLOCKED_OK. */
  blocked_result cmp;
  double p_holm;         /* Holm-adjusted p across the benchmark's conditions; NaN when none */
  double variance_ratio; /* var(log condition) / var(log baseline); NaN when not known */
  char verdict[512];     /* report_format_verdict's line; "" when not compared */
  /* When compared: the smallest effect this comparison could detect (95 %, 80 % power; NaN when
     it cannot be computed), and how many more blocks would bring that down to the margin (0:
     already there; -1: not known; BLOCKED_BLOCKS_MAX + 1: more than that). */
  stats_sensitivity sens;
  long more_blocks_for_margin;
} report_cell;

/* A benchmark's sub-scores (builtin's kernels: compress, float, integer, memory), each compared
   across the conditions as the score is (paired within blocks), Holm over the whole kernel x
   condition table, so each kernel has its own verdict and a run makes a false kernel claim in
   at most 5 % of runs; the score stays the primary endpoint. */
typedef struct report_kernels {
  int count;                                               /* 0: the benchmark has no sub-scores */
  char names[BENCH_MAX_SUBSCORES][REPORT_METRIC_NAME_MAX]; /* in name order */
  /* cells[k * REPORT_MAX_CONDITIONS + c]: kernel k under condition c (its description unused) */
  report_cell *cells;
  /* The Holm family: every compared kernel under every compared condition, corrected together
     (family_kernels x family_conditions claims at most). */
  int family_kernels, family_conditions;
} report_kernels;

typedef struct report_metric {
  int64_t trial_id;
  char name[REPORT_METRIC_NAME_MAX];
  double value;
} report_metric;

typedef struct report_placement {
  char power_source[32];
  char power_throttling[128];
  char core_classes[128];
  int trials;
} report_placement;

typedef struct report_trial {
  store_trial_row row;
  size_t metric_first; /* its metrics: metrics[metric_first .. metric_first + metric_count) */
  size_t metric_count;
} report_trial;

/* Where writing a report stops early (report_write): past a size, or when asked to stop. The
   writers check it with report_stopped between sections and between the rows of a long one. */
typedef struct report_guard {
  long long max_bytes;    /* 0: no cap */
  int (*stop)(void *ctx); /* NULL, or non-zero when the report is no longer wanted */
  void *ctx;
  int tripped; /* 0; REPORT_GUARD_TOO_LARGE or REPORT_GUARD_STOPPED once it said stop */
} report_guard;
enum { REPORT_GUARD_TOO_LARGE = 1, REPORT_GUARD_STOPPED = 2 };

typedef struct report_data {
  int64_t run_id;
  int flags;           /* the REPORT_WITH_* it was read with */
  report_guard *guard; /* NULL: the report is written whole */
  int have_run;
  store_run_row run;
  double margin_pct;           /* the plan's equivalence margin; 0 = the default */
  double precision_target_pct; /* the plan's adaptive precision target (precision_target); 0: off */
  /* Conditions and benchmarks in the plan's order, then as they occur. */
  int condition_count;
  char conditions[REPORT_MAX_CONDITIONS][128];
  int bench_count;
  char benches[REPORT_MAX_BENCHES][64];
  char units[REPORT_MAX_BENCHES][32];
  int baseline; /* the reference condition's index */
  /* Done, non-warm-up scores. */
  report_score_list lists[REPORT_MAX_BENCHES][REPORT_MAX_CONDITIONS];
  /* REPORT_WITH_STATS */
  double switches_per_s[REPORT_MAX_CONDITIONS];   /* the load's wake-ups; NaN when not measured */
  double load_cpu_percent[REPORT_MAX_CONDITIONS]; /* the burners' CPU; NaN when not measured */
  /* The CPU use outside ThreadSoup during the condition's benchmarks (outside.cpu_percent, % of
     the machine); NaN when not measured. */
  double outside_cpu_percent[REPORT_MAX_CONDITIONS];
  report_cell cells[REPORT_MAX_BENCHES][REPORT_MAX_CONDITIONS];
  /* The baseline's trend over the blocks (drift_of_scores; flagged when its interval lies wholly
     outside the margin); status DRIFT_ETOOFEW and NaN numbers with fewer than 3 blocks. */
  drift_trend drift[REPORT_MAX_BENCHES];
  report_kernels kernels[REPORT_MAX_BENCHES];
  /* Each condition's timers (its done, non-warm-up trials): resolution asked and obtained
     ("default", "high", "default,high" when trials differ, "" when not recorded), the OS's timer
     resolution observed and the median lateness of a 1 ms sleep, in us (NaN: not known). */
  char resolution_asked[REPORT_MAX_CONDITIONS][16];
  char resolution_obtained[REPORT_MAX_CONDITIONS][16];
  double timer_resolution_us[REPORT_MAX_CONDITIONS];
  double timer_overshoot_us[REPORT_MAX_CONDITIONS];
  int warnings;
  int pending;
  int failed;
  /* REPORT_WITH_TRIALS, in sequence order; metric_names sorted */
  report_trial *trials;
  size_t trial_count, trial_cap;
  report_metric *metrics;
  size_t metric_count, metric_cap;
  char (*metric_names)[REPORT_METRIC_NAME_MAX];
  size_t metric_name_count;
  int out_of_memory;
  /* REPORT_WITH_RUN: quiet mode entered for this run, what it asked for and confirmed */
  int have_quiet;
  store_quiet_entry quiet;
  char quiet_line[800]; /* quiet_describe_entry's words */
  /* REPORT_WITH_RUN: the machine checks stored with the run, in order ("Machine checks") */
  store_doctor_row *checks;
  int check_count;
  /* Where the done trials' benchmarks ran: each distinct power source, power throttling and core
     classes with its trials, most frequent first ("" where not recorded). Always read. */
  report_placement *placements;
  int placement_count;
  /* Minutes for more blocks (REPORT_WITH_STATS): the median wall time of the run's blocks whose
     trials are all done, in seconds; NaN when there is none. */
  double block_seconds;
  struct subscore_list *subscores; /* REPORT_WITH_STATS: the sub-scores read, for the kernels */
  /* REPORT_WITH_STATS, when a condition freezes programs: this database's latest finished run of
     the cost preset measured here (report_latest_cost_run), read and computed with the run, for
     the costs its model predicts; NULL when there is none. */
  struct report_data *machine_cost;
} report_data;

/* The sentence under a verdict: "could detect ±0.27 % (95 % confidence, 80 % power)", and for an
   inconclusive one "; about 12 more blocks (about 8 minutes) would detect ±1.0 %", the time from
   the median block (left out when not known), and where other programs used at least
   REPORT_BUSY_OUTSIDE_PERCENT of the CPU during the baseline's benchmarks "; other programs used
   54 % of the CPU during the baseline's benchmarks: their work is in every interval of this run".
   0 (and "") when the comparison has no sensitivity. */
int report_sensitivity_text(const report_data *r, const report_cell *cell, char *buf, size_t len);

/* For a run with a precision target that a comparison of benchmark b did not reach: "precision
   ±0.62 % not reached (95 % CI ±2.10 %): …", naming the noise that widens it (the load making the
   benchmark more variable than the baseline, the machine's drift, or the benchmark's own spread
   on this machine) and the blocks that would reach it. 0 (and "") otherwise. */
int report_precision_limit_text(const report_data *r, int b, const report_cell *cell, char *buf,
                                size_t len);

/* The CPU use outside ThreadSoup during the baseline's benchmarks, in % of the machine, from
   which other programs are named as the noise in a run's intervals: the quiet gate's default
   threshold. An idle machine stays near 0 (0.3 % on the 2-core VM); beside a build it was 50-58 %
   and the paired spread per block 5-26 % against 3-7 % idle (docs/methodology.md). */
#define REPORT_BUSY_OUTSIDE_PERCENT 10.0

/* What widens an interval that missed the run's precision target, the first that holds: the load
   (variance ratio at least 2), the machine's drift (flagged), other programs (at least
   REPORT_BUSY_OUTSIDE_PERCENT of the CPU during the baseline's benchmarks), else the benchmark's
   own spread. */
typedef enum report_precision_cause {
  REPORT_PRECISION_LOAD,
  REPORT_PRECISION_DRIFT,
  REPORT_PRECISION_OUTSIDE,
  REPORT_PRECISION_SPREAD,
} report_precision_cause;
/* "load", "drift", "outside", "spread": the word of the CSV's and JSON's `cause`. */
const char *report_precision_cause_name(report_precision_cause cause);

/* The facts of that sentence, which every format gives. */
typedef struct report_precision_limit {
  double target_percent;     /* the run's precision target, ± % */
  double half_width_percent; /* the comparison's 95 % interval, ± % */
  report_precision_cause cause;
  double variance_ratio;      /* the condition's over the baseline's */
  double baseline_cv_percent; /* the baseline's cv */
  double drift_percent;       /* the baseline's change over the run; NAN when not computed */
  double outside_cpu_percent; /* the CPU used outside ThreadSoup during the baseline's
                                 benchmarks; NAN when not measured */
  long blocks;                /* blocks in all that would reach the target; BLOCKED_BLOCKS_MAX + 1:
                                 more than that; 0: not known */
} report_precision_limit;
/* 1 and *out when the comparison missed the target (as report_precision_limit_text), else 0. */
int report_precision_limit_of(const report_data *r, int b, const report_cell *cell,
                              report_precision_limit *out);

/* The drift line of benchmark b: "the baseline changed by +0.52 % over the run (95 % CI -0.31 to
   1.36 %)", and when flagged "; surely more than the ±1.0 % margin: the machine changed during
   the run". 0 (and "") when the trend could not be computed. */
int report_drift_text(const report_data *r, int b, char *buf, size_t len);

/* The minutes more_blocks_for_margin more blocks take at the run's median block time; NaN when
   either is not known. */
double report_more_minutes(const report_data *r, const report_cell *cell);

/* The verdict line of a compared cell, written like snprintf: the claim, the interval that decided
   it with its confidence, the per-comparison and Holm-adjusted p, paired or not, the variance
   ratio; e.g. "slower by 3.20 % (97.5 % CI 2.10 to 4.30 %; p 0.0012 per comparison, 0.0036 Holm;
   paired over 8 blocks; variance ratio 1.10)". */
int report_format_verdict(const report_cell *cell, char *buf, size_t len);

/* The blocks of benchmark b (the largest block number among its scores), and one condition's
   scores by block into by_block[0 .. blocks) (NaN: that block's trial not done): for the sections
   that fit models of their own on the blocks. */
size_t report_block_count(const report_data *r, int b);
void report_scores_by_block(const report_score_list *l, size_t blocks, double *by_block);

/* Reads (and with REPORT_WITH_STATS computes) what the flags ask for. p may be NULL: with
   REPORT_WITH_RUN the stored plan then orders the conditions, else they come as they occur. */
int report_data_load(store *s, int64_t run_id, const plan *p, int flags, report_data **out,
                     ts_err *err);
/* report_data_load in two steps: every read of the database first (the rows the statistics come
   from copied into the model), then the statistics, which need no database. A service holds its
   database lock for the reads only. On failure compute leaves r to report_data_free. */
int report_data_read(store *s, int64_t run_id, const plan *p, int flags, report_data **out,
                     ts_err *err);
int report_data_compute(report_data *r, ts_err *err);
/* The id of the newest finished run of the cost preset measured on this machine (not imported)
   in s, other than `except`; 0 when there is none. */
int report_latest_cost_run(store *s, int64_t except, int64_t *run_id, ts_err *err);
/* 1 when a condition of the report freezes programs (a freeze: part). */
int report_freezes_programs(const report_data *r);

/* Calls trial for each of the run's trials in sequence order, then metric for each of their
   metrics (by trial sequence, then name), each list ending early when its callback returns
   non-zero: from the model when it holds them (REPORT_WITH_TRIALS, s may then be NULL), else
   from the store. */
int report_each_trial(store *s, const report_data *r,
                      int (*trial)(void *ctx, const store_trial_row *row),
                      int (*metric)(void *ctx, int64_t trial_id, const char *name, double value),
                      void *ctx, ts_err *err);
void report_data_free(report_data *r);
/* 1 when writing should stop (out has grown past the guard's size, or the guard's stop said so):
   the writer of a long section checks it between rows. 0 without a guard. */
int report_stopped(const report_data *r, FILE *out);
/* A trial's metric by name (a binary search of its metrics); NaN when it has none. */
double report_trial_metric(const report_data *r, const report_trial *t, const char *name);
/* 1 when any condition recorded its timers (runs from schema version 10 on). */
int report_has_timers(const report_data *r);
/* The condition index of a name; -1 when it is not one of the report's. */
int report_condition_index(const report_data *r, const char *name);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* data.h - the statistics of one run computed once, from the database, for every report format
   (text, csv, json, html), so the formats cannot disagree. */
#ifndef THREADSOUP_REPORT_DATA_H
#define THREADSOUP_REPORT_DATA_H

#include <stdint.h>
#include <stdio.h>

#include "../stats/fit.h"
#include "../experiment/plan.h"
#include "../experiment/precision.h"
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
  int *seqs; /* when each was measured, for the drift */
  size_t n;
  size_t cap;
} report_score_list;

/* One condition of one benchmark. */
typedef struct report_cell {
  stats_description d;
  int compared;         /* cmp is a comparison with the baseline (not the baseline, has data) */
  stats_comparison cmp; /* percent is valid when compared; the CI and p-values may be NaN */
  char verdict[256];    /* stats_format_verdict's line; "" when not compared */
  /* When compared: the smallest effect this comparison could detect (95 %, 80 % power; NaN when
     it cannot be computed), and how many more blocks would bring that down to the margin (0:
     already there; -1: not known; STATS_TRIALS_NEEDED_MAX + 1: more than that). */
  stats_sensitivity sens;
  long more_blocks_for_margin;
} report_cell;

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

/* census: one OS state of a condition's threads (medians over its trials; a trial whose census
   lacks the state counts 0). */
#define REPORT_CENSUS_MAX_STATES 32
typedef struct report_census_state {
  char name[REPORT_METRIC_NAME_MAX]; /* as the OS names it, e.g. "Wait:DelayExecution" */
  double process;                    /* the process's threads in the state */
  double load;                       /* the load's: the process's minus the baseline condition's */
} report_census_state;

/* census: what one condition's load was, as the census before each benchmark counted it: medians
   over the condition's done, non-warm-up trials; NaN where not recorded (runs stored before the
   census metrics, scores typed in). */
typedef struct report_census {
  int trials;             /* done, non-warm-up trials */
  int recorded;           /* of those, trials whose census was stored (its state.* metrics) */
  double process_threads; /* threads of the measuring process */
  double load_threads;    /* process_threads minus the baseline condition's */
  int state_count;        /* states by load, then process, most threads first */
  report_census_state states[REPORT_CENSUS_MAX_STATES];
  double child_processes; /* the load's child processes */
  double machine_processes, machine_threads;
  double switches_per_s;     /* the process's context switches per second over settle and gate */
  long sleepers;             /* the condition's sleeping threads (its sleep parts); 0: none */
  double sleeper_interval_s; /* their interval; with mixed intervals, sleepers / their wake-ups/s */
  double per_sleeper_interval; /* switches_per_s x interval / sleepers; about 1 when each sleeper
                                  wakes once per interval; NaN without sleepers */
  double cpu_percent;          /* the load's CPU, % of one CPU */
  double census_ms;            /* the census's own CPU per trial */
  double census_percent;       /* that, as % of the trial's time (start to finish) */
} report_census;

typedef struct report_data {
  int64_t run_id;
  int have_run;
  store_run_row run;
  double margin_pct; /* the plan's equivalence margin; 0 = the default */
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
  double switches_per_s[REPORT_MAX_CONDITIONS]; /* the load's wake-ups; NaN when not measured */
  report_cell cells[REPORT_MAX_BENCHES][REPORT_MAX_CONDITIONS];
  double drift[REPORT_MAX_BENCHES]; /* baseline's later half against its earlier half, %; NaN */
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
  /* census: per condition, with REPORT_WITH_STATS (report/census.c) */
  report_census census[REPORT_MAX_CONDITIONS];
  int have_census; /* 1 when any condition's census was recorded */
  /* Minutes for more blocks (REPORT_WITH_STATS): the median wall time of the run's blocks whose
     trials are all done, in seconds; NaN when there is none. */
  double block_seconds;
} report_data;

/* The sentence under a verdict: "could detect ±0.27 % (95 % confidence, 80 % power)", and for an
   inconclusive one "; about 12 more blocks (about 8 minutes) would detect ±1.0 %", the time from
   the median block (left out when not known). 0 (and "") when the comparison has no
   sensitivity. */
int report_sensitivity_text(const report_data *r, const report_cell *cell, char *buf, size_t len);

/* The minutes more_blocks_for_margin more blocks take at the run's median block time; NaN when
   either is not known. */
double report_more_minutes(const report_data *r, const report_cell *cell);

/* Reads (and with REPORT_WITH_STATS computes) what the flags ask for. p may be NULL: with
   REPORT_WITH_RUN the stored plan then orders the conditions, else they come as they occur. */
int report_data_load(store *s, int64_t run_id, const plan *p, int flags, report_data **out,
                     ts_err *err);
void report_data_free(report_data *r);
/* A trial's metric by name; NaN when it has none. */
double report_trial_metric(const report_data *r, const report_trial *t, const char *name);
/* 1 when any condition recorded its timers (runs from schema version 10 on). */
int report_has_timers(const report_data *r);
/* The condition index of a name; -1 when it is not one of the report's. */
int report_condition_index(const report_data *r, const char *name);

/* The formats, each writing the whole document. */
void report_write_text_header(const report_data *r, FILE *out);
void report_write_text_body(const report_data *r, FILE *out);
void report_write_csv(const report_data *r, FILE *out);
void report_write_json(const report_data *r, FILE *out);
void report_write_html(const report_data *r, FILE *out);
/* One machine check as a JSON object (check, status, measured, value, advice, and checked_at
   unless NULL): the reports' "machine_checks" and `threadsoup doctor --json` alike. */
void report_json_check(FILE *out, const char *check, const char *status, const char *measured,
                       double value, const char *advice, const char *checked_at);

/* census (report/census.c): computes r->census from the database (REPORT_WITH_STATS), and writes
   it in each format; a run that recorded none says "not recorded". */
int report_census_load(store *s, report_data *r, ts_err *err);
void report_write_census_text(const report_data *r, FILE *out);
void report_write_census_csv(const report_data *r, FILE *out);
void report_write_census_json(const report_data *r, FILE *out);
void report_write_census_html(const report_data *r, FILE *out);
/* The formats' escaping, for report parts in files of their own (census, cost, calibration): a
   CSV field, a CSV number, a JSON string (escaped; NULL never), a JSON number (null when not
   finite), HTML text (escaped). */
void report_csv_field(FILE *out, const char *text);
void report_csv_number(FILE *out, double value);
void report_json_string(FILE *out, const char *text);
void report_json_number(FILE *out, double value);
/* ,"key":value - a member after the first of a JSON object (key: a plain ASCII name). */
void report_json_number_member(FILE *out, const char *key, double value);
void report_json_string_member(FILE *out, const char *key, const char *text);
/* [low,high] when `have`, else null: a confidence interval or range. */
void report_json_range(FILE *out, int have, double low, double high);
void report_html_text(FILE *out, const char *text);
/* The HTML report's parts for pages written elsewhere (report/compare.c): its <style> element, the
   colour of series k, a cell's verdict class ("slower", "faster", "same", "unsure", "ref") and a
   name cut to fit a chart's label column (escaped). */
void report_html_style(FILE *out);
const char *report_html_palette(int k);
const char *report_html_verdict_class(const report_cell *cell);
void report_html_short_label(FILE *out, const char *name);
/* The x axis of a chart of % differences, -range to +range drawn from x = left to right: grid
   lines every step from top to bottom, labels under it. */
void report_html_percent_axis(FILE *out, double range, double step, double left, double right,
                              double top, double bottom);
/* ---- cost model (report/cost.c): which costs, the number of idle threads or their wake-ups ----
   Computed from the report's cells on demand (each format calls its writer once); the conditions
   come from their load specs, the effects and standard errors from the cells. */
typedef struct report_cost_condition {
  int condition;         /* index into report_data.conditions */
  double threads;        /* sleep and wait threads of the spec */
  double wakeups_per_s;  /* the sleep threads' planned wake-ups: count / interval */
  double switches_per_s; /* measured (report_data.switches_per_s); NaN when not */
} report_cost_condition;

typedef enum report_cost_answer {
  REPORT_COST_NO_FIT,       /* too few conditions with an effect and a standard error */
  REPORT_COST_WAKEUPS,      /* the wake-ups' CI excludes 0, the threads' does not */
  REPORT_COST_THREADS,      /* the reverse */
  REPORT_COST_BOTH,         /* both exclude 0 */
  REPORT_COST_CANNOT_TELL,  /* neither does */
  REPORT_COST_TOGETHER,     /* wake-ups rose with the thread count: one fit, on threads */
  REPORT_COST_THREADS_ONLY, /* no condition wakes: one fit, on threads */
} report_cost_answer;

typedef struct report_cost_bench {
  int points;                      /* conditions with an effect and a standard error */
  int used[REPORT_MAX_CONDITIONS]; /* their indexes into report_cost.used */
  report_cost_answer answer;
  fit_wls model;       /* on wake-ups and threads, both in thousands, through 0 */
  fit_wls threads_fit; /* TOGETHER, THREADS_ONLY: on thousands of threads alone */
  fit_hinge knee;      /* dose-like runs: on thousands of threads */
} report_cost_bench;

typedef struct report_cost {
  int applies;   /* at least 3 sleep/wait conditions with distinct thread and wake-up counts */
  int dose_like; /* every such condition has the same wake-ups per thread: a knee is looked for */
  double wakeups_per_thread; /* dose-like: that ratio per second (0: none wake) */
  int used_count;
  report_cost_condition used[REPORT_MAX_CONDITIONS];
  int left_count; /* conditions left out of the model, and why */
  int left[REPORT_MAX_CONDITIONS];
  const char *left_why[REPORT_MAX_CONDITIONS];
  report_cost_bench bench[REPORT_MAX_BENCHES];
} report_cost;

/* The cost model of a run; NULL when out of memory. Free with free(). */
report_cost *report_cost_compute(const report_data *r);
/* The "Cost model" section (and the knee) when it applies; nothing otherwise. The JSON writer
   adds ,"cost_model":…,"knee":… (null when they do not apply) inside the report's object. */
void report_write_cost_text(const report_data *r, FILE *out);
void report_write_cost_json(const report_data *r, FILE *out);
void report_write_cost_html(const report_data *r, FILE *out);
/* The HTML axis steps, shared with the parts drawn in their own files. */
double report_html_step(double span, int count);

#endif

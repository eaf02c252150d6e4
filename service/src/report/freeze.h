/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* freeze.h - the report's section for runs that freeze programs (freeze:NAME conditions): per
   program, its wake-ups and threads as the run counted them, the cost this machine's cost model
   predicts for it, the cost freezing it measured, its verdict, and one line of advice. */
#ifndef THREADSOUP_REPORT_FREEZE_H
#define THREADSOUP_REPORT_FREEZE_H

#include "cost.h"
#include "data.h"

#define REPORT_FREEZE_NAME_MAX 64 /* a freeze part's program: a name or a pid */

/* The programs a condition freezes: its parts' NAME|PID in order, when every part of it is a
   freeze part; 0 (a baseline, a load, a mix) otherwise. */
int report_freeze_programs(const char *condition, char (*names)[REPORT_FREEZE_NAME_MAX], int max);

/* How a freeze condition's comparison reads as the cost of what it froze. */
typedef enum report_freeze_finding {
  REPORT_FREEZE_NOT_DETERMINED, /* inconclusive, or not compared */
  REPORT_FREEZE_COSTS,          /* frozen, the benchmark ran faster: the program costs that much */
  REPORT_FREEZE_NOTHING,        /* no measurable effect: within the margin */
  REPORT_FREEZE_HELPS,          /* frozen, the benchmark ran slower */
} report_freeze_finding;

/* One freeze condition. */
typedef struct report_freeze_row {
  int condition; /* index into report_data.conditions */
  int program_count;
  char programs[8][REPORT_FREEZE_NAME_MAX];
  /* Its programs' context switches per second and threads, summed, as the run's census counted
     them (the trial metrics program.NAME.switches_per_s and program.NAME.threads, medians over
     the run's trials); NaN: not counted. */
  double wakeups_per_s, threads;
  int predicted[REPORT_MAX_BENCHES]; /* 1: prediction[b] holds the model's prediction */
  report_cost_prediction prediction[REPORT_MAX_BENCHES];
  report_freeze_finding finding[REPORT_MAX_BENCHES];
} report_freeze_row;

typedef struct report_freeze {
  int row_count; /* 0: the run freezes nothing; the section is absent */
  report_freeze_row rows[REPORT_MAX_CONDITIONS];
  int64_t cost_run; /* the cost run the predictions come from; 0: none in the database */
  /* By benchmark: the cost run's benchmark of the same name (-1: it has none), and when no
     prediction can be made, why. */
  int cost_bench[REPORT_MAX_BENCHES];
  const char *no_prediction[REPORT_MAX_BENCHES];
  report_cost *model; /* the cost run's model; NULL without a cost run */
} report_freeze;

/* The freeze section's model of r (NULL when out of memory); s may be NULL when r holds every
   trial. Free with report_freeze_free. */
int report_freeze_compute(store *s, const report_data *r, report_freeze **out, ts_err *err);
void report_freeze_free(void *f);

/* The measured cost of a compared cell as a finding, with its cost and interval in % (above 0:
   the program makes the benchmark slower by that much). */
report_freeze_finding report_freeze_cost_of(const report_cell *cell, double *cost, double *low,
                                            double *high);
/* "costs 2.10 % (97.5 % CI 0.80 to 3.10 %; p 0.0021 Holm)", "costs nothing measurable (within
   ±1.0 %)", "not determined: ...", from a compared cell; written like snprintf. */
int report_freeze_cost_text(const report_cell *cell, char *buf, size_t len);
/* "2.00 % (95 % CI 1.75 to 2.25 %)" for a prediction's wake-up share, with ", threads 0.01 %
   (...)" when it has a thread share; written like snprintf. */
int report_freeze_prediction_text(const report_cost_prediction *p, char *buf, size_t len);
/* "predicted by cost run 12's model (6 conditions, 10 blocks): per 1,000 wake-ups/s 0.40 % (95 %
   CI 0.35 to 0.45 %); per 1,000 threads 0.01 % (...)" for benchmark b of the model, or
   "predicted: none (why)"; written like snprintf. */
int report_freeze_model_text(int64_t cost_run, const report_cost *model, int b, char *buf,
                             size_t len);

/* What a running program costs benchmark `bench`, in % (above 0: it makes it slower). */
typedef struct report_program_cost {
  int predicted;           /* 1: the model predicts cost, low .. high */
  double cost, low, high;  /* its wake-ups' share plus its threads', the intervals' ends added */
  int64_t run;             /* the run that measured it by freezing it alone; 0: none did */
  const report_cell *cell; /* that run's comparison (report_freeze_cost_of reads it); or NULL */
} report_program_cost;
/* The prediction of benchmark model_bench of `model` (NULL: none) for a program waking
   wakeups_per_s times a second with `threads` threads (below 0: not known), and the comparison
   of the first of `runs` (newest first) with a condition freeze:NAME freezing it alone (`name`
   in any case), on its benchmark named `bench` (NULL or not there: its first). */
void report_program_cost_of(const report_cost *model, int model_bench,
                            const report_data *const *runs, int run_count, const char *bench,
                            const char *name, double wakeups_per_s, double threads,
                            report_program_cost *out);

#endif

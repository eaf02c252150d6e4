/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* census.h - the report's census section: per condition, what its load was as the census before
   each benchmark counted it, computed once from the database. */
#ifndef THREADSOUP_REPORT_CENSUS_H
#define THREADSOUP_REPORT_CENSUS_H

#include "data.h"

/* census: one OS state of a condition's threads (medians over its trials; a trial whose census
   lacks the state counts 0). */
#define REPORT_CENSUS_MAX_STATES 32
typedef struct report_census_state {
  char name[REPORT_METRIC_NAME_MAX]; /* as the OS names it, e.g. "Wait:DelayExecution" */
  double process;                    /* the process's threads in the state */
  double load;                       /* the load's: the process's minus the baseline condition's */
} report_census_state;

/* census: what one condition's load was, as each trial's census counted it: medians
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

/* The census of every condition of a report. */
typedef struct report_censuses {
  report_census census[REPORT_MAX_CONDITIONS]; /* by condition index */
  int have_census;                             /* 1 when any condition's census was recorded */
  int switches_unreported; /* 1: the system gave no context-switch counts (every one 0: Wine) */
} report_censuses;

/* Computes *out from the database for r's run and conditions (r needs REPORT_WITH_STATS). */
int report_census_compute(store *s, const report_data *r, report_censuses *out, ts_err *err);

#endif

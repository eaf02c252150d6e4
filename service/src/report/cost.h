/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* cost.h - the report's cost model section: which costs, the number of idle threads or their
   wake-ups, computed once from the report's cells; the conditions come from their load specs, the
   effects and standard errors from the cells. */
#ifndef THREADSOUP_REPORT_COST_H
#define THREADSOUP_REPORT_COST_H

#include "../stats/fit.h"
#include "data.h"

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
#endif

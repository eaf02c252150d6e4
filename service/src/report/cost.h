/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* cost.h - the report's cost model section: which costs, the number of idle threads or their
   wake-ups, computed once from the report's scores: the conditions from their load specs, their
   effects against the shared baseline from one block model, fitted by generalized least squares
   (stats/gls.h), with "does not cost" only as equivalence and the knee of a dose series. */
#ifndef THREADSOUP_REPORT_COST_H
#define THREADSOUP_REPORT_COST_H

#include "../stats/gls.h"
#include "data.h"

typedef struct report_cost_condition {
  int condition;         /* index into report_data.conditions */
  double threads;        /* sleep and wait threads of the spec */
  double wakeups_per_s;  /* the sleep threads' planned wake-ups: count / interval */
  double switches_per_s; /* measured (report_data.switches_per_s); NaN when not */
} report_cost_condition;

typedef enum report_cost_answer {
  REPORT_COST_NO_FIT,       /* too few conditions or complete blocks, or the fit failed */
  REPORT_COST_SEPARATED,    /* wake-ups and threads fitted apart: a finding for each */
  REPORT_COST_TOGETHER,     /* wake-ups rose with the thread count: one fit, on threads */
  REPORT_COST_THREADS_ONLY, /* no condition wakes: one fit, on threads */
} report_cost_answer;

/* What a coefficient says. */
typedef enum report_cost_finding {
  REPORT_COST_NOT_DETERMINED, /* its interval holds 0 and reaches beyond the margin */
  REPORT_COST_COSTS,          /* its 95 % interval excludes 0 */
  REPORT_COST_NEGLIGIBLE,     /* equivalence: surely within ±margin per 1,000 (TOST p < 0.05) */
} report_cost_finding;

/* One coefficient, in % of the score per 1,000 (wake-ups/s or threads; below 0: slower). */
typedef struct report_cost_term {
  double estimate, se, low, high; /* its 95 % interval */
  double p;                       /* two-sided, against 0 */
  double equivalence_p;           /* TOST against ±margin */
  report_cost_finding finding;
} report_cost_term;

typedef struct report_cost_bench {
  int status;         /* of the block model (gls_effects_from_blocks): 0 or a gls_status */
  size_t blocks_used; /* its complete blocks */
  double df;          /* of its variance: t quantiles */
  int points;         /* conditions in the fit */
  int used[REPORT_MAX_CONDITIONS];         /* their indexes into report_cost.used */
  double effect[REPORT_MAX_CONDITIONS];    /* each one's effect, % (100 x mean log ratio) */
  double effect_se[REPORT_MAX_CONDITIONS]; /* and its standard error */
  report_cost_answer answer;
  const char *why;              /* NO_FIT: why */
  report_cost_term wakeups;     /* SEPARATED */
  report_cost_term threads;     /* SEPARATED; TOGETHER and THREADS_ONLY: the one fit */
  double chi2, chi2_df, chi2_p; /* the residuals against V: scatter beyond the errors */
  int knee_tested;              /* dose-like runs */
  gls_knee knee;                /* on thousands of threads, effects in % */
} report_cost_bench;

typedef struct report_cost {
  int applies;   /* at least 3 sleep/wait conditions with distinct thread and wake-up counts */
  int dose_like; /* every such condition has the same wake-ups per thread: a knee is looked for */
  double wakeups_per_thread; /* dose-like: that ratio per second (0: none wake) */
  double margin_percent;     /* per 1,000: the plan's margin (its default when not set) */
  int used_count;
  report_cost_condition used[REPORT_MAX_CONDITIONS];
  int left_count; /* conditions left out of the model, and why */
  int left[REPORT_MAX_CONDITIONS];
  const char *left_why[REPORT_MAX_CONDITIONS];
  report_cost_bench bench[REPORT_MAX_BENCHES];
} report_cost;

/* The cost model of a run; NULL when out of memory. Free with free(). */
report_cost *report_cost_compute(const report_data *r);

/* What the model of benchmark b predicts a program costs: its wake-ups' share (wakeups_per_s /
   1,000 times the wake-up coefficient, with that coefficient's 95 % interval scaled alike) and,
   where the model fitted one, its threads' share, in % of the benchmark's speed (above 0: the
   program makes it slower). Each share is NaN where the model has no such term. */
typedef struct report_cost_prediction {
  double wakeups, wakeups_low, wakeups_high;
  double threads, threads_low, threads_high;
} report_cost_prediction;
/* 1 when the model of b predicts anything (a wake-up or a thread term), else 0 with *why saying
   what it lacks ("the cost run could not separate wake-ups from threads", ...). */
int report_cost_predict(const report_cost *c, int b, double wakeups_per_s, double threads,
                        report_cost_prediction *out, const char **why);
#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* program_costs.h - what a running program costs a benchmark, from a database: as this machine's
   latest cost run predicts it from the program's wake-ups and threads, and as the newest run
   that froze it alone measured it (census --cost, from a database file or in the service). */
#ifndef THREADSOUP_REPORT_PROGRAM_COSTS_H
#define THREADSOUP_REPORT_PROGRAM_COSTS_H

#include <stddef.h>
#include <stdint.h>

#include "../store/store.h"
#include "cost.h"
#include "data.h"

#define REPORT_PROGRAM_COSTS_RUNS 10 /* the newest runs that froze programs, searched */
#define REPORT_PROGRAM_COST_MAX 96   /* a predicted or measured column's text */
#define REPORT_PROGRAM_COSTS_SOURCE_MAX 1200

/* The database's cost model and its newest freeze runs, computed once for many programs. */
typedef struct report_program_costs {
  report_data *cost_run; /* the latest cost run, computed; NULL: none */
  report_cost *model;
  char no_model[400]; /* why nothing is predicted; "" when a model is */
  report_data *freeze_runs[REPORT_PROGRAM_COSTS_RUNS]; /* newest first */
  int freeze_run_count;
} report_program_costs;

/* Reads and computes them from `s`; with s NULL, the database at `missing_path` does not exist
   yet, which is said (no cost run yet, how long one takes), not an error. */
int report_program_costs_load(store *s, const char *missing_path, report_program_costs *pc,
                              ts_err *err);
void report_program_costs_free(report_program_costs *pc);
/* The predicted and measured columns of one program (`threads` below 0: not known):
   "2.00 (1.75 to 2.25)" or "-"; "0.10 (-0.40 to 0.60) nothing, run 7" or "-". */
void report_program_costs_columns(const report_program_costs *pc, const char *name,
                                  double switches_per_s, long threads,
                                  char predicted[REPORT_PROGRAM_COST_MAX],
                                  char measured[REPORT_PROGRAM_COST_MAX]);
/* What the predictions stand on, in lines: the cost run and its coefficients with how to read the
   columns, or why there are none. */
void report_program_costs_source(const report_program_costs *pc, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* compare.h - several runs side by side, one row per machine: each condition's effect against
   that machine's own baseline (the per-run statistics of data.c, not computed again), its 95 % CI,
   verdict and sensitivity, the baseline's noise, and how the runs' plans differ. */
#ifndef THREADSOUP_REPORT_COMPARE_H
#define THREADSOUP_REPORT_COMPARE_H

#include <stdint.h>
#include <stdio.h>

#include "data.h"
#include "report.h"

#define REPORT_COMPARE_MAX_RUNS 16
#define REPORT_COMPARE_MAX_DIFFERENCES 64

/* One way the compared runs' plans differ. */
typedef struct report_compare_difference {
  char setting[24]; /* "conditions", "benchmarks", "work scale", "margin" */
  char text[1024];  /* "sleep:15000@500ms measured in runs 1, 3; not measured in run 2" */
} report_compare_difference;

typedef struct report_compare {
  int run_count;
  report_data *runs[REPORT_COMPARE_MAX_RUNS]; /* REPORT_WITH_RUN | REPORT_WITH_STATS each */
  double work_scale[REPORT_COMPARE_MAX_RUNS]; /* from the stored plan; NaN when it does not parse */
  /* Every benchmark and condition of any run, in the order they first occur. */
  int bench_count;
  char benches[REPORT_MAX_BENCHES][64];
  int condition_count;
  char conditions[REPORT_MAX_CONDITIONS][128];
  /* Each run's index of them; -1: not in that run ("not measured"). */
  int bench_of[REPORT_COMPARE_MAX_RUNS][REPORT_MAX_BENCHES];
  int condition_of[REPORT_COMPARE_MAX_RUNS][REPORT_MAX_CONDITIONS];
  int difference_count;
  report_compare_difference differences[REPORT_COMPARE_MAX_DIFFERENCES];
} report_compare;

/* Loads the runs (2 to REPORT_COMPARE_MAX_RUNS, each once, each with done trials) and works out
   their plans' differences. TS_EUSAGE for a list that is not that; TS_EINVAL naming a run that
   does not exist or has no finished trials. */
int report_compare_load(store *s, const int64_t *run_ids, int count, report_compare **out,
                        ts_err *err);
void report_compare_free(report_compare *c);
/* The newest finished run (with done trials) of each machine in the database - machines told
   apart by machine_id, else by host and CPU - ordered by host, then run. TS_EINVAL when fewer
   than 2 machines have one, or more than `max`. */
int report_compare_pick_machines(store *s, int64_t *run_ids, int max, int *count, ts_err *err);

/* The cell of run k for the comparison's benchmark b and condition c; NULL when that run did not
   measure them. *r gets the run's report data. */
const report_cell *report_compare_cell(const report_compare *c, int k, int b, int c_index,
                                       const report_data **r);
/* Whether condition c is some run's reference (baseline) condition, in every run that has it. */
int report_compare_is_reference(const report_compare *c, int c_index);

void report_write_compare_text(const report_compare *c, FILE *out);
void report_write_compare_csv(const report_compare *c, FILE *out);
void report_write_compare_json(const report_compare *c, FILE *out);
void report_write_compare_html(const report_compare *c, FILE *out);
/* Loads and writes in one format. */
int report_compare_format(store *s, const int64_t *run_ids, int count, report_format format,
                          FILE *out, ts_err *err);

#endif

/* report.h - turns the stored trials of a run into statistics and verdicts for people; every
   number is read back from the database. */
#ifndef THREADSOUP_REPORT_H
#define THREADSOUP_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "../experiment/plan.h"
#include "../store/store.h"

/* For each benchmark, one line per condition: n, mean, median, sd, cv, the load's wake-ups, the
   % difference against the baseline with its 95 % CI and p-values; then a verdict per condition
   and the baseline's drift. Warm-ups are left out. */
int report_text(store *s, int64_t run_id, const plan *p, FILE *out, ts_err *err);
/* The same for any stored run; its plan comes from the database (a run of scores recorded by
   hand lists its conditions and benchmarks as they were recorded). */
int report_run(store *s, int64_t run_id, FILE *out, ts_err *err);
/* The widest 95 % CI half-width (in %) over every comparison of the run: adaptive repetitions
   stop when it is at most the plan's precision. Infinity while a group has too few trials. */
int report_widest_interval(store *s, int64_t run_id, const plan *p, double *widest, ts_err *err);

#endif

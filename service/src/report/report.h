/* report.h - turns the stored trials of a run into tables for people. */
#ifndef THREADSOUP_REPORT_H
#define THREADSOUP_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "../experiment/plan.h"
#include "../store/store.h"

/* Prints, for each benchmark, one line per condition of the plan: n, mean score, standard
   deviation and the difference against the baseline, all read back from the database. */
int report_text(store *s, int64_t run_id, const plan *p, FILE *out, ts_err *err);

#endif

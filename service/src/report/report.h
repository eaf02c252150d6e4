/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* report.h - the report's one door (report/report.c): turns the stored trials of a run into
   statistics and verdicts for people; every number is read back from the database. */
#ifndef THREADSOUP_REPORT_H
#define THREADSOUP_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "../plan/plan.h"
#include "../store/store.h"

/* For each benchmark, one line per condition: n, mean, median, sd, cv, the load's wake-ups, the
   % difference against the baseline with its 95 % CI and p-values; then a verdict per condition
   and the baseline's drift. Warm-ups are left out. */
int report_text(store *s, int64_t run_id, const plan *p, FILE *out, ts_err *err);
/* The same for any stored run; its plan comes from the database (a run of scores recorded by
   hand lists its conditions and benchmarks as they were recorded). */
int report_run(store *s, int64_t run_id, FILE *out, ts_err *err);

typedef enum report_format {
  REPORT_FORMAT_TEXT,
  REPORT_FORMAT_CSV,  /* one row per trial with its metrics, RFC 4180 quoting */
  REPORT_FORMAT_JSON, /* the run, its plan, statistics per benchmark and condition, the trials */
  REPORT_FORMAT_HTML  /* one self-contained page: the tables, verdicts and inline SVG charts */
} report_format;
#define REPORT_FORMAT_COUNT 4

/* "text", "csv", "json" or "html"; TS_EUSAGE naming the accepted ones otherwise. */
int report_format_parse(const char *name, report_format *out, ts_err *err);
/* report_run in any format (text is exactly report_run's output). */
int report_run_format(store *s, int64_t run_id, report_format format, FILE *out, ts_err *err);

#endif

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

/* A run's report read, then computed, ready to be written without the database: a service holds
   its database lock for report_read only, and computes and writes the report after releasing
   it. */
typedef struct report_prepared report_prepared;
/* The largest report the service writes: a run built to make an endless report stops here. */
#define REPORT_OUTPUT_MAX (64LL << 20)

/* Reads the run and computes what every section of `format` shows (report_run_format's reads):
   report_read, then report_compute. */
int report_prepare(store *s, int64_t run_id, report_format format, report_prepared **out,
                   ts_err *err);
/* Every read of the database a report of `format` makes: the run's rows copied into memory. */
int report_read(store *s, int64_t run_id, report_format format, report_prepared **out, ts_err *err);
/* The statistics and each section's part computed from what report_read copied, without the
   database; on failure p is still the caller's to free. */
int report_compute(report_prepared *p, ts_err *err);
/* Writes the prepared report to out, once. Past max_bytes (0: no cap) it stops and says so
   naming the limit (TS_EFAILED), and when stop(stop_ctx) returns non-zero (checked between
   sections and rows; stop may be NULL) with TS_EINTERRUPTED; out then holds part of the report. */
int report_write(report_prepared *p, FILE *out, long long max_bytes, int (*stop)(void *ctx),
                 void *stop_ctx, ts_err *err);
void report_prepared_free(report_prepared *p);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* testreport.h - report helpers shared by the unit tests: a stored trial finished with a given
   score, and one stored run's whole report, or one section of it, in one format, as a string. */
#ifndef THREADSOUP_TESTREPORT_H
#define THREADSOUP_TESTREPORT_H

#include <stdio.h>
#include <stdlib.h>

#include "../../service/src/report/report.h"
#include "../../service/src/report/section.h"
#include "check.h"

/* Finishes stored trial trial_id with score (Mwork/s in 0.5 s; 3 threads, 100 processes and 900
   threads on the machine; on AC, not throttled, uniform cores) and its metrics: what the report
   tests vary, the rest as a real trial has it. */
static inline int test_finish_trial(store *db, int64_t trial_id, double score, int metric_count,
                                    const store_metric *metrics, ts_err *err) {
  store_trial_result result = {"2026-01-01T00:00:01.000Z",
                               "2026-01-01T00:00:02.000Z",
                               score,
                               "Mwork/s",
                               0.5,
                               3,
                               100,
                               900,
                               metric_count,
                               metrics,
                               NULL,
                               "ac",
                               "off",
                               "uniform"};
  return store_trial_finish(db, trial_id, &result, err);
}

/* What was written to f (a tmpfile), as a string the caller frees; closes f. NULL (and a failed
   check) when it cannot be read. */
static inline char *test_read_back(FILE *f) {
  long size = ftell(f);
  rewind(f);
  char *text = calloc(1, (size_t)size + 1);
  if (text)
    CHECK_INT(fread(text, 1, (size_t)size, f), size);
  fclose(f);
  return text;
}

/* The report, as a string the caller frees; NULL (and a failed check) when it cannot be had. */
static inline char *test_render_report(store *s, int64_t run_id, report_format format) {
  FILE *f = tmpfile();
  ts_err err;
  CHECK(f != NULL);
  if (!f)
    return NULL;
  CHECK_INT(report_run_format(s, run_id, format, f, &err), TS_OK);
  return test_read_back(f);
}

/* One section of a report of r in one format, as a string the caller frees ("" when the section
   is absent in that format); s may be NULL for a section that prepares from r alone. */
static inline char *test_render_section(const report_section *section, store *s,
                                        const report_data *r, report_format format) {
  FILE *f = tmpfile();
  ts_err err;
  void *prepared = NULL;
  CHECK(f != NULL);
  if (!f)
    return NULL;
  if (section->prepare)
    CHECK_INT(section->prepare(s, r, &prepared, &err), TS_OK);
  if (section->write[format])
    section->write[format](r, prepared, f);
  if (section->release)
    section->release(prepared);
  else
    free(prepared);
  return test_read_back(f);
}

#endif

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

/* One trial's score and metrics (at most 4, their count in *metric_count) of a stored run: the
   condition's load, its text and index, the trial's block (1-based). */
typedef double (*test_trial_fn)(void *ctx, const load_spec *spec, const char *condition, int c,
                                int block, store_metric *metrics, int *metric_count);

/* Stores a finished run of `preset` (its conditions replaced when `conditions` is not NULL) of
   builtin-st, `blocks` blocks (at most 8), each trial finished as trial(ctx, ...) says. Returns
   the run's id. */
static inline int64_t test_store_run(store *db, const char *preset, const char *conditions,
                                     int blocks, test_trial_fn trial, void *ctx) {
  ts_err err;
  plan p;
  CHECK_INT(plan_preset(preset, &p, &err), TS_OK);
  if (conditions)
    CHECK_INT(plan_set(&p, "conditions", conditions, &err), TS_OK);
  char reps[8];
  snprintf(reps, sizeof reps, "%d", blocks);
  CHECK_INT(plan_set(&p, "reps", reps, &err), TS_OK);
  char text[PLAN_FORMAT_MAX];
  plan_format(&p, text, sizeof text);
  store_run_info info = {p.name, text, 3, "2026-01-01T00:00:00.000Z", "host", "Linux", "cpu", 2,
                         "1.0",  NULL, 0};
  static store_trial_plan trials[PLAN_MAX_CONDITIONS * 8];
  int n = 0;
  for (int rep = 1; rep <= blocks; rep++)
    for (int c = 0; c < p.condition_count; c++)
      trials[n] = (store_trial_plan){n + 1, rep, p.conditions[c].text, "builtin-st", 0}, n++;
  int64_t run_id = 0;
  CHECK_INT(store_run_begin(db, &info, trials, n, &run_id, &err), TS_OK);
  for (int i = 0; i < n; i++) {
    int c = plan_condition_index(&p, trials[i].condition);
    store_metric metrics[4];
    int count = 0;
    double score =
        trial(ctx, &p.conditions[c], trials[i].condition, c, trials[i].block, metrics, &count);
    CHECK_INT(test_finish_trial(db, trials[i].id, score, count, metrics, &err), TS_OK);
  }
  CHECK_INT(store_run_end(db, run_id, STORE_RUN_FINISHED, NULL, "2026-01-01T00:02:00.000Z", &err),
            TS_OK);
  return run_id;
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

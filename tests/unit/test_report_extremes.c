/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_report_extremes.c - every report format, of one run and of a comparison, over stored scores
   at the ends of what a double holds (the largest, the smallest, 0, negative, infinite, NaN): each
   report ends, and ends small, however absurd the difference between baseline and condition. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __linux__
#include <sys/resource.h>
#endif

#include "../../service/src/report/compare.h"
#include "check.h"
#include "testreport.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

/* A report of two small runs is some hundred KiB; a chart that does not end writes without end. */
#define REPORT_SIZE_MAX (4L << 20)

static store *db;

/* A finished run on host `host` of builtin-st with a baseline and two sleep conditions (so the
   cost model applies), 3 blocks; the baseline scores `base`, the conditions `cond`, straight into
   the store as a database written before scores were checked would hold them. */
static int64_t make_run(const char *host, double base, double cond) {
  ts_err err;
  plan p;
  CHECK_INT(plan_preset("quick", &p, &err), TS_OK);
  CHECK_INT(plan_set(&p, "conditions", "baseline,sleep:1500,sleep:5000", &err), TS_OK);
  CHECK_INT(plan_set(&p, "bench", "builtin-st", &err), TS_OK);
  CHECK_INT(plan_set(&p, "reps", "3", &err), TS_OK);
  char text[PLAN_FORMAT_MAX];
  plan_format(&p, text, sizeof text);
  store_run_info info = {p.name, text, 3, "2026-01-01T00:00:00.000Z", host, "Linux", "cpu", 8,
                         "1.0",  NULL, 0};
  store_trial_plan trials[3 * 3];
  int n = 0;
  for (int rep = 1; rep <= 3; rep++)
    for (int c = 0; c < p.condition_count; c++)
      trials[n] = (store_trial_plan){n + 1, rep, p.conditions[c].text, "builtin-st", 0}, n++;
  int64_t run_id = 0;
  CHECK_INT(store_run_begin(db, &info, trials, n, &run_id, &err), TS_OK);
  for (int i = 0; i < n; i++) {
    double score = strcmp(trials[i].condition, "baseline") == 0 ? base : cond;
    /* The same score every block, and one a hair apart, so spreads are 0 and tiny alike. */
    if (trials[i].block == 2 && isfinite(score) && score != 0)
      score = nextafter(score, 0);
    CHECK_INT(test_finish_trial(db, trials[i].id, score, 0, NULL, &err), TS_OK);
  }
  CHECK_INT(store_run_end(db, run_id, STORE_RUN_FINISHED, NULL, "2026-01-01T00:02:00.000Z", &err),
            TS_OK);
  return run_id;
}

/* The size of what was written to f, which is closed. */
static long written(FILE *f) {
  long size = ftell(f);
  fclose(f);
  return size;
}

static void every_format_ends_small(void) {
  const double extremes[] = {DBL_MAX, -DBL_MAX, 5.6e-292,  1e-300, 1e15,    1,           0,
                             -1,      INFINITY, -INFINITY, NAN,    DBL_MIN, DBL_TRUE_MIN};
  const int count = (int)(sizeof extremes / sizeof extremes[0]);
  int reports = 0;
  for (int i = 0; i < count; i++)
    for (int j = 0; j < count; j++) {
      if (i != j && i > 2 && j > 2 && (i + j) % 3)
        continue; /* every value against the largest, the smallest and itself, a third of the rest
                   */
      int64_t ids[2] = {make_run("pc-a", extremes[i], extremes[j]),
                        make_run("pc-b", extremes[j], extremes[i])};
      for (int format = 0; format < REPORT_FORMAT_COUNT; format++) {
        ts_err err;
        FILE *f = tmpfile();
        CHECK(f != NULL);
        if (!f)
          return;
        CHECK_INT(report_run_format(db, ids[0], (report_format)format, f, &err), TS_OK);
        long size = written(f);
        if (size <= 0 || size > REPORT_SIZE_MAX)
          fprintf(stderr, "  baseline %g, condition %g, format %d: %ld bytes\n", extremes[i],
                  extremes[j], format, size);
        CHECK(size > 0 && size <= REPORT_SIZE_MAX);
        f = tmpfile();
        CHECK(f != NULL);
        if (!f)
          return;
        CHECK_INT(report_compare_format(db, ids, 2, (report_format)format, f, &err), TS_OK);
        size = written(f);
        if (size <= 0 || size > REPORT_SIZE_MAX)
          fprintf(stderr, "  compare %g against %g, format %d: %ld bytes\n", extremes[i],
                  extremes[j], format, size);
        CHECK(size > 0 && size <= REPORT_SIZE_MAX);
        reports += 2;
      }
    }
  CHECK(reports > 100);
}

/* Where a score enters, one no chart or sum can hold is refused, naming the range accepted. */
static void scores_out_of_range_are_refused(void) {
  const double refused[] = {5.6e-292, 1e-10, -1, 1e16, DBL_MAX, INFINITY, NAN};
  const double accepted[] = {0, 1e-9, 1, 1e15};
  ts_err err;
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    CHECK_INT(store_score_check(refused[i], "score", &err), TS_EINVAL);
    CHECK(strstr(err.text, "accepted: 0, or a number from 1e-09 to 1e+15") != NULL);
  }
  for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++)
    CHECK_INT(store_score_check(accepted[i], "score", &err), TS_OK);
  int64_t run_id = make_run("pc-a", 100, 90), trial_id = 0;
  CHECK_INT(store_trial_record(db, run_id, "baseline", "by-hand", 5.6e-292, NULL,
                               "2026-01-01T00:03:00.000Z", &trial_id, &err),
            TS_EINVAL);
  CHECK(strstr(err.text, "the score 5.6") != NULL);
  CHECK_INT(store_trial_record(db, run_id, "baseline", "by-hand", 1e15, NULL,
                               "2026-01-01T00:03:00.000Z", &trial_id, &err),
            TS_OK);
}

static int always(void *ctx) {
  ++*(int *)ctx;
  return 1;
}

/* A run of many metric names (each trial its own 256, the most a trial holds: a CSV row per
   trial, a column per name in the run): written with a cap it stops past the cap, says so naming
   the limit, and writes little more; asked to stop, it stops; a 257th metric is refused where it
   enters, naming the cap; and finding a trial's metric is a search, so the whole report is quick.
 */
static void a_report_past_its_cap_stops(void) {
  ts_err err;
  int64_t run_id = 0;
  store_metric *metrics = calloc(STORE_TRIAL_METRICS_MAX + 1, sizeof *metrics);
  char(*names)[32] = calloc(STORE_TRIAL_METRICS_MAX + 1, sizeof *names);
  REQUIRE(metrics && names);
  for (int k = 0; k <= STORE_TRIAL_METRICS_MAX; k++) {
    snprintf(names[k], sizeof names[k], "m.%03d", k);
    metrics[k] = (store_metric){names[k], k * 1e15};
  }
  store_run_info info = {"many",    "name = many\n",
                         1,         "2026-01-01T00:00:00.000Z",
                         "pc-many", "Linux",
                         "cpu",     8,
                         "1.0",     NULL,
                         0};
  store_trial_plan trials[40];
  for (int t = 0; t < 40; t++)
    trials[t] = (store_trial_plan){t + 1, t / 2 + 1, t % 2 ? "sleep:1" : "baseline", "b", 0};
  CHECK_INT(store_run_begin(db, &info, trials, 40, &run_id, &err), TS_OK);
  /* One more than a trial holds: refused where it enters. */
  CHECK_INT(test_finish_trial(db, trials[0].id, 5, STORE_TRIAL_METRICS_MAX + 1, metrics, &err),
            TS_EINVAL);
  CHECK(strstr(err.text, "accepted: at most 256 per trial") != NULL);
  for (int t = 0; t < 40; t++) {
    for (int k = 0; k < STORE_TRIAL_METRICS_MAX; k++) {
      snprintf(names[k], sizeof names[k], "m%02d.%03d", t, k);
      metrics[k] = (store_metric){names[k], k * 1e15};
    }
    CHECK_INT(test_finish_trial(db, trials[t].id, 5 + t, STORE_TRIAL_METRICS_MAX, metrics, &err),
              TS_OK);
  }
  free(metrics);
  free(names);

  /* Whole: 40 rows of 10240 columns. */
  uint64_t began = plat_clock_ns();
  report_prepared *p = NULL;
  FILE *f = tmpfile();
  REQUIRE(f != NULL);
  CHECK_INT(report_prepare(db, run_id, REPORT_FORMAT_CSV, &p, &err), TS_OK);
  CHECK_INT(report_write(p, f, 0, NULL, NULL, &err), TS_OK);
  long whole = written(f);
  CHECK(whole > 400000);
  CHECK(plat_clock_ns() - began < 10 * TS_NS_PER_S);
  /* Capped at 64 KiB: stopped after the row that passed it. */
  f = tmpfile();
  REQUIRE(f != NULL);
  CHECK_INT(report_write(p, f, 65536, NULL, NULL, &err), TS_EFAILED);
  CHECK(strstr(err.text, "is larger than 65536 bytes, the most written here") != NULL);
  long capped = written(f);
  CHECK(capped > 65536 && capped < whole / 2);
  report_prepared_free(p);
  /* Asked to stop: stopped at the first check. */
  int asked = 0;
  CHECK_INT(report_prepare(db, run_id, REPORT_FORMAT_JSON, &p, &err), TS_OK);
  f = tmpfile();
  REQUIRE(f != NULL);
  CHECK_INT(report_write(p, f, REPORT_OUTPUT_MAX, always, &asked, &err), TS_EINTERRUPTED);
  CHECK(asked >= 1);
  CHECK(written(f) < 4096);
  report_prepared_free(p);
}

int main(void) {
#ifdef __linux__
  /* A report that never ends is stopped (SIGXFSZ) before it fills the disk. */
  struct rlimit limit = {64L << 20, 64L << 20};
  setrlimit(RLIMIT_FSIZE, &limit);
#endif
  ts_err err;
  remove("test_report_extremes.db");
  CHECK_INT(store_open(&db, "test_report_extremes.db", &err), TS_OK);
  RUN_CASE(scores_out_of_range_are_refused);
  RUN_CASE(every_format_ends_small);
  RUN_CASE(a_report_past_its_cap_stops);
  store_close(db);
  return check_summary();
}

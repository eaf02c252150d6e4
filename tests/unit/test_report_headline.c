/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_report_headline.c - a run's one-line headline on runs stored in a real database: the
   largest slower or faster effect is chosen, else the condition with the most threads; the
   sleepers' wording, the sign and the text report's top line. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../service/src/report/data.h"
#include "../../service/src/report/headline.h"
#include "../../service/src/report/report.h"
#include "check.h"
#include "testdb.h"
#include "testreport.h"

static store *db;

/* The same small spread in every condition, so each effect is exactly what the test sets. */
static const double jitter[6] = {-0.3, 0.1, 0.25, -0.15, 0.1, 0.0};

/* Stores a finished run of builtin-st with `conditions` (the first is the baseline), 6 blocks,
   each condition scoring 100 * (1 + effects[c] / 100) plus the jitter. */
static int64_t make_run(const char *conditions, const double *effects) {
  ts_err err;
  plan p;
  CHECK_INT(plan_preset("quick", &p, &err), TS_OK);
  CHECK_INT(plan_set(&p, "conditions", conditions, &err), TS_OK);
  CHECK_INT(plan_set(&p, "reps", "6", &err), TS_OK);
  char text[PLAN_FORMAT_MAX];
  plan_format(&p, text, sizeof text);
  store_run_info info = {p.name, text, 3, "2026-01-01T00:00:00.000Z", "host", "Linux", "cpu", 2,
                         "1.0",  NULL, 0};
  static store_trial_plan trials[PLAN_MAX_CONDITIONS * 6];
  int n = 0;
  for (int rep = 1; rep <= 6; rep++)
    for (int c = 0; c < p.condition_count; c++)
      trials[n] = (store_trial_plan){n + 1, rep, p.conditions[c].text, "builtin-st", 0}, n++;
  int64_t run_id = 0;
  CHECK_INT(store_run_begin(db, &info, trials, n, &run_id, &err), TS_OK);
  for (int i = 0; i < n; i++) {
    int c = plan_condition_index(&p, trials[i].condition);
    double score = 100 * (1 + effects[c] / 100) + jitter[trials[i].block - 1];
    CHECK_INT(test_finish_trial(db, trials[i].id, score, 0, NULL, &err), TS_OK);
  }
  CHECK_INT(store_run_end(db, run_id, STORE_RUN_FINISHED, NULL, "2026-01-01T00:02:00.000Z", &err),
            TS_OK);
  return run_id;
}

static void headline_of(int64_t run_id, char *buf, size_t len) {
  ts_err err;
  buf[0] = '\0';
  CHECK_INT(report_headline_load(db, run_id, buf, len, &err), TS_OK);
}

static void the_largest_effect_with_a_verdict_wins(void) {
  const double effects[] = {0, -2, -5, 3};
  int64_t run = make_run("baseline,sleep:1000@1ms,sleep:15000@1ms,wait:20000:event", effects);
  char line[512];
  headline_of(run, line, sizeof line);
  /* The minus sign is U+2212; then the interval that decided, at its Holm level. */
  CHECK_STR_CONTAINS(line, "15,000 sleepers: builtin-st \xe2\x88\x92"
                           "5.0 % (");
  CHECK_STR_CONTAINS(line, " % CI \xe2\x88\x92");
  CHECK_STR_CONTAINS(line, ", slower; p ");
  CHECK_STR_CONTAINS(line, ", Holm ");
  CHECK_STR_CONTAINS(line, ", paired");
  report_data *r;
  ts_err err;
  REQUIRE(report_data_load(db, run, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &r, &err) == TS_OK);
  int b = -1, c = -1;
  CHECK_INT(report_headline_pick(r, &b, &c), 1);
  CHECK_INT(b, 0);
  CHECK_INT(c, 2);
  report_data_free(r);
  char *text = test_render_report(db, run, REPORT_FORMAT_TEXT);
  CHECK_STR_CONTAINS(text, "Headline: 15,000 sleepers: builtin-st");
  free(text);
}

static void a_faster_effect_has_a_plus_sign(void) {
  const double effects[] = {0, 4};
  int64_t run = make_run("baseline,wait:200:event", effects);
  char line[512];
  headline_of(run, line, sizeof line);
  CHECK_STR_CONTAINS(line, "wait:200:event: builtin-st +4.0 % (");
  CHECK_STR_CONTAINS(line, ", faster");
}

static void without_an_effect_the_largest_condition_speaks(void) {
  const double effects[] = {0, 0, 0};
  int64_t run = make_run("baseline,sleep:100@1ms,sleep:3000@1ms", effects);
  char line[512];
  headline_of(run, line, sizeof line);
  CHECK_STR_CONTAINS(line, "3,000 sleepers: builtin-st ");
  CHECK(strstr(line, "slower") == NULL && strstr(line, "faster") == NULL);
}

static void a_run_with_nothing_compared_says_so(void) {
  const double effects[] = {0};
  int64_t run = make_run("baseline", effects);
  char line[512];
  headline_of(run, line, sizeof line);
  CHECK(strcmp(line, "no condition compared with baseline") == 0);
}

int main(void) {
  const char *path = "test_report_headline.db";
  ts_err err;
  remove_db(path);
  if (store_open(&db, path, &err) != TS_OK) {
    fprintf(stderr, "cannot open the test database: %s\n", err.text);
    return 1;
  }
  RUN_CASE(the_largest_effect_with_a_verdict_wins);
  RUN_CASE(a_faster_effect_has_a_plus_sign);
  RUN_CASE(without_an_effect_the_largest_condition_speaks);
  RUN_CASE(a_run_with_nothing_compared_says_so);
  store_close(db);
  remove_db(path);
  return check_summary();
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_calibration.c - the positive control's verdict on constructed data: the rule (passed, an
   A/A pair that differs, too noisy, a control that cost less), the expected cost per benchmark
   kind, and the Calibration part of the text, JSON and HTML reports. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../service/src/report/calibration.h"
#include "check.h"
#include "testreport.h"

/* The largest burn of a 2-CPU run with builtin-st: burn:10% on every CPU, about -10 %. */
static calibration_case control(stats_verdict verdict, double percent, double detectable) {
  calibration_case c = {.control = "burn:10%@10ms",
                        .control_verdict = verdict,
                        .control_percent = percent,
                        .control_detectable = detectable,
                        .expected_near = -10,
                        .expected_far = -10,
                        .aa_pairs = 1};
  return c;
}

static void passed_when_the_control_is_seen_and_aa_is_not(void) {
  char why[480];
  calibration_case c = control(STATS_SLOWER, -9.2, 1.5);
  CHECK_INT(calibration_decide(&c, why, sizeof why), 1);
  CHECK_STR_CONTAINS(why, "burn:10%@10ms came out slower by 9.20 %");
  CHECK_STR_CONTAINS(why, "the A/A pair did not differ");
  /* An A/A pair that is inconclusive or the same does not fail the run. */
  c.aa = "baseline-b";
  c.aa_verdict = STATS_NO_EFFECT;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 1);
  /* Without an A/A pair the run passes on its control, and says what is missing. */
  c = control(STATS_SLOWER, -9.2, 1.5);
  c.aa_pairs = 0;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 1);
  CHECK_STR_CONTAINS(why, "no A/A pair");
}

static void failed_when_aa_differs(void) {
  char why[480];
  calibration_case c = control(STATS_SLOWER, -9.2, 1.5);
  c.aa = "baseline-b";
  c.aa_verdict = STATS_SLOWER;
  c.aa_percent = -2.5;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "the A/A pair differed: baseline-b came out slower than the baseline "
                          "by 2.50 %");
  c.aa_verdict = STATS_FASTER;
  c.aa_percent = 3;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "faster");
  /* Both wrong: both reasons. */
  c.control_verdict = STATS_INCONCLUSIVE;
  c.control_detectable = 25;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "the A/A pair differed");
  CHECK_STR_CONTAINS(why, "; too noisy");
}

static void too_noisy_when_the_run_could_not_see_the_cost(void) {
  char why[480];
  calibration_case c = control(STATS_INCONCLUSIVE, -4, 23.456);
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "too noisy: this run could detect only ±23.46 %");
  CHECK_STR_CONTAINS(why, "about -10 %");
  /* Not known how small an effect it could see: also too noisy. */
  c.control_detectable = NAN;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "too noisy");
  /* Too few scores for a verdict at all. */
  c.control_too_few = 1;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "too few trials");
}

static void cost_less_when_a_precise_run_missed_it(void) {
  char why[480];
  calibration_case c = control(STATS_NO_EFFECT, -0.3, 2.1);
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "the control cost less than expected: burn:10%@10ms measured -0.30 %");
  CHECK_STR_CONTAINS(why, "±2.10 %");
  c = control(STATS_FASTER, 1.2, 0.9);
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "cost less than expected");
  /* A range: precise enough to see its far end, yet nothing seen. */
  c = control(STATS_INCONCLUSIVE, -0.5, 1.0);
  c.expected_near = 0;
  c.expected_far = -2.5;
  CHECK_INT(calibration_decide(&c, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "cost less than expected");
  CHECK_STR_CONTAINS(why, "0 to -2.5 %");
}

static void expected_cost_per_benchmark_kind(void) {
  double near, far;
  /* Burners on every CPU (or more): about -duty, whatever the benchmark. */
  calibration_threads kinds[] = {CALIBRATION_SINGLE, CALIBRATION_MULTI, CALIBRATION_UNKNOWN};
  for (int i = 0; i < 3; i++) {
    calibration_expected(10, 4, 4, kinds[i], &near, &far);
    CHECK(near == -10 && far == -10);
    calibration_expected(10, 8, 4, kinds[i], &near, &far);
    CHECK(near == -10 && far == -10);
  }
  /* Fewer burners than CPUs: from 0 to the share a multi-thread benchmark loses... */
  calibration_expected(10, 1, 4, CALIBRATION_MULTI, &near, &far);
  CHECK(near == 0 && fabs(far - -2.5) < 1e-12);
  /* ... or to the whole duty for one that may share its one core with a burner. */
  calibration_expected(10, 1, 4, CALIBRATION_SINGLE, &near, &far);
  CHECK(near == 0 && far == -10);
  calibration_expected(10, 1, 4, CALIBRATION_UNKNOWN, &near, &far);
  CHECK(near == 0 && far == -10);

  static const struct {
    const char *bench;
    calibration_threads threads;
  } benches[] = {
      {"builtin-st", CALIBRATION_SINGLE},   {"builtin-mt", CALIBRATION_MULTI},
      {"builtin-mt:1", CALIBRATION_SINGLE}, {"builtin-mt:16", CALIBRATION_MULTI},
      {"7zip", CALIBRATION_MULTI},          {"7zip:1", CALIBRATION_SINGLE},
      {"7zip:4", CALIBRATION_MULTI},        {"cpuz", CALIBRATION_MULTI},
      {"cpuz:single", CALIBRATION_SINGLE},  {"cpuz:multi", CALIBRATION_MULTI},
      {"command", CALIBRATION_UNKNOWN},     {"cpuz-single", CALIBRATION_UNKNOWN},
      {"builtin-stx", CALIBRATION_UNKNOWN}, {"7zipper", CALIBRATION_UNKNOWN},
  };
  for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++) {
    fprintf(stderr, "  %s\n", benches[i].bench);
    CHECK_INT(calibration_bench_threads(benches[i].bench), benches[i].threads);
  }
}

/* A report of a 4-CPU run: baseline, burn:2%, burn:10%, burn:10%/count=1 and an A/A pair; one
   single-thread and one multi-thread benchmark. */
static report_data *make_report(stats_verdict largest, stats_verdict aa) {
  report_data *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->have_run = 1;
  r->run.logical_cpus = 4;
  const char *conds[] = {"baseline",   "burn:2%@10ms",   "burn:10%@10ms", "burn:10%@10ms/count=1",
                         "baseline-b", "sleep:100@500ms"};
  r->condition_count = 6;
  for (int c = 0; c < r->condition_count; c++)
    snprintf(r->conditions[c], sizeof r->conditions[c], "%s", conds[c]);
  r->bench_count = 2;
  snprintf(r->benches[0], sizeof r->benches[0], "builtin-st");
  snprintf(r->benches[1], sizeof r->benches[1], "builtin-mt");
  for (int b = 0; b < 2; b++)
    for (int c = 1; c < r->condition_count; c++) {
      report_cell *cell = &r->cells[b][c];
      cell->compared = 1;
      cell->cmp.verdict = c == 2 ? largest : c == 4 ? aa : STATS_SLOWER;
      cell->cmp.percent = c == 2 ? -9.5 : c == 4 ? 0.2 : -1.9;
      cell->sens.detectable_percent = 1.25;
    }
  return r;
}

/* Defined by report/calibration.c; the reports reach it through sections.c's table. */
extern const report_section report_section_calibration;

/* The calibration section of r in one format. */
static char *render(const report_data *r, report_format format) {
  return test_render_section(&report_section_calibration, NULL, r, format);
}

static void a_run_is_judged_from_its_cells(void) {
  report_data *r = make_report(STATS_SLOWER, STATS_NO_EFFECT);
  REQUIRE(r);
  report_calibration *cal = malloc(sizeof *cal);
  REQUIRE(cal);
  CHECK_INT(report_calibration_of(r, cal), 3);
  CHECK_INT(cal->logical_cpus, 4);
  CHECK_INT(cal->cpus_from_run, 1);
  CHECK_INT(cal->aa_count, 1);
  CHECK_INT(cal->aa[0], 4);
  /* Without a count, one burner per CPU of the run's machine, not this one's. */
  CHECK_INT(cal->controls[0].burners, 4);
  CHECK_INT(cal->controls[2].burners, 1);
  CHECK(cal->controls[1].duty_percent == 10);
  CHECK_INT(cal->threads[0], CALIBRATION_SINGLE);
  CHECK_INT(cal->threads[1], CALIBRATION_MULTI);
  /* The largest burn is burn:10% on every CPU (index 1): for builtin-st burn:10%/count=1 costs
     as much at most, and the first of equals counts. */
  CHECK_INT(cal->largest[0], 1);
  CHECK_INT(cal->largest[1], 1);
  CHECK_INT(cal->passed[0], 1);
  CHECK_INT(cal->passed[1], 1);
  CHECK_INT(cal->all_passed, 1);

  char *text = render(r, REPORT_FORMAT_TEXT);
  CHECK_STR_CONTAINS(text, "Calibration: PASSED");
  CHECK_STR_CONTAINS(text, "4 logical CPUs of the run's machine");
  CHECK_STR_CONTAINS(text, "burn:10%@10ms (largest)");
  CHECK_STR_CONTAINS(text, "0 to -2.5 %"); /* burn:10%/count=1 beside builtin-mt */
  CHECK_STR_CONTAINS(text, "baseline-b (A/A)");
  free(text);
  char *json = render(r, REPORT_FORMAT_JSON);
  CHECK_STR_CONTAINS(json, ",\n\"calibration\":{\"logical_cpus\":4,\"logical_cpus_from\":\"run\","
                           "\"verdict\":\"passed\"");
  CHECK_STR_CONTAINS(json, "\"role\":\"largest burn\",\"duty_percent\":10,\"burners\":4,"
                           "\"expected_percent\":[-10,-10],\"measured_percent\":-9.5");
  CHECK_STR_CONTAINS(json, "\"role\":\"a/a\"");
  free(json);
  char *html = render(r, REPORT_FORMAT_HTML);
  CHECK_STR_CONTAINS(html, "<h2>Calibration: <span class=\"verdict faster\">PASSED</span></h2>");
  free(html);

  /* The A/A pair differs in builtin-mt only: that benchmark fails, and so the run. */
  r->cells[1][4].cmp.verdict = STATS_FASTER;
  CHECK_INT(report_calibration_of(r, cal), 3);
  CHECK_INT(cal->passed[0], 1);
  CHECK_INT(cal->passed[1], 0);
  CHECK_INT(cal->all_passed, 0);
  CHECK_STR_CONTAINS(cal->why[1], "A/A pair differed");
  text = render(r, REPORT_FORMAT_TEXT);
  CHECK_STR_CONTAINS(text, "Calibration: FAILED");
  free(text);
  free(cal);
  free(r);
}

static void no_burn_no_section(void) {
  report_data *r = make_report(STATS_SLOWER, STATS_NO_EFFECT);
  REQUIRE(r);
  r->condition_count = 2;
  snprintf(r->conditions[1], sizeof r->conditions[1], "sleep:100@500ms");
  report_calibration *cal = malloc(sizeof *cal);
  REQUIRE(cal);
  CHECK_INT(report_calibration_of(r, cal), 0);
  char *text = render(r, REPORT_FORMAT_TEXT);
  char *json = render(r, REPORT_FORMAT_JSON);
  char *html = render(r, REPORT_FORMAT_HTML);
  CHECK(text && text[0] == '\0');
  CHECK(json && json[0] == '\0');
  CHECK(html && html[0] == '\0');
  free(text);
  free(json);
  free(html);
  /* burn mixed with other load is not a control: its cost is not known. */
  r->condition_count = 3;
  snprintf(r->conditions[2], sizeof r->conditions[2], "burn:10%%@10ms+sleep:10@500ms");
  CHECK_INT(report_calibration_of(r, cal), 0);
  free(cal);
  free(r);
}

/* Stored and read back: the run's own logical CPU count (6 here, whatever this machine has)
   sizes the burners, and a clear cost with an A/A pair that agrees passes in every format. */
static void a_stored_run_is_judged_on_its_machine(void) {
  remove("test_calibration.db");
  store *db;
  ts_err err;
  REQUIRE(store_open(&db, "test_calibration.db", &err) == TS_OK);
  store_run_info info = {"calibrate",
                         "name = calibrate\n",
                         1,
                         "2026-01-01T00:00:00.000Z",
                         "host",
                         "Linux",
                         "cpu",
                         6,
                         "1.0",
                         NULL,
                         0};
  const char *conds[3] = {"baseline", "burn:10%@10ms", "baseline-b"};
  store_trial_plan trials[3 * 6];
  int n = 0;
  for (int rep = 1; rep <= 6; rep++)
    for (int c = 0; c < 3; c++)
      trials[n] = (store_trial_plan){n + 1, rep, conds[c], "builtin-st", 0}, n++;
  int64_t run_id;
  REQUIRE(store_run_begin(db, &info, trials, n, &run_id, &err) == TS_OK);
  for (int i = 0; i < n; i++) {
    int c = i % 3;
    /* The burn costs 10 %; the two baselines are the same scores, a little spread. */
    double score = (c == 1 ? 90 : 100) + (double)(i / 3 % 3) * 0.2;
    CHECK_INT(test_finish_trial(db, trials[i].id, score, 0, NULL, &err), TS_OK);
  }
  report_data *r = NULL;
  CHECK_INT(report_data_load(db, run_id, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &r, &err),
            TS_OK);
  store_close(db);
  REQUIRE(r);
  CHECK_INT(r->run.logical_cpus, 6);
  report_calibration *cal = malloc(sizeof *cal);
  REQUIRE(cal);
  CHECK_INT(report_calibration_of(r, cal), 1);
  CHECK_INT(cal->cpus_from_run, 1);
  CHECK_INT(cal->controls[0].burners, 6);
  CHECK_INT(cal->all_passed, 1);
  CHECK_STR_CONTAINS(cal->why[0], "burn:10%@10ms came out slower by 9.98 %");
  CHECK_STR_CONTAINS(cal->why[0], "the A/A pair did not differ");
  char *text = render(r, REPORT_FORMAT_TEXT);
  CHECK_STR_CONTAINS(text, "6 logical CPUs of the run's machine");
  free(text);
  free(cal);
  report_data_free(r);
}

int main(void) {
  RUN_CASE(passed_when_the_control_is_seen_and_aa_is_not);
  RUN_CASE(failed_when_aa_differs);
  RUN_CASE(too_noisy_when_the_run_could_not_see_the_cost);
  RUN_CASE(cost_less_when_a_precise_run_missed_it);
  RUN_CASE(expected_cost_per_benchmark_kind);
  RUN_CASE(a_run_is_judged_from_its_cells);
  RUN_CASE(no_burn_no_section);
  RUN_CASE(a_stored_run_is_judged_on_its_machine);
  return check_summary();
}

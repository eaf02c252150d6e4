/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_report_freeze.c - the reports' frozen programs on stored runs made through the store API: a
   cost run whose slowdown is 0.4 % per 1,000 wake-ups/s, and a freeze run with a program that
   costs, one within the margin and one not determined; the predictions against hand-computed
   numbers, the verdicts, the advice, the section in text, CSV, JSON and HTML, and the programs'
   counts without the warm-up. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../service/src/report/cost.h"
#include "../../service/src/report/data.h"
#include "../../service/src/report/freeze.h"
#include "../../service/src/report/report.h"
#include "check.h"
#include "testdb.h"
#include "testreport.h"

static store *db, *no_cost_db;
static int64_t cost_run, freeze_run, lone_freeze_run;

/* A block's shared jitter, and each trial's own (by block, then condition). */
static const double jitter[8] = {-0.3, 0.1, 0.25, -0.15, 0.1, 0.2, -0.1, -0.05};
static const double own_jitter[8] = {0.05, -0.08, 0.03, 0.1, -0.02, -0.06, 0.07, -0.04};
/* The program "unsure" scatters widely: its interval holds 0 and reaches past the margin. */
static const double unsure_scatter[8] = {2.0, -1.5, 1.8, -1.2, 2.2, -0.8, 1.5, -1.0};

/* How a run's trials score: the effect of a condition in % (the model's scale: 100 x log
   ratio) and the metrics each trial stores. */
typedef struct run_shape {
  double (*effect)(const load_spec *spec, const char *condition, int block);
  int (*metrics_of)(const load_spec *spec, store_metric *m);
} run_shape;

/* Each trial scores 100 * exp(effect / 100) plus the block's jitter and a little of its own. */
static double shaped_trial(void *ctx, const load_spec *spec, const char *condition, int c,
                           int block, store_metric *metrics, int *count) {
  const run_shape *shape = ctx;
  *count = shape->metrics_of(spec, metrics);
  return 100 * exp(shape->effect(spec, condition, block) / 100) + jitter[block - 1] +
         own_jitter[(block + c) % 8];
}

static double planned_wakeups(const load_spec *spec) {
  double wakeups = 0;
  for (int k = 0; k < spec->part_count; k++)
    if (strcmp(spec->parts[k].scenario->name, "sleep") == 0)
      wakeups += load_part_wakeups_per_s(&spec->parts[k]);
  return wakeups;
}

/* -0.4 % per 1,000 wake-ups per second, nothing per thread. */
static double wakeups_cost(const load_spec *spec, const char *condition, int block) {
  (void)condition;
  (void)block;
  return -0.4 * planned_wakeups(spec) / 1000;
}

static int switches_metric(const load_spec *spec, store_metric *m) {
  m[0] = (store_metric){"load.switches_per_s", 0.98 * planned_wakeups(spec)};
  return 1;
}

/* Frozen, busy makes the benchmark 2 % faster; idle changes nothing; unsure scatters. */
static double freeze_effect(const load_spec *spec, const char *condition, int block) {
  (void)spec;
  if (strcmp(condition, "freeze:busy") == 0)
    return 2.0;
  if (strcmp(condition, "freeze:unsure") == 0)
    return 0.6 + unsure_scatter[block - 1];
  return 0;
}

/* The census of the programs, as a run that counts them stores it: busy wakes 5,000 times a
   second with 4 threads, idle once with 1; unsure is not counted. */
static int program_metrics(const load_spec *spec, store_metric *m) {
  (void)spec;
  m[0] = (store_metric){"program.busy.switches_per_s", 5000};
  m[1] = (store_metric){"program.busy.threads", 4};
  m[2] = (store_metric){"program.idle.switches_per_s", 1};
  m[3] = (store_metric){"program.idle.threads", 1};
  return 4;
}

#define FREEZE_CONDITIONS "baseline, freeze:busy, freeze:idle, freeze:unsure"

static void a_condition_names_its_programs(void) {
  char names[8][REPORT_FREEZE_NAME_MAX];
  CHECK_INT(report_freeze_programs("freeze:busy", names, 8), 1);
  CHECK_STR_EQ(names[0], "busy");
  CHECK_INT(report_freeze_programs("freeze:busy+freeze:4242/max=30s", names, 8), 2);
  CHECK_STR_EQ(names[1], "4242");
  /* a load, a mix or the baseline freezes nothing this section counts */
  CHECK_INT(report_freeze_programs("freeze:busy+sleep:100@1s", names, 8), 0);
  CHECK_INT(report_freeze_programs("sleep:100@1s", names, 8), 0);
  CHECK_INT(report_freeze_programs("baseline", names, 8), 0);
}

static void the_costs_are_predicted_and_measured(void) {
  report_data *r;
  ts_err err;
  REQUIRE(report_data_load(db, freeze_run, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &r, &err) ==
          TS_OK);
  REQUIRE(r->machine_cost != NULL);
  CHECK(r->machine_cost->run_id == cost_run);
  report_freeze *f = NULL;
  REQUIRE(report_freeze_compute(db, r, &f, &err) == TS_OK);
  CHECK_INT(f->row_count, 3);
  CHECK(f->cost_run == cost_run);
  /* the model's wake-up coefficient, and by hand what it predicts for 5,000 wake-ups/s and 4
     threads: 5 times the coefficient, its interval scaled alike, the sign turned to a cost */
  const report_cost_bench *cb = &f->model->bench[0];
  REQUIRE(cb->answer == REPORT_COST_SEPARATED);
  const report_freeze_row *busy = &f->rows[0];
  CHECK_STR_EQ(busy->programs[0], "busy");
  CHECK(busy->wakeups_per_s == 5000 && busy->threads == 4);
  CHECK_INT(busy->predicted[0], 1);
  CHECK(fabs(busy->prediction[0].wakeups - -5 * cb->wakeups.estimate) < 1e-9);
  CHECK(fabs(busy->prediction[0].wakeups_low - -5 * cb->wakeups.high) < 1e-9);
  CHECK(fabs(busy->prediction[0].wakeups_high - -5 * cb->wakeups.low) < 1e-9);
  CHECK(fabs(busy->prediction[0].threads - -0.004 * cb->threads.estimate) < 1e-12);
  CHECK(fabs(busy->prediction[0].wakeups - 2.0) < 0.03); /* 0.4 % x 5 */
  /* measured: frozen, the benchmark ran about 2 % faster, so busy costs that much */
  CHECK_INT(busy->finding[0], REPORT_FREEZE_COSTS);
  CHECK(fabs(r->cells[0][busy->condition].cmp.percent - 100 * (exp(0.02) - 1)) < 0.1);
  CHECK_INT(f->rows[1].finding[0], REPORT_FREEZE_NOTHING);
  CHECK(fabs(f->rows[1].prediction[0].wakeups - -0.001 * cb->wakeups.estimate) < 1e-12);
  const report_freeze_row *unsure = &f->rows[2];
  CHECK_INT(unsure->finding[0], REPORT_FREEZE_NOT_DETERMINED);
  CHECK(isnan(unsure->wakeups_per_s) && isnan(unsure->threads));
  CHECK_INT(unsure->predicted[0], 0);
  report_freeze_free(f);
  report_data_free(r);
}

static void text_names_the_costs_and_advises(void) {
  char *text = test_render_report(db, freeze_run, REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK_STR_CONTAINS(text, "Frozen programs: what each costs");
  CHECK_STR_CONTAINS(text, "    busy: costs 2.0");
  CHECK_STR_CONTAINS(text, "; predicted 2.0");
  CHECK_STR_CONTAINS(text, "from its wake-ups, 0.00 % (95 % CI 0.00 to 0.00 %) from its threads");
  CHECK_STR_CONTAINS(text, "model (6 conditions, 5 blocks): per 1,000 wake-ups/s 0.40 % (95 % CI");
  CHECK_STR_CONTAINS(text, "    idle: costs nothing measurable (within ±1.0 %");
  CHECK_STR_CONTAINS(text, "    unsure: not determined: +");
  CHECK_STR_CONTAINS(text, "not counted");
  CHECK_STR_CONTAINS(text, "Removing busy would buy about 2.0 % (");
  CHECK_STR_CONTAINS(text, "on builtin-st; the other one costs nothing measurable (within ±1.0 "
                           "%); one not determined (more blocks would tell).");
  char from[64];
  snprintf(from, sizeof from, "predicted by cost run %lld's model", (long long)cost_run);
  CHECK_STR_CONTAINS(text, from);
  free(text);
}

static void csv_json_and_html_carry_the_section(void) {
  char *csv = test_render_report(db, freeze_run, REPORT_FORMAT_CSV);
  REQUIRE(csv != NULL);
  CHECK_STR_CONTAINS(csv, "freeze_bench,condition,programs,wakeups_per_s,threads,"
                          "predicted_percent,predicted_ci_low,predicted_ci_high,"
                          "predicted_threads_percent,cost_percent,cost_low,cost_high,"
                          "cost_confidence,p_holm,finding");
  CHECK_STR_CONTAINS(csv, "builtin-st,freeze:busy,busy,5000,4,");
  CHECK_STR_CONTAINS(csv, ",costs\n");
  CHECK_STR_CONTAINS(csv, ",costs nothing measurable\n");
  CHECK_STR_CONTAINS(csv, "builtin-st,freeze:unsure,unsure,,,,,,,");
  CHECK_STR_CONTAINS(csv, ",not determined\n");
  free(csv);
  char *json = test_render_report(db, freeze_run, REPORT_FORMAT_JSON);
  REQUIRE(json != NULL);
  char member[64];
  snprintf(member, sizeof member, "\"frozen_programs\":{\"cost_run\":%lld,", (long long)cost_run);
  CHECK_STR_CONTAINS(json, member);
  CHECK_STR_CONTAINS(json, "{\"condition\":\"freeze:busy\",\"programs\":[\"busy\"],"
                           "\"wakeups_per_s\":5000,\"threads\":4,");
  CHECK_STR_CONTAINS(json, "\"predicted_from_wakeups\":{\"percent\":2.0");
  CHECK_STR_CONTAINS(json, "\"finding\":\"costs\"");
  CHECK_STR_CONTAINS(json, "\"finding\":\"costs nothing measurable\"");
  CHECK_STR_CONTAINS(json, "\"wakeups_per_s\":null,\"threads\":null");
  CHECK_STR_CONTAINS(json, "\"advice\":\"Removing busy would buy about 2.0 %");
  free(json);
  char *html = test_render_report(db, freeze_run, REPORT_FORMAT_HTML);
  REQUIRE(html != NULL);
  CHECK_STR_CONTAINS(html, "<section class=\"freeze\">\n<h2>Frozen programs</h2>");
  CHECK_STR_CONTAINS(html, "<p><b>Removing busy would buy about 2.0 %");
  CHECK_STR_CONTAINS(html, "aria-label=\"cost of each frozen program\"");
  /* a bar per program measured, with its whisker; the diamond where predicted */
  const char *chart = strstr(html, "aria-label=\"cost of each frozen program\"");
  int bars = 0, diamonds = 0;
  for (const char *p = chart; p && (p = strstr(p, "<rect ")) != NULL; p++)
    bars++;
  for (const char *p = chart; p && (p = strstr(p, "<path d=\"M")) != NULL; p++)
    diamonds++;
  CHECK_INT(bars, 3);
  CHECK_INT(diamonds, 2);
  free(html);
}

static void without_a_cost_run_nothing_is_predicted(void) {
  char *text = test_render_report(no_cost_db, lone_freeze_run, REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK_STR_CONTAINS(text, "predicted: none (no cost run in this database)");
  CHECK_STR_CONTAINS(text, "    busy: costs 2.0");
  CHECK(strstr(text, "; predicted") == NULL);
  free(text);
  /* a run that freezes nothing has no such section, in any format */
  char *json = test_render_report(db, cost_run, REPORT_FORMAT_JSON);
  REQUIRE(json != NULL);
  CHECK_STR_CONTAINS(json, "\"frozen_programs\":null");
  free(json);
  char *cost_text = test_render_report(db, cost_run, REPORT_FORMAT_TEXT);
  REQUIRE(cost_text != NULL);
  CHECK(strstr(cost_text, "Frozen programs") == NULL);
  free(cost_text);
}

/* What census --cost shows beside a running program: by hand, 2,500 wake-ups/s and 10 threads
   cost 2.5 times the wake-up coefficient plus 0.01 times the thread one, the ends of their
   intervals added; measured by the run that froze it alone, its name in any case. */
static void a_running_program_gets_its_costs(void) {
  report_data *cost, *frozen;
  ts_err err;
  REQUIRE(report_data_load(db, cost_run, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &cost, &err) ==
          TS_OK);
  REQUIRE(report_data_load(db, freeze_run, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &frozen,
                           &err) == TS_OK);
  report_cost *model = report_cost_compute(cost);
  REQUIRE(model != NULL);
  const report_cost_term *w = &model->bench[0].wakeups, *t = &model->bench[0].threads;
  const report_data *runs[1] = {frozen};
  report_program_cost pc;
  report_program_cost_of(model, 0, runs, 1, "builtin-st", "BUSY", 2500, 10, &pc);
  CHECK_INT(pc.predicted, 1);
  CHECK(fabs(pc.cost - -(2.5 * w->estimate + 0.01 * t->estimate)) < 1e-9);
  CHECK(fabs(pc.low - -(2.5 * w->high + 0.01 * t->high)) < 1e-9);
  CHECK(fabs(pc.high - -(2.5 * w->low + 0.01 * t->low)) < 1e-9);
  CHECK(fabs(pc.cost - 1.0) < 0.02); /* 0.4 % x 2.5 */
  CHECK(pc.run == freeze_run);
  REQUIRE(pc.cell != NULL);
  double v, low, high;
  CHECK_INT(report_freeze_cost_of(pc.cell, &v, &low, &high), REPORT_FREEZE_COSTS);
  CHECK(low > 0 && fabs(v - 100 * (exp(0.02) - 1)) < 0.1);
  /* a program no run froze alone, and no model: nothing either way */
  report_program_cost_of(NULL, 0, runs, 1, "builtin-st", "nobody", 2500, 10, &pc);
  CHECK_INT(pc.predicted, 0);
  CHECK(pc.run == 0 && pc.cell == NULL);
  free(model);
  report_data_free(cost);
  report_data_free(frozen);
}

/* The program counts leave the warm-up out, as the census table does: a warm-up counted 9,000
   wake-ups a second, the two baseline trials 5,000 and 6,000, so the median is 5,500 (6,000 with
   the warm-up), and the threads' 2 (3 with it). Read without and with the trials' list. */
static void warmups_are_not_counted(void) {
  ts_err err;
  plan p;
  CHECK_INT(plan_preset("quick", &p, &err), TS_OK);
  CHECK_INT(plan_set(&p, "conditions", "baseline, freeze:busy", &err), TS_OK);
  CHECK_INT(plan_set(&p, "reps", "2", &err), TS_OK);
  char text[PLAN_FORMAT_MAX];
  plan_format(&p, text, sizeof text);
  store_run_info info = {p.name, text, 3, "2026-01-01T00:00:00.000Z", "host", "Linux", "cpu", 2,
                         "1.0",  NULL, 0};
  store_trial_plan trials[] = {{1, 0, "baseline", "builtin-st", 0},
                               {2, 1, "baseline", "builtin-st", 0},
                               {3, 1, "freeze:busy", "builtin-st", 0},
                               {4, 2, "freeze:busy", "builtin-st", 0},
                               {5, 2, "baseline", "builtin-st", 0}};
  int64_t run_id = 0;
  REQUIRE(store_run_begin(no_cost_db, &info, trials, 5, &run_id, &err) == TS_OK);
  static const double wakeups[] = {9000, 5000, NAN, NAN, 6000}, threads[] = {3, 2, NAN, NAN, 2};
  for (int i = 0; i < 5; i++) {
    store_metric m[2] = {{"program.busy.switches_per_s", wakeups[i]},
                         {"program.busy.threads", threads[i]}};
    CHECK_INT(test_finish_trial(no_cost_db, trials[i].id, trials[i].condition[0] == 'b' ? 100 : 102,
                                isnan(wakeups[i]) ? 0 : 2, m, &err),
              TS_OK);
  }
  CHECK_INT(
      store_run_end(no_cost_db, run_id, STORE_RUN_FINISHED, NULL, "2026-01-01T00:02:00.000Z", &err),
      TS_OK);
  static const int flags[] = {REPORT_WITH_RUN | REPORT_WITH_STATS,
                              REPORT_WITH_RUN | REPORT_WITH_STATS | REPORT_WITH_TRIALS};
  for (int k = 0; k < 2; k++) {
    report_data *r;
    REQUIRE(report_data_load(no_cost_db, run_id, NULL, flags[k], &r, &err) == TS_OK);
    report_freeze *f = NULL;
    REQUIRE(report_freeze_compute(no_cost_db, r, &f, &err) == TS_OK);
    REQUIRE(f->row_count == 1);
    fprintf(stderr, "  read %s the trials: %.0f wake-ups/s, %.0f threads\n", k ? "with" : "without",
            f->rows[0].wakeups_per_s, f->rows[0].threads);
    CHECK(f->rows[0].wakeups_per_s == 5500 && f->rows[0].threads == 2);
    report_freeze_free(f);
    report_data_free(r);
  }
}

int main(void) {
  remove_db("test_report_freeze.db");
  remove_db("test_report_freeze_alone.db");
  ts_err err;
  if (store_open(&db, "test_report_freeze.db", &err) != TS_OK ||
      store_open(&no_cost_db, "test_report_freeze_alone.db", &err) != TS_OK) {
    fprintf(stderr, "cannot open the test databases: %s\n", err.text);
    return 1;
  }
  run_shape cost_shape = {wakeups_cost, switches_metric};
  run_shape freeze_shape = {freeze_effect, program_metrics};
  cost_run = test_store_run(db, "cost", NULL, 5, shaped_trial, &cost_shape);
  freeze_run = test_store_run(db, "quick", FREEZE_CONDITIONS, 8, shaped_trial, &freeze_shape);
  lone_freeze_run =
      test_store_run(no_cost_db, "quick", FREEZE_CONDITIONS, 8, shaped_trial, &freeze_shape);
  RUN_CASE(a_condition_names_its_programs);
  RUN_CASE(the_costs_are_predicted_and_measured);
  RUN_CASE(text_names_the_costs_and_advises);
  RUN_CASE(csv_json_and_html_carry_the_section);
  RUN_CASE(without_a_cost_run_nothing_is_predicted);
  RUN_CASE(a_running_program_gets_its_costs);
  RUN_CASE(warmups_are_not_counted);
  store_close(db);
  store_close(no_cost_db);
  return check_summary();
}

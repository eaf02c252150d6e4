/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_report_cost.c - the reports' cost model on stored runs made through the store API: a run of
   the cost preset whose slowdown follows the wake-ups alone, a dose run with a knee, and runs the
   section does not apply to; text, JSON and HTML checked for the section, its signs and words. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../service/src/report/cost.h"
#include "../../service/src/report/data.h"
#include "../../service/src/report/report.h"
#include "check.h"
#include "testreport.h"
#include "testdb.h"

static store *db;

/* The same small spread in every condition, so each effect is exactly what the test sets. */
static const double jitter[5] = {-0.3, 0.1, 0.25, -0.15, 0.1};
static const double own_jitter[8] = {0.05, -0.08, 0.03, 0.1, -0.02, -0.06, 0.07, -0.04};

/* A trial of a run whose effects `ctx` gives (double (*)(const load_spec *)): 100 *
   exp(effect / 100) (the model's scale: effects are 100 x log ratios) plus the block's jitter,
   shared by its conditions, and a fifth of another one of its own, so the paired comparisons
   have a spread to weigh them by; the load's switches are stored as 0.98 times the planned
   wake-ups. */
static double effect_trial(void *ctx, const load_spec *spec, const char *condition, int c,
                           int block, store_metric *metrics, int *count) {
  double (*const *effect)(const load_spec *) = ctx;
  (void)condition;
  double wakeups = 0;
  for (int k = 0; k < spec->part_count; k++)
    if (strcmp(spec->parts[k].scenario->name, "sleep") == 0)
      wakeups += load_part_wakeups_per_s(&spec->parts[k]);
  metrics[0] = (store_metric){"load.switches_per_s", 0.98 * wakeups};
  *count = 1;
  return 100 * exp((*effect)(spec) / 100) + jitter[block - 1] + own_jitter[(block + c) % 8];
}

/* Stores a finished run of `preset` (optionally with its conditions replaced) of builtin-st,
   `blocks` blocks (at most 5), each trial as effect_trial scores it. Returns the run's id. */
static int64_t make_run(const char *preset, const char *conditions, int blocks,
                        double (*effect)(const load_spec *spec)) {
  return test_store_run(db, preset, conditions, blocks, effect_trial, &effect);
}

/* -0.4 % per 1,000 wake-ups per second, nothing per thread. */
static double wakeups_cost(const load_spec *spec) {
  double wakeups = 0;
  for (int k = 0; k < spec->part_count; k++)
    if (strcmp(spec->parts[k].scenario->name, "sleep") == 0)
      wakeups += load_part_wakeups_per_s(&spec->parts[k]);
  return -0.4 * wakeups / 1000;
}

/* Nothing up to 5,000 threads, then -0.5 % per 1,000 more. */
static double knee_at_5000(const load_spec *spec) {
  double threads = (double)load_spec_threads(spec);
  return threads > 5000 ? -0.5 * (threads - 5000) / 1000 : 0;
}

static char *render(int64_t run_id, report_format format) {
  return test_render_report(db, run_id, format);
}

static int64_t cost_run, dose_run, quiet_run, one_block_run;

static void the_cost_preset_parses(void) {
  plan p;
  ts_err err;
  REQUIRE(plan_preset("cost", &p, &err) == TS_OK);
  CHECK_INT(p.condition_count, 7);
  CHECK_INT(plan_condition_index(&p, "wait:15000:event"), 5);
  CHECK_INT(p.bench_count, 1);
  CHECK_STR_CONTAINS(p.benches[0], "builtin-st");
  char help[4096];
  plan_preset_help(help, sizeof help);
  CHECK_STR_CONTAINS(help, "  cost      idle threads: does their number cost, or their wake-ups?");
}

static void the_model_finds_the_wakeups(void) {
  report_data *r;
  ts_err err;
  REQUIRE(report_data_load(db, cost_run, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &r, &err) ==
          TS_OK);
  report_cost *c = report_cost_compute(r);
  CHECK(c != NULL);
  if (c) {
    CHECK_INT(c->applies, 1);
    CHECK_INT(c->dose_like, 0);
    CHECK_INT(c->used_count, 6);
    CHECK_INT(c->left_count, 1); /* procs:200 */
    const report_cost_bench *cb = &c->bench[0];
    CHECK_INT(cb->points, 6);
    CHECK_INT(cb->answer, REPORT_COST_SEPARATED);
    CHECK_INT((int)cb->blocks_used, 5);
    CHECK_INT((int)cb->df, 6 * 4); /* (groups - 1)(blocks - 1): 7 groups with the baseline */
    /* every effect is -0.4 % per 1,000 wake-ups/s, up to the trials' own jitter */
    CHECK(fabs(cb->wakeups.estimate - -0.4) < 0.005);
    CHECK(cb->wakeups.high < 0);
    CHECK_INT(cb->wakeups.finding, REPORT_COST_COSTS);
    /* the threads' own cost is surely within the ±1 % margin per 1,000: negligible, by
       equivalence, not merely because its interval holds 0 */
    CHECK(cb->threads.low > -1 && cb->threads.high < 1);
    CHECK(cb->threads.equivalence_p < 0.05);
    CHECK_INT(cb->threads.finding, REPORT_COST_NEGLIGIBLE);
  }
  free(c);
  report_data_free(r);
}

static void text_and_json_show_the_cost_model(void) {
  char *text = render(cost_run, REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK_STR_CONTAINS(text, "\nCost model: does the number of idle threads cost, or their "
                           "wake-ups? This trend over the conditions is the run's primary answer; "
                           "each condition's verdict above tests it alone.\n");
  CHECK_STR_CONTAINS(text, "cost per 1,000 wake-ups/s: \xe2\x88\x92"
                           "0.401 % (95 % CI \xe2\x88\x92"
                           "0.404 to \xe2\x88\x92"
                           "0.398 %)");
  CHECK_STR_CONTAINS(text, "; per 1,000 idle threads: ");
  CHECK_STR_CONTAINS(text, "The wake-ups cost: each 1,000 wake-ups/s make this benchmark 0.401 % "
                           "slower (p ");
  /* "does not cost" only by equivalence against the plan's margin */
  CHECK_STR_CONTAINS(text, "the number of threads cost less than ±1 % per 1,000 threads "
                           "(equivalence against the margin: p ");
  CHECK_STR_CONTAINS(text, "fewer idle threads alone would not.");
  CHECK_STR_CONTAINS(text, "fit: generalized least squares through 0 on 6 conditions, with the "
                           "covariance their shared baseline gives them (one block model over 5 "
                           "complete blocks; t on 24 df)");
  CHECK_STR_CONTAINS(text, "left out: procs:200 (processes, not threads: the model counts "
                           "threads)");
  CHECK_STR_CONTAINS(text, "measured context switches were 0.98 to 0.98 times the planned");
  CHECK_STR_CONTAINS(text, "sleep:15000@500ms                 15000       30000       29400");
  CHECK(strstr(text, "Knee") == NULL && strstr(text, "knee") == NULL);
  free(text);
  char *json = render(cost_run, REPORT_FORMAT_JSON);
  REQUIRE(json != NULL);
  CHECK_STR_CONTAINS(json, "\"cost_model\":{\"conditions\":[{\"condition\":\"sleep:15000@5s\","
                           "\"threads\":15000,\"wakeups_per_s\":3000,\"switches_per_s\":2940}");
  CHECK_STR_CONTAINS(json, "\"left_out\":[{\"condition\":\"procs:200\",\"why\":\"processes");
  CHECK_STR_CONTAINS(json, "\"bench\":\"builtin-st\",\"conditions_fitted\":6,\"blocks\":5,"
                           "\"answer\":\"separated\",\"fitted\":true,\"df\":24,"
                           "\"per_1000_wakeups_per_s\":{\"percent\":-0.40");
  CHECK_STR_CONTAINS(json, "\"margin_percent\":1,\"finding\":\"costs\"}");
  CHECK_STR_CONTAINS(json, "\"margin_percent\":1,\"finding\":\"costs less than the margin\"}");
  CHECK_STR_CONTAINS(json, "\"knee\":null");
  free(json);
  char *csv = render(cost_run, REPORT_FORMAT_CSV);
  REQUIRE(csv != NULL);
  CHECK_STR_CONTAINS(csv, "\n\ncost_bench,term,percent_per_1000,se,ci_low,ci_high,confidence,p,"
                          "equivalence_p,margin_percent,at_threads,finding\n"
                          "builtin-st,wakeups_per_s,-0.40");
  CHECK_STR_CONTAINS(csv, ",1,,costs\nbuiltin-st,threads,");
  CHECK_STR_CONTAINS(csv, ",1,,costs less than the margin\n");
  free(csv);
}

static void html_draws_the_dose_response_chart(void) {
  char *html = render(cost_run, REPORT_FORMAT_HTML);
  REQUIRE(html != NULL);
  CHECK_STR_CONTAINS(html, "<h2>Cost model</h2>");
  CHECK_STR_CONTAINS(html, "aria-label=\"effect against wake-ups per second\"");
  CHECK_STR_CONTAINS(html, ">wake-ups per second (planned)</text>");
  CHECK_STR_CONTAINS(html, "effect on the benchmark (%)</text>");
  CHECK_STR_CONTAINS(html, "fill-opacity=\"0.15\"/>"); /* the band */
  CHECK_STR_CONTAINS(html, "<title>wait:15000:event: ");
  /* six points, each a circle in the cost chart's colour */
  int points = 0;
  const char *section = strstr(html, "<section class=\"cost\">");
  REQUIRE(section != NULL);
  for (const char *p = section; (p = strstr(p, "fill=\"#d55e00\"/>")) != NULL; p++)
    points++;
  CHECK_INT(points, 6);
  free(html);
}

static void a_dose_run_gets_its_knee(void) {
  char *text = render(dose_run, REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK_STR_CONTAINS(text, "The data cannot say which one costs: in this run the wake-ups rose "
                           "with the number of threads (each thread woke every 500ms)");
  CHECK_STR_CONTAINS(text, "Knee at about 5,000 threads: beyond it the cost of each 1,000 more "
                           "threads changes by \xe2\x88\x92"
                           "0.50 % (95 % CI ");
  CHECK_STR_CONTAINS(text, "the smallest of 6 thread counts' p times 6).");
  free(text);
  char *json = render(dose_run, REPORT_FORMAT_JSON);
  REQUIRE(json != NULL);
  CHECK_STR_CONTAINS(json, "\"answer\":\"together\",\"fitted\":true");
  CHECK_STR_CONTAINS(json, "\"knee\":{\"benchmarks\":[\n {\"bench\":\"builtin-st\",\"knee\":true,"
                           "\"tested\":true,\"candidates\":6,\"threads\":5000,");
  free(json);
  char *html = render(dose_run, REPORT_FORMAT_HTML);
  REQUIRE(html != NULL);
  CHECK_STR_CONTAINS(html, "dashed: the knee</figcaption>");
  CHECK_STR_CONTAINS(html, "<title>the knee</title></line>");
  free(html);
}

static void runs_without_a_model_have_no_section(void) {
  char *text = render(quiet_run, REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK(strstr(text, "Cost model") == NULL);
  free(text);
  char *json = render(quiet_run, REPORT_FORMAT_JSON);
  REQUIRE(json != NULL);
  CHECK_STR_CONTAINS(json, "\"cost_model\":null,\"knee\":null");
  free(json);
  char *html = render(quiet_run, REPORT_FORMAT_HTML);
  REQUIRE(html != NULL);
  CHECK(strstr(html, "Cost model") == NULL);
  free(html);
}

static void too_few_trials_say_why(void) {
  char *text = render(one_block_run, REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK_STR_CONTAINS(text, "The model cannot be fitted: it needs at least 2 blocks in which the "
                           "baseline and every condition have a score.");
  free(text);
  char *json = render(one_block_run, REPORT_FORMAT_JSON);
  REQUIRE(json != NULL);
  CHECK_STR_CONTAINS(json, "\"answer\":\"no fit\",\"fitted\":false");
  CHECK_STR_CONTAINS(json, "\"per_1000_wakeups_per_s\":null");
  free(json);
  char *html = render(one_block_run, REPORT_FORMAT_HTML);
  REQUIRE(html != NULL);
  CHECK_STR_CONTAINS(html, "<h2>Cost model</h2>");
  CHECK(strstr(html, "effect against wake-ups per second") == NULL); /* no points: no chart */
  free(html);
}

int main(void) {
  remove_db("test_report_cost.db");
  ts_err err;
  if (store_open(&db, "test_report_cost.db", &err) != TS_OK) {
    fprintf(stderr, "cannot open the test database: %s\n", err.text);
    return 1;
  }
  cost_run = make_run("cost",
                      "baseline, sleep:15000@5s, sleep:1500@500ms, sleep:150@50ms, "
                      "sleep:15000@500ms, wait:15000, sleep:1500@5s, procs:200",
                      5, wakeups_cost);
  dose_run = make_run("dose", NULL, 5, knee_at_5000);
  /* two sleep conditions: too few for a model */
  quiet_run = make_run("quick", "baseline, sleep:1500@500ms, sleep:5000@500ms", 5, wakeups_cost);
  /* one block: no condition has a standard error */
  one_block_run = make_run("cost", NULL, 1, wakeups_cost);
  RUN_CASE(the_cost_preset_parses);
  RUN_CASE(the_model_finds_the_wakeups);
  RUN_CASE(text_and_json_show_the_cost_model);
  RUN_CASE(html_draws_the_dose_response_chart);
  RUN_CASE(a_dose_run_gets_its_knee);
  RUN_CASE(runs_without_a_model_have_no_section);
  RUN_CASE(too_few_trials_say_why);
  store_close(db);
  return check_summary();
}

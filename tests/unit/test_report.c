/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_report.c - the CSV, JSON and HTML reports of a small stored run: structure, quoting and
   escaping of user text, one row per trial, metric columns, the charts and the verdicts; the
   section table giving each format one order; the precision check of adaptive repetitions
   measuring the intervals the report shows; the interval printed being the one that decided;
   and the same numbers from the same run in two databases. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../service/src/experiment/precision.h"
#include "../../service/src/report/data.h"
#include "../../service/src/report/report.h"
#include "../../service/src/stats/multiplicity.h"
#include "../../service/src/stats/sequential.h"
#include "check.h"
#include "testdb.h"
#include "testreport.h"
#include "threadsoup/utf8.h"

#define NASTY "sleep:5<&\"x\">,y"

static store *db;
static int64_t run_id;

/* Two benchmarks, three conditions (one named with markup characters), a warm-up, a failed
   trial and metrics: what a real run leaves, made through the store API. */
static void make_run(void) {
  remove("test_report.db");
  ts_err err;
  CHECK_INT(store_open(&db, "test_report.db", &err), TS_OK);
  store_run_info info = {"<b>mine</b>",
                         "name = <b>mine</b>\n",
                         7,
                         "2026-01-01T00:00:00.000Z",
                         "host&co",
                         "Linux",
                         "cpu \"fast\"",
                         2,
                         "1.0",
                         NULL,
                         0};
  const char *conds[3] = {"baseline", "sleep:200@500ms", NASTY};
  const char *benches[2] = {"builtin-st", "builtin-mt"};
  store_trial_plan trials[2 + 4 * 3 * 2];
  int n = 0;
  for (int b = 0; b < 2; b++) /* warm-ups */
    trials[n] = (store_trial_plan){n + 1, 0, "baseline", benches[b], 0}, n++;
  for (int rep = 1; rep <= 4; rep++)
    for (int c = 0; c < 3; c++)
      for (int b = 0; b < 2; b++)
        trials[n] = (store_trial_plan){n + 1, rep, conds[c], benches[b], 0}, n++;
  CHECK_INT(store_run_begin(db, &info, trials, n, &run_id, &err), TS_OK);
  for (int i = 0; i < n; i++) {
    if (i == 5) { /* one failed trial */
      CHECK_INT(store_trial_fail(db, trials[i].id, "2026-01-01T00:01:00.000Z", "boom", &err),
                TS_OK);
      continue;
    }
    int c = strcmp(trials[i].condition, "baseline") == 0 ? 0
            : trials[i].condition[6] == '2'              ? 1
                                                         : 2;
    /* sleep:200 is clearly slower; the third condition is the same as the baseline */
    double score = (c == 1 ? 90 : 100) + (i % 4) * 0.1;
    store_metric metrics[3] = {{"load.switches_per_s", c * 100.0},
                               {"integer", score * 2},
                               {"state.S (sleeping)", (double)c}};
    store_trial_result result = {"2026-01-01T00:00:01.000Z",
                                 "2026-01-01T00:00:02.000Z",
                                 score,
                                 "Mwork/s",
                                 0.5,
                                 3,
                                 100,
                                 900,
                                 i % 2 ? 3 : 1,
                                 metrics,
                                 i == 7 ? "quiet gate skipped, \"busy\"" : NULL,
                                 "ac",
                                 "off",
                                 i == 3 ? "class1:3,class0:1" : "uniform"};
    CHECK_INT(store_trial_finish(db, trials[i].id, &result, &err), TS_OK);
  }
  CHECK_INT(store_run_end(db, run_id, STORE_RUN_FINISHED, NULL, "2026-01-01T00:02:00.000Z", &err),
            TS_OK);
}

/* The whole report in one format, as a string the caller frees. */
static char *render(report_format format) { return test_render_report(db, run_id, format); }

static int count(const char *text, const char *needle) {
  int k = 0;
  for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
    k++;
  return k;
}

/* A system that gives no context-switch counts (Wine: every census 0) is said to, instead of
   "0 switches/s" beside "about 1: each sleeper woke once per interval". */
static void switches_not_reported_are_said(void) {
  ts_err err;
  store_run_info info = {"zero", "name = zero\n",
                         1,      "2026-01-01T00:00:00.000Z",
                         "host", "Windows",
                         "cpu",  2,
                         "1.0",  NULL,
                         0};
  store_trial_plan trials[4] = {{1, 1, "baseline", "builtin-st", 0},
                                {2, 1, "sleep:100@500ms", "builtin-st", 0},
                                {3, 2, "baseline", "builtin-st", 0},
                                {4, 2, "sleep:100@500ms", "builtin-st", 0}};
  int64_t zero_run;
  CHECK_INT(store_run_begin(db, &info, trials, 4, &zero_run, &err), TS_OK);
  for (int i = 0; i < 4; i++) {
    store_metric metrics[2] = {{"load.switches_per_s", 0}, {"state.Wait:DelayExecution", 100}};
    store_trial_result result = {"2026-01-01T00:00:01.000Z",
                                 "2026-01-01T00:00:02.000Z",
                                 100 + i,
                                 "index",
                                 0.5,
                                 3,
                                 100,
                                 900,
                                 2,
                                 metrics,
                                 NULL,
                                 "ac",
                                 "off",
                                 "uniform"};
    CHECK_INT(store_trial_finish(db, trials[i].id, &result, &err), TS_OK);
  }
  char *text = test_render_report(db, zero_run, REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK_STR_CONTAINS(text, "switches/s, per sleeper/iv: not reported by this system");
  CHECK(strstr(text, "each sleeper woke once per interval") == NULL);
  free(text);
  char *html = test_render_report(db, zero_run, REPORT_FORMAT_HTML);
  REQUIRE(html != NULL);
  CHECK_STR_CONTAINS(html, "not reported by this system");
  free(html);
  /* The fixture's run counts switches: its census reads as a measurement. */
  char *counted = render(REPORT_FORMAT_TEXT);
  REQUIRE(counted != NULL);
  CHECK_STR_CONTAINS(counted, "each sleeper woke once per interval");
  CHECK(strstr(counted, "not reported by this system") == NULL);
  free(counted);
}

static void test_format_names(void) {
  report_format f;
  ts_err err;
  CHECK_INT(report_format_parse("html", &f, &err), TS_OK);
  CHECK_INT(f, REPORT_FORMAT_HTML);
  CHECK_INT(report_format_parse("xml", &f, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "accepted: text, csv, json, html");
}

static void test_csv(void) {
  char *csv = render(REPORT_FORMAT_CSV);
  REQUIRE(csv != NULL);
  CHECK_STR_CONTAINS(csv, "run,seq,block,condition,bench,status,score,unit,seconds,started_at,"
                          "finished_at,process_threads,warnings,resolution_asked,"
                          "resolution_obtained,timer_resolution_us,power_source,power_throttling,"
                          "core_classes,");
  /* metric columns, sorted, quoted only when needed (none here needs it) */
  CHECK_STR_CONTAINS(csv, ",integer,load.switches_per_s,state.S (sleeping)\n");
  /* header and one row per trial; then a blank line, the census's header and a row per condition;
     then a blank line, the kernels' header and builtin-mt's one kernel under two conditions */
  CHECK_INT(count(csv, "\n"), 1 + 26 + 1 + 1 + 3 + 1 + 1 + 2);
  CHECK_STR_CONTAINS(csv, "\nkernel_bench,kernel,condition,verdict,percent,ci_low,ci_high,");
  CHECK_STR_CONTAINS(csv, "\nbuiltin-mt,integer,sleep:200@500ms,slower,-9.9");
  CHECK_STR_CONTAINS(csv, ",\"sleep:5<&\"\"x\"\">,y\","); /* RFC 4180: quotes doubled */
  CHECK_STR_CONTAINS(csv, ",\"quiet gate skipped, \"\"busy\"\"\"");
  CHECK_STR_CONTAINS(csv, "\n1,6,1,sleep:200@500ms,builtin-mt,failed,,,,,"
                          "2026-01-01T00:01:00.000Z,,,,,,,,,,,\n");
  CHECK_STR_CONTAINS(csv, ",ac,off,\"class1:3,class0:1\","); /* trial 4: a list, quoted */
  CHECK_STR_CONTAINS(csv, "\n1,1,0,baseline,builtin-st,done,100,Mwork/s,0.5,");
  free(csv);
}

static void test_json(void) {
  char *json = render(REPORT_FORMAT_JSON);
  REQUIRE(json != NULL);
  CHECK(json[0] == '{');
  CHECK_STR_CONTAINS(json, "\"run\":{\"id\":1,\"plan_name\":\"<b>mine</b>\"");
  CHECK_STR_CONTAINS(json, "\"plan\":\"name = <b>mine</b>\\n\"");
  CHECK_STR_CONTAINS(json, "\"cpu\":\"cpu \\\"fast\\\"\"");
  CHECK_STR_CONTAINS(json, "\"condition\":\"sleep:5<&\\\"x\\\">,y\"");
  /* two benchmarks and builtin-mt's kernel, slower under sleep:200 as its score is */
  CHECK_INT(count(json, "{\"name\":"), 3);
  CHECK_INT(count(json, "\"verdict\":\"slower\""), 3);
  CHECK_STR_CONTAINS(json, "\"kernels\":[\n {\"name\":\"integer\",\"conditions\":[{\"condition\":"
                           "\"sleep:200@500ms\",\"verdict\":\"slower\",\"percent\":-9.9");
  CHECK_INT(count(json, "\"verdict\":\"reference\""), 2);
  CHECK_STR_CONTAINS(json, "\"ci\":[");
  CHECK_STR_CONTAINS(json, "\"ci_confidence\":");
  CHECK_STR_CONTAINS(json, "\"p_holm\":");
  CHECK_STR_CONTAINS(json, "\"paired\":true");
  CHECK_STR_CONTAINS(json, "\"variance_ratio\":");
  CHECK_STR_CONTAINS(json, "\"baseline_drift_ci\":[");
  CHECK_STR_CONTAINS(json, "\"verdict_text\":\"slower by");
  CHECK_INT(count(json, "{\"seq\":"), 26);
  CHECK_STR_CONTAINS(json, "\"status\":\"failed\",\"score\":null");
  CHECK_STR_CONTAINS(json, "\"power_source\":\"ac\",\"power_throttling\":\"off\","
                           "\"core_classes\":\"class1:3,class0:1\"");
  CHECK_STR_CONTAINS(json, "\"metrics\":{\"integer\":200.2,\"load.switches_per_s\":0,");
  CHECK_STR_CONTAINS(json, ",\"detectable_percent\":");
  CHECK_STR_CONTAINS(json, ",\"more_blocks_for_margin\":");
  CHECK_STR_CONTAINS(json, ",\"more_minutes_for_margin\":");
  CHECK(strstr(json, "nan") == NULL && strstr(json, "inf") == NULL);
  size_t len = strlen(json);
  CHECK(len > 2 && strcmp(json + len - 3, "]}\n") == 0);
  free(json);
}

static void test_html(void) {
  char *html = render(REPORT_FORMAT_HTML);
  REQUIRE(html != NULL);
  CHECK_STR_CONTAINS(html, "<!DOCTYPE html>");
  CHECK_STR_CONTAINS(html, "&lt;b&gt;mine&lt;/b&gt;");
  CHECK_STR_CONTAINS(html, "host&amp;co");
  CHECK_STR_CONTAINS(html, "sleep:5&lt;&amp;&quot;x&quot;&gt;,y");
  /* no user text reaches the page raw */
  CHECK(strstr(html, "<b>mine") == NULL);
  CHECK(strstr(html, "5<&") == NULL && strstr(html, "\"x\"") == NULL);
  CHECK(strstr(html, "cpu \"fast\"") == NULL);
  CHECK_INT(count(html, "<svg "), 5);   /* two charts per benchmark, the census's bars */
  CHECK_INT(count(html, "<table>"), 4); /* two benchmarks, the census, where they ran */
  CHECK_STR_CONTAINS(html, "slower by");
  CHECK_STR_CONTAINS(html, "<br><span class=\"note\">could detect ±");
  CHECK_INT(count(html, "<table class=\"kernels\">"), 1); /* builtin-mt's kernel */
  /* Where the benchmarks ran: one row per combination, with its trials. */
  CHECK_STR_CONTAINS(html, "<h2>Where the benchmarks ran</h2>");
  CHECK_STR_CONTAINS(html, "<tr><td>1</td><td>ac</td><td>off</td><td>class1:3,class0:1</td></tr>");
  CHECK_STR_CONTAINS(html, "</td><td>ac</td><td>off</td><td>uniform</td></tr>");
  CHECK_STR_CONTAINS(html, "reference");
  CHECK(strstr(html, "<script") == NULL && strstr(html, "src=") == NULL &&
        strstr(html, "href=") == NULL);
  free(html);
}

static void test_text_unchanged_shape(void) {
  char *text = render(REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK_STR_CONTAINS(text, "run 1: plan <b>mine</b>, finished;");
  CHECK_STR_CONTAINS(text, "builtin-st (Mwork/s, higher is faster)");
  CHECK_STR_CONTAINS(text, "sleep:200@500ms: slower by");
  CHECK_STR_CONTAINS(text, "1 failed");
  /* Each verdict comes with the smallest effect its comparison could detect. */
  CHECK_STR_CONTAINS(text, "could detect ±");
  CHECK_STR_CONTAINS(text, " % (95 % confidence, 80 % power)\n");
  CHECK_STR_CONTAINS(text, "\nwhere the benchmarks ran:\n");
  CHECK_STR_CONTAINS(text, " trial(s): power ac, power throttling off, cores uniform\n");
  CHECK_STR_CONTAINS(text,
                     "  1 trial(s): power ac, power throttling off, cores class1:3,class0:1\n");
  free(text);
}

/* Each kernel (a trial's sub-score: a metric without a '.') is compared across the conditions as
   the score is, paired within blocks, and gets its own verdict in every format: here float is
   3 % slower under the load and integer unchanged, while the score moves by their mean. */
static void each_kernel_has_its_own_verdict(void) {
  ts_err err;
  store *ks = NULL;
  remove("test_report_kernels.db");
  CHECK_INT(store_open(&ks, "test_report_kernels.db", &err), TS_OK);
  store_run_info info = {"kernels", "name = kernels\n",
                         3,         "2026-01-01T00:00:00.000Z",
                         "host",    "Linux",
                         "cpu",     2,
                         "1.0",     NULL,
                         0};
  enum { BLOCKS = 8 };
  store_trial_plan trials[2 * BLOCKS];
  int n = 0;
  for (int b = 1; b <= BLOCKS; b++)
    for (int c = 0; c < 2; c++, n++)
      trials[n] =
          (store_trial_plan){n + 1, b, c ? "sleep:15000@500ms" : "baseline", "builtin-st", 0};
  int64_t id = 0;
  CHECK_INT(store_run_begin(ks, &info, trials, n, &id, &err), TS_OK);
  for (int i = 0; i < n; i++) {
    int c = i % 2, b = i / 2;
    /* each block a little faster or slower as a whole; the kernels' own noise about 0.1 % */
    double block = 1 + 0.01 * sin(b * 1.3), noise = 0.001 * sin(i * 2.1);
    double flt = 250 * block * (c ? 0.97 : 1) * (1 + noise);
    double integer = 740 * block * (1 - noise);
    store_metric metrics[3] = {{"float", flt}, {"integer", integer}, {"load.cpu_percent", 1}};
    CHECK_INT(test_finish_trial(ks, trials[i].id, 100 * sqrt(flt / 250 * integer / 740), 3, metrics,
                                &err),
              TS_OK);
  }
  CHECK_INT(store_run_end(ks, id, STORE_RUN_FINISHED, NULL, "2026-01-01T00:02:00.000Z", &err),
            TS_OK);
  report_data *r = NULL;
  CHECK_INT(report_data_load(ks, id, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &r, &err), TS_OK);
  REQUIRE(r != NULL);
  REQUIRE(r->kernels[0].count == 2); /* load.cpu_percent is the trial's, not a kernel */
  CHECK(strcmp(r->kernels[0].names[0], "float") == 0);
  CHECK(strcmp(r->kernels[0].names[1], "integer") == 0);
  int loaded = r->baseline == 0 ? 1 : 0;
  const report_cell *flt = &r->kernels[0].cells[loaded];
  const report_cell *integer = &r->kernels[0].cells[REPORT_MAX_CONDITIONS + loaded];
  CHECK(flt->compared && integer->compared);
  CHECK(!r->kernels[0].cells[r->baseline].compared);
  CHECK(fabs(flt->cmp.percent + 3) < 0.2);
  CHECK_INT(flt->cmp.verdict, STATS_SLOWER);
  CHECK_INT(integer->cmp.verdict, STATS_NO_EFFECT);
  CHECK(flt->cmp.paired && flt->cmp.pairs == BLOCKS);
  CHECK_STR_CONTAINS(flt->verdict, "slower by");
  report_data_free(r);

  char *text = test_render_report(ks, id, REPORT_FORMAT_TEXT);
  char *csv = test_render_report(ks, id, REPORT_FORMAT_CSV);
  char *json = test_render_report(ks, id, REPORT_FORMAT_JSON);
  char *html = test_render_report(ks, id, REPORT_FORMAT_HTML);
  REQUIRE(text && csv && json && html);
  CHECK_STR_CONTAINS(text, "  each kernel, compared as the score is (the score is the primary "
                           "endpoint; Holm over 2 kernels x 1 condition):\n    sleep:15000@500ms:\n"
                           "      float      -");
  CHECK_STR_CONTAINS(text, "] slower (p Holm ");
  CHECK_STR_CONTAINS(text, "\n      integer    ");
  CHECK_STR_CONTAINS(text, "] no measurable effect (p Holm ");
  CHECK(strstr(text, "load.cpu_percent  ") == NULL);
  CHECK_STR_CONTAINS(csv, "\nbuiltin-st,float,sleep:15000@500ms,slower,-");
  CHECK_STR_CONTAINS(csv, "\nbuiltin-st,integer,sleep:15000@500ms,no measurable effect,");
  CHECK_STR_CONTAINS(json, "\"kernels\":[\n {\"name\":\"float\",\"conditions\":[{\"condition\":"
                           "\"sleep:15000@500ms\",\"verdict\":\"slower\",\"percent\":-");
  CHECK_STR_CONTAINS(json, "{\"name\":\"integer\",\"conditions\":[{\"condition\":"
                           "\"sleep:15000@500ms\",\"verdict\":\"no measurable effect\"");
  CHECK_STR_CONTAINS(html, "<table class=\"kernels\">");
  CHECK_STR_CONTAINS(html, "<tr><td class=\"cond\">float</td><td title=\"slower by");
  CHECK_STR_CONTAINS(html, "] slower</td></tr>");
  free(text);
  free(csv);
  free(json);
  free(html);
  store_close(ks);
  remove("test_report_kernels.db");
}

/* The widest interval half-width of every comparison, from the cells the report computed, as
   seq_precision_reached measures it: on the log scale, infinity when it cannot pass. */
static double widest_in_report(const report_data *r) {
  double widest = 0;
  for (int b = 0; b < r->bench_count; b++)
    for (int c = 0; c < r->condition_count; c++) {
      const blocked_result *cmp = &r->cells[b][c].cmp;
      if (c == r->baseline)
        continue;
      double half = INFINITY;
      if (r->cells[b][c].compared && cmp->status == BLOCKED_OK && cmp->paired &&
          cmp->pairs >= SEQ_PRECISION_MIN_BLOCKS)
        half = 100 * expm1((log1p(cmp->ci_high / 100) - log1p(cmp->ci_low / 100)) / 2);
      if (half > widest)
        widest = half;
    }
  return widest;
}

/* The sensitivity a report states is the paired comparison's, from its own spread of log ratios;
   an open verdict says how many more blocks the margin needs: the fewest whose detectable effect
   is at most the margin. */
static void sensitivity_is_the_scores_own(void) {
  ts_err err;
  report_data *r = NULL;
  CHECK_INT(report_data_load(db, run_id, NULL, REPORT_WITH_STATS, &r, &err), TS_OK);
  if (!r)
    return;
  int checked = 0;
  for (int b = 0; b < r->bench_count; b++)
    for (int c = 0; c < r->condition_count; c++) {
      const report_cell *cell = &r->cells[b][c];
      if (!cell->compared)
        continue;
      CHECK(cell->cmp.paired);
      double detectable = blocked_detectable_percent(cell->cmp.sd_log, cell->cmp.pairs, 0.95, 0.80);
      CHECK(detectable == cell->sens.detectable_percent);
      /* The third condition scores as the baseline block for block: its log ratios have no
         spread, so it could detect any effect. */
      CHECK(detectable >= 0 && detectable < 5);
      long more = cell->more_blocks_for_margin;
      CHECK(more >= 0);
      long total = (long)cell->cmp.pairs + more;
      CHECK(blocked_detectable_percent(cell->cmp.sd_log, (size_t)total, 0.95, 0.80) <= 1.0);
      if (total > 2)
        CHECK(blocked_detectable_percent(cell->cmp.sd_log, (size_t)total - 1, 0.95, 0.80) > 1.0 ||
              more == 0);
      /* Every block's trials ran from 00:00:01 to 00:00:02: 1 s a block. */
      CHECK(fabs(report_more_minutes(r, cell) - cell->more_blocks_for_margin / 60.0) < 1e-9);
      checked++;
    }
  CHECK(checked >= 2);
  CHECK(fabs(r->block_seconds - 1.0) < 1e-6);
  report_data_free(r);
}

/* An open verdict's sentence says how many more blocks the margin needs and how long they take,
   at the run's median block time, in minutes, hours or days as they grow. */
static void more_blocks_come_with_their_time(void) {
  report_data *r = calloc(1, sizeof *r);
  REQUIRE(r != NULL);
  report_cell cell;
  memset(&cell, 0, sizeof cell);
  cell.compared = 1;
  cell.cmp.verdict = STATS_INCONCLUSIVE;
  cell.sens.detectable_percent = 3.25;
  cell.more_blocks_for_margin = 12;
  r->block_seconds = 40;
  char text[300];
  CHECK_INT(report_sensitivity_text(r, &cell, text, sizeof text), 1);
  CHECK(strcmp(text, "could detect ±3.25 % (95 % confidence, 80 % power); about 12 more blocks "
                     "(about 8 minutes) would detect ±1.0 %") == 0);
  CHECK(fabs(report_more_minutes(r, &cell) - 8.0) < 1e-9);
  r->block_seconds = 3600;
  r->margin_pct = 2;
  report_sensitivity_text(r, &cell, text, sizeof text);
  CHECK_STR_CONTAINS(text, "; about 12 more blocks (about 12 hours) would detect ±2.0 %");
  cell.more_blocks_for_margin = 1;
  r->block_seconds = 5 * 86400;
  report_sensitivity_text(r, &cell, text, sizeof text);
  CHECK_STR_CONTAINS(text, "; about 1 more block (about 5 days) would detect ±2.0 %");
  /* No block finished: the blocks alone. */
  r->block_seconds = NAN;
  report_sensitivity_text(r, &cell, text, sizeof text);
  CHECK_STR_CONTAINS(text, "; about 1 more block would detect ±2.0 %");
  CHECK(isnan(report_more_minutes(r, &cell)));
  /* Other programs busy during the baseline's benchmarks are named, with their share, from the
     quiet gate's default threshold on; an idle machine's share is not. */
  r->baseline = 0;
  r->outside_cpu_percent[0] = 54.2;
  CHECK_INT(report_sensitivity_text(r, &cell, text, sizeof text), 1);
  CHECK_STR_CONTAINS(text, "would detect ±2.0 %; other programs used 54 % of the CPU during the "
                           "baseline's benchmarks: their work is in every interval of this run");
  r->outside_cpu_percent[0] = 0.3;
  report_sensitivity_text(r, &cell, text, sizeof text);
  CHECK(strstr(text, "other programs") == NULL);
  /* A decided verdict has no open question to explain. */
  r->outside_cpu_percent[0] = 54.2;
  cell.cmp.verdict = STATS_SLOWER;
  report_sensitivity_text(r, &cell, text, sizeof text);
  CHECK_STR_EQ(text, "could detect ±3.25 % (95 % confidence, 80 % power)");
  free(r);
}

extern const report_section report_section_benchmarks;

/* A run with a precision target it did not reach names what widened its interval, by the first
   rule that holds: the load's variance ratio, the machine's drift, else the benchmark's spread;
   within the target, or without one, it says nothing. */
static void an_unreached_precision_names_its_noise(void) {
  report_data *r = calloc(1, sizeof *r);
  REQUIRE(r != NULL);
  r->baseline = 0;
  r->cells[0][0].d.cv = 0.075;
  report_cell *cell = &r->cells[0][1];
  cell->compared = 1;
  cell->cmp.status = BLOCKED_OK;
  cell->cmp.paired = 1;
  cell->cmp.pairs = 74;
  cell->cmp.sd_log = 0.0671; /* 95 % half-width 100 (exp(1.993 x 0.0671 / sqrt(74)) - 1) = 1.57 % */
  cell->variance_ratio = 0.82;
  r->drift[0].status = DRIFT_ETOOFEW;
  char text[400];
  CHECK_INT(report_precision_limit_text(r, 0, cell, text, sizeof text), 0); /* no target */
  r->precision_target_pct = 0.62;
  CHECK_INT(report_precision_limit_text(r, 0, cell, text, sizeof text), 1);
  CHECK_STR_CONTAINS(text, "precision ±0.62 % not reached (95 % CI ±1.57 %): what widens it is the "
                           "benchmark's own spread on this machine (the baseline's cv 7.5 %");
  CHECK_STR_CONTAINS(text, "; about 4");
  CHECK_STR_CONTAINS(text, " blocks in all would reach it");
  /* Other programs' CPU during the baseline's benchmarks: named beside the spread when low, the
     cause from REPORT_BUSY_OUTSIDE_PERCENT on. */
  CHECK_STR_CONTAINS(text, "variance ratio 0.82; other programs used 0.0 % of the CPU during its "
                           "benchmarks)");
  r->outside_cpu_percent[0] = 54.2;
  CHECK_INT(report_precision_limit_text(r, 0, cell, text, sizeof text), 1);
  CHECK_STR_CONTAINS(text, "what widens it is other programs: they used 54 % of the CPU during the "
                           "baseline's benchmarks (the baseline's cv 7.5 %); about 4");
  report_precision_limit busy;
  CHECK_INT(report_precision_limit_of(r, 0, cell, &busy), 1);
  CHECK_STR_EQ(report_precision_cause_name(busy.cause), "outside");
  r->outside_cpu_percent[0] = NAN;
  CHECK_INT(report_precision_limit_text(r, 0, cell, text, sizeof text), 1);
  CHECK_STR_CONTAINS(text, "other programs used an unmeasured share of the CPU during its");
  r->outside_cpu_percent[0] = 0.3;
  r->drift[0].status = DRIFT_OK;
  r->drift[0].flagged = 1;
  r->drift[0].change_percent = -4.2;
  CHECK_INT(report_precision_limit_text(r, 0, cell, text, sizeof text), 1);
  CHECK_STR_CONTAINS(text, "the machine's drift: the baseline changed by -4.2 % over the run");
  cell->variance_ratio = 3.66;
  CHECK_INT(report_precision_limit_text(r, 0, cell, text, sizeof text), 1);
  CHECK_STR_CONTAINS(text, "the load itself: it makes the benchmark 3.7 times as variable as the "
                           "baseline (variance ratio)");
  /* The CSV and JSON carry the same facts: a table of the comparisons that missed the target,
     and each condition's "precision_limit" (null where it was reached or not compared). */
  report_precision_limit lim;
  CHECK_INT(report_precision_limit_of(r, 0, cell, &lim), 1);
  CHECK_STR_EQ(report_precision_cause_name(lim.cause), "load");
  CHECK(fabs(lim.half_width_percent - 1.57) < 0.005);
  CHECK(fabs(lim.baseline_cv_percent - 7.5) < 1e-9);
  CHECK(lim.blocks > 400 && lim.blocks < 500);
  r->bench_count = 1;
  r->condition_count = 2;
  snprintf(r->benches[0], sizeof r->benches[0], "builtin-st");
  snprintf(r->conditions[0], sizeof r->conditions[0], "baseline");
  snprintf(r->conditions[1], sizeof r->conditions[1], "sleep:1500@500ms");
  char *csv = test_render_section(&report_section_benchmarks, NULL, r, REPORT_FORMAT_CSV);
  char *json = test_render_section(&report_section_benchmarks, NULL, r, REPORT_FORMAT_JSON);
  char row[200];
  snprintf(row, sizeof row, "\nbuiltin-st,sleep:1500@500ms,0.62,1.5");
  CHECK_STR_CONTAINS(csv, "\nprecision_bench,condition,target_percent,half_width_percent,cause,"
                          "variance_ratio,baseline_cv_percent,drift_percent,blocks_to_reach,"
                          "outside_cpu_percent\n");
  CHECK_STR_CONTAINS(csv, row);
  CHECK_STR_CONTAINS(csv, ",load,3.66,7.5,-4.2,4");
  CHECK_STR_CONTAINS(csv, ",0.3\n");
  CHECK_STR_CONTAINS(json,
                     "\"precision_limit\":{\"target_percent\":0.62,\"half_width_percent\":1.5");
  CHECK_STR_CONTAINS(json, "\"cause\":\"load\",\"variance_ratio\":3.66,\"baseline_cv_percent\":7.5,"
                           "\"drift_percent\":-4.2,\"blocks_to_reach\":4");
  CHECK_STR_CONTAINS(json, ",\"outside_cpu_percent\":0.3}");
  CHECK_STR_CONTAINS(json, "\"condition\":\"baseline\"");
  CHECK_STR_CONTAINS(json, "\"precision_limit\":null");
  free(csv);
  free(json);
  r->precision_target_pct = 2;
  CHECK_INT(report_precision_limit_text(r, 0, cell, text, sizeof text), 0); /* reached */
  CHECK_STR_EQ(text, "");
  CHECK_INT(report_precision_limit_of(r, 0, cell, &lim), 0);
  csv = test_render_section(&report_section_benchmarks, NULL, r, REPORT_FORMAT_CSV);
  CHECK(strstr(csv, "precision_bench") == NULL);
  free(csv);
  free(r);
}

/* A run in database s of `blocks` blocks, each running the baseline and k conditions on one
   benchmark; condition i's true effect is effects[i] % (a rate), each block shares a random
   effect (drift between blocks) and each trial has noise of about cv %, from a fixed generator.
   first_unused: trials of the first block left pending (a failed or missing trial). */
static int64_t make_blocked_run(store *s, int blocks, int k, const double *effects, double cv,
                                uint64_t seed, int first_unused) {
  static const char *const names[] = {"baseline", "sleep:1000@500ms", "sleep:5000@500ms",
                                      "sleep:200@500ms", "sleep:100@500ms"};
  store_run_info info = {"blocked", "name = blocked\n",
                         seed,      "2026-01-01T00:00:00.000Z",
                         "host",    "Linux",
                         "cpu",     2,
                         "1.0",     NULL,
                         0};
  store_trial_plan trials[5 * 40];
  int n = 0;
  for (int b = 1; b <= blocks; b++)
    for (int c = 0; c <= k; c++, n++)
      trials[n] = (store_trial_plan){n + 1, b, names[c], "builtin-st", 0};
  ts_err err;
  int64_t id = 0;
  CHECK_INT(store_run_begin(s, &info, trials, n, &id, &err), TS_OK);
  uint64_t x = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  double block_effect = 0;
  for (int i = 0; i < n; i++) {
    int c = i % (k + 1);
    /* two uniforms summed: a noise with mean 0 and sd about cv % */
    double u = 0;
    for (int j = 0; j < 2; j++) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      u += (double)(x >> 11) / 9007199254740992.0 - 0.5;
    }
    if (c == 0)
      block_effect = u * 0.05;
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    double noise = ((double)(x >> 11) / 9007199254740992.0 - 0.5) * cv / 100 * 3.46;
    if (i < first_unused)
      continue;
    double score = 100 * (1 + block_effect) * (1 + (c ? effects[c - 1] : 0) / 100) * (1 + noise);
    store_trial_result result = {.started_at = "2026-01-01T00:00:01.000Z",
                                 .finished_at = "2026-01-01T00:00:02.000Z",
                                 .score = score,
                                 .unit = "Mwork/s",
                                 .seconds = 0.5,
                                 .power_source = "ac",
                                 .power_throttling = "off",
                                 .core_classes = "uniform"};
    CHECK_INT(store_trial_finish(s, trials[i].id, &result, &err), TS_OK);
  }
  CHECK_INT(store_run_end(s, id, STORE_RUN_FINISHED, NULL, "2026-01-01T00:02:00.000Z", &err),
            TS_OK);
  return id;
}

/* Adaptive repetitions stop on exactly the intervals the report shows (paired within blocks,
   Holm across the conditions, the plan's margin), and only from 8 complete blocks on. */
static void precision_check_measures_the_reported_intervals(void) {
  ts_err err;
  plan p;
  CHECK_INT(plan_parse("conditions = baseline, sleep:200@500ms\nbench = builtin-st, builtin-mt\n"
                       "margin = 2%\nprecision = 0.5%\n",
                       "test plan", &p, &err),
            TS_OK);
  CHECK(precision_target(&p) == 0.5);
  double widest = -1;
  /* The stored run has 4 blocks: too few for the check, however narrow its intervals. */
  CHECK_INT(precision_widest_interval(db, run_id, &p, &widest, &err), TS_OK);
  CHECK(isinf(widest));

  store *bs = NULL;
  remove("test_report_precision.db");
  CHECK_INT(store_open(&bs, "test_report_precision.db", &err), TS_OK);
  double effects[2] = {-3, 0};
  int64_t id = make_blocked_run(bs, 10, 2, effects, 1.5, 7, 0);
  CHECK_INT(
      plan_parse("conditions = baseline, sleep:1000@500ms, sleep:5000@500ms\nbench = builtin-st\n"
                 "margin = 2%\n",
                 "test plan", &p, &err),
      TS_OK);
  CHECK(fabs(precision_target(&p) - 0.62 * 2) < 1e-12); /* no precision: the default */
  CHECK_INT(precision_widest_interval(bs, id, &p, &widest, &err), TS_OK);
  report_data *r = NULL;
  CHECK_INT(report_data_load(bs, id, &p, REPORT_WITH_STATS, &r, &err), TS_OK);
  if (r) {
    double shown = widest_in_report(r);
    fprintf(stderr, "  widest interval: +-%.17g %% (report: +-%.17g %%)\n", widest, shown);
    CHECK(isfinite(widest) && widest > 0);
    CHECK(fabs(widest - shown) < 1e-12 * shown);
    /* At or below the widest half-width, every comparison passes seq_precision_reached. */
    for (int c = 0; c < r->condition_count; c++)
      if (r->cells[0][c].compared) {
        CHECK(seq_precision_reached(&r->cells[0][c].cmp, widest * (1 + 1e-9)));
        CHECK(!seq_precision_reached(&r->cells[0][c].cmp, widest * (1 - 1e-6)) ||
              r->cells[0][c].cmp.ci_high - r->cells[0][c].cmp.ci_low < 2 * widest * (1 - 1e-6));
      }
    report_data_free(r);
  }
  /* Another margin is another equivalence test but the same effect intervals. */
  double other = -1;
  p.margin_pct = 5;
  CHECK_INT(precision_widest_interval(bs, id, &p, &other, &err), TS_OK);
  CHECK(fabs(other - widest) < 1e-12 * widest);
  store_close(bs);
  remove("test_report_precision.db");

  /* A condition of the plan without any score yet: infinitely wide, as the report would say. */
  CHECK_INT(plan_parse("conditions = baseline, sleep:200@500ms, yield:2\n"
                       "bench = builtin-st, builtin-mt\nmargin = 2%\n",
                       "test plan", &p, &err),
            TS_OK);
  CHECK_INT(precision_widest_interval(db, run_id, &p, &widest, &err), TS_OK);
  CHECK(isinf(widest));
  CHECK_INT(precision_widest_interval(db, run_id + 99, &p, &widest, &err), TS_OK);
  CHECK(isinf(widest)); /* no scores at all: nothing is precise yet */
}

/* The interval a verdict prints is the one that decided it: over runs of many effects, spreads
   and sizes, the effect's interval (at its Holm level) excludes 0 exactly when the verdict is
   slower or faster, the equivalence interval lies within the margin exactly when it is "no
   measurable effect", and the verdict line prints those very numbers. */
static void the_printed_interval_decides_the_verdict(void) {
  ts_err err;
  store *bs = NULL;
  remove("test_report_verdicts.db");
  CHECK_INT(store_open(&bs, "test_report_verdicts.db", &err), TS_OK);
  int seen[4] = {0, 0, 0, 0}, unpaired = 0;
  static const double sizes[] = {0, 0.4, -0.9, 1.5, -3, 6};
  for (int run = 0; run < 36; run++) {
    double effects[3] = {sizes[run % 6], sizes[(run + 2) % 6], sizes[(run + 4) % 6]};
    int blocks = 3 + run % 8;
    int64_t id = make_blocked_run(bs, blocks, 3, effects, 0.5 + (run % 5) * 0.8, (uint64_t)run + 11,
                                  run % 9 == 0 ? 4 * 2 : 0);
    report_data *r = NULL;
    CHECK_INT(report_data_load(bs, id, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &r, &err), TS_OK);
    if (!r)
      continue;
    for (int c = 0; c < r->condition_count; c++) {
      const report_cell *cell = &r->cells[0][c];
      if (!cell->compared || cell->cmp.status != BLOCKED_OK)
        continue;
      const blocked_result *m = &cell->cmp;
      double margin = m->margin_percent;
      int effect = m->verdict == STATS_SLOWER || m->verdict == STATS_FASTER;
      int excludes_zero = m->ci_low > 0 || m->ci_high < 0;
      int within = m->eq_low > -margin && m->eq_high < margin;
      CHECK_INT(effect, excludes_zero);
      CHECK_INT(m->verdict == STATS_NO_EFFECT, !excludes_zero && within);
      if (effect)
        CHECK_INT(m->verdict == STATS_SLOWER, m->ci_high < 0); /* rates: lower is slower */
      /* The shown interval is the Holm level's: no wider than Bonferroni's, no narrower than
         95 %. */
      CHECK(m->confidence >= 0.95 - 1e-12 && m->confidence <= 1 - 0.05 / 3 + 1e-12);
      CHECK(cell->p_holm >= m->p);
      char printed[96];
      if (effect) {
        int slower = m->verdict == STATS_SLOWER;
        snprintf(printed, sizeof printed, "%.3g %% CI %.2f to %.2f %%", 100 * m->confidence,
                 slower ? -m->ci_high : m->ci_low, slower ? -m->ci_low : m->ci_high);
      } else if (m->verdict == STATS_NO_EFFECT)
        snprintf(printed, sizeof printed, "equivalence interval %.2f to %.2f %%",
                 m->eq_low == 0 ? 0 : m->eq_low, m->eq_high == 0 ? 0 : m->eq_high);
      else
        snprintf(printed, sizeof printed, "%.3g %% CI %.2f to %.2f %%", 100 * m->confidence,
                 m->ci_low == 0 ? 0 : m->ci_low, m->ci_high == 0 ? 0 : m->ci_high);
      CHECK_STR_CONTAINS(cell->verdict, printed);
      CHECK_STR_CONTAINS(cell->verdict, m->paired ? "paired over" : "unpaired");
      CHECK_STR_CONTAINS(cell->verdict, "Holm-adjusted");
      CHECK_STR_CONTAINS(cell->verdict, "variance ratio");
      seen[m->verdict]++;
      unpaired += !m->paired;
    }
    report_data_free(r);
  }
  /* Every verdict occurred, and the unpaired fallback too: the checks above were exercised. */
  fprintf(stderr, "  verdicts: %d inconclusive, %d slower, %d faster, %d no effect; %d unpaired\n",
          seen[STATS_INCONCLUSIVE], seen[STATS_SLOWER], seen[STATS_FASTER], seen[STATS_NO_EFFECT],
          unpaired);
  for (int v = 0; v < 4; v++)
    CHECK(seen[v] > 0);
  CHECK(unpaired > 0);
  store_close(bs);
  remove("test_report_verdicts.db");
}

/* The report has no seed: the same trials stored in another database, under another run id, give
   the same numbers and the same verdicts in every format. */
static void the_same_run_reports_the_same_in_two_databases(void) {
  ts_err err;
  store *one = NULL, *two = NULL;
  remove("test_report_one.db");
  remove("test_report_two.db");
  CHECK_INT(store_open(&one, "test_report_one.db", &err), TS_OK);
  CHECK_INT(store_open(&two, "test_report_two.db", &err), TS_OK);
  double effects[3] = {-2, 0.3, 1};
  double nothing[1] = {0};
  make_blocked_run(two, 3, 1, nothing, 1, 99, 0); /* the copy gets another run id */
  int64_t a = make_blocked_run(one, 6, 3, effects, 2, 5, 0);
  int64_t b = make_blocked_run(two, 6, 3, effects, 2, 5, 0);
  CHECK(a != b);
  report_data *ra = NULL, *rb = NULL;
  CHECK_INT(report_data_load(one, a, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &ra, &err), TS_OK);
  CHECK_INT(report_data_load(two, b, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &rb, &err), TS_OK);
  if (ra && rb) {
    int compared = 0;
    for (int c = 0; c < ra->condition_count; c++) {
      const report_cell *x = &ra->cells[0][c], *y = &rb->cells[0][c];
      CHECK_INT(x->compared, y->compared);
      if (!x->compared)
        continue;
      compared++;
      CHECK(x->cmp.percent == y->cmp.percent && x->cmp.ci_low == y->cmp.ci_low &&
            x->cmp.ci_high == y->cmp.ci_high && x->cmp.p == y->cmp.p && x->p_holm == y->p_holm &&
            x->variance_ratio == y->variance_ratio);
      CHECK(strcmp(x->verdict, y->verdict) == 0);
    }
    CHECK_INT(compared, 3);
    CHECK(ra->drift[0].change_percent == rb->drift[0].change_percent);
  }
  report_data_free(ra);
  report_data_free(rb);
  /* Every format: the whole benchmarks part is the same. */
  report_format formats[] = {REPORT_FORMAT_TEXT, REPORT_FORMAT_JSON, REPORT_FORMAT_HTML};
  const char *starts[] = {"\nbuiltin-st", "\"benchmarks\":", "<section class=\"bench\">"};
  const char *ends[] = {"\n  drift:", "]}]", "</section>"};
  for (int f = 0; f < 3; f++) {
    char *x = test_render_report(one, a, formats[f]), *y = test_render_report(two, b, formats[f]);
    REQUIRE(x != NULL && y != NULL);
    const char *px = strstr(x, starts[f]), *py = strstr(y, starts[f]);
    REQUIRE(px != NULL && py != NULL);
    const char *ex = strstr(px, ends[f]), *ey = strstr(py, ends[f]);
    REQUIRE(ex != NULL && ey != NULL);
    CHECK(ex - px > 200);
    CHECK(ex - px == ey - py && memcmp(px, py, (size_t)(ex - px)) == 0);
    free(x);
    free(y);
  }
  store_close(one);
  store_close(two);
  remove("test_report_one.db");
  remove("test_report_two.db");
}

/* A report read (report_read) needs no database after: its statistics and every section are
   computed and written with the connection it was read through closed, and the report is the
   one report_run_format writes, in every format. (The service holds its database lock for the
   read only.) */
static void the_statistics_need_no_database_after_the_read(void) {
  for (int format = 0; format < REPORT_FORMAT_COUNT; format++) {
    ts_err err;
    char *whole = render((report_format)format);
    store *reader = NULL;
    REQUIRE(store_open(&reader, "test_report.db", &err) == TS_OK);
    report_prepared *p = NULL;
    CHECK_INT(report_read(reader, run_id, (report_format)format, &p, &err), TS_OK);
    store_close(reader);
    REQUIRE(p != NULL);
    CHECK_INT(report_compute(p, &err), TS_OK);
    FILE *f = tmpfile();
    REQUIRE(f != NULL);
    CHECK_INT(report_write(p, f, 0, NULL, NULL, &err), TS_OK);
    report_prepared_free(p);
    char *split = test_read_back(f);
    REQUIRE(whole != NULL && split != NULL);
    CHECK(strlen(whole) > 1000);
    CHECK_STR_EQ(split, whole);
    free(whole);
    free(split);
  }
}

/* Each condition's means (wake-ups, timer lateness, burners' CPU) and timers come from the trials
   a report copied in, and are what the database computes for a headline, which copies none: in
   a run whose trials differ (one without a metric, resolutions mixed, a warm-up and a failed
   trial left out). */
static void condition_means_from_trials_are_the_stores(void) {
  const char *path = "test_report_means.db";
  remove_db(path);
  store *s = NULL;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  store_run_info info = {
      "means", "name = means\n", 7, "2026-01-01T00:00:00.000Z", "h", "os", "cpu", 2, "1.0", NULL,
      0};
  const char *conds[2] = {"baseline", "sleep:20@500ms/resolution=high"};
  store_trial_plan trials[1 + 2 * 4];
  int n = 0;
  trials[n] = (store_trial_plan){n + 1, 0, "baseline", "builtin-st", 0}, n++;
  for (int rep = 1; rep <= 4; rep++)
    for (int c = 0; c < 2; c++)
      trials[n] = (store_trial_plan){n + 1, rep, conds[c], "builtin-st", 0}, n++;
  int64_t id = 0;
  REQUIRE(store_run_begin(s, &info, trials, n, &id, &err) == TS_OK);
  for (int i = 0; i < n; i++) {
    if (i == 4) {
      CHECK_INT(store_trial_fail(s, trials[i].id, "2026-01-01T00:01:00.000Z", "boom", &err), TS_OK);
      continue;
    }
    store_metric metrics[4] = {{"load.cpu_percent", 0.3 * i},
                               {"load.switches_per_s", 1000.0 / 3 + i},
                               {"outside.cpu_percent", 12.5 + 3 * i},
                               {"timer.overshoot_us", 55.5 + i * 0.7}};
    /* one in three has no timer.overshoot_us */
    CHECK_INT(test_finish_trial(s, trials[i].id, 100 + i, i % 3 ? 4 : 3, metrics, &err), TS_OK);
    CHECK_INT(store_trial_timer(s, trials[i].id, i % 2 ? "default" : "high",
                                i % 4 == 2 ? "default"
                                : i % 2    ? "default"
                                           : "high",
                                i == 3 ? NAN : 15625.0 / (i + 1), &err),
              TS_OK);
  }
  report_data *from_store = NULL, *from_trials = NULL;
  CHECK_INT(report_data_load(s, id, NULL, REPORT_WITH_STATS, &from_store, &err), TS_OK);
  CHECK_INT(
      report_data_load(s, id, NULL, REPORT_WITH_STATS | REPORT_WITH_TRIALS, &from_trials, &err),
      TS_OK);
  store_close(s);
  REQUIRE(from_store != NULL && from_trials != NULL);
  CHECK_INT(from_trials->condition_count, 2);
  for (int c = 0; c < from_store->condition_count; c++) {
    CHECK_REL(from_trials->switches_per_s[c], from_store->switches_per_s[c], 1e-12);
    CHECK_REL(from_trials->timer_overshoot_us[c], from_store->timer_overshoot_us[c], 1e-12);
    CHECK_REL(from_trials->load_cpu_percent[c], from_store->load_cpu_percent[c], 1e-12);
    CHECK_REL(from_trials->outside_cpu_percent[c], from_store->outside_cpu_percent[c], 1e-12);
    CHECK(from_store->outside_cpu_percent[c] > 12.5); /* the warm-up's 12.5 left out */
    CHECK_REL(from_trials->timer_resolution_us[c], from_store->timer_resolution_us[c], 1e-12);
    CHECK_STR_EQ(from_trials->resolution_asked[c], from_store->resolution_asked[c]);
    CHECK_STR_EQ(from_trials->resolution_obtained[c], from_store->resolution_obtained[c]);
  }
  /* The mixed condition reads both, sorted; the timers' mean leaves the unknown one out. */
  CHECK_STR_EQ(from_trials->resolution_obtained[1], "default,high");
  CHECK(!isnan(from_trials->timer_resolution_us[0]));
  report_data_free(from_store);
  report_data_free(from_trials);
}

extern const report_section report_section_time;

/* The CPU used outside ThreadSoup beside each load is compared with the baseline's block by
   block (the blocks where both were recorded; warm-ups left out), with its 95 % t interval; where
   it lies below 0 the text says the other programs made room for the load. */
static void outside_cpu_is_compared_block_by_block(void) {
  const char *path = "test_report_outside.db";
  remove_db(path);
  store *s = NULL;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  store_run_info info = {"outside", "name = outside\n",
                         7,         "2026-01-01T00:00:00.000Z",
                         "h",       "os",
                         "cpu",     2,
                         "1.0",     NULL,
                         0};
  const char *conds[2] = {"baseline", "sleep:1500@500ms"};
  /* The warm-up, blocks 1-4, and a block 9 whose load trial recorded no outside CPU (the blocks
     between them not stored). */
  const double outside[6][2] = {{99, 0}, {50, 40}, {52, 43}, {48, 37}, {51, 41}, {70, -1}};
  const int block_of[6] = {0, 1, 2, 3, 4, 9};
  store_trial_plan trials[1 + 2 * 5];
  int n = 0;
  trials[n] = (store_trial_plan){n + 1, 0, "baseline", "builtin-st", 0}, n++;
  for (int rep = 1; rep <= 5; rep++)
    for (int c = 0; c < 2; c++)
      trials[n] = (store_trial_plan){n + 1, block_of[rep], conds[c], "builtin-st", 0}, n++;
  int64_t id = 0;
  REQUIRE(store_run_begin(s, &info, trials, n, &id, &err) == TS_OK);
  for (int i = 0; i < n; i++) {
    int rep = i == 0 ? 0 : 1 + (i - 1) / 2, c = strcmp(trials[i].condition, "baseline") != 0;
    double value = outside[rep][c];
    store_metric metric = {"outside.cpu_percent", value};
    CHECK_INT(test_finish_trial(s, trials[i].id, 100 + i, value >= 0, &metric, &err), TS_OK);
  }
  report_data *r = NULL;
  CHECK_INT(report_data_load(s, id, NULL, REPORT_WITH_STATS, &r, &err), TS_OK);
  REQUIRE(r != NULL);
  /* Differences -10, -9, -11, -10: mean -10, sd sqrt(2/3), half-width t(0.975, 3) sd / 2 =
     3.182446 x 0.408248 = 1.299 (SciPy 1.10.1: ttest_1samp(d, 0).confidence_interval(0.95) =
     -11.2992 to -8.7008). */
  char *text = test_render_section(&report_section_time, s, r, REPORT_FORMAT_TEXT);
  char *csv = test_render_section(&report_section_time, s, r, REPORT_FORMAT_CSV);
  char *json = test_render_section(&report_section_time, s, r, REPORT_FORMAT_JSON);
  CHECK_STR_CONTAINS(text, "  baseline                         54.2%\n");
  CHECK_STR_CONTAINS(text, "  sleep:1500@500ms                 40.2%   -10.0 (-11.3 to -8.7)\n");
  CHECK_STR_CONTAINS(text, "other programs got less CPU beside the load than beside the baseline");
  CHECK_STR_CONTAINS(csv, "outside_condition,trials,outside_cpu_percent,vs_baseline_points,"
                          "vs_baseline_ci_low,vs_baseline_ci_high,vs_baseline_blocks\n");
  CHECK_STR_CONTAINS(csv, "\nbaseline,5,54.2,,,,0\n");
  CHECK_STR_CONTAINS(csv, "\nsleep:1500@500ms,4,40.25,-10,-11.29");
  CHECK_STR_CONTAINS(csv, ",4\n");
  CHECK_STR_CONTAINS(json, "\"outside_cpu_vs_baseline\":{\"sleep:1500@500ms\":{\"points\":-10,"
                           "\"ci_low\":-11.29");
  CHECK_STR_CONTAINS(json, ",\"blocks\":4}}");
  free(text);
  free(csv);
  free(json);
  report_data_free(r);
  store_close(s);
  remove_db(path);
}

/* A database is input too: a trial stored in a block no run writes (beyond PLAN_MAX_REPS) is
   refused by the report and by the precision check with words that say so, not answered with a
   table of two billion blocks. */
static void a_block_no_run_writes_is_refused(void) {
  const char *path = "test_report_block.db";
  remove_db(path);
  store *s = NULL;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  store_run_info info = {"far", "name = far\n", 7, "2026-01-01T00:00:00.000Z", "h", "os", "cpu", 2,
                         "1.0", NULL,           0};
  store_trial_plan trials[4] = {{1, 1, "baseline", "builtin-st", 0},
                                {2, 1, "sleep:100@500ms", "builtin-st", 0},
                                {3, 2000000000, "baseline", "builtin-st", 0},
                                {4, 2000000000, "sleep:100@500ms", "builtin-st", 0}};
  int64_t id = 0;
  REQUIRE(store_run_begin(s, &info, trials, 4, &id, &err) == TS_OK);
  for (int i = 0; i < 4; i++)
    CHECK_INT(test_finish_trial(s, trials[i].id, 100 - i, 0, NULL, &err), TS_OK);
  report_data *r = NULL;
  CHECK_INT(report_data_load(s, id, NULL, REPORT_WITH_STATS, &r, &err), TS_EFOREIGN_DB);
  CHECK(r == NULL);
  CHECK_STR_CONTAINS(err.text, "is stored in block 2000000000; ThreadSoup numbers a run's blocks "
                               "0 (warm-ups) to 1000");
  plan p;
  CHECK_INT(plan_preset("quick", &p, &err), TS_OK);
  CHECK_INT(plan_set(&p, "conditions", "baseline,sleep:100@500ms", &err), TS_OK);
  double widest = 0;
  CHECK_INT(precision_widest_interval(s, id, &p, &widest, &err), TS_EFOREIGN_DB);
  CHECK_STR_CONTAINS(err.text, "block 2000000000");
  store_close(s);
  remove_db(path);
}

/* A database may hold names stored before every path checked them (a bench "\xff\x80\x80", a
   unit with a line break and a terminal escape): every report stays valid UTF-8 regardless. */
static void bad_stored_names_stay_out_of_reports(void) {
  ts_err err;
  int64_t trial = 0;
  CHECK_INT(store_trial_record(db, run_id, "baseline", "\xff\x80\x80", 100, "pts\n\x1b[2J\x7f",
                               "2026-01-01T00:03:00.000Z", &trial, &err),
            TS_OK);
  char *json = render(REPORT_FORMAT_JSON);
  char *html = render(REPORT_FORMAT_HTML);
  REQUIRE(json != NULL && html != NULL);
  CHECK(ts_utf8_valid_str(json));
  CHECK(ts_utf8_valid_str(html));
  CHECK_STR_CONTAINS(json, "\"bench\":\"\\ufffd\\ufffd\\ufffd\"");
  CHECK_STR_CONTAINS(json, "\"unit\":\"pts\\n\\u001b[2J\\u007f\"");
  CHECK_STR_CONTAINS(html, "&#xFFFD;&#xFFFD;&#xFFFD;");
  CHECK(strchr(html, '\x1b') == NULL);
  /* The text report escapes what a terminal would act on: only its own line breaks remain. */
  char *text = render(REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK(ts_utf8_valid_str(text));
  CHECK_STR_CONTAINS(text, "\\xFF\\x80\\x80 (pts\\x0A\\x1B[2J\\x7F, higher is faster)");
  for (const unsigned char *p = (const unsigned char *)text; *p; p++)
    if ((*p < 0x20 && *p != '\n') || *p == 0x7f) {
      CHECK(!"a control character in the text report");
      break;
    }
  free(text);
  free(json);
  free(html);
}

/* Cells a spreadsheet would run as formulas get a leading apostrophe; plain numbers stay numbers
   (names stored through the store directly, as an old database may hold them). */
static void csv_formula_cells_neutralised(void) {
  ts_err err;
  int64_t trial = 0;
  static const char *const rows[][2] = {
      {"=1+2", "@SUM(A1)"},
      {"+cmd|' /C calc'!A0", "-2+3"},
      {"-4.8", "\tx"},
      {"=HYPERLINK(\"http://x\",\"y\")", "+1e3"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    CHECK_INT(store_trial_record(db, run_id, "baseline", rows[i][0], 1, rows[i][1],
                                 "2026-01-01T00:04:00.000Z", &trial, &err),
              TS_OK);
  char *csv = render(REPORT_FORMAT_CSV);
  REQUIRE(csv != NULL);
  CHECK_STR_CONTAINS(csv, ",baseline,'=1+2,done,1,'@SUM(A1),");
  CHECK_STR_CONTAINS(csv, ",baseline,'+cmd|' /C calc'!A0,done,1,'-2+3,");
  /* A tab, which spreadsheets skip before a formula, is a control character: escaped. */
  CHECK_STR_CONTAINS(csv, ",baseline,-4.8,done,1,\\x09x,");
  CHECK_STR_CONTAINS(csv, ",baseline,\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",done,1,+1e3,");
  /* No cell of any row starts with = or @ (+ and - start plain numbers only, checked above). */
  for (const char *p = csv; (p = strpbrk(p, ",\n")) != NULL; p++)
    CHECK(p[1] != '=' && p[1] != '@');
  free(csv);
}

/* A run entered quiet mode: the report says what was asked and what was confirmed, in every
   format, from the journal entry tied to the run (as quiet_enter and the experiment store it). */
static void the_report_shows_quiet_mode_asked_and_confirmed(void) {
  ts_err err;
  char *text = render(REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK(strstr(text, "Quiet mode:") == NULL); /* no quiet mode yet */
  free(text);
  store_quiet_entry e;
  memset(&e, 0, sizeof e);
  snprintf(e.started_at, sizeof e.started_at, "2026-01-01T00:00:00.000Z");
  snprintf(e.reason, sizeof e.reason, "run %lld", (long long)run_id);
  e.defender_was = 1;
  e.update_paused_until_was = 0;
  e.restore_by = INT64_C(1796637600) - 3600;
  int64_t id = 0;
  CHECK_INT(store_quiet_begin(db, &e, &id, &err), TS_OK);
  e.defender_asked = 1;
  e.defender_confirmed = 1;
  e.update_asked_until = INT64_C(1796637600); /* 2026-12-07T10:00:00Z */
  snprintf(e.update_state, sizeof e.update_state, "written");
  snprintf(e.update_how, sizeof e.update_how,
           "the update service has not taken the pause into its state (no PausedQualityStatus or "
           "PolicyState pause; no PausedFeatureStatus or PolicyState pause) (after 5.0 s)");
  CHECK_INT(store_quiet_set_confirmed(db, id, &e, &err), TS_OK);
  CHECK_INT(store_quiet_set_run(db, id, run_id, &err), TS_OK);
  CHECK_INT(store_quiet_end(db, id, "2026-01-01T00:02:00.000Z", NULL, &err), TS_OK);
  text = render(REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK_STR_CONTAINS(text, "Quiet mode: Defender real-time off asked, confirmed off (read back); "
                           "Windows Update pause asked until 2026-12-07 10:00 UTC, written, not "
                           "confirmed: the update service has not taken the pause");
  free(text);
  char *json = render(REPORT_FORMAT_JSON);
  REQUIRE(json != NULL);
  CHECK_STR_CONTAINS(json, "\"quiet\":{\"defender_asked_off\":true,\"defender_confirmed\":\"off "
                           "(read back)\",\"update_asked_until\":1796637600,\"update_state\":"
                           "\"written\",\"update_how\":\"the update service has not");
  free(json);
  char *html = render(REPORT_FORMAT_HTML);
  REQUIRE(html != NULL);
  CHECK_STR_CONTAINS(html, "<dt>quiet mode</dt><dd>Defender real-time off asked, confirmed off");
  free(html);
}

/* Every format prints each of its sections once: a section has a place in a format exactly when
   it has a writer there, and a format's places run 1, 2, ... without a gap or a tie. */
static void each_format_places_its_sections_once(void) {
  for (int f = 0; f < REPORT_FORMAT_COUNT; f++) {
    int at_place[64] = {0}, count = 0;
    REQUIRE(report_section_count < 64);
    for (int i = 0; i < report_section_count; i++) {
      const report_section_place *row = &report_sections[i];
      int place = row->position[f], has = row->section->write[f] != NULL;
      if (has != (place > 0))
        fprintf(stderr, "section %s, format %d: place %d, %s writer\n", row->section->name, f,
                place, has ? "a" : "no");
      CHECK_INT(place > 0, has);
      if (place > 0 && place < 64) {
        at_place[place]++;
        count++;
      }
    }
    for (int k = 1; k <= count; k++)
      CHECK_INT(at_place[k], 1);
  }
}

int main(void) {
  make_run();
  RUN_CASE(test_format_names);
  RUN_CASE(switches_not_reported_are_said);
  RUN_CASE(each_format_places_its_sections_once);
  RUN_CASE(test_csv);
  RUN_CASE(test_json);
  RUN_CASE(test_html);
  RUN_CASE(test_text_unchanged_shape);
  RUN_CASE(each_kernel_has_its_own_verdict);
  RUN_CASE(sensitivity_is_the_scores_own);
  RUN_CASE(more_blocks_come_with_their_time);
  RUN_CASE(an_unreached_precision_names_its_noise);
  RUN_CASE(precision_check_measures_the_reported_intervals);
  RUN_CASE(the_printed_interval_decides_the_verdict);
  RUN_CASE(the_same_run_reports_the_same_in_two_databases);
  RUN_CASE(the_statistics_need_no_database_after_the_read);
  RUN_CASE(condition_means_from_trials_are_the_stores);
  RUN_CASE(outside_cpu_is_compared_block_by_block);
  RUN_CASE(a_block_no_run_writes_is_refused);
  RUN_CASE(bad_stored_names_stay_out_of_reports); /* these two add trials to the run */
  RUN_CASE(csv_formula_cells_neutralised);
  RUN_CASE(the_report_shows_quiet_mode_asked_and_confirmed);
  store_close(db);
  return check_summary();
}

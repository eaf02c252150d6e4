/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_report_compare.c - `report --compare` on runs of three machines stored in a real database:
   every effect, CI and sensitivity is the run's own report's number to the last digit, plans that
   differ are named, a condition a run lacks is "not measured", the newest finished run of each
   machine is picked, names are escaped, and bad lists are refused with what is accepted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../service/src/report/compare.h"
#include "../../service/src/report/data.h"
#include "../../service/src/report/report.h"
#include "check.h"
#include "testdb.h"
#include "testreport.h"

static store *db;

/* The same spread in every condition (its mean is 0), so each mean is exactly what is set. */
static const double jitter[6] = {-0.3, 0.1, 0.25, -0.15, 0.1, 0.0};

typedef struct machine {
  const char *host, *cpu, *machine_id;
  uint64_t memory_bytes;
} machine;

/* Stores a run of `benches` on machine m with `conditions` (the first the baseline), 6 blocks, its
   work scale and margin (NULL: automatic); condition c scores means[c] plus the jitter. finish: 0
   leaves every trial pending. */
static int64_t make_run_of(const machine *m, const char *conditions, const char *benches,
                           const char *work_scale, const char *margin, const double *means,
                           int finish) {
  ts_err err;
  plan p;
  CHECK_INT(plan_preset("quick", &p, &err), TS_OK);
  CHECK_INT(plan_set(&p, "conditions", conditions, &err), TS_OK);
  CHECK_INT(plan_set(&p, "bench", benches, &err), TS_OK);
  CHECK_INT(plan_set(&p, "reps", "6", &err), TS_OK);
  CHECK_INT(plan_set(&p, "work-scale", work_scale, &err), TS_OK);
  if (margin)
    CHECK_INT(plan_set(&p, "margin", margin, &err), TS_OK);
  char text[PLAN_FORMAT_MAX];
  plan_format(&p, text, sizeof text);
  store_run_info info = {p.name,
                         text,
                         3,
                         "2026-01-01T00:00:00.000Z",
                         m->host,
                         "Linux",
                         m->cpu,
                         8,
                         "1.0",
                         m->machine_id,
                         m->memory_bytes};
  static store_trial_plan trials[PLAN_MAX_CONDITIONS * 6 * 2];
  int n = 0;
  for (int rep = 1; rep <= 6; rep++)
    for (int c = 0; c < p.condition_count; c++)
      for (int b = 0; b < p.bench_count; b++)
        trials[n] = (store_trial_plan){n + 1, rep, p.conditions[c].text, p.benches[b], 0}, n++;
  int64_t run_id = 0;
  CHECK_INT(store_run_begin(db, &info, trials, n, &run_id, &err), TS_OK);
  if (!finish)
    return run_id;
  for (int i = 0; i < n; i++) {
    int c = plan_condition_index(&p, trials[i].condition);
    CHECK_INT(
        test_finish_trial(db, trials[i].id, means[c] + jitter[trials[i].block - 1], 0, NULL, &err),
        TS_OK);
  }
  CHECK_INT(store_run_end(db, run_id, STORE_RUN_FINISHED, NULL, "2026-01-01T00:02:00.000Z", &err),
            TS_OK);
  return run_id;
}

/* A run of builtin-st and cpuz with the automatic margin. */
static int64_t make_run(const machine *m, const char *conditions, const char *work_scale,
                        const double *means, int finish) {
  return make_run_of(m, conditions, "builtin-st,cpuz", work_scale, NULL, means, finish);
}

static const machine machine_a = {"pc-a", "Intel Core i7-8700", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                                  17179869184ull};
static const machine machine_b = {"pc-b <&\"'>", "AMD Ryzen 5 3600",
                                  "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", 34359738368ull};
/* Stored before schema 12: no machine id, told apart by host and CPU. */
static const machine machine_c = {"pc-c", "Intel Core i5-4590 \xc2\xb5", "", 0};

static int64_t run_a, run_b, run_c;

static void store_three_machines(void) {
  const double means_a[] = {100, 95, 92}, means_b[] = {100, 98, 96}, means_c[] = {100, 90};
  run_a = make_run(&machine_a, "baseline,sleep:1500,sleep:5000", "1", means_a, 1);
  run_b = make_run(&machine_b, "baseline,sleep:1500,sleep:5000", "1", means_b, 1);
  run_c = make_run(&machine_c, "baseline,sleep:1500", "0.5", means_c, 1);
}

static char *render(const int64_t *ids, int count, report_format format, int expect_rc,
                    ts_err *err) {
  FILE *f = tmpfile();
  if (!f)
    return NULL;
  CHECK_INT(report_compare_format(db, ids, count, format, f, err), expect_rc);
  return test_read_back(f);
}

/* The text from `from` up to (not including) `until`, found after `after` in text; "" if not. */
static void between(const char *text, const char *after, const char *from, const char *until,
                    char *out, size_t len) {
  out[0] = '\0';
  const char *a = text ? strstr(text, after) : NULL;
  const char *f = a ? strstr(a, from) : NULL;
  const char *u = f ? strstr(f, until) : NULL;
  if (!u || (size_t)(u - f) >= len)
    return;
  memcpy(out, f, (size_t)(u - f));
  out[u - f] = '\0';
}

static void json_numbers_are_the_runs_own(void) {
  const int64_t ids[] = {run_a, run_b, run_c};
  ts_err err;
  char *cmp = render(ids, 3, REPORT_FORMAT_JSON, TS_OK, &err);
  REQUIRE(cmp != NULL);
  const char *conds[] = {"sleep:1500@500ms", "sleep:5000@500ms"};
  int checked = 0;
  for (int k = 0; k < 3; k++) {
    char *own = test_render_report(db, ids[k], REPORT_FORMAT_JSON);
    REQUIRE(own != NULL);
    for (int b = 0; b < 2; b++) {
      const char *bench = b ? "{\"name\":\"cpuz\"" : "{\"name\":\"builtin-st\"";
      for (int c = 0; c < 2; c++) {
        if (k == 2 && c == 1)
          continue; /* pc-c did not measure sleep:5000 */
        char after[128], want[256], got[256], want_detect[64], got_detect[64];
        snprintf(after, sizeof after, "\"condition\":\"%s\"", conds[c]);
        /* The run's own report: in this benchmark, this condition's percent and interval. */
        const char *own_bench = strstr(own, bench);
        between(own_bench, after, "\"percent\":", ",\"ci_confidence\"", want, sizeof want);
        between(own_bench, after, "\"detectable_percent\":", ",", want_detect, sizeof want_detect);
        char key[160];
        snprintf(key, sizeof key, "{\"run\":%lld,\"condition\":\"%s\"", (long long)ids[k],
                 conds[c]);
        const char *cmp_bench = strstr(cmp, bench);
        between(cmp_bench, key, "\"percent\":", ",\"ci_confidence\"", got, sizeof got);
        between(cmp_bench, key, "\"detectable_percent\":", "}", got_detect, sizeof got_detect);
        CHECK(want[0] != '\0');
        CHECK_STR_EQ(got, want);
        CHECK(want_detect[0] != '\0');
        CHECK_STR_EQ(got_detect, want_detect);
        checked++;
      }
    }
    free(own);
  }
  CHECK_INT(checked, 10);
  /* The effects the scores were chosen for (ratios of means; the reports give ratios of geometric
     means, which the trials' small spread keeps within 0.001 %). */
  char key[160], got[256];
  snprintf(key, sizeof key, "{\"run\":%lld,\"condition\":\"sleep:1500@500ms\"", (long long)run_a);
  between(cmp, key, "\"percent\":", ",", got, sizeof got);
  CHECK(fabs(atof(got + strlen("\"percent\":")) - (-5)) < 0.001);
  snprintf(key, sizeof key, "{\"run\":%lld,\"condition\":\"sleep:5000@500ms\"", (long long)run_b);
  between(cmp, key, "\"percent\":", ",", got, sizeof got);
  CHECK(fabs(atof(got + strlen("\"percent\":")) - (-4)) < 0.001);
  snprintf(key, sizeof key, "{\"run\":%lld,\"condition\":\"sleep:1500@500ms\"", (long long)run_c);
  between(cmp, key, "\"percent\":", ",", got, sizeof got);
  CHECK(fabs(atof(got + strlen("\"percent\":")) - (-10)) < 0.001);
  /* The machines: memory to the byte, the machine id, and no id where none was stored. */
  CHECK_STR_CONTAINS(cmp, "\"memory_bytes\":34359738368");
  CHECK_STR_CONTAINS(cmp, "\"machine_id\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"");
  CHECK_STR_CONTAINS(cmp, "\"machine_id\":\"\",\"host\":\"pc-c\"");
  CHECK_STR_CONTAINS(cmp, "\"host\":\"pc-b <&\\\"'>\"");
  CHECK_STR_CONTAINS(cmp, "\"logical_cpus\":8,\"memory_bytes\":null");
  free(cmp);
}

static void text_and_csv_numbers_are_the_runs_own(void) {
  const int64_t ids[] = {run_a, run_b, run_c};
  ts_err err;
  char *text = render(ids, 3, REPORT_FORMAT_TEXT, TS_OK, &err);
  char *csv = render(ids, 3, REPORT_FORMAT_CSV, TS_OK, &err);
  REQUIRE(text != NULL && csv != NULL);
  for (int k = 0; k < 3; k++) {
    report_data *r;
    REQUIRE(report_data_load(db, ids[k], NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &r, &err) ==
            TS_OK);
    char *own = test_render_report(db, ids[k], REPORT_FORMAT_TEXT);
    for (int b = 0; b < r->bench_count; b++)
      for (int c = 0; c < r->condition_count; c++) {
        const report_cell *cell = &r->cells[b][c];
        if (!cell->compared)
          continue;
        /* Text: the effect, interval, verdict and sensitivity as the run's text report prints
           them. */
        char effect[32], ci[64], detect[64], line[256];
        snprintf(effect, sizeof effect, "%+8.2f%%", cell->cmp.percent);
        snprintf(ci, sizeof ci, "[%+.2f, %+.2f]", cell->cmp.ci_low, cell->cmp.ci_high);
        CHECK_STR_CONTAINS(own, cell->verdict);
        CHECK_STR_CONTAINS(text, cell->verdict);
        snprintf(detect, sizeof detect, "could detect ±%.2f %%", cell->sens.detectable_percent);
        CHECK_STR_CONTAINS(own, effect);
        CHECK_STR_CONTAINS(own, ci);
        CHECK_STR_CONTAINS(own, detect);
        char host[128];
        snprintf(host, sizeof host, "%s (run %lld)", r->run.host, (long long)ids[k]);
        snprintf(line, sizeof line, "%-30s %9s %19s", host, effect + strspn(effect, " "), ci);
        CHECK_STR_CONTAINS(text, line);
        snprintf(detect, sizeof detect, "±%.2f %%\n", cell->sens.detectable_percent);
        CHECK_STR_CONTAINS(text, detect);
        /* The summary: a row per machine, a column per benchmark. */
        char summary[160];
        snprintf(summary, sizeof summary, "%+.2f%% [%+.2f, %+.2f] %s", cell->cmp.percent,
                 cell->cmp.ci_low, cell->cmp.ci_high, stats_verdict_name(cell->cmp.verdict));
        if (b == 0)
          snprintf(line, sizeof line, "    %-28s %-44s", host, summary);
        else
          snprintf(line, sizeof line, " %s\n", summary);
        CHECK_STR_CONTAINS(text, line);
        /* CSV: %.10g as the run's CSV and JSON write numbers. */
        char row[512];
        snprintf(row, sizeof row, ",%s,%s,%s,%zu,%.10g,", r->benches[b], r->units[b],
                 r->conditions[c], cell->d.n, cell->d.mean);
        CHECK_STR_CONTAINS(csv, row);
        snprintf(row, sizeof row,
                 ",%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%s,%zu,%.10g,%s,%.10g\n",
                 cell->cmp.percent, cell->cmp.ci_low, cell->cmp.ci_high, cell->cmp.confidence,
                 cell->cmp.eq_low, cell->cmp.eq_high, cell->cmp.p, cell->p_holm,
                 cell->cmp.paired ? "yes" : "no", cell->cmp.pairs, cell->variance_ratio,
                 stats_verdict_name(cell->cmp.verdict), cell->sens.detectable_percent);
        CHECK_STR_CONTAINS(csv, row);
      }
    /* The noise: the baseline's cv, as the run's report has it. */
    char noise[64];
    snprintf(noise, sizeof noise, "%.1f%%", r->cells[0][r->baseline].d.cv * 100);
    CHECK_STR_CONTAINS(text, noise);
    free(own);
    report_data_free(r);
  }
  CHECK_STR_CONTAINS(text, "Comparison of 3 runs");
  CHECK_STR_CONTAINS(text, "Intel Core i7-8700");
  CHECK_STR_CONTAINS(text, "16.0 GiB");
  CHECK_STR_CONTAINS(text, "slower");
  free(text);
  free(csv);
}

static void plan_differences_are_named(void) {
  const int64_t ids[] = {run_a, run_b, run_c};
  ts_err err;
  char *text = render(ids, 3, REPORT_FORMAT_TEXT, TS_OK, &err);
  char *json = render(ids, 3, REPORT_FORMAT_JSON, TS_OK, &err);
  char *csv = render(ids, 3, REPORT_FORMAT_CSV, TS_OK, &err);
  REQUIRE(text && json && csv);
  char want[256];
  snprintf(want, sizeof want,
           "  conditions: sleep:5000@500ms measured in runs %lld, %lld; not measured in run %lld\n",
           (long long)run_a, (long long)run_b, (long long)run_c);
  CHECK_STR_CONTAINS(text, "Plans differ");
  CHECK_STR_CONTAINS(text, want);
  snprintf(want, sizeof want, "  work scale: 1 in runs %lld, %lld; 0.5 in run %lld\n",
           (long long)run_a, (long long)run_b, (long long)run_c);
  CHECK_STR_CONTAINS(text, want);
  CHECK(strstr(text, "margin:") == NULL);     /* all automatic */
  CHECK(strstr(text, "benchmarks:") == NULL); /* all the same */
  snprintf(want, sizeof want, "pc-c (run %lld)                   not measured", (long long)run_c);
  CHECK_STR_CONTAINS(text, want);
  CHECK_STR_CONTAINS(json, "{\"setting\":\"work scale\",\"text\":\"1 in runs");
  snprintf(want, sizeof want, "{\"run\":%lld,\"condition\":\"sleep:5000@500ms\",\"measured\":false",
           (long long)run_c);
  CHECK_STR_CONTAINS(json, want);
  CHECK_STR_CONTAINS(csv, "\nplan_difference,detail\nconditions,\"sleep:5000@500ms measured in");
  CHECK_STR_CONTAINS(csv, ",not measured,\n");
  free(text);
  free(json);
  free(csv);
  /* The same plans: said so, nothing listed. */
  const int64_t same[] = {run_a, run_b};
  text = render(same, 2, REPORT_FORMAT_TEXT, TS_OK, &err);
  CHECK_STR_CONTAINS(text, "Plans: the same conditions, benchmarks, work scale and margin.");
  CHECK(text && strstr(text, "not measured") == NULL);
  free(text);
}

static void other_benchmarks_and_margins_are_named(void) {
  const double means[] = {100, 95};
  int64_t other = make_run_of(&machine_a, "baseline,sleep:1500", "builtin-st", "1", "2%", means, 1);
  const int64_t ids[] = {run_a, other};
  ts_err err;
  char *text = render(ids, 2, REPORT_FORMAT_TEXT, TS_OK, &err);
  char want[256];
  snprintf(want, sizeof want, "  benchmarks: cpuz measured in run %lld; not measured in run %lld\n",
           (long long)run_a, (long long)other);
  CHECK_STR_CONTAINS(text, want);
  snprintf(want, sizeof want, "  margin: automatic in run %lld; 2 %% in run %lld\n",
           (long long)run_a, (long long)other);
  CHECK_STR_CONTAINS(text, want);
  free(text);
}

static void html_has_a_chart_per_benchmark_and_escapes_names(void) {
  const int64_t ids[] = {run_a, run_b, run_c};
  ts_err err;
  char *html = render(ids, 3, REPORT_FORMAT_HTML, TS_OK, &err);
  REQUIRE(html != NULL);
  int svgs = 0, rows = 0, machines = 0;
  for (const char *p = html; (p = strstr(p, "<svg ")) != NULL; p++)
    svgs++;
  for (const char *p = html; (p = strstr(p, "<g class=\"machine-row\"")) != NULL; p++)
    rows++;
  for (const char *p = html; (p = strstr(p, "<tr class=\"machine\">")) != NULL; p++)
    machines++;
  CHECK_INT(svgs, 2);         /* builtin-st, cpuz */
  CHECK_INT(rows, 2 * 2 * 3); /* per benchmark, per condition, per machine */
  CHECK_INT(machines, 3);
  CHECK_STR_CONTAINS(html, "<table class=\"summary\">");
  CHECK_STR_CONTAINS(html, "<td class=\"cond verdict slower\">-5.00% [");
  CHECK_STR_CONTAINS(html, "pc-b &lt;&amp;&quot;&#39;&gt;");
  CHECK(strstr(html, "pc-b <") == NULL);
  CHECK_STR_CONTAINS(html, "i5-4590 \xc2\xb5");
  CHECK(strstr(html, "http://") == NULL || strstr(html, "http://www.w3.org/2000/svg") != NULL);
  CHECK(strstr(html, "<script") == NULL && strstr(html, "src=") == NULL);
  free(html);
}

static void the_newest_finished_run_of_each_machine_is_picked(void) {
  ts_err err;
  int64_t ids[REPORT_COMPARE_MAX_RUNS];
  int count = 0;
  /* pc-a again, newer; pc-b's newer run never finished; pc-c on another CPU is another machine. */
  const double means[] = {100, 97, 94};
  int64_t newer_a = make_run(&machine_a, "baseline,sleep:1500,sleep:5000", "1", means, 1);
  make_run(&machine_b, "baseline,sleep:1500,sleep:5000", "1", means, 0);
  const machine other_c = {"pc-c", "Intel Core i3", "", 0};
  int64_t other = make_run(&other_c, "baseline,sleep:1500", "1", means, 1);
  CHECK_INT(report_compare_pick_machines(db, ids, REPORT_COMPARE_MAX_RUNS, &count, &err), TS_OK);
  REQUIRE(count == 4);
  /* By host, then run. */
  CHECK_INT(ids[0], newer_a);
  CHECK_INT(ids[1], run_b);
  CHECK_INT(ids[2], run_c);
  CHECK_INT(ids[3], other);
  CHECK_INT(report_compare_pick_machines(db, ids, 3, &count, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "more than 3 machines");
}

static void one_machine_is_not_a_comparison(void) {
  const char *path = "test_report_compare_one.db";
  store *saved = db, *one;
  ts_err err;
  remove_db(path);
  REQUIRE(store_open(&one, path, &err) == TS_OK);
  db = one;
  const double means[] = {100, 95};
  make_run(&machine_a, "baseline,sleep:1500", "1", means, 1);
  make_run(&machine_a, "baseline,sleep:1500", "1", means, 1);
  int64_t ids[REPORT_COMPARE_MAX_RUNS];
  int count = 0;
  CHECK_INT(report_compare_pick_machines(db, ids, REPORT_COMPARE_MAX_RUNS, &count, &err),
            TS_EINVAL);
  CHECK_STR_CONTAINS(err.text,
                     "finished runs of 1 machine: --compare-all-machines needs 2 or more");
  db = saved;
  store_close(one);
  remove_db(path);
}

static void bad_lists_are_refused(void) {
  ts_err err;
  const int64_t one[] = {run_a};
  char *out = render(one, 1, REPORT_FORMAT_TEXT, TS_EUSAGE, &err);
  CHECK_STR_CONTAINS(err.text, "at least 2 runs, got 1 (accepted: 2 to 16 run ids");
  free(out);
  const int64_t twice[] = {run_a, run_b, run_a};
  out = render(twice, 3, REPORT_FORMAT_JSON, TS_EUSAGE, &err);
  char want[128];
  snprintf(want, sizeof want, "run %lld is listed twice (accepted: each run once",
           (long long)run_a);
  CHECK_STR_CONTAINS(err.text, want);
  CHECK(out && out[0] == '\0'); /* nothing written */
  free(out);
  const int64_t unknown[] = {run_a, 999};
  out = render(unknown, 2, REPORT_FORMAT_TEXT, TS_EINVAL, &err);
  CHECK_STR_CONTAINS(err.text, "there is no run 999 in");
  CHECK_STR_CONTAINS(err.text, "accepted: the ids threadsoup history lists");
  free(out);
  const double means[] = {100, 95};
  int64_t pending = make_run(&machine_a, "baseline,sleep:1500", "1", means, 0);
  const int64_t unfinished[] = {run_a, pending};
  out = render(unfinished, 2, REPORT_FORMAT_HTML, TS_EINVAL, &err);
  snprintf(want, sizeof want, "run %lld has no finished trials to compare (status running",
           (long long)pending);
  CHECK_STR_CONTAINS(err.text, want);
  free(out);
}

int main(void) {
  const char *path = "test_report_compare.db";
  ts_err err;
  remove_db(path);
  if (store_open(&db, path, &err) != TS_OK) {
    fprintf(stderr, "cannot open the test database: %s\n", err.text);
    return 1;
  }
  store_three_machines();
  RUN_CASE(json_numbers_are_the_runs_own);
  RUN_CASE(text_and_csv_numbers_are_the_runs_own);
  RUN_CASE(plan_differences_are_named);
  RUN_CASE(html_has_a_chart_per_benchmark_and_escapes_names);
  RUN_CASE(other_benchmarks_and_margins_are_named);
  RUN_CASE(bad_lists_are_refused);
  RUN_CASE(the_newest_finished_run_of_each_machine_is_picked);
  RUN_CASE(one_machine_is_not_a_comparison);
  store_close(db);
  remove_db(path);
  return check_summary();
}

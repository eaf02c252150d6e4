/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_report_census.c - the census part of the reports, from trials stored through the store
   API: medians per condition with warm-ups and failed trials left out, the load's threads by
   state (minus the baseline's), context switches per sleeper per interval, "not recorded" for a
   run without a census, and the census in the text, CSV, JSON and HTML reports. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../service/src/report/census.h"
#include "../../service/src/report/data.h"
#include "../../service/src/report/report.h"
#include "check.h"
#include "testdb.h"
#include "testreport.h"

#define DB_PATH "test_report_census.db"
#define SLEEP "sleep:100@500ms"
#define MIXED "sleep:40@100ms+sleep:60@500ms"
#define CLOSE(a, b) (fabs((a) - (b)) < 1e-9)

static store *db;
static int64_t census_run, old_run, partial_run;

typedef struct trial_numbers {
  long threads, machine_processes, machine_threads;
  double switches, cpu, census_ms, children;
  double delay, user_request, running; /* state.* metrics; NaN: the census lacked the state */
} trial_numbers;

/* Finishes a pending trial with the numbers; it takes 2 s from start to finish. */
static void finish(int64_t id, const trial_numbers *n, int with_metrics) {
  ts_err err;
  store_metric metrics[8];
  int m = 0;
  metrics[m++] = (store_metric){"load.switches_per_s", n->switches};
  metrics[m++] = (store_metric){"load.cpu_percent", n->cpu};
  metrics[m++] = (store_metric){"census.cpu_ms", n->census_ms};
  metrics[m++] = (store_metric){"load.child_processes", n->children};
  metrics[m++] = (store_metric){"state.Wait:UserRequest", n->user_request};
  if (!isnan(n->delay))
    metrics[m++] = (store_metric){"state.Wait:DelayExecution", n->delay};
  if (!isnan(n->running))
    metrics[m++] = (store_metric){"state.Running", n->running};
  metrics[m++] = (store_metric){"integer", 1};
  store_trial_result result = {"2026-01-01T00:00:01.000Z",
                               "2026-01-01T00:00:03.000Z",
                               100,
                               "Mwork/s",
                               1.5,
                               n->threads,
                               n->machine_processes,
                               n->machine_threads,
                               with_metrics ? m : 0,
                               metrics,
                               NULL,
                               "ac",
                               "off",
                               "uniform"};
  CHECK_INT(store_trial_finish(db, id, &result, &err), TS_OK);
}

/* A run of three conditions, three blocks each, a warm-up with absurd numbers and a failed trial
   (both left out); and an old run whose trials stored no census. */
static void make_runs(void) {
  remove_db(DB_PATH);
  ts_err err;
  CHECK_INT(store_open(&db, DB_PATH, &err), TS_OK);
  store_run_info info = {"census", "name = census\n",
                         1,        "2026-01-01T00:00:00.000Z",
                         "host",   "Windows",
                         "cpu",    2,
                         "1.0",    NULL,
                         0};
  const char *conds[3] = {"baseline", SLEEP, MIXED};
  store_trial_plan trials[1 + 3 * 3 + 1];
  int n = 0;
  trials[n] = (store_trial_plan){n + 1, 0, SLEEP, "builtin-st", 0}, n++;
  for (int rep = 1; rep <= 3; rep++)
    for (int c = 0; c < 3; c++)
      trials[n] = (store_trial_plan){n + 1, rep, conds[c], "builtin-st", 0}, n++;
  trials[n] = (store_trial_plan){n + 1, 4, SLEEP, "builtin-st", 0}, n++;
  CHECK_INT(store_run_begin(db, &info, trials, n, &census_run, &err), TS_OK);

  trial_numbers warm = {9999, 9999, 9999, 9999, 9999, 9999, 9999, 9999, 9999, 9999};
  finish(trials[0].id, &warm, 1);
  for (int rep = 0; rep < 3; rep++) {
    /* baseline: its own threads, 3 to 5 (median 4), 3 of them waiting on a user request */
    trial_numbers base = {3 + rep,
                          200 + 10 * rep,
                          2000 + 100 * rep,
                          10.0 * (rep + 1),
                          0.1,
                          2.0 * (rep + 1),
                          0,
                          NAN,
                          2.0 + rep,
                          1};
    finish(trials[1 + rep * 3].id, &base, 1);
    /* 100 sleepers of 500 ms: 200 switches/s is one wake-up per sleeper per interval */
    trial_numbers sleep = {
        104 + (rep == 1 ? -1 : rep), 201, 2101, 190.0 + 10 * rep, 0.5, 4, 0, 100, 3, 1};
    finish(trials[2 + rep * 3].id, &sleep, 1);
    /* 40 sleepers of 100 ms and 60 of 500 ms: 520 wake-ups/s; Running missing in two */
    trial_numbers mixed = {104, 202, 2102, 520, 1.5, 4, 0, 100, 3, rep == 0 ? 1 : NAN};
    finish(trials[3 + rep * 3].id, &mixed, 1);
  }
  CHECK_INT(store_trial_fail(db, trials[n - 1].id, "2026-01-01T00:01:00.000Z", "boom", &err),
            TS_OK);
  CHECK_INT(
      store_run_end(db, census_run, STORE_RUN_FINISHED, NULL, "2026-01-01T00:02:00.000Z", &err),
      TS_OK);

  store_trial_plan old[2] = {{1, 1, "baseline", "builtin-st", 0}, {2, 1, SLEEP, "builtin-st", 0}};
  CHECK_INT(store_run_begin(db, &info, old, 2, &old_run, &err), TS_OK);
  trial_numbers plain = {3, 100, 900, 0, 0, 0, 0, 0, 0, 0};
  finish(old[0].id, &plain, 0);
  plain.threads = 103;
  finish(old[1].id, &plain, 0);
  CHECK_INT(store_run_end(db, old_run, STORE_RUN_FINISHED, NULL, "2026-01-01T00:02:00.000Z", &err),
            TS_OK);

  /* A run whose baseline has no census, while the other condition has one. */
  store_trial_plan partial[2] = {{1, 1, "baseline", "builtin-st", 0},
                                 {2, 1, SLEEP, "builtin-st", 0}};
  CHECK_INT(store_run_begin(db, &info, partial, 2, &partial_run, &err), TS_OK);
  finish(partial[0].id, &plain, 0);
  trial_numbers sleep = {104, 201, 2101, 200, 0.5, 4, 0, 100, 3, 1};
  finish(partial[1].id, &sleep, 1);
}

static report_data *loaded;       /* the census run's data, as the reports have it */
static report_censuses *censuses; /* and its census, as the census section computes it */

static report_data *load_run(int64_t run) {
  report_data *r = NULL;
  ts_err err;
  CHECK_INT(report_data_load(db, run, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &r, &err), TS_OK);
  return r;
}

/* The census of a loaded run; the caller frees it. NULL (and a failed check) on failure. */
static report_censuses *census_compute(const report_data *r) {
  report_censuses *k = malloc(sizeof *k);
  ts_err err;
  CHECK(k != NULL);
  if (k && report_census_compute(db, r, k, &err) != TS_OK) {
    CHECK(!"the census is computed");
    free(k);
    return NULL;
  }
  return k;
}

/* A condition's census in the loaded run. */
static const report_census *census_of(const char *condition) {
  int c = report_condition_index(loaded, condition);
  CHECK(c >= 0);
  return &censuses->census[c < 0 ? 0 : c];
}

static const report_census_state *state_of(const report_census *k, const char *name) {
  for (int s = 0; s < k->state_count; s++)
    if (strcmp(k->states[s].name, name) == 0)
      return &k->states[s];
  return NULL;
}

static void medians_leave_out_warm_ups_and_failures(void) {
  REQUIRE(loaded->condition_count == 3);
  CHECK(censuses->have_census);
  const report_census *base = census_of("baseline"), *sleep = census_of(SLEEP);
  CHECK_INT(base->trials, 3);
  CHECK_INT(base->recorded, 3);
  CHECK_INT(sleep->trials, 3); /* not the warm-up, not the failed trial */
  CHECK(CLOSE(base->process_threads, 4));
  CHECK(CLOSE(base->load_threads, 0));
  CHECK(CLOSE(base->machine_processes, 210));
  CHECK(CLOSE(base->machine_threads, 2100));
  CHECK(CLOSE(base->switches_per_s, 20));
  CHECK(CLOSE(base->cpu_percent, 0.1));
  CHECK(CLOSE(base->census_ms, 4));
  CHECK(CLOSE(base->census_percent, 0.2)); /* 4 ms of a 2 s trial */
  CHECK(CLOSE(base->child_processes, 0));
  CHECK(isnan(base->per_sleeper_interval)); /* no sleepers */
  CHECK_INT(base->sleepers, 0);
  CHECK(CLOSE(sleep->process_threads, 104)); /* 104, 103, 106 */
  CHECK(CLOSE(sleep->load_threads, 100));
  CHECK(CLOSE(sleep->switches_per_s, 200));
}

static void load_threads_by_state_are_the_baselines_taken_away(void) {
  const report_census *sleep = census_of(SLEEP), *mixed = census_of(MIXED);
  const report_census *base = &censuses->census[loaded->baseline];
  REQUIRE(sleep->state_count == 3);
  /* most of the load's threads first, the OS's names unchanged */
  CHECK_STR_CONTAINS(sleep->states[0].name, "Wait:DelayExecution");
  CHECK(CLOSE(sleep->states[0].load, 100));
  CHECK(CLOSE(sleep->states[0].process, 100));
  const report_census_state *user = state_of(sleep, "Wait:UserRequest");
  REQUIRE(user != NULL);
  CHECK(CLOSE(user->process, 3));
  CHECK(CLOSE(user->load, 0)); /* the baseline's median is 3 too */
  /* A state a trial's census lacks counts 0: Running is 1, 0, 0 in the mixed condition. */
  const report_census_state *running = state_of(mixed, "Running");
  REQUIRE(running != NULL);
  CHECK(CLOSE(running->process, 0));
  CHECK(CLOSE(running->load, -1));
  /* The baseline had no thread in DelayExecution: its states leave it out. */
  CHECK(state_of(base, "Wait:DelayExecution") == NULL);
}

static void switches_per_sleeper_per_interval(void) {
  const report_census *sleep = census_of(SLEEP), *mixed = census_of(MIXED);
  CHECK_INT(sleep->sleepers, 100);
  CHECK(CLOSE(sleep->sleeper_interval_s, 0.5));
  CHECK(CLOSE(sleep->per_sleeper_interval, 1.0)); /* 200/s x 0.5 s / 100 */
  CHECK_INT(mixed->sleepers, 100);
  CHECK(CLOSE(mixed->sleeper_interval_s, 100.0 / 520)); /* 40/0.1 s + 60/0.5 s = 520/s */
  CHECK(CLOSE(mixed->per_sleeper_interval, 1.0));
}

static void an_old_run_says_not_recorded(void) {
  report_data *r = load_run(old_run);
  REQUIRE(r != NULL);
  report_censuses *k = census_compute(r);
  REQUIRE(k != NULL);
  CHECK(!k->have_census);
  const report_census *sleep = &k->census[report_condition_index(r, SLEEP)];
  CHECK_INT(sleep->trials, 1);
  CHECK_INT(sleep->recorded, 0);
  CHECK_INT(sleep->state_count, 0);
  CHECK(isnan(sleep->switches_per_s) && isnan(sleep->cpu_percent) && isnan(sleep->census_ms));
  CHECK(CLOSE(sleep->load_threads, 100)); /* the trial rows always counted the threads */
  free(k);
  report_data_free(r);
}

/* 1 when the text is one JSON value with balanced brackets and closed strings, nothing after. */
static int json_balanced(const char *text) {
  char stack[64];
  int depth = 0, in_string = 0;
  for (const char *p = text; *p; p++) {
    if (in_string) {
      if (*p == '\\' && p[1])
        p++;
      else if (*p == '"')
        in_string = 0;
      continue;
    }
    if (*p == '"')
      in_string = 1;
    else if (*p == '{' || *p == '[') {
      if (depth == (int)sizeof stack)
        return 0;
      stack[depth++] = *p == '{' ? '}' : ']';
    } else if (*p == '}' || *p == ']') {
      if (depth == 0 || stack[--depth] != *p)
        return 0;
      if (depth == 0)
        return strspn(p + 1, " \n") == strlen(p + 1);
    }
  }
  return 0;
}

static void every_format_shows_the_census(void) {
  char *text = test_render_report(db, census_run, REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK_STR_CONTAINS(text, "\nCensus (taken between benchmarks");
  CHECK_STR_CONTAINS(text, "    " SLEEP ": Wait:DelayExecution 100, Wait:UserRequest 0, "
                           "Running 0\n");
  CHECK_STR_CONTAINS(text, "    baseline: Wait:UserRequest 3, Running 1\n");
  CHECK_STR_CONTAINS(text, " 4.0 ms (0.20%)\n"); /* 4 ms of a 2 s trial */
  free(text);

  char *csv = test_render_report(db, census_run, REPORT_FORMAT_CSV);
  REQUIRE(csv != NULL);
  /* the trial rows, a blank line, then the census table with its own header */
  CHECK_STR_CONTAINS(csv, "\n\ncensus_condition,trials,recorded,process_threads,load_threads,");
  CHECK_STR_CONTAINS(csv, "\n" SLEEP ",3,3,104,100,0,");
  CHECK_STR_CONTAINS(csv,
                     ",census_percent,load_state.Wait:DelayExecution,load_state.Wait:UserRequest,"
                     "load_state.Running\n");
  CHECK_STR_CONTAINS(csv, "\nbaseline,3,3,4,0,0,210,2100,20,,,,0.1,4,0.2,0,0,0\n");
  free(csv);

  char *json = test_render_report(db, census_run, REPORT_FORMAT_JSON);
  REQUIRE(json != NULL);
  CHECK(json_balanced(json));
  CHECK_STR_CONTAINS(json, "\n\"census\":[\n {\"condition\":\"baseline\",\"baseline\":true,");
  CHECK_STR_CONTAINS(json, "\"threads_by_state\":{\"Wait:DelayExecution\":100,"
                           "\"Wait:UserRequest\":0,\"Running\":0}");
  CHECK_STR_CONTAINS(json, "\"per_sleeper_interval\":1,");
  CHECK_STR_CONTAINS(json, "\"census_cpu_ms\":4,\"census_percent\":0.2}");
  CHECK(strstr(json, "nan") == NULL && strstr(json, "inf") == NULL);
  free(json);

  char *html = test_render_report(db, census_run, REPORT_FORMAT_HTML);
  REQUIRE(html != NULL);
  CHECK_STR_CONTAINS(html, "<h2>Census</h2>");
  CHECK_STR_CONTAINS(html, "aria-label=\"the load's threads by OS state per condition\"");
  CHECK_STR_CONTAINS(html, "fill=\"#4477aa\"><title>Wait:DelayExecution: 100</title></rect>");
  CHECK_STR_CONTAINS(html,
                     "<ul class=\"legend\"><li><span class=\"swatch\" "
                     "style=\"background:#4477aa\"></span><bdi>Wait:DelayExecution</bdi></li>");
  CHECK_STR_CONTAINS(html, "<td>4.0&nbsp;ms (0.20&nbsp;%)</td>");
  /* the states as text too, for readers that do not see the bars; a state where the load has
     no thread of its own is not listed on every line (the text report keeps its zeros) */
  CHECK_STR_CONTAINS(html, "<li><b><bdi>" SLEEP "</bdi></b>: Wait:DelayExecution 100</li>");
  CHECK_STR_CONTAINS(html, "<li><b><bdi>baseline</bdi></b>: Wait:UserRequest 3, Running 1</li>");
  CHECK(strstr(html, "Running 0") == NULL);
  CHECK(strstr(html, "<script") == NULL);
  free(html);
}

static void an_old_runs_reports_say_not_recorded(void) {
  static const struct {
    report_format format;
    const char *needles[2];
  } want[] = {
      {REPORT_FORMAT_TEXT, {"\nCensus (taken between benchmarks", "\n  not recorded ("}},
      {REPORT_FORMAT_JSON,
       {"\"recorded\":0,\"process_threads\":103,\"load_threads\":100,\"threads_by_state\":null,",
        "\"switches_per_s\":null"}},
      {REPORT_FORMAT_HTML, {"<h2>Census</h2>", "not recorded ("}},
      {REPORT_FORMAT_CSV,
       {"\n\ncensus_condition,", "\n" SLEEP ",1,0,103,100,,100,900,,100,0.5,,,,\n"}},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    char *report = test_render_report(db, old_run, want[i].format);
    REQUIRE(report != NULL);
    for (int k = 0; k < 2; k++)
      CHECK_STR_CONTAINS(report, want[i].needles[k]);
    if (want[i].format == REPORT_FORMAT_JSON)
      CHECK(json_balanced(report));
    free(report);
  }
}

static void without_the_baselines_census_the_loads_states_are_not_known(void) {
  report_data *r = load_run(partial_run);
  REQUIRE(r != NULL);
  report_censuses *k = census_compute(r);
  REQUIRE(k != NULL);
  const report_census *sleep = &k->census[report_condition_index(r, SLEEP)];
  CHECK(k->have_census);
  CHECK_INT(sleep->recorded, 1);
  const report_census_state *delay = state_of(sleep, "Wait:DelayExecution");
  CHECK(delay != NULL && CLOSE(delay->process, 100) && isnan(delay->load));
  free(k);
  report_data_free(r);
  char *text = test_render_report(db, partial_run, REPORT_FORMAT_TEXT);
  REQUIRE(text != NULL);
  CHECK_STR_CONTAINS(text, "    " SLEEP ": Wait:DelayExecution -, ");
  CHECK_STR_CONTAINS(text, "  baseline                       not recorded\n");
  CHECK(strstr(text, "nan") == NULL);
  free(text);
}

int main(void) {
  make_runs();
  loaded = load_run(census_run);
  censuses = loaded ? census_compute(loaded) : NULL;
  if (!censuses)
    return 1;
  RUN_CASE(medians_leave_out_warm_ups_and_failures);
  RUN_CASE(load_threads_by_state_are_the_baselines_taken_away);
  RUN_CASE(switches_per_sleeper_per_interval);
  RUN_CASE(an_old_run_says_not_recorded);
  RUN_CASE(every_format_shows_the_census);
  RUN_CASE(an_old_runs_reports_say_not_recorded);
  RUN_CASE(without_the_baselines_census_the_loads_states_are_not_known);
  free(censuses);
  report_data_free(loaded);
  store_close(db);
  remove_db(DB_PATH);
  return check_summary();
}

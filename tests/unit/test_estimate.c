/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_estimate.c - the estimate of a plan before it runs, from history in a real database file:
   which trials count (this host, this work scale, done baseline trials outside warm-ups, measured),
   the pooled within-run spread, the detectable effect and blocks against SciPy's numbers
   (estimate_reference.py), the time, the lines it prints, the pilot's plan, and the block times
   the reports' minutes for more blocks stand on. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../service/src/experiment/estimate.h"
#include "../../service/src/stats/stats.h"
#include "check.h"
#include "testdb.h"

#define DB "test_estimate.db"
#define HOST "host-a"
#define SLOW "sleep:10@500ms"

/* From estimate_reference.py (SciPy 1.10.1) for the two comparable runs below. */
#define REF_POOLED_SD 1.89350390686
#define REF_T975_DF8 2.30600413503
#define REF_T80_DF8 0.888889517767
#define REF_DETECTABLE_5 3.82606732468
#define REF_BLOCKS_FOR_1 29
#define REF_DETECTABLE_29 1.41784690646

static const double run_a[] = {100.0, 103.0, 98.0, 101.0};
static const double run_a_seconds[] = {1.0, 1.2, 0.9, 1.1};
static const double run_b[] = {200.0, 196.0, 205.0, 199.0, 203.0};
static const double run_b_seconds[] = {2.0, 2.1, 1.9, 2.2, 2.0};
static const double wild[] = {10.0, 90.0, 50.0};

static int near(double a, double b, double tolerance) { return fabs(a - b) <= tolerance; }

/* The plan being estimated: baseline and one load, builtin-st, 5 blocks, one warm-up, 2 s settle,
   work scale 0.5. */
static void make_plan(plan *p, const char *work_scale) {
  ts_err err;
  CHECK_INT(plan_preset("quick", p, &err), TS_OK);
  CHECK_INT(plan_set(p, "conditions", "baseline," SLOW, &err), TS_OK);
  CHECK_INT(plan_set(p, "bench", "builtin-st", &err), TS_OK);
  CHECK_INT(plan_set(p, "reps", "5", &err), TS_OK);
  CHECK_INT(plan_set(p, "warmup", "1", &err), TS_OK);
  CHECK_INT(plan_set(p, "settle", "2s", &err), TS_OK);
  CHECK_INT(plan_set(p, "precision", "off", &err), TS_OK);
  CHECK_INT(plan_set(p, "work-scale", work_scale, &err), TS_OK);
}

/* One earlier run on `host` with a plan of `work_scale`: a warm-up (score 1000), the baseline
   `scores` with `seconds`, a failed baseline trial, and the load's (wild) scores; all of
   `bench`. */
static void add_run(store *s, const char *host, const char *work_scale, const char *bench,
                    const double *scores, const double *seconds, int n) {
  plan p;
  make_plan(&p, work_scale);
  char text[PLAN_FORMAT_MAX];
  plan_format(&p, text, sizeof text);
  store_run_info info = {"history", text, 1, "2026-01-01T00:00:00.000Z", host, "Linux", "cpu", 2,
                         "1.0",     NULL, 0};
  store_trial_plan trials[2 * 8 + 2];
  int count = 0;
  trials[count] = (store_trial_plan){count + 1, 0, "baseline", bench, 0}, count++;
  for (int i = 0; i < n; i++) {
    trials[count] = (store_trial_plan){count + 1, i + 1, "baseline", bench, 0}, count++;
    trials[count] = (store_trial_plan){count + 1, i + 1, SLOW, bench, 0}, count++;
  }
  trials[count] = (store_trial_plan){count + 1, n + 1, "baseline", bench, 0}, count++;
  int64_t run_id;
  ts_err err;
  CHECK_INT(store_run_begin(s, &info, trials, count, &run_id, &err), TS_OK);
  for (int k = 0; k < count; k++) {
    if (k == count - 1) {
      CHECK_INT(store_trial_fail(s, trials[k].id, "2026-01-01T00:01:00.000Z", "boom", &err), TS_OK);
      continue;
    }
    int block = trials[k].block, loaded = strcmp(trials[k].condition, SLOW) == 0;
    double score = block == 0 ? 1000 : (loaded ? wild[block % 3] : scores[block - 1]);
    double secs = block == 0 ? 9 : (loaded ? 5 : seconds[block - 1]);
    store_trial_result result = {"2026-01-01T00:00:01.000Z",
                                 "2026-01-01T00:00:02.000Z",
                                 score,
                                 "Mwork/s",
                                 secs,
                                 1,
                                 100,
                                 900,
                                 0,
                                 NULL,
                                 NULL,
                                 NULL,
                                 NULL,
                                 NULL};
    CHECK_INT(store_trial_finish(s, trials[k].id, &result, &err), TS_OK);
  }
  CHECK_INT(store_run_end(s, run_id, STORE_RUN_FINISHED, NULL, "2026-01-01T00:02:00.000Z", &err),
            TS_OK);
}

/* What must not count: another host, another work scale, another benchmark, and scores typed in
   by hand (on this host, with this work scale). */
static void add_ignored_history(store *s) {
  static const double seconds[] = {3, 3, 3};
  add_run(s, "host-b", "0.5", "builtin-st", wild, seconds, 3);
  add_run(s, HOST, "1", "builtin-st", wild, seconds, 3);
  add_run(s, HOST, "0.5", "builtin-mt", wild, seconds, 3);
  plan p;
  make_plan(&p, "0.5");
  char text[PLAN_FORMAT_MAX];
  plan_format(&p, text, sizeof text);
  store_run_info info = {"manual", text, 0, "2026-01-01T00:00:00.000Z", HOST, "Linux", "cpu", 2,
                         "1.0",    NULL, 0};
  int64_t run_id, trial_id;
  ts_err err;
  CHECK_INT(store_run_create_manual(s, &info, &run_id, &err), TS_OK);
  for (int i = 0; i < 3; i++)
    CHECK_INT(store_trial_record(s, run_id, "baseline", "builtin-st", wild[i], "Mwork/s",
                                 "2026-01-01T00:00:00.000Z", &trial_id, &err),
              TS_OK);
}

/* The within-run spread computed here, apart from estimate.c: each run's sd in % of its mean,
   pooled by degrees of freedom. */
static double cv_percent(const double *x, int n) {
  double mean = 0, ss = 0;
  for (int i = 0; i < n; i++)
    mean += x[i] / n;
  for (int i = 0; i < n; i++)
    ss += (x[i] - mean) * (x[i] - mean);
  return 100 * sqrt(ss / (n - 1)) / mean;
}

static void no_history(void) {
  remove_db(DB);
  store *s = NULL;
  ts_err err;
  REQUIRE(store_open(&s, DB, &err) == TS_OK);
  plan p;
  make_plan(&p, "0.5");
  estimate e;
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  CHECK_INT(e.bench_count, 1);
  CHECK_INT(e.any_history, 0);
  CHECK_INT(e.benches[0].have_history, 0);
  CHECK(isnan(e.benches[0].detectable_percent));
  CHECK(isnan(estimate_plan_seconds(&e, &p, p.reps)));
  char line[600];
  estimate_line(&e, &p, 0, line, sizeof line);
  CHECK(strcmp(line, "no history of builtin-st on this machine yet: `run --estimate` measures a "
                     "short pilot") == 0);
  CHECK_INT(estimate_basis(&e, 0, line, sizeof line), 0);

  /* History that must not count is still no history. */
  add_ignored_history(s);
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  CHECK_INT(e.any_history, 0);
  CHECK_INT(e.benches[0].have_history, 0);
  store_close(s);
}

static void history_gives_the_expected_numbers(void) {
  store *s = NULL;
  ts_err err;
  REQUIRE(store_open(&s, DB, &err) == TS_OK); /* with the ignored history of no_history */
  add_run(s, HOST, "0.5", "builtin-st", run_a, run_a_seconds, 4);
  add_run(s, HOST, "0.5", "builtin-st", run_b, run_b_seconds, 5);
  plan p;
  make_plan(&p, "0.5");
  estimate e;
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  const estimate_bench *b = &e.benches[0];
  REQUIRE(b->have_history);
  CHECK_INT(b->runs, 2);
  CHECK_INT(b->trials, 4 + 5);
  CHECK(strcmp(e.reference, "baseline") == 0);

  /* The spread: from the inputs here, and as SciPy's script computed it. */
  double a = cv_percent(run_a, 4), bb = cv_percent(run_b, 5);
  double pooled = sqrt((3 * a * a + 4 * bb * bb) / 7);
  CHECK(near(b->sd_percent, pooled, 1e-9));
  CHECK(near(pooled, REF_POOLED_SD, 1e-9));

  /* 5 blocks: (t(0.975, 8) + t(0.80, 8)) * sd * sqrt(2/5). */
  double expected = (REF_T975_DF8 + REF_T80_DF8) * pooled * sqrt(2.0 / 5);
  CHECK(near(b->detectable_percent, expected, 1e-6));
  CHECK(near(b->detectable_percent, REF_DETECTABLE_5, 1e-6));
  /* The same as stats gives for two groups of 5 with that spread. */
  CHECK(near(b->detectable_percent, stats_detectable_for_trials(5, pooled, pooled), 1e-12));

  /* --precision 1%: the first n whose 95 % CI half-width is at most 1 %. */
  CHECK(e.target_percent == 1.0);
  CHECK_INT(b->target_blocks, REF_BLOCKS_FOR_1);
  CHECK(near(b->target_detectable_percent, REF_DETECTABLE_29, 1e-6));

  /* The time: trials x (median measured seconds + settle); the median of the comparable baseline
     trials' seconds (warm-ups, loads and other runs left out) is 1.9 s. */
  CHECK(near(b->median_seconds, 1.9, 1e-12));
  CHECK(near(estimate_plan_seconds(&e, &p, 5), (1 + 2 * 5) * (1.9 + 2), 1e-9));
  CHECK(near(estimate_plan_seconds(&e, &p, 29), (1 + 2 * 29) * (1.9 + 2), 1e-9));
  CHECK(near(b->seconds, (1 + 2 * 5) * (1.9 + 2), 1e-9));

  char line[600], want[200];
  CHECK(estimate_line(&e, &p, 0, line, sizeof line) > 0);
  snprintf(want, sizeof want, "builtin-st: this plan can tell effects of \xc2\xb1%.1f %% or more",
           REF_DETECTABLE_5);
  CHECK_STR_CONTAINS(line, want);
  CHECK_STR_CONTAINS(line, "in about 43 seconds");
  CHECK_STR_CONTAINS(line, "; --precision 1% would need about 29 blocks, about 4 minutes");
  CHECK_STR_CONTAINS(line, "(then \xc2\xb1"
                           "1.4 % or more)");
  CHECK(estimate_basis(&e, 0, line, sizeof line) > 0);
  CHECK_STR_CONTAINS(line, "builtin-st: within-run spread 1.89 % of the baseline scores of 2 "
                           "earlier runs (9 trials) on host-a, median trial 1.9 s");

  /* Too few blocks for a verdict: said so, not a size. */
  CHECK_INT(plan_set(&p, "reps", "2", &err), TS_OK);
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  estimate_line(&e, &p, 0, line, sizeof line);
  CHECK_STR_CONTAINS(line, "builtin-st: 2 blocks cannot tell an effect (a verdict needs 3 trials "
                           "of each condition); --precision 1% would need about 29 blocks");
  CHECK_INT(plan_set(&p, "reps", "5", &err), TS_OK);

  /* Another host, or another work scale, has none of it. */
  CHECK_INT(estimate_plan(s, &p, "host-c", &e, &err), TS_OK);
  CHECK_INT(e.benches[0].have_history, 0);
  plan other;
  make_plan(&other, "0.25");
  CHECK_INT(estimate_plan(s, &other, HOST, &e, &err), TS_OK);
  CHECK_INT(e.benches[0].have_history, 0);

  /* A plan's own precision is the target, and a plan whose benchmark has no history cannot be
     timed as a whole: the line gives the benchmark's own trials' time. */
  CHECK_INT(plan_set(&p, "precision", "2%", &err), TS_OK);
  CHECK_INT(plan_set(&p, "bench", "builtin-st,builtin-mt:3", &err), TS_OK);
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  CHECK(e.target_percent == 2.0);
  CHECK_INT(e.all_timed, 0);
  CHECK_INT(e.benches[0].target_blocks, stats_trials_for_half_width(pooled, pooled, 2.0));
  estimate_line(&e, &p, 0, line, sizeof line);
  CHECK_STR_CONTAINS(line, "builtin-st: its first 5 blocks can tell effects of");
  CHECK_STR_CONTAINS(line, "for its builtin-st trials");
  CHECK_STR_CONTAINS(line, "--precision 2% would need about");
  estimate_line(&e, &p, 1, line, sizeof line);
  CHECK_STR_CONTAINS(line, "no history of builtin-mt:3 on this machine yet");
  store_close(s);
  remove_db(DB);
}

/* The reports' minutes for more blocks stand on the wall time of the blocks whose trials are all
   done: from the first trial's start to the last one's end; warm-ups, blocks with a failed or a
   pending trial are left out. */
typedef struct block_seen {
  int count, block;
  double seconds;
} block_seen;

static int see_block(void *ctx, int block, double seconds) {
  block_seen *b = ctx;
  b->count++;
  b->block = block;
  b->seconds = seconds;
  return 0;
}

static void block_times_count_done_blocks_only(void) {
  remove_db(DB);
  store *s = NULL;
  ts_err err;
  REQUIRE(store_open(&s, DB, &err) == TS_OK);
  store_run_info info = {"blocks", "",   1, "2026-01-01T00:00:00.000Z", HOST, "Linux", "cpu", 2,
                         "1.0",    NULL, 0};
  store_trial_plan trials[7] = {
      {1, 0, "baseline", "builtin-st", 0}, {2, 1, "baseline", "builtin-st", 0},
      {3, 1, SLOW, "builtin-st", 0},       {4, 2, "baseline", "builtin-st", 0},
      {5, 2, SLOW, "builtin-st", 0},       {6, 3, "baseline", "builtin-st", 0},
      {7, 3, SLOW, "builtin-st", 0}};
  int64_t run_id;
  REQUIRE(store_run_begin(s, &info, trials, 7, &run_id, &err) == TS_OK);
  /* start, end of each trial; trial 5 fails, trial 7 stays pending */
  static const char *times[7][2] = {{"2026-01-01T00:00:00.000Z", "2026-01-01T00:01:00.000Z"},
                                    {"2026-01-01T00:01:00.000Z", "2026-01-01T00:01:04.250Z"},
                                    {"2026-01-01T00:01:05.000Z", "2026-01-01T00:01:10.500Z"},
                                    {"2026-01-01T00:01:11.000Z", "2026-01-01T00:01:20.000Z"},
                                    {NULL, NULL},
                                    {"2026-01-01T00:01:30.000Z", "2026-01-01T00:01:40.000Z"},
                                    {NULL, NULL}};
  for (int i = 0; i < 6; i++) {
    if (i == 4) {
      CHECK_INT(store_trial_fail(s, trials[i].id, "2026-01-01T00:01:25.000Z", "boom", &err), TS_OK);
      continue;
    }
    store_trial_result result = {times[i][0], times[i][1], 100,  "Mwork/s", 1,    1,    100,
                                 900,         0,           NULL, NULL,      NULL, NULL, NULL};
    CHECK_INT(store_trial_finish(s, trials[i].id, &result, &err), TS_OK);
  }
  block_seen seen = {0, 0, 0};
  CHECK_INT(store_run_block_seconds(s, run_id, see_block, &seen, &err), TS_OK);
  CHECK_INT(seen.count, 1);
  CHECK_INT(seen.block, 1);
  CHECK(near(seen.seconds, 10.5, 1e-9));
  store_close(s);
  remove_db(DB);
}

static void durations_in_words(void) {
  char w[64];
  estimate_duration_words(1, w, sizeof w);
  CHECK(strcmp(w, "about 1 second") == 0);
  estimate_duration_words(42.9, w, sizeof w);
  CHECK(strcmp(w, "about 43 seconds") == 0);
  estimate_duration_words(9 * 60, w, sizeof w);
  CHECK(strcmp(w, "about 9 minutes") == 0);
  estimate_duration_words(2.5 * 3600, w, sizeof w);
  CHECK(strcmp(w, "about 2.5 hours") == 0);
  estimate_duration_words(30 * 3600, w, sizeof w);
  CHECK(strcmp(w, "about 30 hours") == 0);
  estimate_duration_words(5 * 86400, w, sizeof w);
  CHECK(strcmp(w, "about 5 days") == 0);
  estimate_duration_words(NAN, w, sizeof w);
  CHECK(strcmp(w, "an unknown time") == 0);
}

static void pilot_plan(void) {
  plan p, pilot;
  ts_err err;
  make_plan(&p, "0.5");
  CHECK_INT(plan_set(&p, "conditions", SLOW ",baseline", &err), TS_OK);
  CHECK_INT(plan_set(&p, "warmup", "3", &err), TS_OK);
  CHECK_INT(plan_set(&p, "precision", "1%", &err), TS_OK);
  estimate_pilot_plan(&p, &pilot);
  CHECK(strcmp(pilot.name, ESTIMATE_PILOT_PLAN) == 0);
  CHECK_INT(pilot.condition_count, 1);
  CHECK(strcmp(pilot.conditions[0].text, "baseline") == 0);
  CHECK_INT(pilot.reps, ESTIMATE_PILOT_BLOCKS);
  CHECK_INT(pilot.warmup, 1);
  CHECK(pilot.precision_pct == 0);
  CHECK(pilot.work_scale == 0.5);
  CHECK_INT(pilot.bench_count, 1);
  CHECK_INT(plan_check(&pilot, &err), TS_OK);
}

int main(void) {
  RUN_CASE(no_history);
  RUN_CASE(history_gives_the_expected_numbers);
  RUN_CASE(block_times_count_done_blocks_only);
  RUN_CASE(durations_in_words);
  RUN_CASE(pilot_plan);
  return check_summary();
}

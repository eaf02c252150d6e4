/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_estimate.c - the estimate of a plan before it runs, from history in a real database file:
   which trials count (this host, this work scale, done trials outside warm-ups, measured), the
   pooled spread of every load's paired log ratios with its range, the detectable effect and blocks
   against SciPy's numbers (estimate_reference.py), the time from the trials' real wall time, the
   lines it prints, the pilot's plan, and the block times the reports' minutes for more blocks
   stand on. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../service/src/experiment/estimate.h"
#include "../../service/src/stats/blocked.h"
#include "check.h"
#include "testdb.h"

#define DB "test_estimate.db"
#define HOST "host-a"
#define SLOW "sleep:10@500ms"
#define SLOWER "sleep:20@500ms"

/* From estimate_reference.py (SciPy 1.10.1, NumPy 1.24.2) for the comparable runs below. */
#define REF_RATIOS 17
#define REF_DF 13
#define REF_SD_LOG 0.0103843348128
#define REF_SD_LOG_LOW 0.00841176194554
#define REF_SD_LOG_HIGH 0.014109694979
#define REF_DETECTABLE_5 1.71155449817
#define REF_DETECTABLE_5_LOW 1.38870267536
#define REF_DETECTABLE_5_HIGH 2.31840538061
#define REF_TARGET_BLOCKS 14
#define REF_TARGET_DETECTABLE 0.837542332694
#define REF_TRIAL_SECONDS 7.2
#define REF_TRIAL_SECONDS_LOW 7.05
#define REF_TRIAL_SECONDS_HIGH 7.375

/* One earlier run's scores by block: the baseline's and up to two loads' (SLOW, SLOWER), the
   real wall time of each of its trials and its benchmark runs per trial (0: one, not kept). */
typedef struct history_run {
  int blocks, loads;
  double baseline[5], load[2][5];
  double wall_seconds;
  int runs_per_trial;
} history_run;

static const history_run run_a = {4,   1, {100.0, 103.0, 98.0, 101.0}, {{97.0, 101.0, 95.0, 99.0}},
                                  6.9, 0};
static const history_run run_b = {
    5,
    2,
    {200.0, 196.0, 205.0, 199.0, 203.0},
    {{194.0, 192.0, 196.0, 195.0, 199.0}, {190.0, 189.0, 193.0, 188.0, 197.0}},
    7.1,
    0};
static const history_run run_c = {3, 1, {50.0, 51.0, 49.5}, {{49.0, 50.2, 48.0}}, 7.3, 0};
static const history_run run_d = {3, 0, {80.0, 81.0, 79.0}, {{0}}, 7.6, 0}; /* baseline alone */
static const history_run wild = {3, 1, {10.0, 90.0, 50.0}, {{90.0, 10.0, 70.0}}, 30, 0};
/* Two runs of two benchmark runs per trial (3.6 s of benchmark in each trial), steadier. */
static const history_run twice_a = {4,   1, {100.0, 101.0, 99.0, 100.5}, {{98.0, 99.4, 97.3, 98.6}},
                                    8.9, 2};
static const history_run twice_b = {
    5,
    2,
    {200.0, 198.0, 201.0, 199.0, 202.0},
    {{196.0, 194.5, 197.5, 194.6, 198.2}, {192.0, 190.4, 193.6, 191.0, 194.3}},
    9.1,
    2};

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
  CHECK_INT(plan_set(p, "margin", "1%", &err), TS_OK);
  CHECK_INT(plan_set(p, "work-scale", work_scale, &err), TS_OK);
  CHECK_INT(plan_set(p, "iterations", "1", &err), TS_OK);
}

/* A UTC timestamp `seconds` after 2026-01-01T00:00:00. */
static void timestamp(double seconds, char *buf, size_t len) {
  int whole = (int)seconds;
  snprintf(buf, len, "2026-01-01T%02d:%02d:%06.3fZ", whole / 3600, whole / 60 % 60,
           seconds - whole + whole % 60);
}

/* One earlier run on `host` with a plan of `work_scale`: a warm-up (score 1000, 60 s), the blocks
   of r, each trial taking r->wall_seconds of real time but 1.8 s of benchmark per run (its
   iter.count kept when more than one), and a failed baseline trial at the end; all of `bench`. */
static void add_run(store *s, const char *host, const char *work_scale, const char *bench,
                    const history_run *r) {
  static const char *const conditions[] = {"baseline", SLOW, SLOWER};
  plan p;
  make_plan(&p, work_scale);
  ts_err err;
  CHECK_INT(plan_set(&p, "conditions",
                     r->loads == 2 ? "baseline," SLOW "," SLOWER
                                   : (r->loads == 1 ? "baseline," SLOW : "baseline"),
                     &err),
            TS_OK);
  for (int c = 0; c <= r->loads; c++)
    CHECK(strcmp(p.conditions[c].text, conditions[c]) == 0);
  char text[PLAN_FORMAT_MAX];
  plan_format(&p, text, sizeof text);
  store_run_info info = {"history", text, 1, "2026-01-01T00:00:00.000Z", host, "Linux", "cpu", 2,
                         "1.0",     NULL, 0};
  store_trial_plan trials[3 * 5 + 2];
  int count = 0;
  trials[count] = (store_trial_plan){count + 1, 0, "baseline", bench, 0}, count++;
  for (int b = 0; b < r->blocks; b++)
    for (int c = 0; c <= r->loads; c++)
      trials[count] = (store_trial_plan){count + 1, b + 1, conditions[c], bench, 0}, count++;
  trials[count] = (store_trial_plan){count + 1, r->blocks + 1, "baseline", bench, 0}, count++;
  int64_t run_id;
  CHECK_INT(store_run_begin(s, &info, trials, count, &run_id, &err), TS_OK);
  double at = 0;
  for (int k = 0; k < count; k++) {
    char started[32], finished[32];
    if (k == count - 1) {
      timestamp(at + 1, finished, sizeof finished);
      CHECK_INT(store_trial_fail(s, trials[k].id, finished, "boom", &err), TS_OK);
      continue;
    }
    int block = trials[k].block, c = 0;
    while (strcmp(trials[k].condition, conditions[c]) != 0)
      c++;
    double score =
        block == 0 ? 1000 : (c == 0 ? r->baseline[block - 1] : r->load[c - 1][block - 1]);
    double wall = block == 0 ? 60 : r->wall_seconds;
    int runs = block > 0 && r->runs_per_trial > 1 ? r->runs_per_trial : 1;
    timestamp(at, started, sizeof started);
    timestamp(at + wall, finished, sizeof finished);
    at += wall;
    store_metric runs_kept = {"iter.count", runs};
    store_trial_result result = {started, finished, score,      "Mwork/s", 1.8 * runs, 1,    100,
                                 900,     runs > 1, &runs_kept, NULL,      NULL,       NULL, NULL};
    CHECK_INT(store_trial_finish(s, trials[k].id, &result, &err), TS_OK);
  }
  CHECK_INT(store_run_end(s, run_id, STORE_RUN_FINISHED, NULL, "2026-01-01T01:00:00.000Z", &err),
            TS_OK);
}

/* A run's facts on HOST with make_plan's plan at work scale 0.5 (its text into `text`, room for
   PLAN_FORMAT_MAX): `name` and `seed` as the store keeps them. */
static store_run_info run_on_host(const char *name, uint64_t seed, char *text) {
  plan p;
  make_plan(&p, "0.5");
  plan_format(&p, text, PLAN_FORMAT_MAX);
  return (store_run_info){name,  text, seed, "2026-01-01T00:00:00.000Z", HOST, "Linux", "cpu", 2,
                          "1.0", NULL, 0};
}

/* What must not count: another host, another work scale, another benchmark, and scores typed in
   by hand (on this host, with this work scale). */
static void add_ignored_history(store *s) {
  add_run(s, "host-b", "0.5", "builtin-st", &wild);
  add_run(s, HOST, "1", "builtin-st", &wild);
  add_run(s, HOST, "0.5", "builtin-mt", &wild);
  char text[PLAN_FORMAT_MAX];
  store_run_info info = run_on_host("manual", 0, text);
  int64_t run_id, trial_id;
  ts_err err;
  CHECK_INT(store_run_create_manual(s, &info, &run_id, &err), TS_OK);
  for (int i = 0; i < 3; i++) {
    CHECK_INT(store_trial_record(s, run_id, "baseline", "builtin-st", wild.baseline[i], "Mwork/s",
                                 "2026-01-01T00:00:00.000Z", &trial_id, &err),
              TS_OK);
    CHECK_INT(store_trial_record(s, run_id, SLOW, "builtin-st", wild.load[0][i], "Mwork/s",
                                 "2026-01-01T00:00:00.000Z", &trial_id, &err),
              TS_OK);
  }
}

/* The pooled spread computed here, apart from estimate.c: every load's log ratios to its run's
   baseline, block by block, their variances pooled by degrees of freedom. */
static double pooled_sd_log(const history_run *const *runs, int n) {
  double df = 0, ss = 0;
  for (int i = 0; i < n; i++)
    for (int c = 0; c < runs[i]->loads; c++) {
      double mean = 0, d[5];
      int k = runs[i]->blocks;
      for (int b = 0; b < k; b++) {
        d[b] = log(runs[i]->load[c][b] / runs[i]->baseline[b]);
        mean += d[b] / k;
      }
      for (int b = 0; b < k; b++)
        ss += (d[b] - mean) * (d[b] - mean);
      df += k - 1;
    }
  return sqrt(ss / df);
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
  CHECK(isnan(e.benches[0].detectable_percent[ESTIMATE_MID]));
  CHECK(isnan(estimate_plan_seconds(&e, &p, p.reps, ESTIMATE_MID)));
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
  CHECK_INT(e.benches[0].timed_runs, 0);

  /* A run of the baseline alone gives a trial time but no paired spread. */
  add_run(s, HOST, "0.5", "builtin-st", &run_d);
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  CHECK_INT(e.benches[0].have_history, 0);
  CHECK_INT(e.benches[0].timed_runs, 1);
  CHECK(near(e.benches[0].trial_seconds[ESTIMATE_MID], 7.6, 1e-9));
  store_close(s);
}

static void history_gives_the_expected_numbers(void) {
  store *s = NULL;
  ts_err err;
  REQUIRE(store_open(&s, DB, &err) == TS_OK); /* with the history of no_history */
  add_run(s, HOST, "0.5", "builtin-st", &run_a);
  add_run(s, HOST, "0.5", "builtin-st", &run_b);
  add_run(s, HOST, "0.5", "builtin-st", &run_c);
  plan p;
  make_plan(&p, "0.5");
  estimate e;
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  const estimate_bench *b = &e.benches[0];
  REQUIRE(b->have_history);
  CHECK_INT(b->runs, 3);
  CHECK_INT(b->ratios, REF_RATIOS);
  CHECK(b->df == REF_DF);
  CHECK_INT(b->timed_runs, 4);

  /* The spread of every load's log ratios (both of run b's), from the inputs here and as SciPy's
     script computed it, and its 80 % interval. */
  const history_run *const paired[] = {&run_a, &run_b, &run_c};
  CHECK(near(b->sd_log[ESTIMATE_MID], pooled_sd_log(paired, 3), 1e-12));
  CHECK(near(b->sd_log[ESTIMATE_MID], REF_SD_LOG, 1e-11));
  CHECK(near(b->sd_log[ESTIMATE_LOW], REF_SD_LOG_LOW, 1e-9));
  CHECK(near(b->sd_log[ESTIMATE_HIGH], REF_SD_LOG_HIGH, 1e-9));

  /* 5 blocks: (t(0.975, 4) + t(0.80, 4)) sd / sqrt(5), at each end of the sd's range. */
  CHECK(near(b->detectable_percent[ESTIMATE_MID], REF_DETECTABLE_5, 1e-8));
  CHECK(near(b->detectable_percent[ESTIMATE_LOW], REF_DETECTABLE_5_LOW, 1e-6));
  CHECK(near(b->detectable_percent[ESTIMATE_HIGH], REF_DETECTABLE_5_HIGH, 1e-6));

  /* The default target, 0.62 x the 1 % margin: the first n whose 95 % half-width meets it. */
  CHECK(near(e.target_percent, 0.62, 1e-12));
  CHECK_INT(b->target_blocks, REF_TARGET_BLOCKS);
  CHECK(near(b->target_detectable_percent, REF_TARGET_DETECTABLE, 1e-8));

  /* The time: the runs' real wall time per trial (warm-ups and failed trials left out), median
     and quartiles over runs. Their benchmarks took 1.8 s and the settle is 2 s: the old estimate,
     trials x (benchmark seconds + settle), said 11 x 3.8 = 41.8 s for a plan that takes 79 s. */
  CHECK(near(b->trial_seconds[ESTIMATE_MID], REF_TRIAL_SECONDS, 1e-9));
  CHECK(near(b->trial_seconds[ESTIMATE_LOW], REF_TRIAL_SECONDS_LOW, 1e-9));
  CHECK(near(b->trial_seconds[ESTIMATE_HIGH], REF_TRIAL_SECONDS_HIGH, 1e-9));
  double real = 11 * REF_TRIAL_SECONDS;
  CHECK(near(estimate_plan_seconds(&e, &p, 5, ESTIMATE_MID), real, 1e-9));
  CHECK(estimate_plan_seconds(&e, &p, 5, ESTIMATE_LOW) <= 79);
  CHECK(estimate_plan_seconds(&e, &p, 5, ESTIMATE_HIGH) >= 79);
  CHECK(!(estimate_plan_seconds(&e, &p, 5, ESTIMATE_LOW) <= 41.8));
  CHECK(near(b->seconds[ESTIMATE_HIGH], 11 * REF_TRIAL_SECONDS_HIGH, 1e-9));
  CHECK(near(estimate_plan_seconds(&e, &p, 14, ESTIMATE_MID), (1 + 2 * 14) * REF_TRIAL_SECONDS,
             1e-9));

  char line[600], want[200];
  CHECK(estimate_line(&e, &p, 0, line, sizeof line) > 0);
  snprintf(want, sizeof want,
           "builtin-st: this plan can tell effects of \xc2\xb1%.1f %% (%.1f to %.1f %%) or more "
           "in about 79 seconds (78 to 81 seconds)",
           REF_DETECTABLE_5, REF_DETECTABLE_5_LOW, REF_DETECTABLE_5_HIGH);
  CHECK_STR_CONTAINS(line, want);
  CHECK_STR_CONTAINS(
      line, "; --precision 0.62% would need about 14 blocks, about 3 minutes (3 to 4 minutes)");
  CHECK_STR_CONTAINS(line, "(then \xc2\xb1"
                           "0.84 % or more)");
  CHECK(estimate_basis(&e, 0, line, sizeof line) > 0);
  CHECK_STR_CONTAINS(line, "builtin-st, 1 benchmark run per trial: paired spread 1.04 % (80 % CI "
                           "0.841 to 1.41 %) from 17 log ratios to the reference of 3 earlier runs "
                           "on host-a, trial 7.2 s (7 to 7.4 s) from 4 runs");

  /* A plan with a longer settle: each trial takes that much longer. */
  CHECK_INT(plan_set(&p, "settle", "3s", &err), TS_OK);
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  CHECK(near(e.benches[0].trial_seconds[ESTIMATE_MID], REF_TRIAL_SECONDS + 1, 1e-9));
  CHECK_INT(plan_set(&p, "settle", "2s", &err), TS_OK);

  /* Too few blocks for a verdict: said so, not a size. */
  CHECK_INT(plan_set(&p, "reps", "2", &err), TS_OK);
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  estimate_line(&e, &p, 0, line, sizeof line);
  CHECK_STR_CONTAINS(line, "builtin-st: 2 blocks cannot tell an effect (a verdict needs 3 "
                           "complete blocks); --precision 0.62% would need about 14 blocks");
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
  CHECK_INT(e.benches[0].target_blocks, blocked_blocks_for_half_width(REF_SD_LOG, 2.0, 0.95));
  estimate_line(&e, &p, 0, line, sizeof line);
  CHECK_STR_CONTAINS(line, "builtin-st: its first 5 blocks can tell effects of");
  CHECK_STR_CONTAINS(line, "for its builtin-st trials");
  CHECK_STR_CONTAINS(line, "--precision 2% is reached within them");
  estimate_line(&e, &p, 1, line, sizeof line);
  CHECK_STR_CONTAINS(line, "no history of builtin-mt:3 on this machine yet");
  store_close(s);
  remove_db(DB);
}

/* Earlier runs of another count of benchmark runs per trial neither narrow nor lengthen the
   estimate: the spread is that of the plan's count where it has 8 degrees of freedom (else every
   count's, said so), and each run's trial time is its time around the benchmark plus the plan's
   runs of its length; iterations = auto is estimated at the count the run would choose. */
static void each_count_has_its_own_spread_and_time(void) {
  remove_db(DB);
  store *s = NULL;
  ts_err err;
  REQUIRE(store_open(&s, DB, &err) == TS_OK);
  const history_run *const once[] = {&run_a, &run_b, &run_c};
  const history_run *const twice[] = {&twice_a, &twice_b};
  const history_run *const all[] = {&run_a, &run_b, &run_c, &twice_a, &twice_b};
  for (int i = 0; i < 5; i++)
    add_run(s, HOST, "0.5", "builtin-st", all[i]);
  plan p;
  make_plan(&p, "0.5");
  estimate e;
  const estimate_bench *b = &e.benches[0];
  /* One run per trial: runs a-c's spread. Around the benchmark the runs spent 5.1, 5.3, 5.5 s
     (one run each) and 5.3, 5.5 s (two): with one run of 1.8 s, 6.9 7.1 7.1 7.3 7.3 s. */
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  CHECK_INT(e.runs_per_trial, 1);
  CHECK_INT(b->spread_of_count, 1);
  CHECK_INT(b->runs, 3);
  CHECK(near(b->sd_log[ESTIMATE_MID], pooled_sd_log(once, 3), 1e-12));
  CHECK(near(b->trial_seconds[ESTIMATE_MID], 7.1, 1e-9));
  CHECK(near(b->trial_seconds[ESTIMATE_LOW], 7.1, 1e-9));
  CHECK(near(b->trial_seconds[ESTIMATE_HIGH], 7.3, 1e-9));
  /* Two: the twins' spread (3 + 8 degrees of freedom), and 8.7 8.9 8.9 9.1 9.1 s. */
  CHECK_INT(plan_set(&p, "iterations", "2", &err), TS_OK);
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  CHECK_INT(e.runs_per_trial, 2);
  CHECK_INT(b->spread_of_count, 1);
  CHECK_INT(b->runs, 2);
  CHECK_INT(b->ratios, 4 + 10);
  CHECK(b->df == 11);
  CHECK(near(b->sd_log[ESTIMATE_MID], pooled_sd_log(twice, 2), 1e-12));
  CHECK(pooled_sd_log(twice, 2) < pooled_sd_log(once, 3) / 2);
  CHECK(near(b->trial_seconds[ESTIMATE_MID], 8.9, 1e-9));
  char line[600];
  CHECK(estimate_basis(&e, 0, line, sizeof line) > 0);
  CHECK_STR_CONTAINS(line, "builtin-st, 2 benchmark runs per trial: paired spread ");
  CHECK_STR_CONTAINS(line, " from 14 log ratios to the reference of 2 earlier runs on host-a, "
                           "trial 8.9 s");
  /* Three, which no run ran: every count's spread, said so, and 10.5 to 10.9 s. */
  CHECK_INT(plan_set(&p, "iterations", "3", &err), TS_OK);
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  CHECK_INT(b->spread_of_count, 0);
  CHECK_INT(b->runs, 5);
  CHECK(near(b->sd_log[ESTIMATE_MID], pooled_sd_log(all, 5), 1e-12));
  CHECK(near(b->trial_seconds[ESTIMATE_MID], 10.7, 1e-9));
  CHECK(estimate_basis(&e, 0, line, sizeof line) > 0);
  CHECK_STR_CONTAINS(line, "on host-a (of every count: too few ran 3 per trial), trial 11 s");
  /* auto, 5 blocks: the count of the least variance per unit of time, V_k (o + k b), o the runs'
     mean time around the benchmark (5.34 s) and b 1.8 s, as the run chooses. */
  CHECK_INT(plan_set(&p, "iterations", "auto", &err), TS_OK);
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  double v1 = pow(pooled_sd_log(once, 3), 2), v2 = pow(pooled_sd_log(twice, 2), 2);
  int best = v2 * (5.34 + 2 * 1.8) < v1 * (5.34 + 1.8) ? 2 : 1;
  CHECK_INT(best, 2);
  CHECK_INT(e.runs_per_trial, best);
  CHECK(near(b->trial_seconds[ESTIMATE_MID], 8.9, 1e-9));
  /* A run whose trials lie in a block no run writes (a database is input too) adds nothing, and
     costs no table of its size: before, this history took 5.5 minutes and 15 GB. */
  char text[PLAN_FORMAT_MAX];
  store_run_info info = run_on_host("history", 1, text);
  /* Two far blocks whose ratios (-10 %, -30 %) would count as a fourth run if they were read. */
  store_trial_plan trials[4] = {{1, 1999999999, "baseline", "builtin-st", 0},
                                {2, 1999999999, SLOW, "builtin-st", 0},
                                {3, 2000000000, "baseline", "builtin-st", 0},
                                {4, 2000000000, SLOW, "builtin-st", 0}};
  int64_t far_id;
  CHECK_INT(store_run_begin(s, &info, trials, 4, &far_id, &err), TS_OK);
  for (int i = 0; i < 4; i++) {
    store_trial_result result = {"2026-01-01T00:00:00.000Z",
                                 "2026-01-01T00:00:07.000Z",
                                 i % 2 ? 100 - 10 * i : 100,
                                 "Mwork/s",
                                 1.8,
                                 1,
                                 100,
                                 900,
                                 0,
                                 NULL,
                                 NULL,
                                 NULL,
                                 NULL,
                                 NULL};
    CHECK_INT(store_trial_finish(s, trials[i].id, &result, &err), TS_OK);
  }
  CHECK_INT(plan_set(&p, "iterations", "1", &err), TS_OK);
  CHECK_INT(estimate_plan(s, &p, HOST, &e, &err), TS_OK);
  CHECK_INT(b->runs, 3);
  CHECK(near(b->sd_log[ESTIMATE_MID], pooled_sd_log(once, 3), 1e-12));
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
  /* A range in the middle's unit, left out when its ends read the same. */
  const double range[ESTIMATE_RANGE] = {77.55, 79.2, 81.125};
  estimate_range_words(range, w, sizeof w);
  CHECK(strcmp(w, "about 79 seconds (78 to 81 seconds)") == 0);
  const double narrow[ESTIMATE_RANGE] = {9 * 60 - 10, 9 * 60, 9 * 60 + 10};
  estimate_range_words(narrow, w, sizeof w);
  CHECK(strcmp(w, "about 9 minutes") == 0);
  const double hours[ESTIMATE_RANGE] = {2 * 3600, 2.5 * 3600, 3.25 * 3600};
  estimate_range_words(hours, w, sizeof w);
  CHECK(strcmp(w, "about 2.5 hours (2.0 to 3.2 hours)") == 0);
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
  CHECK_INT(pilot.condition_count, 2);
  CHECK(strcmp(pilot.conditions[0].text, "baseline") == 0);
  CHECK(strcmp(pilot.conditions[1].text, SLOW) == 0);
  CHECK_INT(pilot.reps, ESTIMATE_PILOT_BLOCKS);
  CHECK_INT(pilot.warmup, 1);
  CHECK(pilot.precision_pct == 0);
  CHECK(pilot.work_scale == 0.5);
  CHECK_INT(pilot.bench_count, 1);
  CHECK_INT(plan_check(&pilot, &err), TS_OK);
  /* A plan of the baseline alone: its pilot is that. */
  CHECK_INT(plan_set(&p, "conditions", "baseline", &err), TS_OK);
  estimate_pilot_plan(&p, &pilot);
  CHECK_INT(pilot.condition_count, 1);
}

int main(void) {
  RUN_CASE(no_history);
  RUN_CASE(history_gives_the_expected_numbers);
  RUN_CASE(each_count_has_its_own_spread_and_time);
  RUN_CASE(block_times_count_done_blocks_only);
  RUN_CASE(durations_in_words);
  RUN_CASE(pilot_plan);
  return check_summary();
}

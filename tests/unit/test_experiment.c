/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_experiment.c - where a trial's time goes: the quiet gate watched during the settle, the
   benchmark's iterations per trial (fixed, auto, kept on resume), blocks added to fill a time
   (reps = 12s, across a resume), the previous load torn down
   while the next one settles (the census counts only the new one), the gate giving way to
   recording on a busy machine, the time.* metrics every trial records, a trial that spans a
   suspend measured again, with the machine kept awake for the run, and a trial the OS refused
   measured once more. */
#include <math.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "experiment/experiment.h"
#include "plan/plan.h"
#include "store/store.h"
#include "testdb.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_knobs.h"

#define MAX_TRIALS 64

typedef struct trial_facts {
  int64_t id;
  int seq, block;
  char condition[128];
  double score;
  long process_threads;
  char warnings[512];
  double settle_s, probe_ms, gate_s, trial_s, bench_s, iter_count, outside, switches_per_s;
  double iter[8];
  int iter_seen;
} trial_facts;

typedef struct run_facts {
  trial_facts t[MAX_TRIALS];
  int count;
  char notes[4096];
} run_facts;

static int add_row(void *ctx, const store_trial_row *row) {
  run_facts *f = ctx;
  if (f->count == MAX_TRIALS)
    return 1;
  trial_facts *t = &f->t[f->count++];
  memset(t, 0, sizeof *t);
  t->id = row->id;
  t->seq = row->seq;
  t->block = row->block;
  snprintf(t->condition, sizeof t->condition, "%s", row->condition);
  t->score = row->score;
  t->process_threads = row->process_threads;
  snprintf(t->warnings, sizeof t->warnings, "%s", row->warnings);
  t->settle_s = t->probe_ms = t->gate_s = t->trial_s = t->bench_s = t->iter_count = t->outside =
      t->switches_per_s = NAN;
  return 0;
}

static int add_metric(void *ctx, int64_t trial_id, const char *name, double value) {
  run_facts *f = ctx;
  for (int i = 0; i < f->count; i++) {
    trial_facts *t = &f->t[i];
    if (t->id != trial_id)
      continue;
    int n;
    if (strcmp(name, "time.settle_s") == 0)
      t->settle_s = value;
    else if (strcmp(name, "timer.probe_ms") == 0)
      t->probe_ms = value;
    else if (strcmp(name, "gate.wait_s") == 0)
      t->gate_s = value;
    else if (strcmp(name, "time.trial_s") == 0)
      t->trial_s = value;
    else if (strcmp(name, "time.bench_s") == 0)
      t->bench_s = value;
    else if (strcmp(name, "iter.count") == 0)
      t->iter_count = value;
    else if (strcmp(name, "outside.cpu_percent") == 0)
      t->outside = value;
    else if (strcmp(name, "load.switches_per_s") == 0)
      t->switches_per_s = value;
    else if (sscanf(name, "iter.%d", &n) == 1 && n >= 1 && n <= 8) {
      t->iter[n - 1] = value;
      t->iter_seen++;
    }
  }
  return 0;
}

static void on_note(void *ctx, const char *text) {
  run_facts *f = ctx;
  size_t used = strlen(f->notes);
  snprintf(f->notes + used, sizeof f->notes - used, "%s\n", text);
}

static void read_facts(store *s, int64_t run_id, run_facts *f) {
  ts_err err;
  f->count = 0;
  CHECK_INT(store_run_trials(s, run_id, add_row, f, &err), TS_OK);
  CHECK_INT(store_run_metrics(s, run_id, add_metric, f, &err), TS_OK);
}

/* Runs `text` (a plan) into the open store with `seed`; its notes and trials into *f. */
static int run_more(store *s, const char *text, int64_t seed, int64_t *run_id, run_facts *f) {
  ts_err err;
  plan p;
  memset(f, 0, sizeof *f);
  if (plan_parse(text, "test", &p, &err) != TS_OK) {
    fprintf(stderr, "  setup: %s\n", err.text);
    return TS_EINVAL;
  }
  experiment_observer o = {NULL, NULL, on_note, f, NULL};
  int rc = experiment_run(s, &p, seed, &o, NULL, run_id, &err);
  if (rc != TS_OK)
    fprintf(stderr, "  run: %s\n", err.text);
  else
    read_facts(s, *run_id, f);
  return rc;
}

/* Runs `text` (a plan) into a new database at `path`; the store stays open in *out. */
static int run_plan(const char *path, const char *text, store **out, int64_t *run_id,
                    run_facts *f) {
  ts_err err;
  remove_db(path);
  memset(f, 0, sizeof *f);
  if (store_open(out, path, &err) != TS_OK) {
    fprintf(stderr, "  setup: %s\n", err.text);
    return TS_EINVAL;
  }
  return run_more(*out, text, 11, run_id, f);
}

/* Runs `text` (a plan) with seed 11 into a new database at `path`, `trial_done` told of each
   trial; the run's notes and, whether it ended well or not, its stored trials into *f. */
static int run_observed(const char *path, const char *text,
                        void (*trial_done)(void *ctx, const experiment_progress *progress),
                        run_facts *f, ts_err *err) {
  store *s = NULL;
  plan p;
  remove_db(path);
  memset(f, 0, sizeof *f);
  if (store_open(&s, path, err) != TS_OK || plan_parse(text, "test", &p, err) != TS_OK) {
    fprintf(stderr, "  setup: %s\n", err->text);
    store_close(s);
    return TS_EINVAL;
  }
  experiment_observer o = {NULL, trial_done, on_note, f, NULL};
  int64_t run_id = 0;
  int rc = experiment_run(s, &p, 11, &o, NULL, &run_id, err);
  read_facts(s, run_id, f); /* the trials; the notes stay */
  store_close(s);
  return rc;
}

/* The gate's second of quiet lies within a longer settle: a trial waits the settle, not the settle
   and then a second (a timeout of 0 ends a busy gate at once). A settle shorter than a second
   waits its own length of quiet, at least 0.5 s. The machine is made as quiet as the question
   needs (machine-busy-permille): a real one whose other work fills both CPUs reads as 100 % busy
   and keeps the gate waiting. Made 100 % busy, the gate waits its timeout and says why. Each case
   is judged on the shortest of up to three tries: a process starved beside a busy suite wakes late
   (under Wine there, 1.6 s late once), which only ever adds time. */
static void gate_is_watched_during_the_settle(void) {
  static const struct {
    const char *settle;
    const char *timeout;
    long busy_permille;
    double least, most;  /* the wait's bounds */
    double gate_most;    /* past the settle: a settle of 1.5 s holds the gate's whole second */
    const char *warning; /* NULL: none about the gate; "": not judged (a timeout of 0 may end a
                            gate whose window the timer probe cut short: 0.7 s under Wine) */
  } cases[] = {{"1500ms", "0s", 0, 1.45, 1.7, 0.15, ""},
               {"200ms", "1s", 0, 0.49, 0.9, 0.9, NULL},
               {"700ms", "1s", 0, 0.69, 0.95, 0.95, NULL},
               {"200ms", "1s", 1000, 1.19, 1.8, 1.8, "quiet gate timed out after 1 s"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char text[256];
    snprintf(text, sizeof text,
             "conditions = baseline\nbench = builtin-st\nreps = 1\nwarmup = 0\nsettle = %s\n"
             "quiet-cpu = 95%%\nquiet-timeout = %s\nwork-scale = 0.02\niterations = 1\n",
             cases[k].settle, cases[k].timeout);
    double shortest = INFINITY, shortest_gate = INFINITY;
    char warnings[256] = "";
    for (int attempt = 0; attempt < 3 && !(shortest < cases[k].most); attempt++) {
      store *s = NULL;
      int64_t run_id;
      static run_facts f;
      plat_knob_set_number(PLAT_KNOB_MACHINE_BUSY_PERMILLE, cases[k].busy_permille);
      int rc = run_plan("experiment_gate.db", text, &s, &run_id, &f);
      plat_knob_reset(PLAT_KNOB_MACHINE_BUSY_PERMILLE);
      REQUIRE(rc == TS_OK);
      CHECK_INT(f.count, 1);
      /* The timer probe's time is part of the settle (0.02 s natively, up to 0.2 s under Wine). */
      double waited = f.t[0].settle_s + f.t[0].probe_ms / 1000;
      fprintf(stderr, "  settle %s, machine %ld %% busy: waited %.3f s, gate %.3f s%s%s\n",
              cases[k].settle, cases[k].busy_permille / 10, waited, f.t[0].gate_s,
              f.t[0].warnings[0] ? "; " : "", f.t[0].warnings);
      CHECK(f.t[0].trial_s >= f.t[0].settle_s + f.t[0].bench_s);
      if (waited < shortest) {
        shortest = waited;
        shortest_gate = f.t[0].gate_s;
        snprintf(warnings, sizeof warnings, "%s", f.t[0].warnings);
      }
      store_close(s);
    }
    CHECK(shortest >= cases[k].least && shortest < cases[k].most);
    CHECK(shortest_gate < cases[k].gate_most);
    if (!cases[k].warning)
      CHECK(strstr(warnings, "quiet gate") == NULL);
    else if (cases[k].warning[0])
      CHECK_STR_CONTAINS(warnings, cases[k].warning);
  }
}

static void stop_after_two(void *ctx, const experiment_progress *progress);

/* What the notes of a run whose reps is a time say: each block added, and the end. */
typedef struct fill_notes {
  int added;          /* "adding block" notes */
  double latest_end;  /* the latest end an added block was expected at */
  long blocks;        /* from the last note */
  double spent, next; /* from the last note: the time spent, and where another would end */
} fill_notes;

static void read_fill_notes(const char *notes, const char *fill, fill_notes *out) {
  memset(out, 0, sizeof *out);
  char prefix[32];
  snprintf(prefix, sizeof prefix, "reps = %s: ", fill);
  for (const char *at = strstr(notes, prefix); at; at = strstr(at + 1, prefix)) {
    long blocks, next_block;
    double spent, end;
    const char *text = at + strlen(prefix);
    if (sscanf(text, "%ld blocks in %lf s; adding block %ld (ends at about %lf s)", &blocks, &spent,
               &next_block, &end) == 4) {
      out->added++;
      if (end > out->latest_end)
        out->latest_end = end;
      CHECK_INT(next_block, blocks + 1);
    } else if (sscanf(text, "%ld blocks in %lf s; another would end at about %lf s", &out->blocks,
                      &out->spent, &out->next) != 3) {
      CHECK(!"a note of the fill that does not read");
    }
  }
}

/* reps = 12s: at least 5 blocks, then one more while the next is expected to end within 12 s of
   the run's trials; the last note says where another would have ended (past 12 s). Resumed, the
   run counts its earlier sitting's trials in the time. */
static void a_time_for_reps_fills_it(void) {
  static const char *const text =
      "conditions = baseline, baseline-b\nbench = builtin-st\nreps = 12s\nwarmup = 0\n"
      "settle = 300ms\nwork-scale = 0.02\niterations = 1\n";
  store *s = NULL;
  int64_t run_id;
  static run_facts f;
  REQUIRE(run_plan("experiment_fill.db", text, &s, &run_id, &f) == TS_OK);
  fill_notes n;
  read_fill_notes(f.notes, "12s", &n);
  double trial_time = 0;
  for (int i = 0; i < f.count; i++)
    trial_time += f.t[i].trial_s;
  fprintf(stderr,
          "  %d trials, %.1f s of trials; %d added, last expected end %.1f s; %ld blocks "
          "in %.1f s, another would end at %.1f s\n",
          f.count, trial_time, n.added, n.latest_end, n.blocks, n.spent, n.next);
  CHECK(n.blocks >= 5 && n.blocks == f.count / 2 && f.count % 2 == 0);
  CHECK_INT(n.added, (int)n.blocks - 5);
  /* The notes print tenths of a second: an end decided past 12 s may read "12.0". */
  CHECK(n.latest_end <= 12.0);
  CHECK(n.next >= 11.95);
  CHECK(n.spent + 0.5 >= trial_time);
  store_close(s);

  /* Stopped after two trials and resumed: the time counts both sittings' trials. */
  const char *path = "experiment_fill_resume.db";
  ts_err err;
  plan p;
  remove_db(path);
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  REQUIRE(plan_parse(text, "test", &p, &err) == TS_OK);
  plat_cancel *cancel;
  REQUIRE(plat_cancel_create(&cancel, &err) == TS_OK);
  experiment_observer o = {NULL, stop_after_two, NULL, cancel, NULL};
  CHECK_INT(experiment_run(s, &p, 5, &o, cancel, &run_id, &err), TS_EINTERRUPTED);
  plat_cancel_destroy(cancel);
  memset(&f, 0, sizeof f);
  experiment_observer notes = {NULL, NULL, on_note, &f, NULL};
  CHECK_INT(experiment_resume(s, run_id, &notes, NULL, &p, &err), TS_OK);
  read_fill_notes(f.notes, "12s", &n);
  read_facts(s, run_id, &f);
  trial_time = 0;
  for (int i = 0; i < f.count; i++)
    trial_time += f.t[i].trial_s;
  fprintf(stderr, "  resumed: %d trials, %.1f s of trials; %ld blocks in %.1f s\n", f.count,
          trial_time, n.blocks, n.spent);
  CHECK(n.blocks >= 5 && n.blocks == f.count / 2);
  CHECK(n.spent + 0.5 >= trial_time);
  CHECK(n.next >= 11.95);
  store_close(s);
}

/* iterations = 3: each trial's score is the mean of its three runs, each stored; 1: one run, as
   before; auto: chosen once from the warm-up, said once, the same for every trial. */
static void iterations_make_a_trial(void) {
  store *s = NULL;
  int64_t run_id;
  static run_facts f;
  REQUIRE(run_plan("experiment_iter.db",
                   "conditions = baseline, baseline-b\nbench = builtin-st\nreps = 2\nwarmup = 0\n"
                   "settle = 0s\nwork-scale = 0.02\niterations = 3\n",
                   &s, &run_id, &f) == TS_OK);
  CHECK_INT(f.count, 4);
  for (int i = 0; i < f.count; i++) {
    CHECK(f.t[i].iter_count == 3);
    CHECK_INT(f.t[i].iter_seen, 3);
    CHECK_REL(f.t[i].score, (f.t[i].iter[0] + f.t[i].iter[1] + f.t[i].iter[2]) / 3, 1e-9);
  }
  store_close(s);

  REQUIRE(run_plan("experiment_iter.db",
                   "conditions = baseline\nbench = builtin-st\nreps = 2\nwarmup = 0\n"
                   "settle = 0s\nwork-scale = 0.02\niterations = 1\n",
                   &s, &run_id, &f) == TS_OK);
  for (int i = 0; i < f.count; i++) {
    CHECK(f.t[i].iter_count == 1);
    CHECK_INT(f.t[i].iter_seen, 0);
  }
  CHECK(strstr(f.notes, "iterations:") == NULL);
  store_close(s);

  REQUIRE(run_plan("experiment_iter.db",
                   "conditions = baseline, sleep:200@100ms\nbench = builtin-st\nreps = 2\n"
                   "warmup = 1\nsettle = 300ms\nwork-scale = 0.02\n",
                   &s, &run_id, &f) == TS_OK);
  fprintf(stderr, "  auto: %s", f.notes);
  const char *said = strstr(f.notes, "iterations: ");
  CHECK(said != NULL);
  CHECK(said && strstr(said + 1, "iterations: ") == NULL);
  double k = NAN;
  for (int i = 0; i < f.count; i++) {
    if (f.t[i].block == 0) {
      CHECK(f.t[i].iter_count == 1); /* the warm-up measures what auto chooses from */
      continue;
    }
    if (isnan(k))
      k = f.t[i].iter_count;
    CHECK(f.t[i].iter_count == k);
  }
  CHECK(k >= 1 && k <= 8);
  store_close(s);
}

/* The block trials' runs per trial, the same in every one; 0 when they differ or there are none. */
static int block_iterations(const run_facts *f) {
  int k = 0;
  for (int i = 0; i < f->count; i++) {
    if (f->t[i].block == 0)
      continue;
    if (k && f->t[i].iter_count != k)
      return 0;
    k = (int)f->t[i].iter_count;
  }
  return k;
}

/* History for iterations = auto, nine blocks of `iterations` runs per trial (8 degrees of freedom
   of paired log ratios), then a run of `auto_plan` whose notes and trials go into *f. */
static int auto_after_history(store *s, const char *auto_plan, int iterations, int64_t seed,
                              run_facts *f) {
  char text[256];
  int64_t run_id;
  snprintf(text, sizeof text,
           "conditions = baseline, baseline-b\nbench = builtin-st\nreps = 9\nwarmup = 0\n"
           "settle = 0s\nwork-scale = 0.02\niterations = %d\n",
           iterations);
  int rc = run_more(s, text, seed, &run_id, f);
  if (rc == TS_OK)
    rc = run_more(s, auto_plan, seed + 1, &run_id, f);
  fprintf(stderr, "  after %d run(s) per trial: %s", iterations, f->notes);
  return rc;
}

/* iterations = auto on a database without earlier runs of the benchmark goes by the trial's
   shares and says so; with earlier runs of two runs per trial alone, it tries one; with both
   counts behind it, it compares them, quoting each one's paired spread. */
static void auto_iterations_follow_the_history(void) {
  const char *path = "experiment_auto.db";
  static const char auto_plan[] =
      "conditions = baseline, baseline-b\nbench = builtin-st\nreps = 3\nwarmup = 1\n"
      "settle = 0s\nwork-scale = 0.02\n";
  store *s = NULL;
  int64_t run_id;
  static run_facts f;
  REQUIRE(run_plan(path, auto_plan, &s, &run_id, &f) == TS_OK);
  fprintf(stderr, "  new: %s", f.notes);
  CHECK_STR_CONTAINS(f.notes, "no earlier runs of it on this machine to compare counts with");
  int k = block_iterations(&f);
  CHECK(k >= 1 && k <= 8);

  REQUIRE(auto_after_history(s, auto_plan, 2, 12, &f) == TS_OK);
  CHECK_STR_CONTAINS(f.notes, "(auto: on this machine's earlier runs, 2 runs per trial: paired "
                              "spread ");
  CHECK_STR_CONTAINS(f.notes, "this run tries the other count");
  CHECK_INT(block_iterations(&f), 1);

  REQUIRE(auto_after_history(s, auto_plan, 1, 14, &f) == TS_OK);
  CHECK_STR_CONTAINS(f.notes, "(auto: on this machine's earlier runs, 1 run per trial: paired "
                              "spread ");
  CHECK_STR_CONTAINS(f.notes, ", 2 runs per trial: paired spread ");
  CHECK(strstr(f.notes, "tries the other") == NULL && strstr(f.notes, "not pay") == NULL);
  k = block_iterations(&f);
  CHECK(k == 1 || k == 2);
  store_close(s);
}

/* Stops the run after its second trial. */
static void stop_after_two(void *ctx, const experiment_progress *progress) {
  if (progress->done == 2)
    plat_cancel_raise(ctx);
}

/* A resumed run keeps the iterations its first sitting chose, even where auto would now choose
   otherwise (the stored warm-up is changed to say so). */
static void resumed_run_keeps_its_iterations(void) {
  const char *path = "experiment_resume.db";
  store *s = NULL;
  ts_err err;
  plan p;
  int64_t run_id;
  static run_facts f;
  remove_db(path);
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  REQUIRE(plan_parse("conditions = baseline, baseline-b\nbench = builtin-st\nreps = 3\n"
                     "warmup = 1\nsettle = 0s\nwork-scale = 0.02\niterations = 2\n",
                     "test", &p, &err) == TS_OK);
  plat_cancel *cancel;
  REQUIRE(plat_cancel_create(&cancel, &err) == TS_OK);
  experiment_observer o = {NULL, stop_after_two, NULL, cancel, NULL};
  CHECK_INT(experiment_run(s, &p, 5, &o, cancel, &run_id, &err), TS_EINTERRUPTED);
  plat_cancel_destroy(cancel);
  /* The stored plan now says auto, as an older run's would: the run's own trials decide. */
  store_close(s);
  sqlite3 *db;
  REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
  CHECK_INT(sqlite3_exec(db,
                         "UPDATE run SET plan_text=replace(plan_text,'iterations = 2',"
                         "'iterations = auto')",
                         NULL, NULL, NULL),
            SQLITE_OK);
  sqlite3_close(db);
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  memset(&f, 0, sizeof f);
  experiment_observer notes = {NULL, NULL, on_note, &f, NULL};
  CHECK_INT(experiment_resume(s, run_id, &notes, NULL, &p, &err), TS_OK);
  CHECK(strstr(f.notes, "iterations: 2 benchmark runs per trial, as in the run's earlier") != NULL);
  read_facts(s, run_id, &f);
  CHECK_INT(f.count, 7);
  for (int i = 0; i < f.count; i++)
    if (f.t[i].block > 0)
      CHECK(f.t[i].iter_count == 2);
  store_close(s);
}

/* The previous load is torn down while the next one starts and settles, and is gone before the
   census: a baseline right after 2,000 sleepers counts this process's one thread. */
static void census_counts_only_the_new_load(void) {
  store *s = NULL;
  int64_t run_id;
  static run_facts f;
  REQUIRE(run_plan("experiment_teardown.db",
                   "conditions = baseline, sleep:2000@500ms\nbench = builtin-st\nreps = 3\n"
                   "warmup = 0\nsettle = 300ms\nwork-scale = 0.02\niterations = 1\n",
                   &s, &run_id, &f) == TS_OK);
  CHECK_INT(f.count, 6);
  for (int i = 0; i < f.count; i++) {
    if (strcmp(f.t[i].condition, "baseline") == 0)
      CHECK_INT(f.t[i].process_threads, 1);
    else
      CHECK(f.t[i].process_threads == 2001 || f.t[i].process_threads == -1);
    CHECK(isfinite(f.t[i].trial_s));
  }
  store_close(s);
}

/* After trial `busy_after` (0: never) the machine reads as wholly busy. */
static int busy_after;

static void turn_busy_after(void *ctx, const experiment_progress *progress) {
  (void)ctx;
  if (busy_after > 0 && progress->seq == busy_after)
    plat_knob_set_number(PLAT_KNOB_MACHINE_BUSY_PERMILLE, 1000);
}

/* Two baselines, four blocks, no settle, the gate watching for 50 %: the run's trials into *f. */
static void run_gated(const char *path, int busy_from, run_facts *f) {
  ts_err err;
  busy_after = busy_from;
  plat_knob_set_number(PLAT_KNOB_MACHINE_BUSY_PERMILLE, 0);
  int rc = run_observed(path,
                        "conditions = baseline, baseline-b\nbench = builtin-st\nreps = 4\n"
                        "warmup = 0\nsettle = 0s\nquiet-cpu = 50%\nquiet-timeout = 300ms\n"
                        "work-scale = 0.02\niterations = 1\n",
                        turn_busy_after, f, &err);
  plat_knob_reset(PLAT_KNOB_MACHINE_BUSY_PERMILLE);
  REQUIRE(rc == TS_OK);
  for (int i = 0; i < f->count; i++)
    fprintf(stderr, "  trial %d: gate %.3f s%s%s\n", f->t[i].seq, f->t[i].gate_s,
            f->t[i].warnings[0] ? "; " : "", f->t[i].warnings);
}

/* The gate's quiet carries from one trial's benchmark into the next trial: on a quiet machine only
   the run's first trial waits for the gate's 0.5 s of quiet; the others wait at most for one
   reading of their own, 0.1 s after the last benchmark's (the least, as there is no settle; less
   where the trial took that long to start, as under Wine beside a busy suite). A machine that
   turns busy between two trials ends the carried quiet (that reading sees it): the next trial
   waits the gate out and says so. */
static void gate_quiet_carries_into_the_next_trial(void) {
  static run_facts f;
  run_gated("experiment_carry.db", 0, &f);
  REQUIRE(f.count == 8);
  CHECK(f.t[0].gate_s >= 0.45);
  /* Without the carry each would wait the whole 0.5 s; a process starved beside a busy suite may
     wake late, so most of them, not all, must wait less. */
  int shorter = 0;
  for (int i = 1; i < f.count; i++) {
    shorter += f.t[i].gate_s < 0.4;
    CHECK(strstr(f.t[i].warnings, "quiet gate") == NULL);
  }
  CHECK(shorter >= 5);

  run_gated("experiment_carry_busy.db", 3, &f);
  REQUIRE(f.count == 8);
  CHECK(strstr(f.t[2].warnings, "quiet gate") == NULL);
  CHECK_STR_CONTAINS(f.t[3].warnings, "quiet gate timed out");
  CHECK(f.t[3].gate_s >= 0.29);
}

/* A load's figures are read after the benchmark, over the settle and the benchmark: 200 sleepers
   at 0.25 s with no settle show their 800 wake-ups a second. Read before the benchmark, over the
   few ms right after their start, the threads' own start was most of what was counted (2,094
   and 2,713 a second when this was tried). */
static void figures_span_the_benchmark(void) {
  store *s = NULL;
  int64_t run_id;
  static run_facts f;
  REQUIRE(run_plan("experiment_figures.db",
                   "conditions = baseline, sleep:200@250ms\nbench = builtin-st\nreps = 2\n"
                   "warmup = 0\nsettle = 0s\nwork-scale = 0.4\niterations = 1\nquiet-cpu = off\n",
                   &s, &run_id, &f) == TS_OK);
  CHECK_INT(f.count, 4);
  /* Wine counts no context switch (every thread's count stays 0). */
  plat_census machine;
  ts_err err;
  int switches_counted = plat_census_machine(&machine, &err) == TS_OK && machine.context_switches;
  for (int i = 0; i < f.count; i++) {
    if (strcmp(f.t[i].condition, "baseline") == 0)
      continue;
    fprintf(stderr, "  %s: %.0f switches/s over a benchmark of %.2f s\n", f.t[i].condition,
            f.t[i].switches_per_s, f.t[i].bench_s);
    CHECK(f.t[i].bench_s > 0.2);
    if (switches_counted)
      CHECK(f.t[i].switches_per_s > 0.6 * 800 && f.t[i].switches_per_s < 1.5 * 800);
    else
      CHECK(!(f.t[i].switches_per_s > 0));
  }
  store_close(s);
}

/* On a busy machine (1 %: hardly any machine is that quiet for long) the gate times out; after two
   timeouts in a row the trials stop waiting, the notes say so once, and every trial records the
   CPU use outside ThreadSoup during its benchmark. */
static void gate_gives_way_to_recording(void) {
  store *s = NULL;
  int64_t run_id;
  static run_facts f;
  REQUIRE(run_plan("experiment_busy.db",
                   "conditions = baseline\nbench = builtin-st\nreps = 4\nwarmup = 0\n"
                   "settle = 0s\nquiet-cpu = 1%\nquiet-timeout = 300ms\nwork-scale = 0.02\n"
                   "iterations = 1\n",
                   &s, &run_id, &f) == TS_OK);
  CHECK_INT(f.count, 4);
  int in_row = 0, gave_way = 0;
  for (int i = 0; i < f.count; i++) {
    CHECK(f.t[i].outside >= 0 && f.t[i].outside <= 100);
    const char *said = strstr(f.t[i].warnings, "quiet gate timed out");
    int timed_out = said != NULL;
    /* What it says was measured agrees with its timing out: a reading at or over the threshold,
       or readings under it for less than the second it must wait. */
    const char *busy = said ? strstr(said, "CPU use outside ThreadSoup was ") : NULL;
    double over = -1;
    if (busy)
      CHECK(sscanf(busy, "CPU use outside ThreadSoup was %lf%%", &over) == 1 && over >= 1);
    else if (said)
      CHECK(strstr(said, "stayed under the threshold 1% (") != NULL);
    if (gave_way) {
      CHECK(!timed_out);
      CHECK(f.t[i].gate_s < 0.05);
    }
    in_row = timed_out ? in_row + 1 : 0;
    if (in_row == 2)
      gave_way = 1;
  }
  CHECK_INT(strstr(f.notes, "quiet gate: timed out on 2 trials in a row") != NULL, gave_way);
  if (!gave_way)
    fprintf(stderr, "  this machine stayed under 1 %%: the giving way was not seen\n");
  store_close(s);
}

/* The boundary: a second asleep or more counts; less, or readings that go backwards (an
   injected minute, then the real clock), do not. */
static void time_asleep_counts_from_a_second(void) {
  uint64_t s = TS_NS_PER_S;
  CHECK(experiment_time_asleep(5 * s, 5 * s + s - 1) == 0);
  CHECK(experiment_time_asleep(5 * s, 6 * s) == s);
  CHECK(experiment_time_asleep(5 * s, 65 * s) == 60 * s);
  CHECK(experiment_time_asleep(65 * s, 5 * s) == 0);
}

/* The first attempt of the only trial sees a minute asleep (the second reading of the time
   asleep): it is measured again, the trial that counts says why, the run says so, and the
   machine was kept awake (or the run says why it could not be). */
static void a_trial_across_a_suspend_is_measured_again(void) {
  store *s = NULL;
  int64_t run_id;
  static run_facts f;
  plat_fault_inject(PLAT_FAULT_SUSPEND, 1, 1);
  REQUIRE(run_plan("experiment_suspend.db",
                   "conditions = baseline\nbench = builtin-st\nreps = 1\nwarmup = 0\n"
                   "settle = 0s\nwork-scale = 0.02\niterations = 1\n",
                   &s, &run_id, &f) == TS_OK);
  plat_fault_inject(PLAT_FAULT_SUSPEND, -1, 0);
  CHECK_INT(f.count, 1);
  fprintf(stderr, "  warnings: %s\n  notes: %s", f.t[0].warnings, f.notes);
  CHECK(f.t[0].score > 0);
  CHECK(strstr(f.t[0].warnings, "measured again: attempt 1 spanned a suspend of 60 s") != NULL);
  CHECK(strstr(f.notes, "trial 1 (baseline, builtin-st) spanned a suspend of 60 s: measured "
                        "again") != NULL);
  CHECK(strstr(f.notes, "stay awake: held\n") != NULL || strstr(f.notes, "stay awake: n/a: "));
  store_close(s);
}

/* After the first trial (the baseline, which starts no thread), the OS refuses `refusals` thread
   starts (< 0: every one): they land on the sleepers' start. */
static long refusals_after_first;

static void refuse_threads_after_first(void *ctx, const experiment_progress *progress) {
  (void)ctx;
  if (progress->seq == 1)
    plat_fault_inject(PLAT_FAULT_THREAD_START, 0, refusals_after_first);
}

/* A baseline and 20 sleepers, one block, with `refusals` thread starts refused after the first
   trial; the run's result, its error in *err, its notes and trials in *f. */
static int run_refused(const char *path, long refusals, run_facts *f, ts_err *err) {
  refusals_after_first = refusals;
  int rc = run_observed(path,
                        "conditions = baseline, sleep:20@500ms\nbench = builtin-st\nreps = 1\n"
                        "warmup = 0\nsettle = 0s\nwork-scale = 0.02\niterations = 1\n"
                        "quiet-cpu = off\n",
                        refuse_threads_after_first, f, err);
  plat_fault_inject(PLAT_FAULT_THREAD_START, -1, 0);
  fprintf(stderr, "  %s: %s\n  notes: %s", rc == TS_OK ? "run" : "error",
          rc == TS_OK ? "done" : err->text, f->notes);
  return rc;
}

/* One refusal: the sleepers' trial fails once and is measured again, saying why in its warnings
   and in the run's notes; the run ends with every trial done. */
static void a_trial_the_os_refused_is_measured_again(void) {
  static run_facts f;
  ts_err err;
  CHECK_INT(run_refused("experiment_refused.db", 1, &f, &err), TS_OK);
  REQUIRE(f.count == 2);
  /* Seed 11 puts the baseline first, so the refusal lands on the sleepers' start. */
  REQUIRE(strcmp(f.t[0].condition, "baseline") == 0);
  CHECK(f.t[1].score > 0);
  fprintf(stderr, "  warnings: %s\n", f.t[1].warnings);
  CHECK(strstr(f.t[1].warnings, "measured again: the OS refused attempt 1: ") != NULL);
  CHECK(strstr(f.t[1].warnings, "(injected)") != NULL);
  CHECK(strstr(f.notes, "trial 2 (sleep:20@500ms, builtin-st): the OS refused it (") != NULL);
}

/* Refused on every attempt, the trial fails after EXPERIMENT_REFUSED_ATTEMPTS of them and the run
   stops on it, with the OS's reason; the first trial stays done. */
static void a_trial_the_os_keeps_refusing_fails(void) {
  static run_facts f;
  ts_err err;
  CHECK_INT(run_refused("experiment_refused_always.db", -1, &f, &err), TS_EOS);
  CHECK(strstr(err.text, "(injected)") != NULL);
  /* One "measured again" note: two attempts in all. */
  const char *first = strstr(f.notes, "the OS refused it");
  CHECK(first != NULL && strstr(first + 1, "the OS refused it") == NULL);
  REQUIRE(f.count == 2);
  CHECK(f.t[0].score > 0);
}

#ifndef _WIN32
#include <unistd.h>

/* 1 while the process whose pid the stand-in inhibitor wrote runs (not gone, not a zombie). */
static int inhibitor_running(void) {
  long pid = -1;
  FILE *f = fopen("experiment_inhibit.pid", "r");
  if (!f || fscanf(f, "%ld", &pid) != 1)
    pid = -1;
  if (f)
    fclose(f);
  return check_proc_running(pid);
}

static void see_inhibitor(void *ctx, const experiment_progress *progress) {
  (void)progress;
  *(int *)ctx += inhibitor_running();
}

/* Linux: the inhibitor runs during every trial and is gone when the run has ended (a stand-in for
   systemd-inhibit that behaves as it does when logind grants the lock). */
static void the_run_keeps_the_machine_awake(void) {
  FILE *f = fopen("experiment_inhibit.sh", "w");
  REQUIRE(f != NULL);
  fputs("#!/bin/sh\necho $$ > experiment_inhibit.pid\n"
        "while [ \"${1#--}\" != \"$1\" ]; do shift; done\nexec \"$@\"\n",
        f);
  fclose(f);
  REQUIRE(chmod("experiment_inhibit.sh", 0755) == 0);
  plat_knob_set_text(PLAT_KNOB_INHIBIT_PROGRAM, "experiment_inhibit.sh");
  store *s = NULL;
  plan p;
  ts_err err;
  int seen = 0;
  remove_db("experiment_awake.db");
  REQUIRE(store_open(&s, "experiment_awake.db", &err) == TS_OK);
  REQUIRE(plan_parse("conditions = baseline\nbench = builtin-st\nreps = 2\nwarmup = 0\n"
                     "settle = 0s\nwork-scale = 0.02\niterations = 1\n",
                     "test", &p, &err) == TS_OK);
  experiment_observer o = {NULL, see_inhibitor, NULL, &seen, NULL};
  int64_t run_id;
  CHECK_INT(experiment_run(s, &p, 3, &o, NULL, &run_id, &err), TS_OK);
  plat_knob_set_text(PLAT_KNOB_INHIBIT_PROGRAM, NULL);
  CHECK_INT(seen, 2);
  CHECK(!inhibitor_running());
  store_close(s);
}
#endif

int main(void) {
#ifndef _WIN32
  RUN_CASE(the_run_keeps_the_machine_awake);
#endif
  RUN_CASE(time_asleep_counts_from_a_second);
  RUN_CASE(a_trial_across_a_suspend_is_measured_again);
  RUN_CASE(a_trial_the_os_refused_is_measured_again);
  RUN_CASE(a_trial_the_os_keeps_refusing_fails);
  RUN_CASE(gate_is_watched_during_the_settle);
  RUN_CASE(iterations_make_a_trial);
  RUN_CASE(auto_iterations_follow_the_history);
  RUN_CASE(a_time_for_reps_fills_it);
  RUN_CASE(resumed_run_keeps_its_iterations);
  RUN_CASE(census_counts_only_the_new_load);
  RUN_CASE(gate_gives_way_to_recording);
  RUN_CASE(gate_quiet_carries_into_the_next_trial);
  RUN_CASE(figures_span_the_benchmark);
  return check_summary();
}

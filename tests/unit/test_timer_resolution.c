/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_timer_resolution.c - /resolution=default|high: parsed and refused as other options are,
   sleepers of each kind really sleep as asked (Linux: each thread's timer slack read back from
   /proc) and stop at once, and a real run stores per trial what was asked and observed. */
#define _GNU_SOURCE /* syscall(SYS_gettid) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/engine.h"
#include "experiment/experiment.h"
#include "plan/plan.h"
#include "report/report.h"
#include "store/store.h"
#include "testdb.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_knobs.h"
#include "threadsoup/units.h"

#ifndef _WIN32
#include <dirent.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

static void parses_and_refuses_like_other_options(void) {
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("sleep:10@100ms/resolution=high", &spec, &err), TS_OK);
  CHECK_STR_CONTAINS(spec.text, "sleep:10@100ms/resolution=high");
  CHECK_INT(load_spec_resolution(&spec), PLAT_RESOLUTION_HIGH);
  /* The default is left out of the canonical text, as the original condition reads. */
  CHECK_INT(load_spec_parse("sleep:10@100ms/resolution=default", &spec, &err), TS_OK);
  CHECK(strcmp(spec.text, "sleep:10@100ms") == 0);
  CHECK_INT(load_spec_resolution(&spec), PLAT_RESOLUTION_DEFAULT);
  /* Any high part makes the condition's sleepers ask for high. */
  CHECK_INT(load_spec_parse("sleep:10+sleep:5/resolution=high", &spec, &err), TS_OK);
  CHECK_INT(load_spec_resolution(&spec), PLAT_RESOLUTION_HIGH);
  CHECK_INT(load_spec_parse("baseline", &spec, &err), TS_OK);
  CHECK_INT(load_spec_resolution(&spec), PLAT_RESOLUTION_DEFAULT);

  CHECK_INT(load_spec_parse("sleep:10/resolution=medium", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "resolution of 'sleep': 'medium' is not accepted");
  CHECK_STR_CONTAINS(err.text, "accepted: default, high");
  CHECK_INT(load_spec_parse("sleep:10/resolution", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "resolution of 'sleep' needs a value");
  CHECK_INT(load_spec_parse("wait:10/resolution=high", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "scenario 'wait' takes no resolution");
  CHECK_INT(load_spec_parse("sleep:10/resolutoin=high", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "resolution)");

  /* A plan's condition takes it the same way, and refuses it the same way. */
  plan p;
  CHECK_INT(
      plan_parse("conditions = baseline, sleep:20@100ms/resolution=high\nbench = builtin-st\n",
                 "test", &p, &err),
      TS_OK);
  CHECK_INT(plan_condition_index(&p, "sleep:20@100ms/resolution=high"), 1);
  CHECK_INT(plan_parse("conditions = baseline, sleep:20/resolution=hi\nbench = builtin-st\n",
                       "test", &p, &err),
            TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "'hi' is not accepted (accepted: default, high)");

  char help[2048];
  load_options_help(help, sizeof help);
  CHECK_STR_CONTAINS(help, "resolution");
}

/* The OS's answer, as a `doctor` will read it. */
#ifdef _WIN32
/* NtQueryTimerResolution's answer, in 100 ns units, as the timer knobs give it instead of ntdll. */
static void set_ntdll_answer(long coarsest, long finest, long current) {
  plat_knob_set_number(PLAT_KNOB_TIMER_COARSEST, coarsest);
  plat_knob_set_number(PLAT_KNOB_TIMER_FINEST, finest);
  plat_knob_set_number(PLAT_KNOB_TIMER_CURRENT, current);
}
#endif

static void the_os_says_its_timer_resolution(void) {
  plat_timer_info info;
  ts_err err;
  int rc = plat_timer_resolution(&info, &err);
  fprintf(stderr,
          "  timer resolution: rc %d, current %.3f us, finest %.3f us, coarsest %.3f us, "
          "slack %.3f us (%s)%s%s\n",
          rc, info.current_us, info.finest_us, info.coarsest_us, info.slack_us, info.source,
          rc != TS_OK ? ": " : "", rc != TS_OK ? err.text : "");
#ifdef _WIN32
  /* Wine may not answer; when it does, the values are in order. */
  if (rc == TS_OK) {
    CHECK(info.current_us > 0);
    CHECK(info.finest_us <= info.current_us && info.current_us <= info.coarsest_us);
  } else {
    CHECK_INT(rc, TS_EUNSUPPORTED);
    CHECK(info.current_us < 0);
  }
  /* The same code path with the answer of a default Windows 10/11 PC: 15.625 ms now, 0.5 ms at
     best. */
  set_ntdll_answer(156250, 5000, 156250);
  CHECK_INT(plat_timer_resolution(&info, &err), TS_OK);
  plat_knob_reset(PLAT_KNOB_TIMER_CURRENT);
  CHECK(fabs(info.current_us - 15625) < 1e-9);
  CHECK(fabs(info.coarsest_us - 15625) < 1e-9);
  CHECK(fabs(info.finest_us - 500) < 1e-9);
  CHECK_STR_CONTAINS(info.source, "injected");
  set_ntdll_answer(0, 0, 0);
  CHECK_INT(plat_timer_resolution(&info, &err), TS_EUNSUPPORTED);
  plat_knob_reset(PLAT_KNOB_TIMER_CURRENT);
  CHECK(info.current_us < 0);
#else
  CHECK_INT(rc, TS_OK);
  CHECK(info.finest_us > 0);
  CHECK(info.slack_us > 0);
  CHECK(info.current_us >= info.finest_us && info.current_us >= info.slack_us);
#endif
}

static void probe_measures_both_kinds(void) {
  static const plat_resolution kinds[] = {PLAT_RESOLUTION_DEFAULT, PLAT_RESOLUTION_HIGH};
  for (size_t i = 0; i < 2; i++) {
    load_timer_probe probe;
    ts_err err;
    REQUIRE(load_timer_probe_run(kinds[i], 15, &probe, &err) == TS_OK);
    fprintf(stderr,
            "  probe %s: obtained %s, resolution %.3f us, 1 ms sleeps %.1f us late (median of "
            "15), probe took %.1f ms%s%s\n",
            plat_resolution_name(kinds[i]), plat_resolution_name(probe.obtained),
            probe.info.current_us, probe.overshoot_us, (double)probe.cost_ns / TS_NS_PER_MS,
            probe.note[0] ? "; " : "", probe.note);
    CHECK(probe.overshoot_us >= 0);
    CHECK(probe.cost_ns >= 15 * TS_NS_PER_MS);
#ifndef _WIN32
    /* Linux: the probe's thread is made as the sleepers are; its own slack is what it reports. */
    CHECK_INT(probe.obtained, kinds[i]);
    if (kinds[i] == PLAT_RESOLUTION_HIGH)
      CHECK(fabs(probe.info.slack_us - 0.001) < 1e-9);
#else
    if (probe.obtained != kinds[i])
      CHECK_STR_CONTAINS(probe.note, "high-resolution");
#endif
  }
}

#ifndef _WIN32
/* A thread's timer slack from /proc/TID/timerslack_ns (the task directory has no such file);
   -1 when it cannot be read (another thread's needs CAP_SYS_NICE). */
static long read_slack_ns(const char *tid) {
  char path[128];
  snprintf(path, sizeof path, "/proc/%s/timerslack_ns", tid);
  FILE *f = fopen(path, "r");
  long v = -1;
  if (f) {
    if (fscanf(f, "%ld", &v) != 1)
      v = -1;
    fclose(f);
  }
  return v;
}

/* Reads every thread's timer slack but the calling one's: counts of `slack_ns` and of others;
   0 when some thread's could not be read. */
static int task_slacks(long slack_ns, long *matching, long *other) {
  *matching = *other = 0;
  char self[32];
  snprintf(self, sizeof self, "%ld", (long)syscall(SYS_gettid));
  DIR *d = opendir("/proc/self/task");
  if (!d)
    return 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || strcmp(e->d_name, self) == 0)
      continue;
    long v = read_slack_ns(e->d_name);
    if (v < 0) {
      closedir(d);
      return 0;
    }
    if (v == slack_ns)
      (*matching)++;
    else
      (*other)++;
  }
  closedir(d);
  return 1;
}

static long own_slack_ns(void) {
  char tid[32];
  snprintf(tid, sizeof tid, "%ld", (long)syscall(SYS_gettid));
  return read_slack_ns(tid);
}

/* Linux: high sleepers' timer slack is 1 ns, read back by the kernel's own file for each thread;
   default ones keep the slack they inherit (the kernel's default is 50 us). */
static void high_sleepers_have_one_ns_slack(void) {
  long inherited = own_slack_ns();
  fprintf(stderr, "  this thread's timer slack: %ld ns\n", inherited);
  REQUIRE(inherited > 0);
  if (inherited != 50000)
    fprintf(stderr, "  note: not the kernel's default 50000 ns (set by whoever started us)\n");
  static const struct {
    const char *spec;
    int high;
  } cases[] = {{"sleep:40@20s/resolution=high", 1},
               {"sleep:40@20s", 0},
               {"sleep:40@20s/timer=absolute/resolution=high", 1}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    load_spec spec;
    ts_err err;
    REQUIRE(load_spec_parse(cases[i].spec, &spec, &err) == TS_OK);
    load *l = NULL;
    REQUIRE(load_start(&spec, NULL, &l, &err) == TS_OK);
    long expected = cases[i].high ? 1 : inherited, matching = 0, other = 0;
    /* Each thread sets its slack as it starts: give them up to 2 s to get there. */
    for (int k = 0; k < 200; k++) {
      if (!task_slacks(expected, &matching, &other)) {
        fprintf(stderr, "  skipped: other threads' timer slack needs CAP_SYS_NICE to read\n");
        load_stop(l);
        return;
      }
      if (matching == 40)
        break;
      plat_sleep_ns(10 * TS_NS_PER_MS);
    }
    fprintf(stderr, "  %s: %ld threads with slack %ld ns, %ld others\n", cases[i].spec, matching,
            expected, other);
    CHECK_INT(matching, 40);
    CHECK_INT(other, 0);
    plat_resolution asked, obtained;
    char note[160];
    load_timer_state(l, &asked, &obtained, note, sizeof note);
    CHECK_INT(asked, cases[i].high ? PLAT_RESOLUTION_HIGH : PLAT_RESOLUTION_DEFAULT);
    CHECK_INT(obtained, cases[i].high ? PLAT_RESOLUTION_HIGH : PLAT_RESOLUTION_DEFAULT);
    CHECK(note[0] == '\0');
    load_stop(l);
  }
  /* The caller's own slack was left alone. */
  CHECK_INT(own_slack_ns(), inherited);
}
#endif

/* A stop wakes high-resolution sleepers at once (the signal on Linux; the APC ends the alertable
   wait on the waitable timer on Windows), relative and absolute. The sleepers' minute-long
   intervals make "at once" plain: a stop that waited for their timers would take most of a
   minute, one that wakes them takes well under a second on an idle machine, and it is given 30 s
   here, as Wine beside a build on two busy cores has taken over a second. Their threads are
   counted by the OS: there when started (Wine's own threads may come and go beside them), gone
   when stopped. */
static void high_sleepers_run_and_stop_at_once(void) {
  static const char *const specs[] = {"sleep:200@60s/resolution=high",
                                      "sleep:200@60s/timer=absolute/resolution=high",
                                      "sleep:100@10ms/resolution=high"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    ts_err err;
    long before = plat_process_thread_count(plat_self_pid(), &err);
    load_spec spec;
    REQUIRE(load_spec_parse(specs[i], &spec, &err) == TS_OK);
    load *l = NULL;
    int rc = load_start(&spec, NULL, &l, &err);
    if (rc != TS_OK)
      fprintf(stderr, "  %s: %s\n", specs[i], err.text);
    REQUIRE(rc == TS_OK);
    long count = 0;
    uint64_t deadline = plat_clock_ns() + 30 * TS_NS_PER_S;
    do {
      count = plat_process_thread_count(plat_self_pid(), &err);
      if (count >= before + spec.parts[0].count)
        break;
      plat_sleep_ns(10 * TS_NS_PER_MS);
    } while (plat_clock_ns() < deadline);
    CHECK(count >= before + spec.parts[0].count);
    plat_sleep_ns(300 * TS_NS_PER_MS);
    plat_resolution asked, obtained;
    char note[160];
    load_timer_state(l, &asked, &obtained, note, sizeof note);
    uint64_t t0 = plat_clock_ns();
    load_stop(l);
    uint64_t stop_ns = plat_clock_ns() - t0;
    long after = plat_process_thread_count(plat_self_pid(), &err);
    fprintf(stderr,
            "  %s: asked %s, obtained %s%s%s; %ld threads before, %ld started, %ld after; "
            "stopped in %.1f ms\n",
            specs[i], plat_resolution_name(asked), plat_resolution_name(obtained),
            note[0] ? "; " : "", note, before, count, after, (double)stop_ns / TS_NS_PER_MS);
    CHECK_INT(asked, PLAT_RESOLUTION_HIGH);
    /* Got high, or says plainly why not. */
    if (obtained != PLAT_RESOLUTION_HIGH)
      CHECK_STR_CONTAINS(note, "sleepers got it");
    CHECK(stop_ns < 30 * TS_NS_PER_S);
    /* The stop joined every sleeper: what is left is the process's own few. */
    CHECK(after < before + spec.parts[0].count / 10);
  }
}

typedef struct trial_timer {
  int rows;
  int high_rows;
  int default_rows;
  int observed;
} trial_timer;

static int count_trial(void *ctx, const store_trial_row *row) {
  trial_timer *t = ctx;
  t->rows++;
  if (strcmp(row->condition, "sleep:20@100ms/resolution=high") == 0 &&
      strcmp(row->resolution_asked, "high") == 0)
    t->high_rows++;
  if (strcmp(row->condition, "baseline") == 0 && strcmp(row->resolution_asked, "default") == 0)
    t->default_rows++;
  t->observed += !isnan(row->timer_resolution_us) && row->timer_resolution_us >= 0;
  return 0;
}

/* Runs `reps` blocks of baseline and sleep:20@100ms/resolution=high with a short built-in
   benchmark into a new database at `path`; the store stays open in *out. */
static int run_small_plan(const char *path, int reps, store **out, int64_t *run_id) {
  char text[256];
  ts_err err;
  remove_db(path);
  snprintf(text, sizeof text,
           "conditions = baseline, sleep:20@100ms/resolution=high\nbench = builtin-st\n"
           "reps = %d\nwarmup = 0\nsettle = 200ms\nwork-scale = 0.02\n",
           reps);
  plan p;
  if (store_open(out, path, &err) != TS_OK || plan_parse(text, "test", &p, &err) != TS_OK) {
    fprintf(stderr, "  setup: %s\n", err.text);
    return TS_EINVAL;
  }
  int rc = experiment_run(*out, &p, 7, NULL, NULL, run_id, &err);
  if (rc != TS_OK)
    fprintf(stderr, "  run: %s\n", err.text);
  return rc;
}

/* A real run in a real SQLite file: each trial row holds what its condition asked for, what its
   sleepers obtained, and the resolution observed; the reports show them. */
static void trials_store_asked_and_observed(void) {
  const char *path = "timer_resolution.db";
  store *s = NULL;
  ts_err err;
  int64_t run_id = 0;
  REQUIRE(run_small_plan(path, 2, &s, &run_id) == TS_OK);
  trial_timer t = {0};
  CHECK_INT(store_run_trials(s, run_id, count_trial, &t, &err), TS_OK);
  CHECK_INT(t.rows, 4);
  CHECK_INT(t.high_rows, 2);
  CHECK_INT(t.default_rows, 2);
  char asked[16], obtained[16];
  double observed;
  CHECK_INT(store_condition_timer(s, run_id, "sleep:20@100ms/resolution=high", asked, sizeof asked,
                                  obtained, sizeof obtained, &observed, &err),
            TS_OK);
  CHECK(strcmp(asked, "high") == 0);
  fprintf(stderr, "  stored: high condition obtained %s, observed %.3f us; %d of 4 rows observed\n",
          obtained, observed, t.observed);
#ifndef _WIN32
  CHECK(strcmp(obtained, "high") == 0);
  CHECK_INT(t.observed, 4);
  CHECK(fabs(observed - 0.001) < 1e-9); /* the sleepers' 1 ns slack */
#endif
  /* Read back through another connection, as any SQLite reader sees the file. */
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE resolution_asked='high' AND "
                            "condition LIKE '%resolution=high'"),
            2);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE resolution_asked='default' AND "
                            "resolution_obtained='default' AND condition='baseline'"),
            2);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial_metric WHERE name='timer.overshoot_us'"),
            4);
  /* Bad texts never reach the file. */
  CHECK_INT(store_trial_timer(s, 1, "medium", "high", 1.0, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "accepted: default, high");

  /* The reports carry them: text and HTML per condition, JSON per condition and trial, CSV per
     trial. */
  const char *report_path = "timer_resolution_report.txt";
  static const report_format formats[] = {REPORT_FORMAT_TEXT, REPORT_FORMAT_JSON, REPORT_FORMAT_CSV,
                                          REPORT_FORMAT_HTML};
  static const char *const expected[] = {
      "timers: resolution asked and obtained", "\"resolution_asked\":\"high\"",
      "resolution_asked,resolution_obtained,timer_resolution_us",
      "<td class=\"cond\">sleep:20@100ms/resolution=high</td><td>high</td>"};
  for (size_t i = 0; i < 4; i++) {
    FILE *f = fopen(report_path, "w+");
    REQUIRE(f != NULL);
    CHECK_INT(report_run_format(s, run_id, formats[i], f, &err), TS_OK);
    fflush(f);
    rewind(f);
    static char text[65536];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    CHECK_STR_CONTAINS(text, expected[i]);
    if (formats[i] == REPORT_FORMAT_TEXT)
      CHECK_STR_CONTAINS(text, "sleep:20@100ms/resolution=high high");
  }
  remove(report_path);
  store_close(s);
  remove_db(path);
}

/* Where the OS refuses high resolution (Windows before 10 1803 refuses the timer's flag; the
   refusal is injected at the same call), the sleepers still run, the default way, and that is
   what is reported and stored: asked high, obtained default, a warning saying why. */
static void refused_high_resolution_is_stored_not_hidden(void) {
  load_spec spec;
  ts_err err;
  REQUIRE(load_spec_parse("sleep:20@60s/resolution=high", &spec, &err) == TS_OK);
  plat_fault_inject(PLAT_FAULT_HIRES_TIMER, 0, -1);
  load *l = NULL;
  int rc = load_start(&spec, NULL, &l, &err);
  if (rc != TS_OK)
    fprintf(stderr, "  start: %s\n", err.text);
  REQUIRE(rc == TS_OK);
  plat_resolution asked = PLAT_RESOLUTION_DEFAULT, obtained = PLAT_RESOLUTION_HIGH;
  char note[160] = "";
  /* Each sleeper says what it got as it starts: up to 30 s for all 20 on a busy machine. */
  uint64_t deadline = plat_clock_ns() + 30 * TS_NS_PER_S;
  while (!strstr(note, "0 of 20") && plat_clock_ns() < deadline) {
    plat_sleep_ns(10 * TS_NS_PER_MS);
    load_timer_state(l, &asked, &obtained, note, sizeof note);
  }
  fprintf(stderr, "  refused: asked %s, obtained %s; %s\n", plat_resolution_name(asked),
          plat_resolution_name(obtained), note);
  CHECK_INT(asked, PLAT_RESOLUTION_HIGH);
  CHECK_INT(obtained, PLAT_RESOLUTION_DEFAULT);
  CHECK_STR_CONTAINS(note, "0 of 20 sleepers got it");
  uint64_t t0 = plat_clock_ns();
  load_stop(l);
  CHECK(plat_clock_ns() - t0 < 30 * TS_NS_PER_S); /* the sleepers' interval is a minute */

  const char *path = "timer_resolution_refused.db";
  store *s = NULL;
  int64_t run_id = 0;
  rc = run_small_plan(path, 1, &s, &run_id);
  plat_fault_inject(PLAT_FAULT_HIRES_TIMER, -1, -1);
  REQUIRE(rc == TS_OK);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE resolution_asked='high' AND "
                            "resolution_obtained='default' AND warnings LIKE "
                            "'%0 of 20 sleepers got it%'"),
            1);
#ifdef _WIN32
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE warnings LIKE "
                            "'%no high-resolution waitable timers%'"),
            1);
#else
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE warnings LIKE '%timer slack%'"), 1);
#endif
  store_close(s);
  remove_db(path);
}

int main(void) {
  RUN_CASE(parses_and_refuses_like_other_options);
  RUN_CASE(the_os_says_its_timer_resolution);
  RUN_CASE(probe_measures_both_kinds);
#ifndef _WIN32
  RUN_CASE(high_sleepers_have_one_ns_slack);
#endif
  RUN_CASE(high_sleepers_run_and_stop_at_once);
  RUN_CASE(trials_store_asked_and_observed);
  RUN_CASE(refused_high_resolution_is_stored_not_hidden);
  return check_summary();
}

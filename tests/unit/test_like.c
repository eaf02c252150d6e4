/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_like.c - `load sleep --like`: threads' switch counts become rate classes and a load spec
   (exactly, on constructed counts), process names match as each OS names executables, and each
   census half gives every thread's switches from recorded data (a /proc tree, a process list). */
#include "check.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_knobs.h"
#include "threadsoup/units.h"

#include "../../service/src/engine/like.h"

#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include "ntsnapshot.h"
#endif

#define WINDOW (2 * TS_NS_PER_S)

/* Groups threads given as {threads, switches each} pairs, over a 2 s window. */
static int group(const uint64_t (*pairs)[2], int pair_count, like_result *r, ts_err *err) {
  uint64_t counts[64];
  long n = 0;
  for (int i = 0; i < pair_count; i++)
    for (uint64_t k = 0; k < pairs[i][0] && n < 64; k++)
      counts[n++] = pairs[i][1];
  return like_group(counts, n, WINDOW, r, err);
}

/* The example of the documentation: 4 threads at 100 ms, 1 at 1 s, 18 waiting. */
static void groups_sleepers_and_waiters(void) {
  static const uint64_t pairs[][2] = {{2, 0}, {4, 20}, {1, 2}, {16, 0}};
  like_result r;
  ts_err err;
  REQUIRE(group(pairs, 4, &r, &err) == TS_OK);
  CHECK_INT(r.threads, 23);
  CHECK_INT(r.waiters, 18);
  REQUIRE(r.class_count == 2);
  CHECK_INT(r.classes[0].threads, 4);
  CHECK_INT(r.classes[0].interval_ns, 100 * TS_NS_PER_MS);
  CHECK_INT(r.classes[1].threads, 1);
  CHECK_INT(r.classes[1].interval_ns, TS_NS_PER_S);
  CHECK(strcmp(r.spec.text, "sleep:4@100ms+sleep:1@1s+wait:18:event") == 0);
  CHECK_INT(load_spec_threads(&r.spec), 23);

  like_target t = {1234, "foo"};
  char line[256];
  like_describe(&t, &r, WINDOW, line, sizeof line);
  CHECK(strcmp(line, "process 1234 (foo): 23 threads in 2s; 4 woke every ~100ms, 1 every ~1s, "
                     "18 waited") == 0);
}

/* Timers jitter: 19, 20, 21 and 22 switches in 2 s are one class at the median's interval. */
static void jitter_stays_one_class(void) {
  static const uint64_t pairs[][2] = {{10, 19}, {10, 20}, {10, 21}, {10, 22}};
  like_result r;
  ts_err err;
  REQUIRE(group(pairs, 4, &r, &err) == TS_OK);
  CHECK_INT(r.waiters, 0);
  REQUIRE(r.class_count == 1);
  CHECK_INT(r.classes[0].threads, 40);
  /* Sorted intervals: 10 x 90.9 ms, 10 x 95.2, 10 x 100, 10 x 105.3; the median is the 20th,
     95.2 ms, which rounds to 95 ms. */
  CHECK_INT(r.classes[0].interval_ns, 95 * TS_NS_PER_MS);
  CHECK(strcmp(r.spec.text, "sleep:40@95ms") == 0);
}

/* A chain of near intervals is cut where it reaches twice the class's first; far rates stay
   apart; very fast threads become 1 ms sleepers, the fastest the scenario takes. */
static void spread_and_bounds(void) {
  static const uint64_t pairs[][2] = {
      {1, 100000}, /* every 20 us: 1 ms at least */
      {1, 400},    /* 5 ms */
      {1, 333},    /* 6.006 ms: within 1.25 x of the one before */
      {1, 278},    /* 7.194 ms */
      {1, 225},    /* 8.889 ms */
      {1, 182},    /* 10.989 ms: within 1.25 x, but over twice 5 ms: a new class */
      {1, 3},      /* 667 ms */
      {1, 1},      /* 2 s */
  };
  like_result r;
  ts_err err;
  REQUIRE(group(pairs, 8, &r, &err) == TS_OK);
  REQUIRE(r.class_count == 5);
  CHECK_INT(r.classes[0].interval_ns, TS_NS_PER_MS);
  CHECK_INT(r.classes[1].threads, 4);
  CHECK_INT(r.classes[1].interval_ns, 6 * TS_NS_PER_MS); /* the median of four: the second */
  CHECK_INT(r.classes[2].interval_ns, 11 * TS_NS_PER_MS);
  CHECK_INT(r.classes[3].interval_ns, 670 * TS_NS_PER_MS);
  CHECK_INT(r.classes[4].interval_ns, 2 * TS_NS_PER_S);
  CHECK(strcmp(r.spec.text, "sleep:1@1ms+sleep:4@6ms+sleep:1@11ms+sleep:1@670ms+sleep:1@2s") == 0);
}

/* More rates than classes: the closest neighbours merge until LIKE_MAX_CLASSES remain. */
static void many_rates_merge(void) {
  /* Intervals 2 s / k for k = 1, 3, 9, …, 2187: eight classes about 3 x apart. */
  static const uint64_t pairs[][2] = {{1, 1},  {1, 3},   {1, 9},   {1, 27},
                                      {1, 81}, {1, 243}, {1, 729}, {1, 2187}};
  like_result r;
  ts_err err;
  REQUIRE(group(pairs, 8, &r, &err) == TS_OK);
  CHECK_INT(r.class_count, LIKE_MAX_CLASSES);
  long total = 0;
  for (int i = 0; i < r.class_count; i++) {
    total += r.classes[i].threads;
    if (i > 0)
      CHECK(r.classes[i].interval_ns > r.classes[i - 1].interval_ns);
  }
  CHECK_INT(total, 8);
  CHECK_INT(r.waiters, 0);
  CHECK_INT(r.spec.part_count, LIKE_MAX_CLASSES);
}

/* Only waiters; and nothing at all is refused. */
static void only_waiters_and_nothing(void) {
  static const uint64_t pairs[][2] = {{3, 0}};
  like_result r;
  ts_err err;
  REQUIRE(group(pairs, 1, &r, &err) == TS_OK);
  CHECK_INT(r.class_count, 0);
  CHECK(strcmp(r.spec.text, "wait:3:event") == 0);
  CHECK(group(pairs, 0, &r, &err) == TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "no threads");
}

/* Bad --like values are refused before anything is looked at. */
static void bad_targets(void) {
  like_target t;
  ts_err err;
  CHECK(like_find("0", &t, &err) == TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "--like 0 is not a process ID");
  CHECK(like_find("-12", &t, &err) == TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "--like -12 is not a process ID");
  CHECK(like_find("", &t, &err) == TS_EUSAGE);
  char self[32];
  snprintf(self, sizeof self, "%ld", plat_self_pid());
  CHECK(like_find(self, &t, &err) == TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "this threadsoup process itself");
  CHECK(like_find("no-such-program-here", &t, &err) == TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "no running process has this name");
}

/* Names as each OS gives them. */
static void names_match(void) {
#ifdef _WIN32
  CHECK(plat_process_name_matches("TrayUtil.exe", "trayutil"));
  CHECK(plat_process_name_matches("TrayUtil.exe", "TRAYUTIL.EXE"));
  CHECK(plat_process_name_matches("trayutil", "trayutil.exe"));
  CHECK(!plat_process_name_matches("TrayUtil.exe", "trayutil2"));
  CHECK(!plat_process_name_matches("TrayUtil.exe", "tray"));
  CHECK(!plat_process_name_matches("", ".exe"));
#else
  CHECK(plat_process_name_matches("trayutil", "trayutil"));
  CHECK(!plat_process_name_matches("trayutil", "TrayUtil"));
  CHECK(!plat_process_name_matches("trayutil", "tray"));
  /* The kernel keeps 15 bytes of a name. */
  CHECK(plat_process_name_matches("gnome-shell-cal", "gnome-shell-calendar-server"));
  CHECK(!plat_process_name_matches("gnome-shell-cal", "gnome-shell-cat-server"));
  CHECK(!plat_process_name_matches("short", "shorter"));
#endif
}

#ifndef _WIN32
#include <sys/stat.h>

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* One /proc/PID/task/TID/status with its two switch counts. */
static void write_task(const char *root, long pid, long tid, int voluntary, int involuntary) {
  char path[256], text[256];
  snprintf(path, sizeof path, "%s/%ld/task/%ld", root, pid, tid);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/%ld/task/%ld/status", root, pid, tid);
  snprintf(text, sizeof text,
           "Name:\ttrayutil\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t%d\n"
           "nonvoluntary_ctxt_switches:\t%d\n",
           voluntary, involuntary);
  write_file(path, text);
}

/* The POSIX half reads each task's voluntary and involuntary switches; a zombie has none left. */
static void posix_threads_from_a_recording(void) {
  const char *root = "test_like_proc";
  char path[256];
  mkdir(root, 0755);
  snprintf(path, sizeof path, "%s/4242", root);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/4242/task", root);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/4242/stat", root);
  write_file(path, "4242 (trayutil) S 1 4242 4242 0 -1 0 0 0 0 0 3 2 0 0 20 0 2 0 100 0 0\n");
  write_task(root, 4242, 4242, 900, 10);
  write_task(root, 4242, 4243, 7, 0);
  snprintf(path, sizeof path, "%s/4250", root);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/4250/stat", root);
  write_file(path, "4250 (trayutil) Z 1 4250 4250 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 100 0 0\n");

  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, root);
  plat_process_census process;
  plat_thread_switches *threads = NULL;
  long count = 0;
  ts_err err;
  CHECK(plat_census_threads(4242, &process, &threads, &count, &err) == TS_OK);
  CHECK(strcmp(process.name, "trayutil") == 0);
  CHECK_INT(process.threads, 2);
  CHECK_INT(process.context_switches, 917);
  CHECK_INT(count, 2);
  uint64_t total = 0;
  for (long i = 0; i < count; i++)
    total += threads[i].switches + (uint64_t)(threads[i].tid == 4243 ? 1000 : 0);
  CHECK_INT(total, 1917); /* 910 for 4242, 7 (+1000) for 4243 */
  free(threads);
  CHECK(plat_census_threads(4250, &process, &threads, &count, &err) == TS_EOS);
  CHECK(plat_census_threads(77, &process, &threads, &count, &err) == TS_EOS);
  /* By name, as --like finds it: the zombie of the same name is no second match. */
  like_target t;
  CHECK(like_find("trayutil", &t, &err) == TS_OK);
  CHECK_INT(t.pid, 4242);
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, NULL);
}
#endif

#ifdef _WIN32
/* The Windows half reads each thread's ContextSwitches (Wine's live list has only zeros). */
static void windows_threads_from_a_recording(void) {
  nts_builder b;
  nts_init(&b, 0x0000020a5f7c0000ull);
  nts_proc other = {.pid = 4, .name = "System"};
  nts_add_process(&b, &other);
  nts_thread worker = {.tid = 8, .context_switches = 311};
  nts_add_threads(&b, 3, &worker);
  nts_proc tray = {.pid = 5120, .name = "TrayUtil.exe"};
  nts_add_process(&b, &tray);
  nts_thread fast = {.tid = 5124, .context_switches = 900};
  nts_add_threads(&b, 2, &fast);
  nts_thread idle = {.tid = 6000, .context_switches = 7};
  nts_add_threads(&b, 1, &idle);
  nts_finish(&b);
  REQUIRE(nts_write_file(&b, "test_like.snapshot"));
  nts_free(&b);
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, "test_like.snapshot");
  plat_process_census process;
  plat_thread_switches *threads = NULL;
  long count = 0;
  ts_err err;
  CHECK(plat_census_threads(5120, &process, &threads, &count, &err) == TS_OK);
  CHECK(strcmp(process.name, "TrayUtil.exe") == 0);
  CHECK_INT(process.threads, 3);
  CHECK_INT(process.context_switches, 1807);
  CHECK_INT(count, 3);
  if (threads && count == 3) {
    CHECK_INT(threads[0].tid, 5124);
    CHECK_INT(threads[0].switches, 900);
    CHECK_INT(threads[1].tid, 5128);
    CHECK_INT(threads[2].tid, 6000);
    CHECK_INT(threads[2].switches, 7);
  }
  free(threads);
  CHECK(plat_census_threads(77, &process, &threads, &count, &err) == TS_EOS);
  CHECK_STR_CONTAINS(err.text, "process 77 not found");
  /* By name, as --like finds it. */
  like_target t;
  CHECK(like_find("trayutil", &t, &err) == TS_OK);
  CHECK_INT(t.pid, 5120);
  plat_knob_set_text(PLAT_KNOB_CENSUS_SOURCE, NULL);
  remove("test_like.snapshot");
}
#endif

int main(void) {
  RUN_CASE(groups_sleepers_and_waiters);
  RUN_CASE(jitter_stays_one_class);
  RUN_CASE(spread_and_bounds);
  RUN_CASE(many_rates_merge);
  RUN_CASE(only_waiters_and_nothing);
  RUN_CASE(bad_targets);
  RUN_CASE(names_match);
#ifdef _WIN32
  RUN_CASE(windows_threads_from_a_recording);
#else
  RUN_CASE(posix_threads_from_a_recording);
#endif
  return check_summary();
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_engine_sleep.c - the sleep scenario starts exactly N threads and stops every one of them,
   counted by the operating system (/proc or a Toolhelp snapshot), not by our own bookkeeping. */
#include "check.h"
#include "engine/engine.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

/* Wine caps one process at about 5,000 threads (WINE.md); 1,000 is a count both builds carry. */
#define SLEEPERS 1000

static long os_thread_count(void) {
  ts_err err;
  return plat_process_thread_count(plat_self_pid(), &err);
}

/* The OS count once it settles: a joined thread may still be listed for a moment, since the
   kernel wakes the joiner before it removes the thread (up to 2 s, then whatever it says). */
static long os_threads_settled(long expected) {
  long n = os_thread_count();
  for (int i = 0; i < 200 && n != expected; i++) {
    plat_sleep_ns(10 * TS_NS_PER_MS);
    n = os_thread_count();
  }
  return n;
}

static void starts_and_stops_exactly_n(void) {
  long before = os_thread_count();
  CHECK(before >= 1);
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("sleep:1000@200ms", &spec, &err), TS_OK);
  load *l = NULL;
  CHECK_INT(load_start(&spec, NULL, &l, &err), TS_OK);
  CHECK_INT(os_threads_settled(before + SLEEPERS), before + SLEEPERS);
  /* Still exactly N after a few intervals: no thread ended or was added on its own. */
  plat_sleep_ns(700 * TS_NS_PER_MS);
  CHECK_INT(os_threads_settled(before + SLEEPERS), before + SLEEPERS);
  uint64_t t0 = plat_clock_ns();
  load_stop(l);
  uint64_t stop_ns = plat_clock_ns() - t0;
  fprintf(stderr, "  %d sleepers: stopped in %.1f ms\n", SLEEPERS, (double)stop_ns / TS_NS_PER_MS);
  CHECK_INT(os_threads_settled(before), before);
  /* Stopping ends, and within a bound that only a hang exceeds: stopping 1,000 sleepers takes
     0.05 s natively and 0.7 s under Wine, but 6 s under Wine beside a busy test suite (load
     average 126). That the stop wakes sleepers instead of waiting out their interval is
     stop_wakes_sleepers_at_once's question, asked with a 20 s interval. */
  CHECK(stop_ns < 30 * TS_NS_PER_S);
}

static void two_parts_add_up(void) {
  long before = os_thread_count();
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("sleep:300@1s+sleep:200@100ms", &spec, &err), TS_OK);
  load *l = NULL;
  CHECK_INT(load_start(&spec, NULL, &l, &err), TS_OK);
  CHECK_INT(os_thread_count(), before + 500);
  load_stop(l);
  CHECK_INT(os_threads_settled(before), before);
}

static void refused_thread_tears_down_the_rest(void) {
  long before = os_thread_count();
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("sleep:100@300ms+sleep:500@300ms", &spec, &err), TS_OK);
  /* The OS refuses thread 131 of 600: the 130 already running must all be stopped. */
  plat_fault_inject(PLAT_FAULT_THREAD_START, 130, -1);
  load *l = (load *)1;
  int rc = load_start(&spec, NULL, &l, &err);
  plat_fault_inject(PLAT_FAULT_THREAD_START, -1, -1);
  CHECK_INT(rc, TS_EOS);
  CHECK(l == NULL);
  CHECK_STR_CONTAINS(err.text, "sleep: created 30 of 500 threads, then stopped them all");
  CHECK_STR_CONTAINS(err.text, "the OS refused a new thread");
  CHECK_INT(os_threads_settled(before), before);
}

static void baseline_creates_nothing(void) {
  long before = os_thread_count();
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("baseline", &spec, &err), TS_OK);
  load *l = NULL;
  CHECK_INT(load_start(&spec, NULL, &l, &err), TS_OK);
  CHECK_INT(os_threads_settled(before), before);
  load_stop(l);
}

/* Stopping a sleep load does not wait out the interval: with 20 s intervals (relative and
   absolute timers, spread and synchronised phases) every sleeper is woken and joined at once. */
static void stop_wakes_sleepers_at_once(void) {
  static const char *const specs[] = {"sleep:200@20s", "sleep:200@20s/timer=absolute",
                                      "sleep:200@20s/phase=sync"};
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    long before = os_thread_count();
    load_spec spec;
    ts_err err;
    CHECK_INT(load_spec_parse(specs[i], &spec, &err), TS_OK);
    load *l = NULL;
    REQUIRE(load_start(&spec, NULL, &l, &err) == TS_OK);
    /* Every thread started and asleep in its first interval (spread: up to 20 s away). */
    CHECK_INT(os_threads_settled(before + 200), before + 200);
    plat_sleep_ns(200 * TS_NS_PER_MS);
    uint64_t t0 = plat_clock_ns();
    load_stop(l);
    uint64_t stop_ns = plat_clock_ns() - t0;
    fprintf(stderr, "  %s: stopped in %.1f ms\n", specs[i], (double)stop_ns / TS_NS_PER_MS);
    /* Woken, not timed out: well under one interval even on a busy machine or under Wine. */
    CHECK(stop_ns < 5 * TS_NS_PER_S);
    CHECK_INT(os_threads_settled(before), before);
  }
}

int main(void) {
  RUN_CASE(starts_and_stops_exactly_n);
  RUN_CASE(two_parts_add_up);
  RUN_CASE(refused_thread_tears_down_the_rest);
  RUN_CASE(baseline_creates_nothing);
  RUN_CASE(stop_wakes_sleepers_at_once);
  return check_summary();
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_engine_sleep.c - the sleep scenario starts exactly N threads and stops every one of them,
   counted by the operating system (/proc or a Toolhelp snapshot), not by our own bookkeeping, on
   stacks that are one block. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

/* Large loads are started by a crew (one creator per logical CPU): still exactly N threads, and a
   refusal among them stops every one that started, wherever it lies among the slots. */
static void crew_starts_exactly_n_and_cleans_up_a_refusal(void) {
  long before = os_thread_count();
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("sleep:3000@300ms", &spec, &err), TS_OK);
  load *l = NULL;
  REQUIRE(load_start(&spec, NULL, &l, &err) == TS_OK);
  CHECK_INT(os_threads_settled(before + 3000), before + 3000);
  load_stop(l);
  CHECK_INT(os_threads_settled(before), before);
  /* Thread start 1,001 and every later one refused: the creators themselves are thread starts
     too (up to LOAD_CREW_MAX - 1 of them), so 997 to 1,000 sleepers ran. */
  plat_fault_inject(PLAT_FAULT_THREAD_START, 1000, -1);
  l = (load *)1;
  int rc = load_start(&spec, NULL, &l, &err);
  plat_fault_inject(PLAT_FAULT_THREAD_START, -1, -1);
  CHECK_INT(rc, TS_EOS);
  CHECK(l == NULL);
  long created = -1;
  CHECK(sscanf(err.text, "sleep: created %ld of 3000 threads, then stopped them all", &created) ==
        1);
  CHECK(created >= 1000 - (LOAD_CREW_MAX - 1) && created <= 1000);
  CHECK_STR_CONTAINS(err.text, "the OS refused a new thread");
  CHECK_INT(os_threads_settled(before), before);
}

/* ---- the threads' stacks: one block for a load ---- */

#define STACKED 64

typedef struct stacked {
  plat_thread thread;
  uintptr_t local; /* where a local variable of the thread lay */
  int ran;
} stacked;

static void note_local(void *arg) {
  stacked *t = arg;
  volatile char here = 1;
  t->local = (uintptr_t)&here;
  t->ran = here;
}

/* Threads started on a block of stacks run, one per stack, and are joined before it is freed;
   POSIX: each thread's locals lie in its own stack of one mapping (no two share one, and all lie
   within the block's span). A stack that does not exist is refused by name, and an injected
   refusal is the OS's, as for any thread. */
static void threads_run_on_a_block_of_stacks(void) {
  plat_stacks *stacks = NULL;
  ts_err err;
  size_t stack_bytes = plat_thread_min_stack();
  REQUIRE(plat_stacks_create(STACKED, 0, &stacks, &err) == TS_OK);
  static stacked t[STACKED];
  memset(t, 0, sizeof t);
  for (size_t i = 0; i < STACKED; i++)
    REQUIRE(plat_thread_start_on(&t[i].thread, stacks, i, note_local, &t[i], &err) == TS_OK);
  for (size_t i = 0; i < STACKED; i++)
    plat_thread_join(t[i].thread);
  uintptr_t low = UINTPTR_MAX, high = 0;
  int ran = 0;
  for (size_t i = 0; i < STACKED; i++) {
    ran += t[i].ran;
    low = t[i].local < low ? t[i].local : low;
    high = t[i].local > high ? t[i].local : high;
  }
  CHECK_INT(ran, STACKED);
#ifndef _WIN32
  fprintf(stderr, "  %d threads' locals span %.1f KiB (%d stacks of %zu KiB)\n", STACKED,
          (double)(high - low) / 1024, STACKED, stack_bytes / 1024);
  CHECK(high - low < (uintptr_t)STACKED * stack_bytes);
  for (size_t i = 0; i < STACKED; i++)
    for (size_t j = i + 1; j < STACKED; j++) {
      uintptr_t apart = t[i].local > t[j].local ? t[i].local - t[j].local : t[j].local - t[i].local;
      CHECK(apart >= stack_bytes / 2); /* the same place in stacks a stack apart */
    }
#else
  (void)stack_bytes;
#endif
  plat_thread extra;
  CHECK_INT(plat_thread_start_on(&extra, stacks, STACKED, note_local, &t[0], &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "stack 65 of 64 does not exist");
  plat_fault_inject(PLAT_FAULT_THREAD_START, 0, -1);
  CHECK_INT(plat_thread_start_on(&extra, stacks, 0, note_local, &t[0], &err), TS_EOS);
  plat_fault_inject(PLAT_FAULT_THREAD_START, -1, -1);
  CHECK_STR_CONTAINS(err.text, "the OS refused a new thread");
  plat_stacks_free(stacks);
  plat_stacks_free(NULL);
  CHECK_INT(plat_stacks_create(0, 0, &stacks, &err), TS_EINVAL);
  CHECK(stacks == NULL);
}

#ifndef _WIN32
/* The process's memory mappings (/proc/self/maps lines); -1 when unreadable. */
static long mapping_count(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f)
    return -1;
  long n = 0;
  int c;
  while ((c = fgetc(f)) != EOF)
    n += c == '\n';
  fclose(f);
  return n;
}

/* A load's 3,000 sleepers sit in one stack mapping: the process gains a few mappings, not the
   6,000 that a stack and a guard page each would add, and loses them again at the stop. */
static void a_load_maps_its_stacks_once(void) {
  long before = mapping_count();
  REQUIRE(before > 0);
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("sleep:3000@300ms", &spec, &err), TS_OK);
  load *l = NULL;
  REQUIRE(load_start(&spec, NULL, &l, &err) == TS_OK);
  long during = mapping_count();
  load_stop(l);
  long after = mapping_count();
  fprintf(stderr, "  mappings: %ld before, %ld with 3,000 sleepers, %ld after\n", before, during,
          after);
  CHECK(during - before < 50);
  CHECK(after - before < 20);
}
#endif

static void raise_after_20ms(void *arg) {
  plat_sleep_ns(20 * TS_NS_PER_MS);
  plat_cancel_raise(arg);
}

/* A stop while a crew starts the load: nothing is started after it, and what started is stopped
   (raised before the start, nothing starts at all). */
static void cancel_stops_a_crew_start(void) {
  long before = os_thread_count();
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("sleep:4000@300ms", &spec, &err), TS_OK);
  plat_cancel *cancel;
  REQUIRE(plat_cancel_create(&cancel, &err) == TS_OK);
  plat_cancel_raise(cancel);
  load *l = (load *)1;
  CHECK_INT(load_start(&spec, cancel, &l, &err), TS_EINTERRUPTED);
  CHECK(l == NULL);
  CHECK_STR_CONTAINS(err.text, "sleep: interrupted after 0 of 4000 threads");
  CHECK_INT(os_threads_settled(before), before);
  plat_cancel_destroy(cancel);

  REQUIRE(plat_cancel_create(&cancel, &err) == TS_OK);
  plat_thread raiser;
  REQUIRE(plat_thread_start(&raiser, 0, raise_after_20ms, cancel, &err) == TS_OK);
  l = NULL;
  int rc = load_start(&spec, cancel, &l, &err);
  plat_thread_join(raiser);
  long created = -1;
  if (rc == TS_OK) { /* a machine that starts 4,000 threads in 20 ms */
    load_stop(l);
  } else {
    CHECK_INT(rc, TS_EINTERRUPTED);
    CHECK(sscanf(err.text, "sleep: interrupted after %ld of 4000 threads", &created) == 1);
    CHECK(created >= 0 && created < 4000);
  }
  fprintf(stderr, "  cancelled after 20 ms: %s\n", rc == TS_OK ? "all started first" : err.text);
  CHECK_INT(os_threads_settled(before), before);
  plat_cancel_destroy(cancel);
}

int main(void) {
  RUN_CASE(starts_and_stops_exactly_n);
  RUN_CASE(two_parts_add_up);
  RUN_CASE(refused_thread_tears_down_the_rest);
  RUN_CASE(baseline_creates_nothing);
  RUN_CASE(stop_wakes_sleepers_at_once);
  RUN_CASE(crew_starts_exactly_n_and_cleans_up_a_refusal);
  RUN_CASE(cancel_stops_a_crew_start);
  RUN_CASE(threads_run_on_a_block_of_stacks);
#ifndef _WIN32
  RUN_CASE(a_load_maps_its_stacks_once);
#endif
  return check_summary();
}

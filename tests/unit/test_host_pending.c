/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_host_pending.c (Windows) - the service's checkpoints through a slow start or stop, at the
   host's test boundary (pending.h): the reports SetServiceStatus would get are recorded instead.
   A slow stop gets a report at once and then one per interval, each with an advancing checkpoint
   and the same wait hint; none once it ended; none past the cap; no thread while not pending. */
#include <stdio.h>

#include "check.h"
#include "pending.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

static volatile LONG reports, stop_reports, bad_hints;

static void record(unsigned long state, unsigned long wait_hint_ms) {
  InterlockedIncrement(&reports);
  if (state == SERVICE_STOP_PENDING)
    InterlockedIncrement(&stop_reports);
  if (wait_hint_ms != HOST_PENDING_WAIT_HINT_MS)
    InterlockedIncrement(&bad_hints);
}

static void reset(void) { reports = stop_reports = bad_hints = 0; }

/* Waits (up to 10 s: a busy machine may hold the reporter back) until *count reaches at_least. */
static void wait_for(volatile LONG *count, long at_least) {
  for (int i = 0; i < 1000 && *count < at_least; i++)
    plat_sleep_ns(10 * TS_NS_PER_MS);
}

static void slow_stop_reports_until_it_ends(void) {
  reset();
  host_pending p;
  host_pending_init(&p, record);
  CHECK_INT(p.interval_ms, 2000);
  CHECK_INT(p.wait_hint_ms, 10000);
  p.interval_ms = 100; /* the real 2 s, scaled down twentyfold */
  ts_err err;
  long threads_idle = plat_process_thread_count(plat_self_pid(), &err);
  /* The clock starts before the first report, so the time the checks below take on a busy
     machine (a thread count under Wine there: tens of ms) is not taken off the intervals. */
  uint64_t began = plat_clock_ns();
  host_pending_begin(&p, SERVICE_STOP_PENDING);
  CHECK_INT(stop_reports, 1); /* at once */
  CHECK_INT(plat_process_thread_count(plat_self_pid(), &err), threads_idle + 1);
  host_pending_begin(&p, SERVICE_STOP_PENDING); /* a second stop control: goes on, no report */
  wait_for(&stop_reports, 8); /* the slow stop: at least 7 intervals after the first report */
  double took = (double)(plat_clock_ns() - began) / TS_NS_PER_S;
  host_pending_end(&p);
  long seen = stop_reports;
  fprintf(stderr, "  a slow stop with 100 ms checkpoints: %ld STOP_PENDING reports in %.2f s\n",
          seen, took);
  CHECK(seen >= 8);
  CHECK(took >= 0.65); /* one report per interval, never faster */
  CHECK_INT(bad_hints, 0);
  plat_sleep_ns(400 * TS_NS_PER_MS);
  CHECK_INT(stop_reports, seen); /* none after the end */
  CHECK_INT(plat_process_thread_count(plat_self_pid(), &err), threads_idle);
  host_pending_end(&p); /* twice: harmless */
}

static void start_then_stop_replaces_the_reporter(void) {
  reset();
  host_pending p;
  host_pending_init(&p, record);
  p.interval_ms = 100;
  host_pending_begin(&p, SERVICE_START_PENDING);
  wait_for(&reports, 3);
  host_pending_begin(&p, SERVICE_STOP_PENDING); /* a stop asked for while starting */
  long at_switch = reports;
  CHECK_INT(stop_reports, 1);
  CHECK(at_switch >= 3);
  wait_for(&stop_reports, 3);
  host_pending_end(&p);
  CHECK(stop_reports >= 3);
  CHECK_INT(reports - stop_reports, at_switch - 1); /* no START_PENDING after the switch */
}

static void stuck_stop_stops_advancing_at_the_cap(void) {
  reset();
  host_pending p;
  host_pending_init(&p, record);
  CHECK_INT(p.cap_ms, 5 * 60 * 1000);
  p.interval_ms = 50;
  p.cap_ms = 300;
  host_pending_begin(&p, SERVICE_STOP_PENDING);
  plat_sleep_ns(1000 * TS_NS_PER_MS); /* more than three times the cap */
  long seen = stop_reports;
  fprintf(stderr, "  a stuck stop, 50 ms checkpoints capped at 300 ms: %ld reports\n", seen);
  CHECK(seen >= 1 && seen <= 7); /* the first at once; at most one per interval up to the cap */
  host_pending_end(&p);
}

int main(void) {
  RUN_CASE(slow_stop_reports_until_it_ends);
  RUN_CASE(start_then_stop_replaces_the_reporter);
  RUN_CASE(stuck_stop_stops_advancing_at_the_cap);
  return check_summary();
}

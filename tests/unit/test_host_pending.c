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

static void slow_stop_reports_until_it_ends(void) {
  reset();
  host_pending p;
  host_pending_init(&p, record);
  CHECK_INT(p.interval_ms, 2000);
  CHECK_INT(p.wait_hint_ms, 10000);
  p.interval_ms = 100; /* the real 2 s, scaled down twentyfold */
  ts_err err;
  long threads_idle = plat_process_thread_count(plat_self_pid(), &err);
  host_pending_begin(&p, SERVICE_STOP_PENDING);
  CHECK_INT(stop_reports, 1); /* at once */
  CHECK_INT(plat_process_thread_count(plat_self_pid(), &err), threads_idle + 1);
  host_pending_begin(&p, SERVICE_STOP_PENDING); /* a second stop control: goes on, no report */
  plat_sleep_ns(1050 * TS_NS_PER_MS);           /* the slow stop: 10 intervals */
  host_pending_end(&p);
  long seen = stop_reports;
  fprintf(stderr, "  a 1.05 s stop with 100 ms checkpoints: %ld STOP_PENDING reports\n", seen);
  CHECK(seen >= 7 && seen <= 12);
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
  plat_sleep_ns(350 * TS_NS_PER_MS);
  host_pending_begin(&p, SERVICE_STOP_PENDING); /* a stop asked for while starting */
  long at_switch = reports;
  CHECK_INT(stop_reports, 1);
  CHECK(at_switch >= 3);
  plat_sleep_ns(350 * TS_NS_PER_MS);
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
  plat_sleep_ns(1000 * TS_NS_PER_MS);
  long seen = stop_reports;
  fprintf(stderr, "  a stuck stop, 50 ms checkpoints capped at 300 ms: %ld reports in 1 s\n", seen);
  CHECK(seen >= 3 && seen <= 7);
  host_pending_end(&p);
}

int main(void) {
  RUN_CASE(slow_stop_reports_until_it_ends);
  RUN_CASE(start_then_stop_replaces_the_reporter);
  RUN_CASE(stuck_stop_stops_advancing_at_the_cap);
  return check_summary();
}

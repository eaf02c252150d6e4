/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_host_power.c (Windows) - the service run in a console learns of a resume from its own
   suspend and resume notifications (power.h): a resume, automatic or with a user back, reaches
   the sink with the controls table's reason and a suspend does not; a real service's scheduler,
   handed that resume, runs a schedule that fell due while the machine slept (the knob asleep-s);
   where the system has no such notifications, registering says so.
   Usage: test_host_power ADDRESS DATABASE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "power.h"
#include "server/server.h"
#include "store/store.h"
#include "testdb.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_knobs.h"
#include "threadsoup/units.h"

static const char *address, *db_path;

/* ---- a sink that counts ------------------------------------------------------------------- */

static struct {
  int calls;
  char why[160];
  server *svc; /* when set, the resume is passed on to it, as host.c's clock_changed does */
} seen;

static void sink(const char *why) {
  seen.calls++;
  snprintf(seen.why, sizeof seen.why, "%s", why);
  if (seen.svc)
    server_clock_changed(seen.svc, why);
}

static host_power unregistered(void) {
  host_power p;
  memset(&p, 0, sizeof p);
  p.sink = sink;
  return p;
}

static void resumes_reach_the_sink_and_a_suspend_does_not(void) {
  host_power p = unregistered();
  memset(&seen, 0, sizeof seen);
  CHECK_INT(host_power_event(&p, PBT_APMRESUMEAUTOMATIC), HOST_CONTROL_CLOCK);
  CHECK_INT(seen.calls, 1);
  CHECK_STR_EQ(seen.why, "the machine woke from sleep");
  CHECK_INT(host_power_event(&p, PBT_APMRESUMESUSPEND), HOST_CONTROL_CLOCK);
  CHECK_INT(seen.calls, 2);
  CHECK_STR_CONTAINS(seen.why, "a user is back");
  CHECK_INT(host_power_event(&p, PBT_APMSUSPEND), HOST_CONTROL_NOTHING);
  CHECK_INT(host_power_event(&p, PBT_APMPOWERSTATUSCHANGE), HOST_CONTROL_NOTHING);
  CHECK_INT(seen.calls, 2);
}

static void registering_says_why_not_where_the_system_has_none(void) {
  host_power p;
  char why[300];
  CHECK_INT(host_power_open(&p, L"threadsoup-no-such-library.dll", sink, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "no power events in console mode on this system");
  CHECK_STR_CONTAINS(why, "threadsoup-no-such-library.dll cannot be loaded");
  CHECK(p.library == NULL && p.registration == NULL);
  /* A library without the function (Windows 7's powrprof.dll has none). */
  CHECK_INT(host_power_open(&p, L"kernel32.dll", sink, why, sizeof why), 0);
  CHECK_STR_CONTAINS(why, "no power events in console mode on this system");
  CHECK_STR_CONTAINS(why, "PowerRegisterSuspendResumeNotification");
  CHECK(p.library == NULL && p.registration == NULL);
  host_power_close(&p); /* closing what is not open does nothing */
}

static void registering_here(void) {
  host_power p;
  char why[300];
  int registered = host_power_open(&p, HOST_POWER_LIBRARY, sink, why, sizeof why);
  fprintf(stderr, "  %s\n", registered ? "registered for suspend and resume" : why);
  if (registered)
    CHECK(p.registration != NULL);
  else
    CHECK_STR_CONTAINS(why, "no power events in console mode on this system");
  host_power_close(&p);
  CHECK(p.registration == NULL && p.library == NULL);
}

/* ---- the service in this process, handed a resume ----------------------------------------- */

static void serve_main(void *arg) { server_serve(arg); }

static void a_resume_runs_a_schedule_due_while_asleep(void) {
  remove_db(db_path);
  /* A `once` at a whole minute at least 90 s from now, with 2 minutes' grace. */
  time_t due = time(NULL) + 90;
  due += 60 - due % 60;
  store_schedule *sc = calloc(1, sizeof *sc);
  REQUIRE(sc != NULL);
  strftime(sc->spec, sizeof sc->spec, "once %Y-%m-%d %H:%M", localtime(&due));
  snprintf(sc->plan_text, sizeof sc->plan_text, "%s",
           "conditions = baseline\nbench = builtin-st\nreps = 1\nwarmup = 0\n");
  sc->grace_s = 120;
  sc->next_due = (int64_t)due;
  sc->enabled = 1;
  store *db = NULL;
  ts_err err;
  int64_t id = 0;
  char at[32];
  plat_utc_timestamp(at, sizeof at);
  REQUIRE(store_open(&db, db_path, &err) == TS_OK);
  CHECK(store_schedule_add(db, sc, at, &id, &err) == TS_OK);
  store_close(db);
  free(sc);

  server_config config;
  memset(&config, 0, sizeof config);
  snprintf(config.address, sizeof config.address, "%s", address);
  snprintf(config.db_path, sizeof config.db_path, "%s", db_path);
  server *svc = NULL;
  plat_thread thread;
  plat_interrupt_reset();
  REQUIRE(server_create(&svc, &config, &err) == TS_OK);
  REQUIRE(plat_thread_start(&thread, 512 * 1024, serve_main, svc, &err) == TS_OK);
  /* The scheduler waits for the schedule, 90 s and more away. */
  plat_sleep_ns(2 * TS_NS_PER_S);
  CHECK_INT(raw_query(db_path, "SELECT count(*) FROM schedule_event"), 0);
  /* The machine slept until a minute past the due time; its wait did not count that. The resume
     comes as the console's notification. */
  plat_knob_set_number(PLAT_KNOB_ASLEEP_S, (long)((int64_t)(due - time(NULL)) + 60));
  memset(&seen, 0, sizeof seen);
  seen.svc = svc;
  host_power p = unregistered();
  uint64_t woke = plat_clock_ns();
  CHECK_INT(host_power_event(&p, PBT_APMRESUMEAUTOMATIC), HOST_CONTROL_CLOCK);
  long long started = 0;
  for (int i = 0; i < 150 && started < 1; i++) {
    started = raw_query(db_path, "SELECT count(*) FROM schedule_event WHERE what = 'started'");
    if (started < 1)
      plat_sleep_ns(100 * TS_NS_PER_MS);
  }
  fprintf(stderr, "  started %.1f s after the resume\n",
          (double)(plat_clock_ns() - woke) / TS_NS_PER_S);
  CHECK_INT(started, 1);
  CHECK_INT(raw_query(db_path, "SELECT count(*) FROM schedule_event WHERE what = 'missed'"), 0);
  seen.svc = NULL;
  plat_knob_reset(PLAT_KNOB_ASLEEP_S);
  server_request_stop(svc, "test over");
  plat_thread_join(thread);
  server_destroy(svc);
  plat_interrupt_reset();
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: test_host_power ADDRESS DATABASE\n");
    return 2;
  }
  address = argv[1];
  db_path = argv[2];
  RUN_CASE(resumes_reach_the_sink_and_a_suspend_does_not);
  RUN_CASE(registering_says_why_not_where_the_system_has_none);
  RUN_CASE(registering_here);
  RUN_CASE(a_resume_runs_a_schedule_due_while_asleep);
  return check_summary();
}

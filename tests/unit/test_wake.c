/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_wake.c - the wake timer for the next schedule: armed for a wall-clock time and read back
   (Linux: the kernel's own answer, timerfd_gettime), re-armed, disarmed, fired at its time and not
   before (Windows: the waitable timer set with fResume signals), refused as a process without
   CAP_WAKE_ALARM is refused; and a wait on the wall clock that ends at its time. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_knobs.h"
#include "threadsoup/units.h"

/* The timer, or NULL where this process may not have one (a Linux service not run as root, a
   kernel without alarm timers): then it says so in words that name why. */
static plat_wake_timer *open_timer(void) {
  char state[200];
  plat_wake_timer *t = plat_wake_timer_open(state, sizeof state);
  if (!t) {
    fprintf(stderr, "  skipped: no wake timer here (%s)\n", state);
    CHECK(strncmp(state, "n/a: ", 5) == 0);
  } else {
    CHECK_STR_EQ(state, "ready");
  }
  return t;
}

static void armed_read_back_rearmed_and_disarmed(void) {
  plat_wake_timer *t = open_timer();
  if (!t)
    return;
  CHECK_INT(plat_wake_timer_due(t), 0);
  ts_err err;
  int64_t due = (int64_t)time(NULL) + 3600;
  int rc = plat_wake_timer_arm(t, due, &err);
  if (rc == TS_EUNSUPPORTED)
    fprintf(stderr, "  this machine cannot wake by timer: %s\n", err.text);
  CHECK(rc == TS_OK || rc == TS_EUNSUPPORTED);
  int64_t held = plat_wake_timer_due(t);
  CHECK(held >= due - 1 && held <= due + 1);
  /* Armed again for another schedule: the new time replaces the old one. */
  CHECK(plat_wake_timer_arm(t, due + 86400, &err) != TS_EOS);
  held = plat_wake_timer_due(t);
  CHECK(held >= due + 86399 && held <= due + 86401);
  plat_wake_timer_cancel(t);
  CHECK_INT(plat_wake_timer_due(t), 0);
  CHECK_INT(plat_wake_timer_wait(t, 200 * TS_NS_PER_MS), 0);
  plat_wake_timer_close(t);
}

static void fires_at_its_time_and_not_before(void) {
  plat_wake_timer *t = open_timer();
  if (!t)
    return;
  ts_err err;
  /* Whole seconds: the due time is the start of the second after next. */
  int64_t due = (int64_t)time(NULL) + 2;
  uint64_t began = plat_clock_ns();
  CHECK(plat_wake_timer_arm(t, due, &err) != TS_EOS);
  CHECK_INT(plat_wake_timer_wait(t, 500 * TS_NS_PER_MS), 0);
  CHECK_INT(plat_wake_timer_wait(t, 10 * TS_NS_PER_S), 1);
  double waited = (double)(plat_clock_ns() - began) / TS_NS_PER_S;
  fprintf(stderr, "  fired %.2f s after it was armed for the start of the second after next\n",
          waited);
  CHECK(waited >= 0.9 && waited < 10.0);
  plat_sleep_ns(50 * TS_NS_PER_MS); /* time() may read a clock a tick behind the timer's */
  CHECK(time(NULL) >= due);
  CHECK_INT(plat_wake_timer_due(t), 0); /* passed */
  plat_wake_timer_close(t);
}

static void refused_says_why(void) {
  char state[200];
  plat_fault_inject(PLAT_FAULT_WAKE_TIMER, 0, 1);
  plat_wake_timer *t = plat_wake_timer_open(state, sizeof state);
  plat_fault_inject(PLAT_FAULT_WAKE_TIMER, -1, 0);
  CHECK(t == NULL);
  CHECK(strncmp(state, "n/a: ", 5) == 0);
  CHECK_STR_CONTAINS(state, "may not wake the machine");
  plat_wake_timer_close(NULL); /* nothing to do */
  plat_wake_timer_cancel(NULL);
}

static void a_wall_clock_wait_ends_at_its_time(void) {
  plat_mutex m;
  plat_cond c;
  plat_mutex_init(&m);
  plat_cond_init(&c);
  plat_mutex_lock(&m);
  uint64_t began = plat_clock_ns();
  int timed_out = plat_cond_wait_wall(&c, &m, 300 * TS_NS_PER_MS);
  uint64_t took = plat_clock_ns() - began;
  plat_mutex_unlock(&m);
  CHECK_INT(timed_out, 1);
  CHECK(took >= 250 * TS_NS_PER_MS && took < 5 * TS_NS_PER_S);
  plat_cond_destroy(&c);
  plat_mutex_destroy(&m);
}

int main(void) {
  RUN_CASE(armed_read_back_rearmed_and_disarmed);
  RUN_CASE(fires_at_its_time_and_not_before);
  RUN_CASE(refused_says_why);
  RUN_CASE(a_wall_clock_wait_ends_at_its_time);
  return check_summary();
}

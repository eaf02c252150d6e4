/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sleep.c - the sleep check: after how long idle this machine sleeps on its own (Windows' power
   plan on mains power and on battery; Linux: whether systemd-logind is there to suspend it), and
   that a run keeps it awake. */
#include <math.h>
#include <stdio.h>

#include "../checks.h"
#include "../probe.h"

/* "30 min", "2 h", "never", "unknown". */
static void idle_words(long s, char *buf, size_t len) {
  if (s == PLAT_LIMIT_UNKNOWN)
    snprintf(buf, len, "unknown");
  else if (s == 0)
    snprintf(buf, len, "never");
  else if (s % 3600 == 0)
    snprintf(buf, len, "after %ld h", s / 3600);
  else if (s >= 60)
    snprintf(buf, len, "after %ld min", s / 60);
  else
    snprintf(buf, len, "after %ld s", s);
}

void doctor_judge_sleep(const plat_sleep_facts *f, doctor_finding *out) {
  if (!f->windows) {
    if (f->logind)
      doctor_set(out, DOCTOR_OK, NAN, "",
                 "systemd-logind runs: while a run or a load is active ThreadSoup holds its "
                 "sleep inhibitor (sleep:idle, listed by systemd-inhibit --list)");
    else
      doctor_set(out, DOCTOR_SKIP, NAN, "",
                 "no systemd-logind here: nothing suspends this machine on its own, and there is "
                 "no sleep inhibitor to hold");
    return;
  }
  if (f->ac_sleep_s == PLAT_LIMIT_UNKNOWN && f->dc_sleep_s == PLAT_LIMIT_UNKNOWN) {
    doctor_set(out, DOCTOR_WARN, NAN, "see: powercfg /query SCHEME_CURRENT SUB_SLEEP",
               "sleep timeouts unknown: the power plan could not be read (%s)", f->why);
    return;
  }
  char ac[32], dc[32];
  idle_words(f->ac_sleep_s, ac, sizeof ac);
  idle_words(f->dc_sleep_s, dc, sizeof dc);
  doctor_set(out, DOCTOR_OK, (double)f->ac_sleep_s,
             f->ac_sleep_s > 0 ? "nothing to do for runs; between runs the PC sleeps as its plan "
                                 "says (see the wake-timers check for schedules)"
                               : "",
             "the PC sleeps when idle %s on mains power, %s on battery; while a run or a load is "
             "active ThreadSoup holds a power request (system required), which keeps it awake",
             ac, dc);
}

static void check_sleep(const doctor_context *ctx, doctor_finding *out) {
  plat_sleep_facts own;
  doctor_judge_sleep(doctor_sleep_facts(ctx, &own), out);
}

const doctor_check doctor_check_sleep = {
    "sleep", "a run or a load keeps the machine from sleeping on its own", DOCTOR_CHEAP,
    check_sleep};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* wake_timers.c - the wake-timers check: whether Windows' power plan lets a wake timer (the one
   the service arms for the next schedule) wake a sleeping PC, on mains power and on battery
   (Linux: the service's alarm timer needs no plan). */
#include <math.h>

#include "../checks.h"
#include "../probe.h"

/* GUID_ALLOW_RTC_WAKE's values, as Power Options names them. */
static const char *wake_words(int v) {
  return v == 0   ? "disabled"
         : v == 1 ? "enabled"
         : v == 2 ? "important wake timers only"
                  : "unknown";
}

void doctor_judge_wake_timers(const plat_sleep_facts *f, doctor_finding *out) {
  if (!f->windows) {
    doctor_set(out, DOCTOR_SKIP, NAN, "",
               "Linux: the service (run as root) arms an alarm timer (CLOCK_REALTIME_ALARM) for "
               "the next schedule, which wakes a suspended machine whose RTC can; "
               "'threadsoup schedule list' says whether it is armed");
    return;
  }
  const char *advice = "Power Options > Change plan settings > Change advanced power settings > "
                       "Sleep > Allow wake timers: Enable (or powercfg /setacvalueindex "
                       "SCHEME_CURRENT SUB_SLEEP RTCWAKE 1, then powercfg /setactive "
                       "SCHEME_CURRENT)";
  if (f->ac_wake_timers < 0) {
    doctor_set(out, DOCTOR_WARN, NAN, "see: powercfg /query SCHEME_CURRENT SUB_SLEEP RTCWAKE",
               "wake timers unknown: the power plan could not be read (%s)", f->why);
    return;
  }
  if (f->ac_wake_timers != 1) {
    doctor_set(out, DOCTOR_WARN, f->ac_wake_timers, advice,
               "wake timers on mains power: %s, on battery: %s; a sleeping PC does not wake for "
               "the service's timer, so a schedule due while it sleeps runs when the PC wakes "
               "within its grace window, and is missed after that",
               wake_words(f->ac_wake_timers), wake_words(f->dc_wake_timers));
    return;
  }
  doctor_set(out, DOCTOR_OK, f->ac_wake_timers, "",
             "wake timers on mains power: enabled, on battery: %s; the service's timer wakes the "
             "PC for the next schedule%s",
             wake_words(f->dc_wake_timers), f->dc_wake_timers == 1 ? "" : " (on mains power only)");
}

static void check_wake_timers(const doctor_context *ctx, doctor_finding *out) {
  plat_sleep_facts own;
  doctor_judge_wake_timers(doctor_sleep_facts(ctx, &own), out);
}

const doctor_check doctor_check_wake_timers = {
    "wake-timers", "the power plan lets a wake timer wake the PC on mains power", DOCTOR_CHEAP,
    check_wake_timers};

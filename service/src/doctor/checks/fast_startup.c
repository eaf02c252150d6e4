/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* fast_startup.c - the fast-startup check: whether Windows' Shut down hibernates the services'
   session (Fast Startup, HiberbootEnabled), so that a power-on is no start for the service. */
#include <math.h>

#include "../checks.h"
#include "../probe.h"

void doctor_judge_fast_startup(const plat_sleep_facts *f, doctor_finding *out) {
  if (!f->windows) {
    doctor_set(out, DOCTOR_SKIP, NAN, "", "Linux has no Fast Startup");
    return;
  }
  if (f->fast_startup < 0) {
    doctor_set(out, DOCTOR_SKIP, NAN, "",
               "Fast Startup not set (no HiberbootEnabled under Session Manager\\Power)");
    return;
  }
  if (f->fast_startup == 0 || f->hibernation == 0) {
    doctor_set(out, DOCTOR_OK, 0, "",
               "Fast Startup is %s: Shut down ends the service, and the next power-on starts it "
               "(boot schedules run, unfinished runs resume)",
               f->fast_startup == 0 ? "off" : "set but hibernation is off");
    return;
  }
  doctor_set(out, DOCTOR_WARN, 1,
             "turn it off: Control Panel > Power Options > Choose what the power buttons do > "
             "Turn on fast startup (or powercfg /h off, which also turns hibernation off); or use "
             "Restart, which is always a full start",
             "Fast Startup is on (HiberbootEnabled 1): Shut down hibernates the service instead "
             "of ending it, so after a power-on `boot` schedules do not run and an unfinished run "
             "is not resumed until the next Restart");
}

static void check_fast_startup(const doctor_context *ctx, doctor_finding *out) {
  plat_sleep_facts own;
  doctor_judge_fast_startup(doctor_sleep_facts(ctx, &own), out);
}

const doctor_check doctor_check_fast_startup = {
    "fast-startup", "Shut down ends the service, so a power-on starts it", DOCTOR_CHEAP,
    check_fast_startup};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* power.c - the power check: where benchmarks run (power throttling, power source, core
   classes). */
#include <stdlib.h>
#include <string.h>

#include "../checks.h"
#include "../probe.h"

void doctor_judge_power(int opt_out_works, const char *opt_out_why, const char *source,
                        const char *cores, doctor_finding *out) {
  int battery = strstr(source, "battery") == source;
  doctor_status status = !opt_out_works ? DOCTOR_WARN : battery ? DOCTOR_WARN : DOCTOR_OK;
  doctor_set(out, status, opt_out_works ? 1 : 0,
             !opt_out_works
                 ? "benchmarks may run throttled (EcoQoS) on this machine: compare runs only on "
                   "this machine, on AC power, and read each trial's power_throttling column"
             : battery ? "plug the machine in: on battery the OS lowers clock speeds and the "
                         "scores move with the battery, not with the load"
                       : "",
             "power-throttling opt-out for benchmark threads: %s; power source %s; cores %s",
             opt_out_why, source, cores);
}

static void check_power(const doctor_context *ctx, doctor_finding *out) {
  (void)ctx;
  char why[200];
  int works = plat_power_throttling_opt_out_self_test(why, sizeof why);
  plat_core_layout *layout = malloc(sizeof *layout);
  char cores[160] = "unknown";
  if (layout) {
    plat_core_layout_read(layout);
    plat_core_layout_summary(layout, cores, sizeof cores);
    free(layout);
  }
  doctor_judge_power(works, why, plat_power_source(), cores, out);
  if (doctor_wine(ctx))
    doctor_add_measured(out,
                        "; Wine has no EcoQoS and no hybrid scheduling: only a Windows 11 PC with "
                        "efficiency cores shows whether the opt-out keeps benchmarks off them");
}

const doctor_check doctor_check_power = {
    "power", "benchmarks run out of power throttling, on AC power (and where they ran is stored)",
    DOCTOR_CHEAP, check_power};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* burn_clock.c - the burn-clock check: the thread CPU clock burn spins on, against wall time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../checks.h"
#include "../probe.h"
#include "threadsoup/units.h"

#define BURN_SPINS 3
#define BURN_RUN_NS (50 * TS_NS_PER_MS)  /* each spin: 50 ms of the thread running */
#define BURN_CAP_NS (150 * TS_NS_PER_MS) /* ... or 150 ms of wall time on a busy machine */
#define BURN_MIN_RAN_NS (10 * TS_NS_PER_MS)
#define BURN_TOLERANCE 0.10 /* burn:10% costing 9 to 11 % is what calibrate's words assume */
#define BURN_STEADY 0.05    /* spins that disagree by more: the rate moves under the load */

void doctor_judge_burn_clock(const plat_spin_clock *c, doctor_finding *out) {
  if (!c->available) {
    doctor_set(out, DOCTOR_SKIP, NAN, c->why,
               "no thread CPU clock here: burn spins on wall time, and a burner beside another "
               "busy thread takes less than its duty");
    return;
  }
  double ratio[PLAT_SPIN_SAMPLES_MAX], ran = 0, wall = 0;
  int n = 0;
  for (int i = 0; i < c->count && i < PLAT_SPIN_SAMPLES_MAX; i++) {
    const plat_spin_sample *s = &c->samples[i];
    ran += s->ran_ns;
    wall += s->wall_ns;
    /* A spin the thread barely ran through says nothing about the clock. */
    if (s->ran_ns >= BURN_MIN_RAN_NS)
      ratio[n++] = s->thread_ns / s->ran_ns;
  }
  if (n == 0) {
    doctor_set(out, DOCTOR_SKIP, NAN, "run the doctor again when the machine is less busy",
               "the thread ran less than %.0f ms in each of %d spins: too busy to compare "
               "burn's clock (%s) with wall time",
               (double)BURN_MIN_RAN_NS / TS_NS_PER_MS, c->count, c->source);
    return;
  }
  qsort(ratio, (size_t)n, sizeof ratio[0], doctor_compare_doubles);
  double lo = ratio[0], hi = ratio[n - 1], median = ratio[n / 2];
  if (n % 2 == 0)
    median = (ratio[n / 2 - 1] + ratio[n / 2]) / 2;
  int steady = hi - lo <= BURN_STEADY;
  int close = lo >= 1 - BURN_TOLERANCE && hi <= 1 + BURN_TOLERANCE;
  char advice[DOCTOR_TEXT_MAX] = "";
  if (!steady)
    snprintf(advice, sizeof advice,
             "burn's clock moved between %.2fx and %.2fx wall time from spin to spin (frequency "
             "scaling, hybrid cores or a virtual machine): burn's expected costs are "
             "approximate here; calibrate's verdicts rest on the measured effects anyway",
             lo, hi);
  else if (!close)
    snprintf(advice, sizeof advice,
             "burn's clock runs at %.2fx wall time here, so burn:DUTY takes about DUTY/%.2f of a "
             "CPU: burn's expected costs are approximate; calibrate's verdicts rest on the "
             "measured effects anyway",
             median, median);
  doctor_set(out, steady && close ? DOCTOR_OK : DOCTOR_WARN, median, advice,
             "burn's clock (%s) advanced %.3fx wall time while the thread ran (median of %d "
             "spins, %.3f to %.3f); the thread ran %.0f ms of the spins' %.0f ms",
             c->source, median, n, lo, hi, ran / TS_NS_PER_MS, wall / TS_NS_PER_MS);
  if (c->base_rate > 0) {
    char rates[160] = "";
    size_t used = 0;
    for (int i = 0; i < c->count && used < sizeof rates - 16; i++)
      used += (size_t)snprintf(rates + used, sizeof rates - used, "%s%.0f", i ? ", " : "",
                               c->samples[i].rate);
    char sentence[256];
    snprintf(sentence, sizeof sentence, "; %s cycles/us against burn's %.0f (measured once)", rates,
             c->base_rate);
    doctor_add_measured(out, sentence);
  }
}

static void check_burn_clock(const doctor_context *ctx, doctor_finding *out) {
  plat_spin_clock own;
  const plat_spin_clock *c = ctx->spin_clock;
  if (!c) {
    plat_spin_clock_measure(BURN_SPINS, BURN_RUN_NS, BURN_CAP_NS, &own);
    c = &own;
  }
  doctor_judge_burn_clock(c, out);
  const char *wine = doctor_wine(ctx);
  if (wine && !c->available) {
    char sentence[160];
    snprintf(sentence, sizeof sentence,
             " (Wine %s has no thread cycle counter; a Windows PC has one)", wine);
    doctor_add_measured(out, sentence);
  }
}

const doctor_check doctor_check_burn_clock = {
    "burn-clock", "burn's CPU-time spin is counted on a clock that keeps pace with wall time",
    DOCTOR_SLOW, check_burn_clock};

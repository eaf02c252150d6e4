/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_stats_drift.c - the trend of a blocked run against tests/reference/drift_reference.py
   (SciPy's linregress; the printed numbers are copied here), its refusals, and seeded simulations
   of its false alarms when nothing changed or the change is inside the margin. */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "sim.h"
#include "stats/drift.h"

static const double base[10] = {100.0, 100.4, 99.1, 101.3, 100.9, NAN, 101.8, 102.6, 101.9, 103.1};
static const double cond[10] = {97.2, 97.9, 96.0, 98.4, NAN, 98.0, 98.6, 99.9, 98.8, 100.4};

static void trend_against_scipy(void) {
  drift_trend t;
  CHECK_INT(drift_of_scores(base, 10, 0, 0, &t), DRIFT_OK);
  CHECK_INT(t.n, 9);
  CHECK_REL(t.slope, 0.0034668978380825964, 1e-12);
  CHECK_REL(t.se, 0.0007013697752581184, 1e-10);
  CHECK_REL(t.change_percent, 3.1693968099551264, 1e-12);
  CHECK_REL(t.change_low, 1.6408969017116908, 1e-10);
  CHECK_REL(t.change_high, 4.720882662249798, 1e-10);
  CHECK_INT(t.flagged, 1); /* 1.6 % at least: more than the 1 % margin */
  CHECK_INT(drift_of_scores(base, 10, 0, 2, &t), DRIFT_OK);
  CHECK_INT(t.flagged, 0); /* but maybe less than 2 % */

  CHECK_INT(drift_of_effect(base, cond, 10, 0, 0, &t), DRIFT_OK);
  CHECK_INT(t.n, 8);
  CHECK_REL(t.slope, -3.722450897939612e-05, 1e-9);
  CHECK_REL(t.se, 0.0003049221832809447, 1e-10);
  CHECK_REL(t.change_percent, -0.03349644676863063, 1e-9);
  CHECK_REL(t.change_low, -0.7025286402558535, 1e-10);
  CHECK_REL(t.change_high, 0.6400434554224798, 1e-10);
  CHECK_INT(t.flagged, 0);
}

static void bad_input_is_refused(void) {
  drift_trend t;
  double v[4] = {100, 101, INFINITY, 100};
  CHECK_INT(drift_of_scores(v, 4, 0, 0, &t), DRIFT_EVALUE);
  CHECK(isnan(t.slope) && !t.flagged);
  v[2] = -1;
  CHECK_INT(drift_of_scores(v, 4, 0, 0, &t), DRIFT_EVALUE);
  v[2] = NAN;
  CHECK_INT(drift_of_scores(v, 4, 0, 0, &t), DRIFT_OK);
  CHECK_INT(drift_of_scores(v, 2, 0, 0, &t), DRIFT_ETOOFEW);
  CHECK_INT(drift_of_scores(NULL, 4, 0, 0, &t), DRIFT_EINVAL);
  CHECK_INT(drift_of_scores(v, 4, 1.2, 0, &t), DRIFT_EINVAL);
  CHECK_INT(drift_of_scores(v, 4, 0, -1, &t), DRIFT_EINVAL);
  CHECK_INT(drift_of_effect(NULL, v, 4, 0, 0, &t), DRIFT_EINVAL);
  CHECK_INT(drift_of_scores(v, 4, 0, 0, NULL), DRIFT_EINVAL);
  CHECK_INT(drift_of_scores(NULL, 0, 0, 0, &t), DRIFT_ETOOFEW);
  const double flat[4] = {100, 100, 100, 100};
  CHECK_INT(drift_of_scores(flat, 4, 0, 0, &t), DRIFT_OK);
  CHECK(t.slope == 0 && !t.flagged);
}

/* The flag rate of the baseline's trend and of the effect's trend over simulated runs. */
static void flag_rates(const char *name, uint64_t seed, size_t blocks, double cv, double drift,
                       long runs, double *machine, double *effect) {
  sim_rng rng = sim_seed(seed);
  double b[SIM_MAX_BLOCKS], c[SIM_MAX_BLOCKS], *conds[1] = {c};
  sim_design d = {1, blocks, cv, 0.54, drift, NULL};
  long m = 0, e = 0;
  for (long i = 0; i < runs; i++) {
    sim_run(&rng, &d, b, conds);
    drift_trend t;
    drift_of_scores(b, blocks, 0, 0, &t);
    m += t.flagged;
    drift_of_effect(b, c, blocks, 0, 0, &t);
    e += t.flagged;
  }
  char what[96];
  snprintf(what, sizeof what, "\"machine changed\", %s", name);
  *machine = sim_report(what, m, runs);
  snprintf(what, sizeof what, "\"effect changed\", %s", name);
  *effect = sim_report(what, e, runs);
}

/* No drift, and a drift that moves the scores 0.5 % over the run (inside the 1 % margin): at
   most 5 % false alarms (expected at most 2.5 %; 4,000 runs). A real 5 % drift over 20 blocks
   at cv 2 % is flagged in most runs; the effect, a ratio within blocks, does not drift with it. */
static void drift_flag_keeps_false_alarms_below_5_percent(void) {
  double machine, effect;
  flag_rates("no drift, cv 5 %, 10 blocks", 0xd41f0, 10, 0.05, 0, 4000, &machine, &effect);
  CHECK(machine <= 0.05 && effect <= 0.05);
  flag_rates("no drift, cv 2 %, 30 blocks", 0xd41f1, 30, 0.02, 0, 4000, &machine, &effect);
  CHECK(machine <= 0.05 && effect <= 0.05);
  /* 0.5 % over 10 blocks of 2 trials: 0.005 / 20 per trial */
  flag_rates("0.5 % drift, cv 2 %, 10 blocks", 0xd41f2, 10, 0.02, 0.005 / 20, 4000, &machine,
             &effect);
  CHECK(machine <= 0.05 && effect <= 0.05);
  flag_rates("5 % drift, cv 2 %, 20 blocks", 0xd41f3, 20, 0.02, 0.05 / 40, 2000, &machine, &effect);
  CHECK(machine >= 0.5);
  CHECK(effect <= 0.05);
}

int main(void) {
  RUN_CASE(trend_against_scipy);
  RUN_CASE(bad_input_is_refused);
  RUN_CASE(drift_flag_keeps_false_alarms_below_5_percent);
  return check_summary();
}

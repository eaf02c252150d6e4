/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_stats_calibration.c - the calibration slope and verdict against
   tests/reference/gls_reference.py (the printed numbers are copied here), its refusals, and
   seeded simulations: burns that cost what they should pass, burns that cost half are caught,
   where the rule "the largest burn came out slower" passes them. */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "sim.h"
#include "stats/blocked.h"
#include "stats/calibration_fit.h"
#include "stats/gls.h"

static const double burn[3] = {2, 5, 10};

static void slope_against_numpy(void) {
  static const double base[6] = {100.0, 98.2, 101.5, 99.0, 100.7, 97.9};
  static const double c1[6] = {98.1, 96.4, 99.2, 97.5, NAN, 95.8};
  static const double c2[6] = {95.3, 93.0, 96.9, 94.1, 95.9, 93.2};
  static const double c3[6] = {90.2, 88.9, 91.8, 88.7, 90.8, 88.0};
  const double *conds[3] = {c1, c2, c3};
  calib_result r;
  CHECK_INT(calib_fit_from_blocks(burn, base, conds, 3, 6, 0, 0, &r), GLS_OK);
  CHECK_REL(r.slope, 0.9868990979397392, 1e-11);
  CHECK_REL(r.slope_se, 0.018923362674496475, 1e-10);
  CHECK_REL(r.slope_low, 0.9456686325641003, 1e-10);
  CHECK_REL(r.slope_high, 1.028129563315378, 1e-10);
  CHECK_INT(r.largest, 2);
  CHECK_REL(r.largest_expected, 0.10536051565782631, 1e-14);
  CHECK_REL(r.largest_low, 0.09927459835395468, 1e-10);
  CHECK_REL(r.largest_high, 0.10854581304315854, 1e-10);
  CHECK_INT(r.verdict, CALIB_PASSED);
  CHECK_STR_EQ(calib_verdict_name(r.verdict), "passed");
  /* The same scores read as times: the "burns" made them faster, a cost below 0. */
  CHECK_INT(calib_fit_from_blocks(burn, base, conds, 3, 6, 1, 0, &r), GLS_OK);
  CHECK_INT(r.verdict, CALIB_COSTS_LESS);
  CHECK_STR_EQ(calib_verdict_name(r.verdict), "costs less than expected");
}

static void bad_input_is_refused(void) {
  static const double base[3] = {100, 101, 99}, c[3] = {98, 99, 97};
  const double *conds[1] = {c};
  calib_result r;
  double bad_burn[1] = {100};
  CHECK_INT(calib_fit_from_blocks(bad_burn, base, conds, 1, 3, 0, 0, &r), GLS_EVALUE);
  CHECK_INT(r.verdict, CALIB_INCONCLUSIVE);
  CHECK(isnan(r.slope));
  CHECK_INT(calib_fit_from_blocks(burn, base, conds, 0, 3, 0, 0, &r), GLS_EINVAL);
  CHECK_INT(calib_fit_from_blocks(burn, base, conds, 1, 1, 0, 0, &r), GLS_EVALUE);
  double x[2] = {0.02, -0.05}, y[2] = {0.02, 0.05}, v[4] = {1e-4, 0, 0, 1e-4};
  CHECK_INT(calib_fit_run(x, y, 2, v, INFINITY, 0, &r), GLS_EVALUE);
  x[1] = 0.05;
  CHECK_INT(calib_fit_run(x, y, 2, v, INFINITY, 0, &r), GLS_OK);
  CHECK_INT(r.verdict, CALIB_PASSED);
  CHECK_STR_EQ(calib_verdict_name((calib_verdict)99), "inconclusive");
}

/* Simulated calibrate runs: burns of 2, 5 and 10 % whose real cost is `scale` times what they
   should cost, 8 blocks, cv 3 %. Returns the share of each verdict in verdicts[4], and the share
   of runs where the largest burn came out slower (the rule this verdict replaces). */
static double simulate(uint64_t seed, double scale, size_t blocks, double cv, long runs,
                       double *verdicts) {
  double effect[3];
  static sim_scores s;
  sim_scores_init(&s);
  for (int i = 0; i < 3; i++)
    effect[i] = scale * log1p(-burn[i] / 100);
  sim_design d = {3, blocks, cv, 0.54, 0.001, effect};
  sim_rng rng = sim_seed(seed);
  long count[4] = {0}, largest_slower = 0;
  for (long r = 0; r < runs; r++) {
    sim_run(&rng, &d, s.baseline, s.condition);
    calib_result c;
    calib_fit_from_blocks(burn, s.baseline, s.conditions, 3, blocks, 0, 0, &c);
    count[c.verdict]++;
    blocked_result b;
    blocked_compare(s.baseline, s.data[2], blocks, NULL, &b);
    largest_slower += b.verdict == STATS_SLOWER;
  }
  for (int v = 0; v < 4; v++) {
    char what[96];
    snprintf(what, sizeof what, "calibration x%.2g, cv %.0f %%, %zu blocks: %s", scale, 100 * cv,
             blocks, calib_verdict_name((calib_verdict)v));
    verdicts[v] = sim_report(what, count[v], runs);
  }
  return (double)largest_slower / (double)runs;
}

static void burns_that_cost_what_they_should_pass(void) {
  double v[4];
  simulate(0xca1, 1, 8, 0.03, 4000, v);
  CHECK(v[CALIB_PASSED] >= 0.94);
  CHECK(v[CALIB_COSTS_LESS] + v[CALIB_COSTS_MORE] <= 0.05);
  simulate(0xca2, 1, 5, 0.15, 4000, v); /* noisy: may stay undecided, must not fail falsely */
  CHECK(v[CALIB_COSTS_LESS] + v[CALIB_COSTS_MORE] <= 0.05);
}

static void burns_that_cost_half_are_caught(void) {
  double v[4];
  double old_rule = simulate(0xca3, 0.5, 8, 0.03, 2000, v);
  printf("  the largest burn came out slower (the old pass) in %.1f %% of these runs\n",
         100 * old_rule);
  CHECK(v[CALIB_COSTS_LESS] >= 0.8);
  CHECK(old_rule >= 0.95);
}

int main(void) {
  RUN_CASE(slope_against_numpy);
  RUN_CASE(bad_input_is_refused);
  RUN_CASE(burns_that_cost_what_they_should_pass);
  RUN_CASE(burns_that_cost_half_are_caught);
  return check_summary();
}

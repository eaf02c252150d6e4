/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_stats_multiplicity.c - Holm across a benchmark's conditions: adjusted p values against
   tests/reference/blocked_reference.py, intervals that agree with Holm's decisions, and seeded
   simulations of the per-run false "slower"/"faster" rate for the designs the presets run and
   for the kernel verdicts (one family over every kernel under every condition). */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "sim.h"
#include "stats/multiplicity.h"

static void holm_against_reference(void) {
  static const double p1[4] = {0.01, 0.04, 0.03, 0.005}, a1[4] = {0.03, 0.06, 0.06, 0.02};
  static const double p2[3] = {0.2, 0.011, 0.6}, a2[3] = {0.4, 0.033, 0.6};
  static const double p3[6] = {0.001, 0.0125, 0.02, 0.04, 0.3, 0.012};
  static const double a3[6] = {0.006, 0.06, 0.06, 0.08, 0.3, 0.06};
  double adj[6];
  CHECK_INT(multiplicity_holm(p1, 4, adj), 0);
  for (int i = 0; i < 4; i++)
    CHECK_REL(adj[i], a1[i], 1e-15);
  CHECK_INT(multiplicity_holm(p2, 3, adj), 0);
  for (int i = 0; i < 3; i++)
    CHECK_REL(adj[i], a2[i], 1e-15);
  CHECK_INT(multiplicity_holm(p3, 6, adj), 0);
  for (int i = 0; i < 6; i++)
    CHECK_REL(adj[i], a3[i], 1e-15);
  /* The levels: p3 sorted is .001 .012 .0125 .02 .04 .3; steps .05/6, .05/5, .05/4 ...:
     .001 < .00833 rejected, .012 >= .01 stops, so everything else gets .05/5. */
  double level[6];
  CHECK_INT(multiplicity_holm_levels(p3, 6, 0.05, level), 0);
  CHECK_REL(level[0], 0.05 / 6, 1e-15);
  for (int i = 1; i < 6; i++)
    CHECK_REL(level[i], 0.05 / 5, 1e-15);
  CHECK_INT(multiplicity_holm_levels(p1, 4, 0.05, level), 0); /* .005 .01 rejected, .03 stops */
  CHECK_REL(level[3], 0.05 / 4, 1e-15);
  CHECK_REL(level[0], 0.05 / 3, 1e-15);
  CHECK_REL(level[1], 0.05 / 2, 1e-15);
  CHECK_REL(level[2], 0.05 / 2, 1e-15);
  CHECK_REL(multiplicity_simultaneous_confidence(0.95, 4), 0.9875, 1e-15);
}

static void bad_input_is_refused(void) {
  double p[2] = {0.5, 1.5}, adj[2];
  CHECK_INT(multiplicity_holm(p, 2, adj), -1);
  CHECK_INT(multiplicity_holm(NULL, 2, adj), -1);
  CHECK_INT(multiplicity_holm(p, 0, NULL), 0);
  p[1] = NAN; /* a comparison that could not be made: counts as p = 1, stays in k */
  CHECK_INT(multiplicity_holm(p, 2, adj), 0);
  CHECK_REL(adj[0], 1.0, 0);
  CHECK_REL(adj[1], 1.0, 0);
  p[0] = 0.01;
  CHECK_INT(multiplicity_holm(p, 2, adj), 0);
  CHECK_REL(adj[0], 0.02, 1e-15);
  CHECK_INT(multiplicity_holm_levels(p, 2, 0, adj), -1);
  CHECK(isnan(multiplicity_simultaneous_confidence(0.95, 0)));
  blocked_result out[2];
  CHECK_INT(multiplicity_compare_family(NULL, NULL, 2, 5, NULL, 0, out, NULL), BLOCKED_EINVAL);
}

/* One simulated design: k conditions with true log effects `effect` (NULL: none), `blocks`
   blocks. A false claim is "slower"/"faster" where there is no effect, or a claim in the wrong
   direction. Returns the fraction of runs with at least one, with Holm or without. Also checks
   that every Holm verdict agrees with its adjusted p value. */
static double false_claim_rate(const char *name, uint64_t seed, size_t k, size_t blocks,
                               const double *effect, int holm, long runs) {
  sim_rng rng = sim_seed(seed);
  static sim_scores s;
  sim_scores_init(&s);
  sim_design d = {k, blocks, 0.05, 0.54, 0.001, effect};
  long runs_with_false = 0, disagreements = 0;
  for (long run = 0; run < runs; run++) {
    sim_run(&rng, &d, s.baseline, s.condition);
    blocked_result r[SIM_MAX_CONDITIONS];
    double adjusted[SIM_MAX_CONDITIONS];
    if (holm) {
      multiplicity_compare_family(s.baseline, s.conditions, k, blocks, NULL, 0, r, adjusted);
    } else {
      for (size_t i = 0; i < k; i++)
        blocked_compare(s.baseline, s.condition[i], blocks, NULL, &r[i]);
    }
    int any = 0;
    for (size_t i = 0; i < k; i++) {
      double e = effect ? effect[i] : 0;
      int claim = r[i].verdict == STATS_SLOWER || r[i].verdict == STATS_FASTER;
      int right =
          (e < 0 && r[i].verdict == STATS_SLOWER) || (e > 0 && r[i].verdict == STATS_FASTER);
      any |= claim && !right;
      if (holm)
        disagreements += claim != (adjusted[i] < 0.05);
    }
    runs_with_false += any;
  }
  CHECK_INT(disagreements, 0);
  char what[96];
  snprintf(what, sizeof what, "runs with a false effect, %s, %s", name, holm ? "Holm" : "no Holm");
  return sim_report(what, runs_with_false, runs);
}

/* The presets' designs with no effect (or, for calibrate, real burns and an A/A null): with Holm
   at most 5 % of runs make a false claim (bound 5.5 %: 4,000 runs give a Monte-Carlo error of
   0.35 %); without Holm the same runs make one in well over 5 %, so the check can fail. */
static void holm_keeps_false_claims_per_run_at_5_percent(void) {
  static const double burns[4] = {-0.0202, -0.0513, -0.1054, 0}; /* 2, 5, 10 % slower; A/A */
  static const struct {
    const char *name;
    size_t k, blocks;
    const double *effect;
  } designs[] = {{"quick, 4 conditions, 5 blocks", 4, 5, NULL},
                 {"quick, 4 conditions, 10 blocks", 4, 10, NULL},
                 {"calibrate, burn 2/5/10 % + A/A, 8 blocks", 4, 8, burns},
                 {"cost, 6 conditions, 8 blocks", 6, 8, NULL},
                 {"dose, 5 doses, 10 blocks", 5, 10, NULL},
                 {"dose, 8 doses, 6 blocks", 8, 6, NULL}};
  for (size_t i = 0; i < sizeof designs / sizeof designs[0]; i++) {
    uint64_t seed = 0x401d0 + i;
    double with = false_claim_rate(designs[i].name, seed, designs[i].k, designs[i].blocks,
                                   designs[i].effect, 1, 4000);
    double without = false_claim_rate(designs[i].name, seed, designs[i].k, designs[i].blocks,
                                      designs[i].effect, 0, 4000);
    CHECK(with <= 0.055);
    if (!designs[i].effect)
      CHECK(without > 0.08);
  }
}

/* Holm over TOST too, when asked: both conditions are inside the margin, so the first step tests
   the smaller TOST p at 0.05 / 2 (its equivalence interval widens), the second at 0.05. */
static void holm_for_equivalence_widens_its_intervals(void) {
  static const double base[6] = {100, 101, 99, 100.5, 99.5, 100};
  static const double c1[6] = {100.1, 101.2, 98.9, 100.4, 99.7, 100.1};
  static const double c2[6] = {99.8, 100.9, 99.2, 100.3, 99.4, 99.9};
  const double *conds[2] = {c1, c2};
  blocked_result plain[2], corrected[2];
  blocked_options o = {.margin_percent = 1};
  CHECK_INT(multiplicity_compare_family(base, conds, 2, 6, &o, 0, plain, NULL), BLOCKED_OK);
  CHECK_INT(multiplicity_compare_family(base, conds, 2, 6, &o, 1, corrected, NULL), BLOCKED_OK);
  int first = plain[0].tost_p <= plain[1].tost_p ? 0 : 1, second = 1 - first;
  CHECK_REL(plain[first].equivalence_alpha, 0.05, 0);
  CHECK_REL(corrected[first].equivalence_alpha, 0.025, 1e-15);
  CHECK(corrected[first].eq_low < plain[first].eq_low);
  CHECK(corrected[first].eq_high > plain[first].eq_high);
  CHECK_REL(corrected[second].equivalence_alpha, 0.05, 0);
  CHECK_REL(corrected[second].eq_low, plain[second].eq_low, 0);
  for (int i = 0; i < 2; i++) {
    CHECK_INT(plain[i].verdict, STATS_NO_EFFECT);
    CHECK_INT(corrected[i].verdict, STATS_NO_EFFECT);
  }
}

/* A run of builtin-st's 4 kernels under 3 conditions and a baseline, 8 blocks, nothing changed:
   each trial's kernels share its noise (correlation `shared`) and each block's effect, as one
   benchmark run's kernels do. The share of runs in which any of the 12 kernel verdicts is
   "slower"/"faster", with one Holm family over the whole table (report/data.c's compare_kernels)
   or, as before, one per kernel. */
enum { KERNELS = 4, KERNEL_CONDITIONS = 3, KERNEL_BLOCKS = 8 };

static double kernel_false_claim_rate(uint64_t seed, double shared, int per_kernel, long runs) {
  sim_rng rng = sim_seed(seed);
  static double rows[KERNELS][KERNEL_CONDITIONS + 1][KERNEL_BLOCKS];
  const double cv = 0.05, block_sd = cv * sqrt(0.5), trial_sd = cv * sqrt(0.5);
  long runs_with_false = 0;
  for (long run = 0; run < runs; run++) {
    for (size_t b = 0; b < KERNEL_BLOCKS; b++) {
      double block = block_sd * sim_normal(&rng);
      for (int c = 0; c <= KERNEL_CONDITIONS; c++) {
        double trial = sim_normal(&rng);
        for (int j = 0; j < KERNELS; j++)
          rows[j][c][b] =
              100 *
              exp(block + trial_sd * (sqrt(shared) * trial + sqrt(1 - shared) * sim_normal(&rng)));
      }
    }
    const double *baselines[KERNELS * KERNEL_CONDITIONS], *conditions[KERNELS * KERNEL_CONDITIONS];
    blocked_result out[KERNELS * KERNEL_CONDITIONS];
    double p_holm[KERNELS * KERNEL_CONDITIONS];
    size_t n = 0;
    for (int j = 0; j < KERNELS; j++)
      for (int c = 1; c <= KERNEL_CONDITIONS; c++, n++) {
        baselines[n] = rows[j][0];
        conditions[n] = rows[j][c];
      }
    blocked_options options = {0, 0, 1, 0};
    if (per_kernel)
      for (int j = 0; j < KERNELS; j++)
        multiplicity_compare_pairs(baselines + j * KERNEL_CONDITIONS,
                                   conditions + j * KERNEL_CONDITIONS, KERNEL_CONDITIONS,
                                   KERNEL_BLOCKS, &options, 0, out + j * KERNEL_CONDITIONS,
                                   p_holm + j * KERNEL_CONDITIONS);
    else
      multiplicity_compare_pairs(baselines, conditions, n, KERNEL_BLOCKS, &options, 0, out, p_holm);
    int any = 0;
    for (size_t i = 0; i < n; i++)
      any |= out[i].verdict == STATS_SLOWER || out[i].verdict == STATS_FASTER;
    runs_with_false += any;
  }
  char what[96];
  snprintf(what, sizeof what, "A/A kernels 4 x 3, shared noise %.0f %%, Holm %s", 100 * shared,
           per_kernel ? "per kernel" : "over the table");
  return sim_report(what, runs_with_false, runs);
}

static void kernel_verdicts_hold_false_claims_per_run_at_5_percent(void) {
  /* 2000 runs: the rate's standard error is about 0.5 point, so 5 % + 1 point is the bound. */
  CHECK(kernel_false_claim_rate(0x6e41, 0.5, 0, 2000) <= 0.06);
  CHECK(kernel_false_claim_rate(0x6e42, 0, 0, 2000) <= 0.06);
  CHECK(kernel_false_claim_rate(0x6e43, 0.9, 0, 2000) <= 0.06);
  /* One family per kernel, as before: four families of 5 % each. */
  CHECK(kernel_false_claim_rate(0x6e44, 0.5, 1, 2000) > 0.06);
}

int main(void) {
  RUN_CASE(holm_against_reference);
  RUN_CASE(bad_input_is_refused);
  RUN_CASE(holm_keeps_false_claims_per_run_at_5_percent);
  RUN_CASE(holm_for_equivalence_widens_its_intervals);
  RUN_CASE(kernel_verdicts_hold_false_claims_per_run_at_5_percent);
  return check_summary();
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_stats_gls.c - generalized least squares for effects sharing one baseline, the block
   model's covariance, "does not cost" by equivalence and the knee test, against
   tests/reference/gls_reference.py (NumPy and SciPy; the printed numbers are copied here), and
   seeded simulations of the intervals' coverage and of the knee test's false rate under a line. */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "sim.h"
#include "stats/gls.h"

static const double wake[6] = {3, 3, 3, 30, 0, 0.3};
static const double threads[6] = {15, 1.5, 0.15, 15, 15, 1.5};
static const double slow[6] = {-0.013, -0.011, -0.014, -0.129, -0.002, 0.001};
static const double se_cond[6] = {0.004, 0.0035, 0.005, 0.006, 0.003, 0.0045};

static void cost_design(double *x) {
  for (int i = 0; i < 6; i++) {
    x[i * 2] = wake[i];
    x[i * 2 + 1] = threads[i];
  }
}

static void gls_against_numpy(void) {
  double x[12], v[36];
  cost_design(x);
  CHECK_INT(gls_shared_baseline_cov(se_cond, 6, 0.004, v), GLS_OK);
  CHECK_REL(v[0], 0.004 * 0.004 + 0.004 * 0.004, 1e-15);
  CHECK_REL(v[1], 0.004 * 0.004, 1e-15);
  gls_fit f;
  CHECK_INT(gls_run(slow, x, 6, 2, v, INFINITY, 0.95, &f), GLS_OK);
  CHECK_REL(f.coef[0], -0.004247222927001328, 1e-11);
  CHECK_REL(f.coef[1], -0.00015109561378695381, 1e-9);
  CHECK_REL(f.se[0], 0.00021906177556418795, 1e-11);
  CHECK_REL(f.se[1], 0.00022123764454106976, 1e-11);
  CHECK_REL(f.ci_low[0], -0.004676576117496533, 1e-11);
  CHECK_REL(f.ci_high[1], 0.0002825222015380174, 1e-9);
  CHECK_REL(f.chi2, 0.5747349975215423, 1e-10);
  CHECK_REL(gls_equivalence_p(&f, 1, 0.001), 6.225542895543779e-05, 1e-7);
  CHECK_REL(gls_coefficient_p(&f, 1), 0.49463454048562505, 1e-9);

  CHECK_INT(gls_run(slow, x, 6, 2, v, 7, 0.95, &f), GLS_OK);
  CHECK_REL(f.ci_low[0], -0.004765221714097383, 1e-11);
  CHECK_REL(f.ci_high[0], -0.0037292241399052737, 1e-11);
  CHECK_REL(f.ci_low[1], -0.0006742395134340313, 1e-9);
  CHECK_REL(f.ci_high[1], 0.0003720482858601236, 1e-9);
  CHECK_REL(gls_equivalence_p(&f, 1, 0.001), 0.003199405932977295, 1e-8);
  CHECK_REL(gls_coefficient_p(&f, 1), 0.5165929837851976, 1e-9);
}

static void block_model_against_numpy(void) {
  static const double base[6] = {100.0, 98.2, 101.5, 99.0, 100.7, 97.9};
  static const double c1[6] = {98.1, 96.4, 99.2, 97.5, NAN, 95.8};
  static const double c2[6] = {95.3, 93.0, 96.9, 94.1, 95.9, 93.2};
  static const double c3[6] = {90.2, 88.9, 91.8, 88.7, 90.8, 88.0};
  const double *conds[3] = {c1, c2, c3};
  double effect[3], v[9], df;
  size_t used;
  CHECK_INT(gls_effects_from_blocks(base, conds, 3, 6, effect, v, &df, &used), GLS_OK);
  CHECK_INT(used, 5);
  CHECK_INT(df, 12);
  CHECK_REL(effect[0], -0.019510990808428663, 1e-12);
  CHECK_REL(effect[1], -0.049777401701678735, 1e-12);
  CHECK_REL(effect[2], -0.1039102056985566, 1e-12);
  double s2 = 1.1316534335242414e-05;
  CHECK_REL(v[0], 2 * s2 / 5, 1e-10);
  CHECK_REL(v[1], s2 / 5, 1e-10);
  CHECK_REL(v[8], 2 * s2 / 5, 1e-10);
}

static void knee_against_numpy(void) {
  static const double dose[6] = {1, 2, 3, 4, 5, 6};
  static const double y[6] = {-0.010, -0.021, -0.029, -0.052, -0.069, -0.092};
  static const double se[6] = {0.003, 0.003, 0.003, 0.003, 0.003, 0.003};
  double v[36];
  gls_shared_baseline_cov(se, 6, 0.003, v);
  gls_knee k;
  CHECK_INT(gls_knee_test(dose, y, 6, v, INFINITY, 0.05, &k), GLS_OK);
  CHECK_REL(k.slope, -0.015178571428571434, 1e-12);
  CHECK_REL(k.slope_se, 0.0005669467095138408, 1e-11);
  CHECK_INT(k.candidates, 4);
  CHECK_REL(k.knot, 3.0, 0);
  CHECK_REL(k.p_min, 1.845041396329808e-06, 1e-8);
  CHECK_REL(k.extra_slope, -0.0105, 1e-10);
  CHECK_REL(k.extra_se, 0.0022013981571160283, 1e-11);
  CHECK_REL(k.p, 7.380165585319232e-06, 1e-8);
  CHECK_INT(k.knee, 1);
}

static void bad_input_is_refused(void) {
  double x[12], v[36], y[6];
  cost_design(x);
  gls_shared_baseline_cov(se_cond, 6, 0.004, v);
  gls_fit f;
  CHECK_INT(gls_run(NULL, x, 6, 2, v, INFINITY, 0.95, &f), GLS_EINVAL);
  CHECK(isnan(f.coef[0]));
  CHECK_INT(gls_run(slow, x, 6, 4, v, INFINITY, 0.95, &f), GLS_EINVAL);
  CHECK_INT(gls_run(slow, x, 6, 2, v, 0, 0.95, &f), GLS_EINVAL);
  CHECK_INT(gls_run(slow, x, 6, 2, v, INFINITY, 1, &f), GLS_EINVAL);
  for (int i = 0; i < 6; i++)
    y[i] = slow[i];
  y[3] = NAN;
  CHECK_INT(gls_run(y, x, 6, 2, v, INFINITY, 0.95, &f), GLS_EVALUE);
  y[3] = INFINITY;
  CHECK_INT(gls_run(y, x, 6, 2, v, INFINITY, 0.95, &f), GLS_EVALUE);
  double same[12];
  for (int i = 0; i < 6; i++)
    same[i * 2] = same[i * 2 + 1] = wake[i]; /* predictors that move together */
  CHECK_INT(gls_run(slow, same, 6, 2, v, INFINITY, 0.95, &f), GLS_ESINGULAR);
  double zero[36] = {0};
  CHECK_INT(gls_run(slow, x, 6, 2, zero, INFINITY, 0.95, &f), GLS_ESINGULAR);
  double neg[1] = {-1};
  CHECK_INT(gls_shared_baseline_cov(neg, 1, 0.1, v), GLS_EVALUE);
  CHECK_INT(gls_shared_baseline_cov(se_cond, 6, NAN, v), GLS_EVALUE);
  CHECK(isnan(gls_equivalence_p(&f, 0, 0.01)));
  gls_knee k;
  double dose[3] = {1, 0, 3};
  CHECK_INT(gls_knee_test(dose, slow, 3, v, INFINITY, 0.05, &k), GLS_EVALUE);
  dose[1] = 2; /* three doses: only the knot at 1 has two doses above it */
  double v3[9];
  gls_shared_baseline_cov(se_cond, 3, 0.004, v3);
  CHECK_INT(gls_knee_test(dose, slow, 3, v3, INFINITY, 0.05, &k), GLS_OK);
  CHECK_INT(k.candidates, 1);
  const double *none[1] = {NULL};
  double e[1], df;
  CHECK_INT(gls_effects_from_blocks(slow, none, 1, 6, e, v, &df, NULL), GLS_EINVAL);
}

/* The cost design, simulated: effects = b . (wake, threads) + condition error - baseline error.
   The GLS intervals cover b in 95 % of runs; intervals that treat the points as independent
   (the baseline's error counted once per point) miss the nominal level. */
static void gls_intervals_cover(void) {
  static const double b[2] = {-0.004, -0.0002};
  double x[12], v[36], vdiag[36] = {0};
  cost_design(x);
  gls_shared_baseline_cov(se_cond, 6, 0.004, v);
  for (int i = 0; i < 6; i++)
    vdiag[i * 6 + i] = v[i * 6 + i];
  sim_rng rng = sim_seed(0x915);
  long runs = 4000, covered[2] = {0, 0}, covered_diag[2] = {0, 0};
  for (long r = 0; r < runs; r++) {
    double base_error = 0.004 * sim_normal(&rng), y[6];
    for (int i = 0; i < 6; i++)
      y[i] = b[0] * wake[i] + b[1] * threads[i] + se_cond[i] * sim_normal(&rng) - base_error;
    gls_fit f, d;
    gls_run(y, x, 6, 2, v, INFINITY, 0.95, &f);
    gls_run(y, x, 6, 2, vdiag, INFINITY, 0.95, &d);
    for (int j = 0; j < 2; j++) {
      covered[j] += f.ci_low[j] <= b[j] && b[j] <= f.ci_high[j];
      covered_diag[j] += d.ci_low[j] <= b[j] && b[j] <= d.ci_high[j];
    }
  }
  double wake_gls = sim_report("coverage, wake-up coefficient, GLS", covered[0], runs);
  double thr_gls = sim_report("coverage, thread coefficient, GLS", covered[1], runs);
  double wake_ind = sim_report("coverage, wake-up coefficient, independent", covered_diag[0], runs);
  double thr_ind = sim_report("coverage, thread coefficient, independent", covered_diag[1], runs);
  CHECK(wake_gls >= 0.94 && wake_gls <= 0.96);
  CHECK(thr_gls >= 0.94 && thr_gls <= 0.96);
  CHECK(fabs(wake_ind - 0.95) > 0.02 || fabs(thr_ind - 0.95) > 0.02);
}

/* A dose series that is a straight line, from simulated blocked runs (cv 3 %, intra-block
   correlation 0.54), the covariance estimated from the blocks: the knee test calls a knee in at
   most 5 % of runs (4,000 runs; the best knot's own p, without the correction, does in more). */
static void knee_false_rate_under_a_line(void) {
  static const struct { size_t doses, blocks; } designs[] = {{5, 10}, {6, 8}, {8, 6}};
  for (size_t dsg = 0; dsg < sizeof designs / sizeof designs[0]; dsg++) {
    size_t k = designs[dsg].doses, blocks = designs[dsg].blocks;
    double effect[SIM_MAX_CONDITIONS], dose[SIM_MAX_CONDITIONS];
    for (size_t i = 0; i < k; i++) {
      dose[i] = (double)(i + 1);
      effect[i] = -0.01 * dose[i];
    }
    static sim_scores s;
    sim_scores_init(&s);
    sim_design d = {k, blocks, 0.03, 0.54, 0.001, effect};
    sim_rng rng = sim_seed(0x6ee0 + dsg);
    long runs = 4000, knees = 0, uncorrected = 0;
    for (long r = 0; r < runs; r++) {
      sim_run(&rng, &d, s.baseline, s.condition);
      double y[SIM_MAX_CONDITIONS], v[SIM_MAX_CONDITIONS * SIM_MAX_CONDITIONS], df;
      gls_effects_from_blocks(s.baseline, s.conditions, (int)k, blocks, y, v, &df, NULL);
      gls_knee kn;
      gls_knee_test(dose, y, (int)k, v, df, 0.05, &kn);
      knees += kn.knee;
      uncorrected += kn.p_min < 0.05;
    }
    char what[96];
    snprintf(what, sizeof what, "knee under a line, %zu doses, %zu blocks", k, blocks);
    double rate = sim_report(what, knees, runs);
    snprintf(what, sizeof what, "knee under a line, %zu doses, %zu blocks, uncorrected", k, blocks);
    double naive = sim_report(what, uncorrected, runs);
    CHECK(rate <= 0.05);
    CHECK(naive > 0.06);
  }
}

/* "Does not cost" only by equivalence: with a true thread coefficient exactly at the margin,
   at most 5 % of runs call it negligible. */
static void no_cost_claim_at_the_margin_is_rare(void) {
  double x[12], v[36];
  cost_design(x);
  gls_shared_baseline_cov(se_cond, 6, 0.004, v);
  const double margin = 0.0004, b[2] = {-0.004, -0.0004};
  sim_rng rng = sim_seed(0xe9);
  long runs = 4000, claims = 0;
  for (long r = 0; r < runs; r++) {
    double base_error = 0.004 * sim_normal(&rng), y[6];
    for (int i = 0; i < 6; i++)
      y[i] = b[0] * wake[i] + b[1] * threads[i] + se_cond[i] * sim_normal(&rng) - base_error;
    gls_fit f;
    gls_run(y, x, 6, 2, v, INFINITY, 0.95, &f);
    claims += gls_equivalence_p(&f, 1, margin) < 0.05;
  }
  CHECK(sim_report("\"does not cost\" with the effect at the margin", claims, runs) <= 0.055);
}

int main(void) {
  RUN_CASE(gls_against_numpy);
  RUN_CASE(block_model_against_numpy);
  RUN_CASE(knee_against_numpy);
  RUN_CASE(bad_input_is_refused);
  RUN_CASE(gls_intervals_cover);
  RUN_CASE(knee_false_rate_under_a_line);
  RUN_CASE(no_cost_claim_at_the_margin_is_rare);
  return check_summary();
}

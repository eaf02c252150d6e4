/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_stats_blocked.c - the paired comparison over blocks: its quantiles, interval, TOST,
   fallback and variance ratio against reference values computed with SciPy 1.10 by
   tests/reference/blocked_reference.py (SciPy's quantiles polished by Newton steps on its
   distribution functions; the printed numbers are copied here: the test needs no
   Python), its refusals of bad input, and seeded simulations of its coverage and of the power
   pairing gives over the unpaired analysis. */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "sim.h"
#include "stats/blocked.h"
#include "stats/dist.h"

/* The script's data set: 8 blocks, the condition about 3 % slower, block 6's trial missing. */
static const double base8[8] = {101.2, 98.7, 103.5, 99.9, 97.1, 102.4, 100.3, 98.2};
static const double cond8[8] = {98.6, 95.1, 100.9, 97.4, 94.8, NAN, 96.9, 95.7};

static void quantiles_against_scipy(void) {
  static const struct {
    double p, df, t;
  } t[] = {{0.975, 2, 4.302652729749461},    {0.975, 3, 3.1824463052837078},
           {0.975, 4, 2.776445105197794},    {0.975, 9, 2.2621571627982044},
           {0.95, 7, 1.8945786050900062},    {0.8, 4, 0.9409645772351815},
           {0.995, 5.5, 3.8499114660010365}, {0.99875, 9, 4.145788828443257},
           {0.025, 19, -2.09302405440831},   {0.6, 200, 0.2536843791901476},
           {1 - 1e-9, 6, 56.80143090854115}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    CHECK_REL(dist_t_quantile(t[i].p, t[i].df), t[i].t, 1e-12);
  static const struct {
    double p, z;
  } z[] = {{0.6, 0.2533471031357997},  {0.8, 0.8416212335729143},   {0.975, 1.959963984540054},
           {0.999, 3.090232306167813}, {1e-12, -7.034483825301131}, {0.02, -2.053748910631823}};
  for (size_t i = 0; i < sizeof z / sizeof z[0]; i++)
    CHECK_REL(dist_normal_quantile(z[i].p), z[i].z, 1e-12);
  CHECK_REL(dist_t_quantile(0.975, INFINITY), 1.959963984540054, 1e-12);
  static const struct {
    double p, d1, d2, f;
  } f[] = {{0.975, 7, 7, 4.9949092190632385},
           {0.025, 7, 7, 0.20020383877718265},
           {0.95, 3, 12, 3.490294819497606},
           {0.05, 12.5, 3, 0.28997733412450244}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    CHECK_REL(dist_f_quantile(f[i].p, f[i].d1, f[i].d2), f[i].f, 1e-11);
    CHECK_REL(dist_f_cdf(f[i].f, f[i].d1, f[i].d2), f[i].p, 1e-10);
  }
  /* Chi-square (the estimate's interval of a pooled spread). */
  struct {
    double p, df, x;
  } chi[] = {{0.9, 13, 19.81192930712756},
             {0.1, 13, 7.041504580095464},
             {0.5, 1, 0.454936423119572},
             {0.001, 4, 0.09080403553897909},
             {0.999, 250.5, 325.40147453246254}};
  for (size_t i = 0; i < sizeof chi / sizeof chi[0]; i++)
    CHECK_REL(dist_chi2_quantile(chi[i].p, chi[i].df), chi[i].x, 1e-12);
  CHECK(isnan(dist_chi2_quantile(0, 3)) && isnan(dist_chi2_quantile(0.5, 0)) &&
        isnan(dist_chi2_quantile(0.5, INFINITY)));
  /* Huge df: the normal quantile with its 1/df correction; far tails: the bisection fallback. */
  CHECK_REL(dist_t_quantile(0.975, 1e12), 1.959963984540054, 1e-11);
  CHECK_REL(dist_t_cdf(1.959963984540054, 1e12), 0.975, 1e-12);
  CHECK_REL(dist_t_quantile(1e-300, 3), stats_t_quantile(1e-300, 3), 1e-12);
  CHECK(isnan(dist_t_quantile(0, 5)) && isnan(dist_t_quantile(1, 5)));
  CHECK(isnan(dist_t_quantile(0.5, 0)) && isnan(dist_t_quantile(NAN, 5)));
  CHECK(isnan(dist_normal_quantile(1.5)) && isnan(dist_f_quantile(0.5, -1, 3)));
}

static void paired_against_scipy(void) {
  blocked_result r;
  CHECK_INT(blocked_compare(base8, cond8, 8, NULL, &r), BLOCKED_OK);
  CHECK_INT(r.paired, 1);
  CHECK_INT(r.pairs, 7);
  CHECK_REL(r.log_effect, -0.02831638449910425, 1e-12);
  CHECK_REL(r.sd_log, 0.0052251465994185, 1e-10);
  CHECK_REL(r.percent, -2.7919233142625366, 1e-12);
  CHECK_REL(r.t, -14.337992243404553, 1e-10);
  CHECK_REL(r.p, 7.20386385750759e-06, 1e-8);
  CHECK_REL(r.ci_low, -3.2605437278341767, 1e-10);
  CHECK_REL(r.ci_high, -2.3210328332284718, 1e-10);
  CHECK_REL(r.eq_low, -3.1642565817249766, 1e-10);
  CHECK_REL(r.eq_high, -2.4181584260248994, 1e-10);
  CHECK_REL(r.tost_p, 0.9999562536304454, 1e-10);
  CHECK_INT(r.verdict, STATS_SLOWER);
  CHECK_INT(r.within_margin, 0);

  /* The interval at a Holm level (1 - 0.05/3), and TOST against a 5 % margin. */
  blocked_options o = {.confidence = 1 - 0.05 / 3, .margin_percent = 5};
  CHECK_INT(blocked_compare(base8, cond8, 8, &o, &r), BLOCKED_OK);
  CHECK_REL(r.ci_low, -3.4209985523384874, 1e-10);
  CHECK_REL(r.ci_high, -2.1587505430869633, 1e-10);
  CHECK_REL(r.tost_p, 2.3572615350098266e-05, 1e-8);
  CHECK_INT(r.within_margin, 1); /* inside 5 %, and still an effect: the effect wins */
  CHECK_INT(r.verdict, STATS_SLOWER);

  /* The same numbers as times: lower is faster, so the condition is faster. */
  o.lower_is_faster = 1;
  CHECK_INT(blocked_compare(base8, cond8, 8, &o, &r), BLOCKED_OK);
  CHECK_INT(r.verdict, STATS_FASTER);
}

static void unpaired_fallback_against_scipy(void) {
  /* The same scores in different blocks: no complete block, so Welch on the log scores. */
  double base[15], cond[15];
  for (int b = 0; b < 15; b++)
    base[b] = cond[b] = NAN;
  for (int b = 0; b < 8; b++)
    base[b] = base8[b];
  int at = 8;
  for (int b = 0; b < 8; b++)
    if (!isnan(cond8[b]))
      cond[at++] = cond8[b];
  blocked_result r;
  CHECK_INT(blocked_compare(base, cond, 15, NULL, &r), BLOCKED_OK);
  CHECK_INT(r.paired, 0);
  CHECK_INT(r.pairs, 0);
  CHECK_INT(r.n_baseline, 8);
  CHECK_INT(r.n_condition, 7);
  CHECK_REL(r.t, -2.784588071462797, 1e-10);
  CHECK_REL(r.p, 0.015836779600500596, 1e-9);
  CHECK_REL(r.df, 12.631993599228057, 1e-10);
  CHECK_REL(r.ci_low, -5.447407669921836, 1e-10);
  CHECK_REL(r.ci_high, -0.6964739044204229, 1e-10);
  CHECK_INT(r.verdict, STATS_SLOWER);
  CHECK(isnan(r.sd_log));
  CHECK_INT(blocked_further_blocks(&r, 1), -1);
}

static void variance_ratio_against_scipy(void) {
  blocked_variance_ratio v;
  CHECK_INT(blocked_variance_ratio_of(base8, cond8, 8, 0.95, &v), BLOCKED_OK);
  CHECK_REL(v.ratio, 1.0549798260076266, 1e-10);
  CHECK_REL(v.ci_low, 0.20610724104514616, 1e-9);
  CHECK_REL(v.ci_high, 6.008606449357861, 1e-9);
  CHECK_INT(v.df_condition, 6);
  CHECK_INT(v.df_baseline, 7);
  const double flat[3] = {100, 100, 100};
  CHECK_INT(blocked_variance_ratio_of(flat, base8, 3, 0.95, &v), BLOCKED_ETOOFEW);
  CHECK(isnan(v.ratio));
}

static void planning_against_scipy(void) {
  /* SciPy's noncentral t gives the exact power at these effects: 0.791 (5 blocks), 0.799 (10). */
  CHECK_REL(blocked_detectable_percent(0.02, 5, 0.95, 0.8), 3.2702833417692645, 1e-10);
  CHECK_REL(blocked_detectable_percent(0.02, 10, 0.95, 0.8), 1.9697689416194764, 1e-10);
  CHECK(isnan(blocked_detectable_percent(0.02, 1, 0.95, 0.8)));
  CHECK(isnan(blocked_detectable_percent(-1, 5, 0.95, 0.8)));
  /* Blocks for a half-width: the first n whose t(0.975, n-1) sd / sqrt(n) is within target. */
  long n = blocked_blocks_for_half_width(0.02, 1, 0.95);
  double target = log1p(0.01);
  CHECK(dist_t_quantile(0.975, (double)(n - 1)) * 0.02 / sqrt((double)n) <= target);
  CHECK(dist_t_quantile(0.975, (double)(n - 2)) * 0.02 / sqrt((double)(n - 1)) > target);
  CHECK_INT(blocked_blocks_for_half_width(0, 1, 0.95), BLOCKED_MIN_PAIRS);
  CHECK_INT(blocked_blocks_for_half_width(10, 0.01, 0.95), BLOCKED_BLOCKS_MAX + 1);
  CHECK_INT(blocked_blocks_for_half_width(0.02, 0, 0.95), 0);
  /* Blocks for a detectable effect (the report's "more blocks"), counted up by SciPy. */
  CHECK_INT(blocked_blocks_for_detectable(0.02, 1.0, 0.95, 0.8), 34);
  CHECK_INT(blocked_blocks_for_detectable(0.01, 2.0, 0.95, 0.8), 5);
  CHECK_INT(blocked_blocks_for_detectable(0.005, 5.0, 0.95, 0.8), BLOCKED_MIN_PAIRS);
  CHECK_INT(blocked_blocks_for_detectable(10, 0.01, 0.95, 0.8), BLOCKED_BLOCKS_MAX + 1);
  CHECK_INT(blocked_blocks_for_detectable(0.02, 0, 0.95, 0.8), 0);
  CHECK_INT(blocked_blocks_for_detectable(0.02, 100, 0.95, 0.8), 0);
  CHECK_INT(blocked_blocks_for_detectable(0.02, 1.0, 0.95, 1), 0);
  blocked_result r;
  blocked_compare(base8, cond8, 8, NULL, &r);
  long further = blocked_further_blocks(&r, 0.2);
  CHECK_INT(further, blocked_blocks_for_half_width(r.sd_log, 0.2, 0.95) - 7);
  CHECK(further > 0);
  CHECK_INT(blocked_further_blocks(&r, 50), 0);
}

static void bad_input_is_refused(void) {
  blocked_result r;
  double b[4] = {100, 101, 99, 100}, c[4] = {99, 98, 97, 99};
  CHECK_INT(blocked_compare(b, c, 4, NULL, NULL), BLOCKED_EINVAL);
  CHECK_INT(blocked_compare(NULL, c, 4, NULL, &r), BLOCKED_EINVAL);
  CHECK_INT(r.status, BLOCKED_EINVAL);
  blocked_options o = {.confidence = 1.5};
  CHECK_INT(blocked_compare(b, c, 4, &o, &r), BLOCKED_EINVAL);
  o = (blocked_options){.margin_percent = NAN};
  CHECK_INT(blocked_compare(b, c, 4, &o, &r), BLOCKED_EINVAL);
  o = (blocked_options){.equivalence_alpha = 0.7};
  CHECK_INT(blocked_compare(b, c, 4, &o, &r), BLOCKED_EINVAL);
  c[2] = INFINITY;
  CHECK_INT(blocked_compare(b, c, 4, NULL, &r), BLOCKED_ESCORE);
  CHECK_INT(r.verdict, STATS_INCONCLUSIVE);
  CHECK(isnan(r.percent) && isnan(r.ci_low));
  c[2] = 0;
  CHECK_INT(blocked_compare(b, c, 4, NULL, &r), BLOCKED_ESCORE);
  c[2] = -3;
  CHECK_INT(blocked_compare(b, c, 4, NULL, &r), BLOCKED_ESCORE);
  CHECK_INT(blocked_compare(b, c, 0, NULL, &r), BLOCKED_ETOOFEW);
  CHECK_INT(blocked_compare(NULL, NULL, 0, NULL, &r), BLOCKED_ETOOFEW);
  double missing[4] = {NAN, NAN, NAN, 97};
  CHECK_INT(blocked_compare(b, missing, 4, NULL, &r), BLOCKED_ETOOFEW);
  CHECK_INT(r.verdict, STATS_INCONCLUSIVE);
  /* Identical ratios in every block: a point interval, decided without dividing by 0. */
  double same[4] = {100, 100, 100, 100}, less[4] = {98, 98, 98, 98};
  CHECK_INT(blocked_compare(same, less, 4, NULL, &r), BLOCKED_OK);
  CHECK_INT(r.verdict, STATS_SLOWER);
  CHECK_INT(blocked_compare(same, same, 4, NULL, &r), BLOCKED_OK);
  CHECK_INT(r.verdict, STATS_NO_EFFECT);
  CHECK(r.p == 1 && r.tost_p == 0);
}

/* --- simulations ------------------------------------------------------------------------------ */

/* The fraction of runs whose effect interval covers the true effect. */
static double coverage(uint64_t seed, size_t blocks, double cv, double drift, long runs) {
  sim_rng rng = sim_seed(seed);
  double effect[1] = {log(0.97)}, base[SIM_MAX_BLOCKS], cond[SIM_MAX_BLOCKS];
  double *conds[1] = {cond};
  sim_design d = {1, blocks, cv, 0.54, drift, effect};
  long covered = 0;
  for (long i = 0; i < runs; i++) {
    sim_run(&rng, &d, base, conds);
    blocked_result r;
    blocked_compare(base, cond, blocks, NULL, &r);
    covered += r.ci_low <= -3.0 && r.ci_high >= -3.0;
  }
  char what[96];
  snprintf(what, sizeof what, "coverage of the 95 %% interval, %zu blocks, cv %.0f %%, drift %g",
           blocks, 100 * cv, drift);
  return sim_report(what, covered, runs);
}

/* Coverage from 5 pairs on, with block effects (intra-block correlation 0.54) and a slow drift
   (0.1 % of the score per trial), for noise from 2 to 15 %. 4,000 runs: a Monte-Carlo error of
   0.35 %, so 94 % is three of them below the nominal 95 %; a z interval instead of t covers 88 %
   at 5 blocks and fails. */
static void interval_covers_the_effect(void) {
  static const struct {
    size_t blocks;
    double cv, drift;
  } cases[] = {{5, 0.02, 0.001}, {5, 0.15, 0.001}, {8, 0.05, 0.002}, {12, 0.10, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    CHECK(coverage(0x5eed0 + i, cases[i].blocks, cases[i].cv, cases[i].drift, 4000) >= 0.94);
}

/* Pairing against dropping the block: a 3 % slowdown, cv 3 %, 8 blocks. The same runs analysed
   unpaired (each group's scores moved to blocks of their own) find it far less often. */
static void pairing_gives_power(void) {
  sim_rng rng = sim_seed(0x9a1e);
  double effect[1] = {log(0.97)}, base[8], cond[8], ub[16], uc[16];
  double *conds[1] = {cond};
  sim_design d = {1, 8, 0.03, 0.54, 0.001, effect};
  long paired = 0, unpaired = 0, runs = 3000;
  for (long i = 0; i < runs; i++) {
    sim_run(&rng, &d, base, conds);
    for (int b = 0; b < 16; b++)
      ub[b] = uc[b] = NAN;
    for (int b = 0; b < 8; b++) {
      ub[b] = base[b];
      uc[8 + b] = cond[b];
    }
    blocked_result r;
    blocked_compare(base, cond, 8, NULL, &r);
    paired += r.verdict == STATS_SLOWER;
    blocked_compare(ub, uc, 16, NULL, &r);
    unpaired += r.verdict == STATS_SLOWER;
  }
  double p = sim_report("power, 3 % slower, cv 3 %, 8 blocks, paired", paired, runs);
  double u = sim_report("power, 3 % slower, cv 3 %, 8 blocks, unpaired", unpaired, runs);
  CHECK(p > 0.6);
  CHECK(p > u + 0.15);
}

/* The F interval of the variance ratio covers the true ratio (1: both groups have the same cv)
   in at least 94 % of runs, with independent trials and with block effects shared by the groups
   (which make it conservative, as blocked.h says). 8 blocks, cv 5 %. */
static void variance_ratio_covers(void) {
  for (int shared = 0; shared < 2; shared++) {
    sim_rng rng = sim_seed(0xf0 + (uint64_t)shared);
    double base[8], cond[8], *conds[1] = {cond};
    sim_design d = {1, 8, 0.05, shared ? 0.54 : 0, 0, NULL};
    long runs = 4000, covered = 0;
    for (long i = 0; i < runs; i++) {
      sim_run(&rng, &d, base, conds);
      blocked_variance_ratio v;
      blocked_variance_ratio_of(base, cond, 8, 0.95, &v);
      covered += v.ci_low <= 1 && v.ci_high >= 1;
    }
    CHECK(sim_report(shared ? "variance ratio interval covers 1, block effects"
                            : "variance ratio interval covers 1, independent trials",
                     covered, runs) >= 0.94);
  }
}

int main(void) {
  RUN_CASE(quantiles_against_scipy);
  RUN_CASE(paired_against_scipy);
  RUN_CASE(unpaired_fallback_against_scipy);
  RUN_CASE(variance_ratio_against_scipy);
  RUN_CASE(planning_against_scipy);
  RUN_CASE(bad_input_is_refused);
  RUN_CASE(interval_covers_the_effect);
  RUN_CASE(pairing_gives_power);
  RUN_CASE(variance_ratio_covers);
  return check_summary();
}

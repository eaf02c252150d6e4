/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_stats.c - the description of scores, the incomplete beta and t distribution, and the
   unpaired comparison's sensitivity, against reference values computed by hand, by R and by SciPy
   1.10.1 (scipy.special.betainc, scipy.stats.t, ttest_ind(equal_var=False) for Welch's standard
   error and degrees of freedom); the sensitivity's fall with n on synthetic scores from a seeded
   generator. */
#include <math.h>
#include <stdint.h>

#include "check.h"
#include "stats/stats.h"
#include "threadsoup/rng.h"

static int close_to(double a, double b, double tolerance) { return fabs(a - b) <= tolerance; }

/* --- a seeded source of synthetic scores (splitmix64, Box-Muller) ------------------------- */
typedef struct gen {
  uint64_t state;
} gen;

static double gen_uniform(gen *g) {
  return ((double)(ts_splitmix64(&g->state) >> 11) + 0.5) / 9007199254740992.0;
}

static double gen_normal(gen *g) {
  double u = gen_uniform(g), v = gen_uniform(g);
  return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* n scores around mean with a relative noise (0.02 = 2 %). */
static void gen_scores(gen *g, double *out, size_t n, double mean, double noise) {
  for (size_t i = 0; i < n; i++)
    out[i] = mean * (1 + noise * gen_normal(g));
}

/* --- the description ------------------------------------------------------------------- */

static void large_scores_keep_their_variance(void) {
  /* A naive sum of squares loses these digits; Welford's update does not. */
  double x[] = {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
  stats_description d;
  CHECK_INT(stats_describe(x, 4, &d), 0);
  CHECK(close_to(d.mean, 1e9 + 10, 1e-6));
  CHECK(close_to(d.sd, sqrt(30.0), 1e-6));
}

static void description_of_known_values(void) {
  /* numpy: mean, median, std(ddof=1), std/mean */
  /* clang-format off */
  static const struct {
    double x[8];
    size_t n;
    double mean, median, sd, cv;
  } cases[] = {
      {{512.3, 509.8, 515.1, 511.0, 507.6, 513.4, 510.2}, 7, 511.3428571428571, 511.0,
       2.4858648011353672, 0.0048614442666222194},
      {{24512, 24790, 24433, 24980, 24655, 24301, 24877, 24590}, 8, 24642.25, 24622.5,
       230.25063983159123, 0.009343734432999877},
      {{2, 4, 4, 4, 5, 5, 7, 9}, 8, 5.0, 4.5, 2.138089935299395, 0.427617987059879},
  };
  /* clang-format on */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    stats_description d;
    CHECK_INT(stats_describe(cases[i].x, cases[i].n, &d), 0);
    CHECK_INT(d.n, cases[i].n);
    CHECK_REL(d.mean, cases[i].mean, 1e-14);
    CHECK_REL(d.median, cases[i].median, 1e-15);
    CHECK_REL(d.sd, cases[i].sd, 1e-12);
    CHECK_REL(d.cv, cases[i].cv, 1e-12);
  }
  stats_description d;
  double x[] = {7, 1, 3};
  CHECK_INT(stats_describe(x, 3, &d), 0);
  CHECK(d.median == 3 && d.min == 1 && d.max == 7);
  CHECK_INT(stats_describe(NULL, 0, &d), 0);
  CHECK(d.n == 0 && d.mean == 0 && d.median == 0 && d.sd == 0);
  CHECK(isnan(stats_median(NULL, 0)));
  double with_nan[] = {3, NAN, 1, 2}; /* NaN sorts last: a defined order, no undefined qsort */
  CHECK(stats_median(with_nan, 4) == 2.5);
}

/* --- special functions ---------------------------------------------------------------- */

static void incomplete_beta_against_scipy(void) {
  /* clang-format off */
  static const double cases[][4] = { /* a, b, x, scipy.special.betainc(a, b, x) */
      {0.5, 0.5, 0.3, 0.3690101195655454},
      {2, 3, 0.4, 0.5247999999999999},
      {10, 0.5, 0.9, 0.15164090963470997},
      {50, 60, 0.45, 0.4642352914306064},
      {0.1, 10, 0.01, 0.8244896709066979},
      {500, 0.5, 0.999, 0.317310447309558},
      {1, 1, 0.7, 0.7},
      {3.5, 200, 0.02, 0.6788509063367594},
      {5, 5, 0.999, 0.9999999999998744},
      {2.5, 0.5, 1e-06, 3.395306665236898e-16},
      {30, 0.5, 0.2, 1.226521971415884e-22},
  };
  /* clang-format on */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    CHECK_REL(stats_incbeta(cases[i][0], cases[i][1], cases[i][2]), cases[i][3], 1e-10);
  CHECK(stats_incbeta(2, 3, 0) == 0 && stats_incbeta(2, 3, 1) == 1);
  CHECK(isnan(stats_incbeta(2, 3, 1.5)) && isnan(stats_incbeta(-1, 3, 0.5)));
}

static void t_distribution_against_scipy(void) {
  /* clang-format off */
  static const double cdf[][3] = { /* t, df, scipy.stats.t.cdf(t, df) */
      {0.5, 1, 0.6475836176504333},
      {-2, 3, 0.06966298427942155},
      {2.5, 7.3, 0.9801748826671998},
      {10, 4, 0.9997189981886421},
      {-30, 2.5, 0.00014553235457869776},
      {1.96, 1000, 0.9748634075221256},
      {0.1, 0.5, 0.5268341894356968},
      {-0.001, 12, 0.4996092737653247},
      {4.2, 17.6, 0.9997189128465019},
      {-8, 50, 8.316483014160671e-11},
      {60, 3, 0.9999949002031633},
  };
  /* clang-format on */
  for (size_t i = 0; i < sizeof cdf / sizeof cdf[0]; i++)
    CHECK_REL(stats_t_cdf(cdf[i][0], cdf[i][1]), cdf[i][2], 1e-10);
  CHECK(stats_t_cdf(0, 5) == 0.5);

  /* The quantile: closed forms where they exist (df 1: tan(pi (p - 1/2)); df 2:
     (2p - 1) / sqrt(2p(1 - p)); df 4: Hill's cubic solution), tight ... */
  CHECK_REL(stats_t_quantile(0.975, 1), 12.706204736174696, 1e-13);
  CHECK_REL(stats_t_quantile(0.025, 1), -12.706204736174696, 1e-13);
  CHECK_REL(stats_t_quantile(0.975, 2), 4.302652729749462, 1e-13);
  CHECK_REL(stats_t_quantile(0.999, 4), 7.173182219782307, 1e-13);
  CHECK(stats_t_quantile(0.5, 7) == 0 && isnan(stats_t_quantile(1, 7)));
  /* ... and scipy.stats.t.ppf, whose own inversion (cdflib's stdtrit) is good to about 1e-9:
     stats.t.cdf of its answers is off by up to 3e-11, so they are checked loosely and ours
     must invert stats_t_cdf to 1e-13. */
  /* clang-format off */
  static const double ppf[][3] = { /* p, df, scipy.stats.t.ppf(p, df) */
      {0.975, 1, 12.706204736432095},
      {0.975, 2, 4.302652729911275},
      {0.975, 5, 2.5705818366147395},
      {0.975, 9.7, 2.237515123671708},
      {0.95, 30, 1.6972608943617378},
      {0.975, 1000, 1.9623390808264074},
      {0.05, 3.3, -2.2686545667554663},
      {0.999, 4, 7.173182214917768},
  };
  /* clang-format on */
  for (size_t i = 0; i < sizeof ppf / sizeof ppf[0]; i++) {
    double q = stats_t_quantile(ppf[i][0], ppf[i][1]);
    CHECK_REL(q, ppf[i][2], 1e-8);
    CHECK_REL(stats_t_cdf(q, ppf[i][1]), ppf[i][0], 1e-13);
  }
}

/* --- the unpaired sensitivity ------------------------------------------------------------ */

static const double wiki_a[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                                21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
static const double wiki_b[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                                24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
/* 7-Zip-like ratings: a baseline and a load about 2.7 % slower */
static const double zip_base[] = {24512, 24790, 24433, 24980, 24655, 24301, 24877, 24590};
static const double zip_load[] = {23911, 24120, 23570, 24408, 23802,
                                  24050, 23655, 24230, 23987, 24101};

/* The detectable effect of the unpaired comparison (Welch), against SciPy 1.10.1 (scipy.stats.t.ppf
   for the formula, scipy.stats.nct for the exact power at the effect found: 0.8002 for the first
   pair, 0.8000 for the second; 0.791 at 3 scores a group, 0.800 from 10). */
static void sensitivity_against_scipy(void) {
  stats_sensitivity s;
  CHECK_INT(stats_sensitivity_of(wiki_a, 15, wiki_b, 15, &s), 0);
  CHECK_REL(s.detectable_percent, 12.358306394578243, 1e-9);
  CHECK_REL(s.se_percent, 4.238350192189027, 1e-12);
  CHECK_REL(s.df, 24.988529290231416, 1e-12);
  CHECK_INT(stats_sensitivity_of(zip_base, 8, zip_load, 10, &s), 0);
  CHECK_REL(s.detectable_percent, 1.3949617992734353, 1e-9);
  CHECK_REL(s.se_percent, 0.46689398986191155, 1e-12);

  /* What cannot be computed says so; constant groups detect any effect. */
  double one[] = {5.0}, c1[] = {5, 5, 5}, c2[] = {6, 6, 6}, zero[] = {0, 0, 0};
  CHECK_INT(stats_sensitivity_of(one, 1, c1, 3, &s), -1);
  CHECK(isnan(s.detectable_percent));
  CHECK_INT(stats_sensitivity_of(zero, 3, c1, 3, &s), -1);
  CHECK_INT(stats_sensitivity_of(c1, 3, c2, 3, &s), 0);
  CHECK(s.detectable_percent == 0);
}

/* The more scores, the smaller the effect a run can detect: about 1/sqrt(n). */
static void sensitivity_shrinks_with_trials(void) {
  gen g = {42};
  static double base[400], cond[400];
  gen_scores(&g, base, 400, 1000, 0.02);
  gen_scores(&g, cond, 400, 1000, 0.02);
  stats_sensitivity few, many;
  CHECK_INT(stats_sensitivity_of(base, 25, cond, 25, &few), 0);
  CHECK_INT(stats_sensitivity_of(base, 400, cond, 400, &many), 0);
  CHECK(many.detectable_percent < few.detectable_percent / 3);
  CHECK(many.detectable_percent > few.detectable_percent / 5);
  /* 2 % noise a score: 25 a group detect about 1.6 %, as (1.96 + 0.84) * 2 * sqrt(2 / 25). */
  CHECK(few.detectable_percent > 1.2 && few.detectable_percent < 2.2);
}

int main(void) {
  RUN_CASE(large_scores_keep_their_variance);
  RUN_CASE(description_of_known_values);
  RUN_CASE(incomplete_beta_against_scipy);
  RUN_CASE(t_distribution_against_scipy);
  RUN_CASE(sensitivity_against_scipy);
  RUN_CASE(sensitivity_shrinks_with_trials);
  return check_summary();
}

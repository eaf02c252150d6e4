/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_stats.c - summary statistics and comparisons against reference values computed by hand, by
   R and by SciPy 1.10.1 (scipy.special.betainc, scipy.stats.t, ttest_ind(equal_var=False),
   mannwhitneyu(method="exact" / "asymptotic", use_continuity=True)); the verdict rule against
   synthetic scores from a seeded generator. */
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

/* Scores as a busy machine gives them: 1 % noise, and one run in ten hit by a background task
   that costs it 3 to 8 %. */
static void gen_skewed_scores(gen *g, double *out, size_t n, double mean) {
  for (size_t i = 0; i < n; i++) {
    out[i] = mean * (1 + 0.01 * gen_normal(g));
    if (gen_uniform(g) < 0.1)
      out[i] *= 1 - (0.03 + 0.05 * gen_uniform(g));
  }
}

/* --- the summaries (kept from before) --------------------------------------------------- */

static void summary_of_known_values(void) {
  /* R: x <- c(2,4,4,4,5,5,7,9); mean(x) = 5; sd(x) = 2.13809 */
  double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
  stats_summary s;
  stats_summarize(x, 8, &s);
  CHECK_INT(s.n, 8);
  CHECK(close_to(s.mean, 5.0, 1e-12));
  CHECK(close_to(s.sd, 2.138089935, 1e-9));
  CHECK(close_to(s.min, 2, 0) && close_to(s.max, 9, 0));
}

static void large_scores_keep_their_variance(void) {
  /* A naive sum of squares loses these digits; Welford's update does not. */
  double x[] = {1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16};
  stats_summary s;
  stats_summarize(x, 4, &s);
  CHECK(close_to(s.mean, 1e9 + 10, 1e-6));
  CHECK(close_to(s.sd, sqrt(30.0), 1e-6));
}

static void edge_cases(void) {
  stats_summary s;
  stats_summarize(NULL, 0, &s);
  CHECK_INT(s.n, 0);
  double one = 3.5;
  stats_summarize(&one, 1, &s);
  CHECK(close_to(s.mean, 3.5, 0) && s.sd == 0);
  CHECK(close_to(stats_percent_change(95, 100), -5.0, 1e-12));
  CHECK(close_to(stats_percent_change(110, 100), 10.0, 1e-12));
  CHECK(isnan(stats_percent_change(1, 0)));
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

/* --- the tests -------------------------------------------------------------------------- */

static const double wiki_a[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                                21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
static const double wiki_b[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                                24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
/* 7-Zip-like ratings: a baseline and a load about 2.7 % slower */
static const double zip_base[] = {24512, 24790, 24433, 24980, 24655, 24301, 24877, 24590};
static const double zip_load[] = {23911, 24120, 23570, 24408, 23802,
                                  24050, 23655, 24230, 23987, 24101};
static const double zip_near[] = {24600, 24710, 24480, 24820, 24550, 24690, 24400, 24750};

static void welch_against_scipy(void) {
  stats_welch_result w;
  CHECK_INT(stats_welch(wiki_a, 15, wiki_b, 15, &w), 0);
  CHECK_REL(w.t, -2.455356398286006, 1e-12);
  CHECK_REL(w.df, 24.988529290231416, 1e-12);
  CHECK_REL(w.p, 0.021378001462866985, 1e-9);

  CHECK_INT(stats_welch(zip_load, 10, zip_base, 8, &w), 0);
  CHECK_REL(w.t, -5.726482100302425, 1e-12);
  CHECK_REL(w.df, 15.745037791429075, 1e-12);
  CHECK_REL(w.p, 3.321706080345862e-05, 1e-9);

  double s3[] = {101.2, 99.8, 100.9}, s4[] = {96.0, 104.5, 90.2, 108.7};
  CHECK_INT(stats_welch(s3, 3, s4, 4, &w), 0);
  CHECK_REL(w.t, 0.1872242520288735, 1e-12);
  CHECK_REL(w.df, 3.062551288447055, 1e-12);
  CHECK_REL(w.p, 0.8632041260122754, 1e-9);

  /* a huge effect: the p-value keeps its relative accuracy far out in the tail */
  double big1[] = {1000.1, 1000.3, 999.8, 1000.0, 1000.2, 999.9};
  double big2[] = {900.2, 900.1, 899.9, 900.0, 900.3, 899.8};
  CHECK_INT(stats_welch(big2, 6, big1, 6, &w), 0);
  CHECK_REL(w.t, -925.8200997724892, 1e-10);
  CHECK_REL(w.df, 10.0, 1e-12);
  CHECK_REL(w.p, 5.318771215415991e-26, 1e-6);

  /* degenerate groups */
  double c1[] = {5, 5, 5}, c2[] = {5, 5, 5, 5}, c3[] = {6, 6, 6};
  CHECK_INT(stats_welch(c1, 3, c2, 4, &w), 0);
  CHECK(w.p == 1);
  CHECK_INT(stats_welch(c1, 3, c3, 3, &w), 0);
  CHECK(w.p == 0);
  CHECK_INT(stats_welch(c1, 1, c3, 3, &w), -1);
  CHECK(isnan(w.p));
}

static void mann_whitney_against_scipy(void) {
  /* clang-format off */
  static const struct {
    double x[23], y[19];
    size_t nx, ny;
    double u, p;
    int exact;
  } cases[] = {
      /* method="exact" (no ties, both groups <= 10) */
      {{1.83, 0.5, 1.62, 2.48, 1.68},
       {0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.061},
       5, 7, 25.0, 0.26767676767676774, 1},
      {{3.1, 4.7, 5.2}, {1.2, 2.9, 3.05}, 3, 3, 9.0, 0.1, 1},
      {{10.5, 11.2, 9.8, 12.1, 10.9, 11.7, 10.2, 12.5, 11.9, 10.1},
       {9.1, 9.9, 10.3, 8.7, 9.5, 10.0, 8.9, 9.3, 10.6, 9.6},
       10, 10, 91.0, 0.001050033557773496, 1},
      {{23911, 24120, 23570, 24408, 23802, 24050, 23655, 24230, 23987, 24101},
       {24512, 24790, 24433, 24980, 24655, 24301, 24877, 24590},
       10, 8, 1.0, 9.141185611773847e-05, 1},
      {{24600, 24710, 24480, 24820, 24550, 24690, 24400, 24750},
       {24512, 24790, 24433, 24980, 24655, 24301, 24877, 24590},
       8, 8, 31.0, 0.959129759129759, 1},
      /* method="asymptotic", use_continuity=True: ties */
      {{1, 2, 2, 3, 3, 3, 4, 5, 5, 6},
       {2, 3, 4, 4, 5, 6, 6, 7, 8, 8, 9},
       10, 11, 23.5, 0.027640884214298913, 0},
      /* ... and groups too large for the exact distribution */
      {{100.0, 100.9, 102.2, 103.8, 105.5, 107.3, 109.2, 111.3, 113.4, 115.6, 117.9, 120.3,
        122.7, 125.2, 127.8, 130.4, 133.1, 135.8, 138.5, 141.3, 144.2, 147.1, 150.0},
       {98.0, 102.5, 105.8, 108.7, 111.5, 114.1, 116.7, 119.1, 121.5, 123.8, 126.1, 128.3,
        130.5, 132.7, 134.8, 136.9, 139.0, 141.0, 143.0},
       23, 19, 206.0, 0.7617014154125333, 0},
  };
  /* clang-format on */
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    stats_mw_result r;
    CHECK_INT(stats_mann_whitney(cases[i].x, cases[i].nx, cases[i].y, cases[i].ny, &r), 0);
    CHECK_REL(r.u, cases[i].u, 1e-15);
    CHECK_REL(r.p, cases[i].p, 1e-10);
    CHECK_INT(r.exact, cases[i].exact);
  }
  /* swapping the groups: U becomes nx*ny - U, p stays */
  stats_mw_result a, b;
  CHECK_INT(stats_mann_whitney(cases[0].x, 5, cases[0].y, 7, &a), 0);
  CHECK_INT(stats_mann_whitney(cases[0].y, 7, cases[0].x, 5, &b), 0);
  CHECK(a.u + b.u == 35 && a.p == b.p);
  /* all tied: nothing to tell */
  double t[] = {4, 4, 4};
  CHECK_INT(stats_mann_whitney(t, 3, t, 3, &a), 0);
  CHECK(a.p == 1 && a.exact == 0);
  CHECK_INT(stats_mann_whitney(t, 0, t, 3, &a), -1);
}

/* TOST and Welch's CI inside a comparison, against SciPy's t distribution. */
static void comparison_against_scipy(void) {
  stats_options o = {42, 0, 3.0};
  stats_comparison c;
  CHECK_INT(stats_compare(zip_base, 8, zip_load, 10, &o, &c), 0);
  CHECK(!c.too_few);
  CHECK_REL(c.percent, -2.6736600756830153, 1e-12);
  CHECK_REL(c.tost_p, 0.24738684975256564, 1e-9);
  CHECK_REL(c.welch_ci95_low, -3.6647353194853953, 1e-9);
  CHECK_REL(c.welch_ci95_high, -1.6825848318806407, 1e-9);
  CHECK_REL(c.mann_whitney.p, 9.141185611773847e-05, 1e-10);
  CHECK(c.ci95_low < c.percent && c.percent < c.ci95_high && c.ci95_high < 0);
  CHECK(c.ci95_low < c.ci90_low && c.ci90_high < c.ci95_high);
  CHECK_INT(c.verdict, STATS_SLOWER);
  CHECK(!c.within_margin);

  stats_options d = {42, 0, 0}; /* default margin, 1 % */
  CHECK_INT(stats_compare(zip_base, 8, zip_near, 8, &d, &c), 0);
  CHECK(c.margin_percent == STATS_DEFAULT_MARGIN_PERCENT);
  CHECK_REL(c.percent, -0.07000172468016874, 1e-10);
  CHECK_REL(c.tost_p, 0.017255329000910983, 1e-9);
  CHECK_REL(c.welch_ci95_low, -0.9196141093833184, 1e-9);
  CHECK_REL(c.welch_ci95_high, 0.7796106600229719, 1e-9);
  CHECK_REL(c.mann_whitney.p, 0.959129759129759, 1e-10);
  CHECK_INT(c.verdict, STATS_NO_EFFECT);
  char text[160];
  stats_format_verdict(&c, text, sizeof text);
  CHECK_STR_CONTAINS(text, "no measurable effect (within \xC2\xB1"
                           "1.0 %)");
  fprintf(stderr, "  %s\n", text);
}

/* --- the bootstrap ---------------------------------------------------------------------- */

static void bootstrap_is_reproducible(void) {
  stats_options o = {12345, 0, 0};
  stats_comparison a, b, c;
  CHECK_INT(stats_compare(zip_base, 8, zip_load, 10, &o, &a), 0);
  CHECK_INT(stats_compare(zip_base, 8, zip_load, 10, &o, &b), 0);
  CHECK(a.ci95_low == b.ci95_low && a.ci95_high == b.ci95_high);
  CHECK(a.ci90_low == b.ci90_low && a.ci90_high == b.ci90_high);
  o.seed = 54321;
  CHECK_INT(stats_compare(zip_base, 8, zip_load, 10, &o, &c), 0);
  CHECK(c.ci95_low != a.ci95_low); /* another seed, other resamples ... */
  CHECK(close_to(c.ci95_low, a.ci95_low, 0.1) && close_to(c.ci95_high, a.ci95_high, 0.1));
  o.resamples = 200; /* ... and B is the caller's */
  CHECK_INT(stats_compare(zip_base, 8, zip_load, 10, &o, &c), 0);
  CHECK(c.ci95_low < c.percent && c.percent < c.ci95_high);
  CHECK_INT(stats_compare(zip_base, 8, zip_load, 10, NULL, &c), 0); /* NULL: all defaults */
  CHECK(c.margin_percent == 1.0 && c.verdict == STATS_SLOWER);
}

/* Coverage sanity: over many samples, the 95 % CI holds the true difference about 95 % of the
   time, for a big effect (-10 %) and for none. */
static void bootstrap_ci_covers_the_truth(void) {
  enum { runs = 200, n = 20 };
  int covers_effect = 0, covers_zero = 0;
  for (int s = 0; s < runs; s++) {
    gen g = {(uint64_t)s * 7919 + 1};
    double base[n], slow[n], same[n];
    gen_scores(&g, base, n, 1000, 0.02);
    gen_scores(&g, slow, n, 900, 0.02);
    gen_scores(&g, same, n, 1000, 0.02);
    stats_options o = {(uint64_t)s, 0, 0};
    stats_comparison c;
    CHECK_INT(stats_compare(base, n, slow, n, &o, &c), 0);
    covers_effect += c.ci95_low <= -10 && -10 <= c.ci95_high;
    CHECK(c.ci95_high < -7); /* never near 0 */
    CHECK_INT(stats_compare(base, n, same, n, &o, &c), 0);
    covers_zero += c.ci95_low <= 0 && 0 <= c.ci95_high;
  }
  fprintf(stderr, "  95 %% CI coverage (n = %d, 2 %% noise): %d/%d at -10 %%, %d/%d at 0\n", n,
          covers_effect, runs, covers_zero, runs);
  CHECK(covers_effect >= runs * 88 / 100);
  CHECK(covers_zero >= runs * 88 / 100);
}

/* --- verdicts --------------------------------------------------------------------------- */

/* Noise must not be called an effect: the same generator for both groups, many seeds. */
static int false_effects(int runs, size_t n, int skewed, int *no_effect) {
  int wrong = 0;
  *no_effect = 0;
  for (int s = 0; s < runs; s++) {
    gen g = {(uint64_t)s * 104729 + 17};
    double a[64], b[64];
    if (skewed) {
      gen_skewed_scores(&g, a, n, 5000);
      gen_skewed_scores(&g, b, n, 5000);
    } else {
      gen_scores(&g, a, n, 5000, 0.01);
      gen_scores(&g, b, n, 5000, 0.01);
    }
    stats_options o = {(uint64_t)s, 0, 0};
    stats_comparison c;
    if (stats_compare(a, n, b, n, &o, &c))
      return -1;
    wrong += c.verdict == STATS_SLOWER || c.verdict == STATS_FASTER;
    *no_effect += c.verdict == STATS_NO_EFFECT;
  }
  return wrong;
}

static void identical_conditions_are_not_called_an_effect(void) {
  enum { runs = 1000 };
  int none;
  int wrong = false_effects(runs, 20, 0, &none);
  fprintf(stderr,
          "  same distribution, n = 20, 1 %% noise: %d/%d false slower/faster (%.1f %%), %d "
          "no measurable effect\n",
          wrong, runs, 100.0 * wrong / runs, none);
  CHECK(wrong >= 0 && wrong <= runs * 6 / 100);
  CHECK(none >= runs / 2);
  wrong = false_effects(runs, 10, 1, &none);
  fprintf(stderr,
          "  same distribution, n = 10, skewed noise: %d/%d false slower/faster (%.1f %%), %d "
          "no measurable effect\n",
          wrong, runs, 100.0 * wrong / runs, none);
  CHECK(wrong >= 0 && wrong <= runs * 6 / 100);
  wrong = false_effects(runs, 3, 0, &none);
  fprintf(stderr,
          "  same distribution, n = 3, 1 %% noise: %d/%d false slower/faster (%.1f %%), %d "
          "no measurable effect\n",
          wrong, runs, 100.0 * wrong / runs, none);
  CHECK(wrong >= 0 && wrong <= runs * 6 / 100);
}

static void a_ten_percent_slowdown_is_slower(void) {
  int slower = 0;
  char text[160] = "";
  for (int s = 0; s < 50; s++) {
    gen g = {(uint64_t)s + 1000};
    double base[10], load[10];
    gen_scores(&g, base, 10, 2000, 0.02);
    gen_scores(&g, load, 10, 1800, 0.02);
    stats_options o = {(uint64_t)s, 0, 0};
    stats_comparison c;
    CHECK_INT(stats_compare(base, 10, load, 10, &o, &c), 0);
    slower += c.verdict == STATS_SLOWER;
    if (s == 0) {
      stats_format_verdict(&c, text, sizeof text);
      CHECK(c.percent < -7 && c.percent > -13);
      CHECK(c.welch.p < 1e-6 && c.mann_whitney.p < 0.01);
    }
  }
  CHECK_INT(slower, 50);
  fprintf(stderr, "  %s\n", text);
  CHECK(strncmp(text, "slower by ", 10) == 0);
  CHECK_STR_CONTAINS(text, "(95 % CI ");

  /* and the other way */
  stats_comparison c;
  CHECK_INT(stats_compare(zip_load, 10, zip_base, 8, NULL, &c), 0);
  CHECK_INT(c.verdict, STATS_FASTER);
  stats_format_verdict(&c, text, sizeof text);
  CHECK(strncmp(text, "faster by 2.", 12) == 0);
}

static void too_few_trials_are_inconclusive(void) {
  double base[] = {2000, 2010}, load[] = {1500, 1490, 1510, 1505};
  stats_comparison c;
  CHECK_INT(stats_compare(base, 2, load, 4, NULL, &c), 0);
  CHECK(c.too_few && c.verdict == STATS_INCONCLUSIVE);
  CHECK(close_to(c.percent, -25.0, 0.2)); /* the estimate exists; the verdict does not */
  char text[160];
  stats_format_verdict(&c, text, sizeof text);
  CHECK_STR_CONTAINS(text, "inconclusive: too few trials (2 baseline, 4 condition");
  CHECK_INT(stats_compare(load, 4, base, 2, NULL, &c), 0);
  CHECK(c.too_few && c.verdict == STATS_INCONCLUSIVE);
  /* unusable scores: a non-finite one, a baseline at 0 */
  double bad[] = {2000, NAN, 2010}, zero[] = {0, 1, 2};
  CHECK_INT(stats_compare(bad, 3, load, 4, NULL, &c), 0);
  CHECK(c.unusable && !c.too_few && c.verdict == STATS_INCONCLUSIVE);
  stats_format_verdict(&c, text, sizeof text);
  CHECK_STR_CONTAINS(text, "inconclusive: unusable scores");
  CHECK_INT(stats_compare(zero, 3, load, 4, NULL, &c), 0);
  CHECK(c.unusable && c.verdict == STATS_INCONCLUSIVE);
  CHECK_INT(stats_compare(load, 4, bad, 3, NULL, &c), 0);
  CHECK(c.unusable && c.verdict == STATS_INCONCLUSIVE);
  CHECK_INT(stats_compare(NULL, 0, NULL, 0, NULL, &c), 0);
  CHECK(c.too_few && isnan(c.percent));
}

static void noisy_small_samples_are_inconclusive(void) {
  /* 5 trials with 4 % noise and a 1 % difference: neither an effect nor ruled out */
  double base[] = {1000, 1052, 961, 1033, 978}, load[] = {1011, 950, 1040, 982, 960};
  stats_comparison c;
  CHECK_INT(stats_compare(base, 5, load, 5, NULL, &c), 0);
  CHECK_INT(c.verdict, STATS_INCONCLUSIVE);
  CHECK(!c.too_few && !c.within_margin);
  char text[200];
  stats_format_verdict(&c, text, sizeof text);
  fprintf(stderr, "  %s\n", text);
  CHECK(strncmp(text, "inconclusive: -", 15) == 0);
  CHECK_STR_CONTAINS(text, "neither an effect nor within \xC2\xB1"
                           "1.0 %");
  /* a wider margin, chosen by the caller, can settle it */
  double b2[] = {1000, 1012, 991, 1003, 998, 1006}, l2[] = {1001, 995, 1008, 996, 1000, 1004};
  stats_options wide = {1, 0, 5.0};
  CHECK_INT(stats_compare(b2, 6, l2, 6, &wide, &c), 0);
  CHECK_INT(c.verdict, STATS_NO_EFFECT);
  stats_format_verdict(&c, text, sizeof text);
  CHECK_STR_CONTAINS(text, "within \xC2\xB1"
                           "5.0 %");
}

static void a_tiny_real_effect_is_reported_with_the_margin(void) {
  /* 0.4 % slower with 0.1 % noise: significant and inside +-1 % */
  gen g = {99};
  double base[30], load[30];
  gen_scores(&g, base, 30, 10000, 0.001);
  gen_scores(&g, load, 30, 9960, 0.001);
  stats_comparison c;
  CHECK_INT(stats_compare(base, 30, load, 30, NULL, &c), 0);
  CHECK_INT(c.verdict, STATS_SLOWER);
  CHECK(c.within_margin);
  char text[200];
  stats_format_verdict(&c, text, sizeof text);
  fprintf(stderr, "  %s\n", text);
  CHECK(strncmp(text, "slower by 0.", 12) == 0);
  CHECK_STR_CONTAINS(text, "within the \xC2\xB1"
                           "1.0 % margin)");
  CHECK(strcmp(stats_verdict_name(STATS_NO_EFFECT), "no measurable effect") == 0);
  CHECK(strcmp(stats_verdict_name(STATS_INCONCLUSIVE), "inconclusive") == 0);
}

static void format_reports_the_length_like_snprintf(void) {
  stats_comparison c;
  CHECK_INT(stats_compare(zip_base, 8, zip_load, 10, NULL, &c), 0);
  char full[160], cut[8];
  int n = stats_format_verdict(&c, full, sizeof full);
  CHECK_INT(n, (long long)strlen(full));
  CHECK_INT(stats_format_verdict(&c, cut, sizeof cut), n);
  CHECK_INT(strlen(cut), 7);
}

/* --- adaptive repetition ----------------------------------------------------------------- */

static void precision_grows_with_trials(void) {
  gen g = {2024};
  double base[200], l1[200], l2[200];
  gen_scores(&g, base, 200, 3000, 0.02);
  gen_scores(&g, l1, 200, 2900, 0.02);
  gen_scores(&g, l2, 200, 3000, 0.03);
  const double *conds[] = {l1, l2};
  stats_options o = {7, 0, 0};
  double worst, previous = INFINITY;
  size_t reached_at = 0;
  for (size_t n = 2; n <= 200; n += 2) {
    size_t counts[] = {n, n};
    int r = stats_precision_reached(base, n, conds, counts, 2, 1.0, &o, &worst);
    CHECK(r == 0 || r == 1);
    if (n == 2)
      CHECK(r == 0 && isinf(worst));
    if (n >= 10 && n % 20 == 0) {
      CHECK(worst < previous * 1.1); /* narrows as trials come, give or take noise */
      previous = worst;
    }
    if (r == 1 && !reached_at)
      reached_at = n;
  }
  /* half-width ~ 1.96 * sqrt(2^2 + 3^2) % / sqrt(n) <= 1 %: n about 50 */
  fprintf(stderr, "  +-1 %% precision reached at n = %zu\n", reached_at);
  CHECK(reached_at >= 30 && reached_at <= 90);
  size_t counts[] = {200, 3}; /* one condition still short: not yet */
  CHECK_INT(stats_precision_reached(base, 200, conds, counts, 2, 1.0, &o, NULL), 0);
  size_t full[] = {200, 200};
  CHECK_INT(stats_precision_reached(base, 200, conds, full, 2, 1.0, &o, &worst), 1);
  CHECK(worst <= 1.0);
  CHECK_INT(stats_precision_reached(base, 200, conds, full, 2, 1.0, &o, &previous), 1);
  CHECK(previous == worst); /* deterministic */
  /* the same CIs as stats_compare with the same options */
  stats_comparison c;
  CHECK_INT(stats_compare(base, 200, l2, 200, &o, &c), 0);
  double half = (c.ci95_high - c.ci95_low) / 2,
         welch_half = (c.welch_ci95_high - c.welch_ci95_low) / 2;
  CHECK(worst >= half && worst >= welch_half);
  CHECK_INT(stats_precision_reached(base, 200, conds, full, 0, 1.0, &o, &worst), 1);
  CHECK(worst == 0);
}

/* The detectable effect and the trials a target needs, against SciPy 1.10.1 (scipy.stats.t.ppf
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

  /* Scores per group for a target, with per-score deviations in % (found by counting up). */
  CHECK_INT(stats_trials_for_detectable(1.0, 1.0, 1.0), 17);
  CHECK_INT(stats_trials_for_detectable(1.0, 1.5, 1.0), 27);
  CHECK_INT(stats_trials_for_detectable(0.5, 0.5, 3.0), 3);
  CHECK_INT(stats_trials_for_detectable(2.0, 2.0, 0.5), 253);
  CHECK_INT(stats_trials_for_detectable(1.2, 0.8, 0.25), 263);
  CHECK_INT(stats_trials_for_detectable(0, 0, 1.0), STATS_MIN_TRIALS);
  CHECK_INT(stats_trials_for_detectable(50, 50, 0.001), STATS_TRIALS_NEEDED_MAX + 1);
  CHECK_INT(stats_trials_for_detectable(1, 1, 0), 0);
  CHECK_INT(stats_trials_for_detectable(-1, 1, 1), 0);
  CHECK_INT(stats_trials_for_detectable(NAN, 1, 1), 0);

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
  RUN_CASE(summary_of_known_values);
  RUN_CASE(large_scores_keep_their_variance);
  RUN_CASE(edge_cases);
  RUN_CASE(description_of_known_values);
  RUN_CASE(incomplete_beta_against_scipy);
  RUN_CASE(t_distribution_against_scipy);
  RUN_CASE(welch_against_scipy);
  RUN_CASE(mann_whitney_against_scipy);
  RUN_CASE(comparison_against_scipy);
  RUN_CASE(bootstrap_is_reproducible);
  RUN_CASE(bootstrap_ci_covers_the_truth);
  RUN_CASE(identical_conditions_are_not_called_an_effect);
  RUN_CASE(a_ten_percent_slowdown_is_slower);
  RUN_CASE(too_few_trials_are_inconclusive);
  RUN_CASE(noisy_small_samples_are_inconclusive);
  RUN_CASE(a_tiny_real_effect_is_reported_with_the_margin);
  RUN_CASE(format_reports_the_length_like_snprintf);
  RUN_CASE(precision_grows_with_trials);
  RUN_CASE(sensitivity_against_scipy);
  RUN_CASE(sensitivity_shrinks_with_trials);
  return check_summary();
}

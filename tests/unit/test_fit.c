/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_fit.c - the cost model's fits against reference values computed with NumPy 1.24 and SciPy
   1.10 by tests/reference/fit_reference.py (its printed numbers are copied here: the test needs no
   Python), and the degenerate inputs that must give a reason instead of numbers. */
#include <math.h>

#include "check.h"
#include "stats/fit.h"

/* The script's datasets: the cost preset's conditions (thousands of wake-ups per second and of
   threads) with slowdowns in % and their standard errors. */
static const double wake[6] = {3, 3, 3, 30, 0, 0.3};
static const double threads[6] = {15, 1.5, 0.15, 15, 15, 1.5};
static const double slow[6] = {-1.3, -1.1, -1.4, -12.9, -0.2, 0.1};
static const double scatter[6] = {-0.3, -2.5, 0.8, -10.0, 1.5, -1.2};
static const double se[6] = {0.4, 0.35, 0.5, 0.6, 0.3, 0.45};

static void weights_of(const double *errors, int n, double *w) {
  for (int i = 0; i < n; i++)
    w[i] = 1 / (errors[i] * errors[i]);
}

/* Checks a fit against the script's coef, se, ci_low, ci_high, rss, r2 and chi2_p lines. */
static void check_wls(const fit_wls *f, const double *coef, const double *coef_se,
                      const double *low, const double *high, double rss, double r2, double chi2_p) {
  CHECK_INT(f->ok, 1);
  for (int j = 0; j < f->params; j++) {
    CHECK_REL(f->coef[j], coef[j], 1e-10);
    CHECK_REL(f->se[j], coef_se[j], 1e-10);
    /* t quantiles: SciPy's own inversion is good to about 1e-9 */
    CHECK_REL(f->ci_low[j], low[j], 1e-8);
    CHECK_REL(f->ci_high[j], high[j], 1e-8);
  }
  CHECK_REL(f->rss, rss, 1e-9);
  CHECK_REL(f->r2, r2, 1e-12);
  CHECK_REL(f->chi2_p, chi2_p, 1e-9);
}

static void wls_through_zero_against_numpy(void) {
  double w[6];
  weights_of(se, 6, w);
  const double *x[2] = {wake, threads};
  fit_wls f;
  CHECK_INT(fit_wls_run(slow, x, 2, w, 6, 0, &f), 1);
  /* fit_reference.py: "# cost, intercept 0" */
  static const double coef[] = {-0.423441063328007, -0.008907326746084979};
  static const double coef_se[] = {0.021696466436949738, 0.016588649551216906};
  static const double low[] = {-0.4836801113669644, -0.05496480159440282};
  static const double high[] = {-0.3632020152890496, 0.03715014810223286};
  check_wls(&f, coef, coef_se, low, high, 0.7542577461553168, 0.9984639082136909,
            0.9444731048711186);
  CHECK_INT(f.n, 6);
  CHECK(f.df == 4);
  CHECK(f.scale == 1); /* the points scatter less than their errors: not narrowed */
  /* The fitted value at a point and its standard error, from the covariance. */
  double at[2] = {10, 0}, pse;
  CHECK_REL(fit_wls_predict(&f, at, &pse), 10 * coef[0], 1e-12);
  CHECK_REL(pse, 10 * coef_se[0], 1e-12);
}

static void wls_with_intercept_against_numpy(void) {
  double w[6];
  weights_of(se, 6, w);
  const double *x[2] = {wake, threads};
  fit_wls f;
  CHECK_INT(fit_wls_run(slow, x, 2, w, 6, 1, &f), 1);
  /* fit_reference.py: "# cost, intercept 1" */
  static const double coef[] = {0.13577921159618717, -0.4252916365087307, -0.017865667322230605};
  static const double coef_se[] = {0.26664524858699307, 0.021998725968638506, 0.024180160702498087};
  static const double low[] = {-0.7128049745910927, -0.4953014006885853, -0.09481773041107537};
  static const double high[] = {0.9843633977834672, -0.3552818723288761, 0.05908639576661416};
  check_wls(&f, coef, coef_se, low, high, 0.49495992550026785, 0.9987421432434131,
            0.9199972906406465);
  CHECK_INT(f.params, 3);
  CHECK(f.df == 3);
}

static void wls_widens_errors_of_scattered_points(void) {
  double w[6];
  weights_of(se, 6, w);
  const double *x[2] = {wake, threads};
  fit_wls f;
  CHECK_INT(fit_wls_run(scatter, x, 2, w, 6, 0, &f), 1);
  /* fit_reference.py: "# scatter, intercept 0" */
  static const double coef[] = {-0.38213028328087045, 0.0804457908355461};
  static const double coef_se[] = {0.0701730973340082, 0.05365283434425235};
  static const double low[] = {-0.5769620358904463, -0.06851835845954171};
  static const double high[] = {-0.18729853067129468, 0.2294099401306339};
  check_wls(&f, coef, coef_se, low, high, 41.84304347882, 0.8850566246749451,
            1.7979154071355155e-08);
  CHECK_REL(f.scale, 41.84304347882 / 4, 1e-9);
}

static void wls_degenerate_inputs_give_reasons(void) {
  double w[6];
  weights_of(se, 6, w);
  fit_wls f;
  /* collinear: wake-ups proportional to threads, as in a dose series */
  static const double count[6] = {0.5, 1, 2, 5, 10, 15};
  double rate[6];
  for (int i = 0; i < 6; i++)
    rate[i] = count[i] * 2;
  const double *together[2] = {rate, count};
  CHECK_INT(fit_wls_run(slow, together, 2, w, 6, 0, &f), 0);
  CHECK_STR_CONTAINS(f.why, "cannot fit: the predictors move together");
  CHECK(isnan(f.coef[0]) && isnan(f.se[1]));
  /* a predictor that is 0 everywhere (only waiting threads: no wake-ups) */
  static const double zeros[6] = {0};
  const double *zero_first[2] = {zeros, threads};
  CHECK_INT(fit_wls_run(slow, zero_first, 2, w, 6, 0, &f), 0);
  CHECK_STR_CONTAINS(f.why, "predictor 1 is 0 at every point");
  /* a constant predictor with an intercept */
  static const double same[6] = {2, 2, 2, 2, 2, 2};
  const double *constant[1] = {same};
  CHECK_INT(fit_wls_run(slow, constant, 1, w, 6, 1, &f), 0);
  CHECK_STR_CONTAINS(f.why, "move together");
  /* fewer points than parameters plus one */
  const double *x[2] = {wake, threads};
  CHECK_INT(fit_wls_run(slow, x, 2, w, 2, 0, &f), 0);
  CHECK_STR_CONTAINS(f.why, "2 points with a weight above 0 for 2 parameters; at least 3");
  /* zero weights leave points out; all zero leaves nothing */
  double some[6] = {w[0], 0, 0, 0, 0, w[5]};
  CHECK_INT(fit_wls_run(slow, x, 2, some, 6, 0, &f), 0);
  CHECK_INT(f.n, 2);
  static const double none[6] = {0};
  CHECK_INT(fit_wls_run(slow, x, 2, none, 6, 0, &f), 0);
  CHECK_STR_CONTAINS(f.why, "0 points with a weight above 0");
  /* a zero weight also hides a value that is not a number */
  double y[6] = {slow[0], slow[1], slow[2], slow[3], slow[4], NAN};
  double w5[6] = {w[0], w[1], w[2], w[3], w[4], 0};
  CHECK_INT(fit_wls_run(y, x, 2, w5, 6, 0, &f), 1);
  CHECK_INT(f.n, 5);
  /* bad weights and values */
  double negative[6] = {w[0], w[1], -1, w[3], w[4], w[5]};
  CHECK_INT(fit_wls_run(slow, x, 2, negative, 6, 0, &f), 0);
  CHECK_STR_CONTAINS(f.why, "point 3 has weight -1");
  double infinite[6] = {w[0], w[1], INFINITY, w[3], w[4], w[5]};
  CHECK_INT(fit_wls_run(slow, x, 2, infinite, 6, 0, &f), 0);
  CHECK_STR_CONTAINS(f.why, "point 3 has weight inf");
  CHECK_INT(fit_wls_run(y, x, 2, w, 6, 0, &f), 0);
  CHECK_STR_CONTAINS(f.why, "point 6 is not a finite number");
  /* no predictors, too many, too many points */
  CHECK_INT(fit_wls_run(slow, x, 0, w, 6, 0, &f), 0);
  CHECK_STR_CONTAINS(f.why, "0 predictors (1 to 2 accepted)");
  CHECK_INT(fit_wls_run(slow, x, 3, w, 6, 0, &f), 0);
  CHECK_INT(fit_wls_run(slow, x, 2, w, FIT_MAX_POINTS + 1, 0, &f), 0);
  CHECK_STR_CONTAINS(f.why, "points (0 to 64 accepted)");
  double pse;
  CHECK(isnan(fit_wls_predict(&f, wake, &pse)) && isnan(pse));
}

/* The dose series of the script: x in thousands of threads. */
static const double dose_x[8] = {0.5, 1, 2, 5, 10, 15, 20, 30};
static const double dose_se[8] = {0.3, 0.3, 0.35, 0.3, 0.4, 0.4, 0.5, 0.6};

static void check_hinge(const fit_hinge *h, const double *expected) {
  /* knot, slope, slope_se, rss, line_slope, line_se, line_rss, f, p, knot_low, knot_high */
  CHECK_INT(h->ok, 1);
  CHECK(h->knot == expected[0]);
  CHECK_REL(h->slope, expected[1], 1e-10);
  CHECK_REL(h->slope_se, expected[2], 1e-10);
  CHECK_REL(h->rss, expected[3], 1e-9);
  CHECK_REL(h->line_slope, expected[4], 1e-10);
  CHECK_REL(h->line_se, expected[5], 1e-10);
  CHECK_REL(h->line_rss, expected[6], 1e-9);
  CHECK_REL(h->f, expected[7], 1e-9);
  CHECK_REL(h->p, expected[8], 1e-7);
  CHECK(h->knot_low == expected[9]);
  CHECK(h->knot_high == expected[10]);
  CHECK_INT(h->n, 8);
}

static void hinge_against_scipy(void) {
  double w[8];
  weights_of(dose_se, 8, w);
  fit_hinge h;
  /* fit_reference.py: "# hinge, knee" */
  static const double knee_y[8] = {0.1, -0.1, 0.05, -0.05, -2.4, -5.1, -7.4, -12.6};
  static const double knee[] = {5.0,
                                -0.5011908148750254,
                                0.017106240104657347,
                                0.4583399860655494,
                                -0.3520435999604834,
                                0.0360733533386689,
                                58.80383466701792,
                                763.7844803609358,
                                1.4841227322468725e-07,
                                5.0,
                                5.0};
  CHECK_INT(fit_hinge_run(dose_x, knee_y, w, 8, &h), 1);
  check_hinge(&h, knee);
  CHECK_INT(h.knee, 1);
  /* "# hinge, soft": a knee placed less exactly */
  static const double soft_y[8] = {0.4, -0.5, 0.3, -1.2, -2.2, -5.0, -6.6, -12.5};
  static const double soft[] = {2.0,
                                -0.39834217836216945,
                                0.02436113495914472,
                                17.91086948711555,
                                -0.347144992919946,
                                0.029036476979906866,
                                38.099603868234155,
                                6.763066772043088,
                                0.04063010782060924,
                                0.5,
                                5.0};
  CHECK_INT(fit_hinge_run(dose_x, soft_y, w, 8, &h), 1);
  check_hinge(&h, soft);
  CHECK_INT(h.knee, 1);
  /* "# hinge, line": the hinge fits worse than the line, so F < 0 and p = 1 */
  static const double line_y[8] = {-0.2, -0.35, -0.9, -2.1, -4.0, -6.2, -7.9, -12.1};
  static const double line[] = {0.5,
                                -0.41649698491694065,
                                0.01284308697401624,
                                2.31919013103991,
                                -0.40398353475812554,
                                0.012446083542801111,
                                0.43585879408568584,
                                -4.872385351458228,
                                1.0,
                                0.5,
                                0.5};
  CHECK_INT(fit_hinge_run(dose_x, line_y, w, 8, &h), 1);
  check_hinge(&h, line);
  CHECK_INT(h.knee, 0);
  CHECK_STR_CONTAINS(h.why, "no knee: a straight line fits as well");
}

static void hinge_degenerate_inputs_give_reasons(void) {
  double w[8];
  weights_of(dose_se, 8, w);
  static const double y[8] = {0.1, -0.1, 0.05, -0.05, -2.4, -5.1, -7.4, -12.6};
  fit_hinge h;
  CHECK_INT(fit_hinge_run(dose_x, y, w, 3, &h), 0);
  CHECK_STR_CONTAINS(h.why, "no knee: 3 conditions with a weight above 0; a knee needs at least 4");
  CHECK_INT(h.knee, 0);
  static const double zeros[8] = {0};
  CHECK_INT(fit_hinge_run(dose_x, y, zeros, 8, &h), 0);
  CHECK_STR_CONTAINS(h.why, "0 conditions");
  /* every condition at one count: no knot has two conditions above it */
  static const double same[8] = {5, 5, 5, 5, 5, 5, 5, 5};
  CHECK_INT(fit_hinge_run(same, y, w, 8, &h), 0);
  CHECK_STR_CONTAINS(h.why, "no knot has two conditions above it");
  static const double nothing[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  CHECK_INT(fit_hinge_run(nothing, y, w, 8, &h), 0);
  CHECK_STR_CONTAINS(h.why, "no point lies above 0");
  double bad[8] = {0.1, -0.1, NAN, -0.05, -2.4, -5.1, -7.4, -12.6};
  CHECK_INT(fit_hinge_run(dose_x, bad, w, 8, &h), 0);
  CHECK_STR_CONTAINS(h.why, "no knee: point 3 is not a finite number");
  /* an exact straight line: both fit exactly, nothing for a knot to explain */
  double exact[8];
  for (int i = 0; i < 8; i++)
    exact[i] = -0.5 * dose_x[i];
  CHECK_INT(fit_hinge_run(dose_x, exact, w, 8, &h), 1);
  CHECK_INT(h.knee, 0);
}

static void distributions_against_scipy(void) {
  /* fit_reference.py: "# chi2.sf(x, df)" and "# f.sf(f, d1, d2)" */
  CHECK_REL(fit_chi2_sf(3.1, 1), 0.07829229414640966, 1e-12);
  CHECK_REL(fit_chi2_sf(3.1, 2), 0.21224797382674304, 1e-12);
  CHECK_REL(fit_chi2_sf(3.1, 3), 0.37646264850226413, 1e-12);
  CHECK_REL(fit_chi2_sf(7.5, 4), 0.11170929281604328, 1e-12);
  CHECK_REL(fit_chi2_sf(7.5, 5), 0.186029833602867, 1e-12);
  CHECK_REL(fit_chi2_sf(20.0, 9), 0.017912404529843298, 1e-12);
  CHECK_REL(fit_chi2_sf(0.2, 7), 0.9999748437491691, 1e-12);
  CHECK(fit_chi2_sf(0, 3) == 1 && isnan(fit_chi2_sf(1, 0)));
  CHECK_REL(fit_f_sf(4.2, 1, 6), 0.08631487173364617, 1e-10);
  CHECK_REL(fit_f_sf(0.5, 1, 3), 0.5304777709329569, 1e-10);
  CHECK_REL(fit_f_sf(12.0, 2, 5), 0.012343263949723541, 1e-10);
  CHECK(fit_f_sf(-1, 1, 3) == 1 && fit_f_sf(INFINITY, 1, 3) == 0 && isnan(fit_f_sf(1, 0, 3)));
}

int main(void) {
  RUN_CASE(wls_through_zero_against_numpy);
  RUN_CASE(wls_with_intercept_against_numpy);
  RUN_CASE(wls_widens_errors_of_scattered_points);
  RUN_CASE(wls_degenerate_inputs_give_reasons);
  RUN_CASE(hinge_against_scipy);
  RUN_CASE(hinge_degenerate_inputs_give_reasons);
  RUN_CASE(distributions_against_scipy);
  return check_summary();
}

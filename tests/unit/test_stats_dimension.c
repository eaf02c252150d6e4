/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_stats_dimension.c - the runs per trial that pay: the variance of paired log ratios pooled
   by runs per trial and the choice, against tests/reference/dimension_reference.py (NumPy and
   SciPy; the printed numbers are copied here); trying the other of 1 and 2; refusals; and a seeded
   simulation of histories: the choice they lead to is, nearly always, one whose interval is
   about as narrow as the best count's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "sim.h"
#include "stats/dimension.h"

static const dimension_plan quick = {1.02, 0.98, 4, 78.0, 5, 3};

static void variance_by_runs_against_numpy(void) {
  dimension_tally t;
  memset(&t, 0, sizeof t);
  CHECK(isnan(dimension_variance(&t, 1)));
  dimension_add_run(&t, 0.0030039999999999993, 5, 1);
  CHECK(isnan(dimension_variance(&t, 1))); /* 5 degrees of freedom are too few */
  dimension_add_run(&t, 0.0092137142857142834, 6, 1);
  dimension_add_run(&t, 0.00059800000000000001, 4, 2);
  dimension_add_run(&t, 0.00097133333333333338, 5, 2);
  /* refused: add nothing */
  dimension_add_run(&t, NAN, 4, 1);
  dimension_add_run(&t, -1, 4, 1);
  dimension_add_run(&t, 0.01, 0, 1);
  dimension_add_run(&t, 0.01, 4, 0);
  dimension_add_run(&t, 0.01, 4, DIMENSION_MAX_RUNS + 1);
  CHECK_REL(dimension_variance(&t, 1), 0.0011107012987012985, 1e-12);
  CHECK_REL(dimension_variance(&t, 2), 0.00017437037037037039, 1e-12);
  CHECK(isnan(dimension_variance(&t, 3)) && isnan(dimension_variance(&t, 0)) &&
        isnan(dimension_variance(&t, DIMENSION_MAX_RUNS + 1)));
}

static dimension_tally tally_of(double v1, double v2, double df) {
  dimension_tally t;
  memset(&t, 0, sizeof t);
  if (v1 > 0)
    dimension_add_run(&t, v1 * df, df, 1);
  if (v2 > 0)
    dimension_add_run(&t, v2 * df, df, 2);
  return t;
}

static void choice_against_scipy(void) {
  /* quick on the 2-core VM: idle a second run halves the paired variance and pays; busy it
     makes it larger, and one run per trial is best */
  CHECK_REL(dimension_cost(0.0060, &quick, 1), 0.0035451033805273349, 1e-9);
  CHECK_REL(dimension_cost(0.0030, &quick, 2), 0.0033039454893668036, 1e-9);
  const dimension_plan busy = {1.12, 1.09, 4, 78.0, 5, 3};
  CHECK_REL(dimension_cost(0.0062, &busy, 2), 0.0095587228034992502, 1e-9);
  const dimension_plan count = {1.0, 1.0, 4, 0, 0, 2};
  CHECK_REL(dimension_cost(0.0050, &count, 1), 0.01, 1e-12);
  const struct {
    double v1, v2, v3;
    const dimension_plan *plan;
    int k;
  } cases[] = {
      {0.0060, 0.0030, 0, &quick, 2},
      {0.0050, 0.0062, 0, &busy, 1},
      {0.0050, 0.0030, 0, &count, 2},
      /* three runs per trial do not fit five blocks in 78 s: never chosen, however good */
      {0.0060, 0.0030, 0.0001, &quick, 2},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    dimension_tally t = tally_of(cases[i].v1, cases[i].v2, 20);
    if (cases[i].v3 > 0)
      dimension_add_run(&t, cases[i].v3 * 20, 20, 3);
    int k;
    CHECK_INT(dimension_runs_per_trial(&t, cases[i].plan, &k), DIMENSION_COMPARED);
    CHECK_INT(k, cases[i].k);
  }
}

static void the_other_count_is_tried(void) {
  int k;
  /* one run per trial known: the usual count is tried, as far as its least blocks fit (quick's
     usual 3 would fit four blocks in 78 s, not five: 2) */
  dimension_tally t = tally_of(0.0050, 0, 20);
  CHECK_INT(dimension_runs_per_trial(&t, &quick, &k), DIMENSION_TRYING);
  CHECK_INT(k, 2);
  const dimension_plan settles_long = {6.0, 1.0, 7, 0, 0, 8}; /* the cost preset: 5 s settle */
  CHECK_INT(dimension_runs_per_trial(&t, &settles_long, &k), DIMENSION_TRYING);
  CHECK_INT(k, 8);
  /* only counts above one known: one run per trial is tried */
  t = tally_of(0, 0.0050, 20);
  CHECK_INT(dimension_runs_per_trial(&t, &quick, &k), DIMENSION_TRYING);
  CHECK_INT(k, 1);
  memset(&t, 0, sizeof t);
  dimension_add_run(&t, 0.1, 20, 8);
  CHECK_INT(dimension_runs_per_trial(&t, &settles_long, &k), DIMENSION_TRYING);
  CHECK_INT(k, 1);
  /* a benchmark that is most of its trial: the usual count is 1, and a second run would not pay
     its time */
  const dimension_plan long_run = {1.0, 8.0, 4, 0, 0, 1};
  t = tally_of(0.0050, 0, 20);
  CHECK_INT(dimension_runs_per_trial(&t, &long_run, &k), DIMENSION_ONE_ONLY);
  CHECK_INT(k, 1);
  /* a plan so short that no second run fits */
  const dimension_plan tight = {1.0, 1.0, 4, 44.0, 5, 2};
  CHECK_INT(dimension_runs_per_trial(&t, &tight, &k), DIMENSION_ONE_ONLY);
  CHECK_INT(k, 1);
  /* one run and eight known: compared */
  dimension_add_run(&t, 0.1 * 20, 20, 8);
  CHECK_INT(dimension_runs_per_trial(&t, &settles_long, &k), DIMENSION_COMPARED);
  CHECK_INT(k, 1);
  /* nothing to go by: the caller takes the usual count */
  memset(&t, 0, sizeof t);
  CHECK_INT(dimension_runs_per_trial(&t, &quick, &k), DIMENSION_NONE);
  CHECK_INT(k, 0);
  /* refused */
  const dimension_plan bad = {0, 1.0, 4, 0, 0, 1}, no_trials = {1.0, 1.0, 0, 0, 0, 1};
  const dimension_plan no_usual = {1.0, 1.0, 4, 0, 0, 0};
  CHECK_INT(dimension_runs_per_trial(&t, &bad, &k), DIMENSION_INVALID);
  CHECK_INT(dimension_runs_per_trial(&t, &no_trials, &k), DIMENSION_INVALID);
  CHECK_INT(dimension_runs_per_trial(&t, &no_usual, &k), DIMENSION_INVALID);
}

/* One earlier run of `blocks` blocks and three conditions whose paired log ratios have variance
   v: its sum of squares and degrees of freedom into the tally. */
static void simulate_run(sim_rng *r, double v, int blocks, int k, dimension_tally *t) {
  double ss = 0;
  for (int c = 0; c < 3; c++) {
    double d[64], mean = 0;
    for (int b = 0; b < blocks; b++) {
      d[b] = sqrt(v) * sim_normal(r);
      mean += d[b] / blocks;
    }
    for (int b = 0; b < blocks; b++)
      ss += (d[b] - mean) * (d[b] - mean);
  }
  dimension_add_run(t, ss, 3.0 * (blocks - 1), k);
}

/* Histories as the learning makes them (one quick run of each count: 9 blocks of one run, 6 of
   two), on a machine where a second run takes 60 % of the variance away, one where it helps a
   little (one run per trial still gives an interval 1.25 times narrower) and one where it doubles
   it. From so little history the choice is sometimes the other count; what it costs is bounded: the
   interval it gives is on average at most 6 % wider than the best count's, and at most 10 % wider
   in at least 70 % of histories; always one, or always two, would fail it. */
static void simulated_histories_choose_well(void) {
  struct {
    const char *name;
    double v1, v2;
  } machines[] = {
      {"idle-like", 0.0060, 0.0024}, {"close", 0.0050, 0.0042}, {"busy-like", 0.0050, 0.0100}};
  const int histories = 2000;
  for (size_t m = 0; m < sizeof machines / sizeof machines[0]; m++) {
    double c1 = dimension_cost(machines[m].v1, &quick, 1);
    double c2 = dimension_cost(machines[m].v2, &quick, 2);
    double best = c1 < c2 ? c1 : c2;
    sim_rng r = sim_seed(0x64696d656e73ull + m);
    int close = 0, chose2 = 0;
    double width_sum = 0;
    for (int h = 0; h < histories; h++) {
      dimension_tally t;
      memset(&t, 0, sizeof t);
      simulate_run(&r, machines[m].v1, 9, 1, &t);
      simulate_run(&r, machines[m].v2, 6, 2, &t);
      int k;
      CHECK_INT(dimension_runs_per_trial(&t, &quick, &k), DIMENSION_COMPARED);
      chose2 += k == 2;
      double width = sqrt((k == 1 ? c1 : c2) / best);
      width_sum += width;
      close += width <= 1.10;
    }
    printf("  %s: %d of %d histories choose 2 runs per trial (the best: %d); %d within 10 %% "
           "of the best interval, %.3f times as wide on average\n",
           machines[m].name, chose2, histories, c2 < c1 ? 2 : 1, close, width_sum / histories);
    CHECK(close >= 0.70 * histories);
    CHECK(width_sum / histories <= 1.06);
  }
}

int main(void) {
  RUN_CASE(variance_by_runs_against_numpy);
  RUN_CASE(choice_against_scipy);
  RUN_CASE(the_other_count_is_tried);
  RUN_CASE(simulated_histories_choose_well);
  return check_summary();
}

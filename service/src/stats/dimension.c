/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* dimension.c - the runs per trial that pay, from what each count gave in this machine's earlier
   runs (the rules are in dimension.h). */
#include "dimension.h"

#include <math.h>

#include "dist.h"

void dimension_add_run(dimension_tally *t, double ss, double df, int runs_per_trial) {
  if (runs_per_trial < 1 || runs_per_trial > DIMENSION_MAX_RUNS || !(df > 0) || !isfinite(ss) ||
      ss < 0)
    return;
  t->ss[runs_per_trial] += ss;
  t->df[runs_per_trial] += df;
}

double dimension_variance(const dimension_tally *t, int k) {
  if (k < 1 || k > DIMENSION_MAX_RUNS || t->df[k] < DIMENSION_MIN_DF)
    return NAN;
  return t->ss[k] / t->df[k];
}

int dimension_usual_runs(double overhead_s, double run_s) {
  if (!(overhead_s > 0) || !(run_s > 0))
    return 1;
  double want = DIMENSION_USUAL_SHARE / (1 - DIMENSION_USUAL_SHARE) * overhead_s / run_s;
  return want > DIMENSION_MAX_RUNS ? DIMENSION_MAX_RUNS : want < 1 ? 1 : (int)ceil(want);
}

double dimension_cost(double v, const dimension_plan *p, int k) {
  double trial_s = p->overhead_s + k * p->run_s;
  if (p->fill_s <= 0)
    return v * trial_s; /* variance per unit of time */
  double blocks = floor(p->fill_s / (p->trials_per_block * trial_s));
  if (blocks < p->min_blocks || blocks < 2)
    return HUGE_VAL;
  double t = dist_t_quantile(0.975, blocks - 1);
  return t * t * v / blocks;
}

dimension_basis dimension_runs_per_trial(const dimension_tally *t, const dimension_plan *p,
                                         int *k) {
  *k = 0;
  if (!(p->overhead_s > 0) || !(p->run_s > 0) || p->trials_per_block < 1 || p->usual_runs < 1 ||
      p->usual_runs > DIMENSION_MAX_RUNS)
    return DIMENSION_INVALID;
  int best = 0, known = 0;
  double best_cost = HUGE_VAL;
  for (int runs = 1; runs <= DIMENSION_MAX_RUNS; runs++) {
    double v = dimension_variance(t, runs);
    if (!isfinite(v))
      continue;
    known++;
    double c = dimension_cost(v, p, runs);
    if (!best || c < best_cost) {
      best = runs;
      best_cost = c;
    }
  }
  if (known == 0)
    return DIMENSION_NONE;
  int one = isfinite(dimension_variance(t, 1));
  if (!one) { /* only counts above one: one run per trial is the other side */
    *k = 1;
    return DIMENSION_TRYING;
  }
  if (known == 1) {
    /* u, or the most runs below it whose least blocks still fit (the cost is finite for any
       variance exactly where they fit) */
    int tried = p->usual_runs;
    while (tried > 1 && !isfinite(dimension_cost(1.0, p, tried)))
      tried--;
    *k = tried;
    return tried > 1 ? DIMENSION_TRYING : DIMENSION_ONE_ONLY;
  }
  *k = best;
  return DIMENSION_COMPARED;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* multiplicity.c - Holm's step-down correction and the interval levels compatible with it (the
   method: multiplicity.h). */
#include "multiplicity.h"

#include <math.h>

/* Holm needs the order of the p values; k is a handful of conditions, so an insertion sort of
   indices keeps this free of allocation and of qsort's unstable ties. */
#define MULTIPLICITY_MAX MULTIPLICITY_MAX_CLAIMS

static int p_bad(double p) { return !isnan(p) && !(p >= 0 && p <= 1); }

static double p_or_one(double p) { return isnan(p) ? 1 : p; }

/* order[0..k-1]: the indices of p sorted by p (NaN as 1), ties kept in input order. */
static void order_of(const double *p, size_t k, size_t *order) {
  for (size_t i = 0; i < k; i++) {
    size_t j = i;
    while (j > 0 && p_or_one(p[order[j - 1]]) > p_or_one(p[i])) {
      order[j] = order[j - 1];
      j--;
    }
    order[j] = i;
  }
}

static int arguments_bad(const double *p, size_t k, const double *out) {
  if (k > MULTIPLICITY_MAX || (k > 0 && (!p || !out)))
    return 1;
  for (size_t i = 0; i < k; i++)
    if (p_bad(p[i]))
      return 1;
  return 0;
}

int multiplicity_holm(const double *p, size_t k, double *adjusted) {
  if (arguments_bad(p, k, adjusted))
    return -1;
  size_t order[MULTIPLICITY_MAX];
  order_of(p, k, order);
  double running = 0, value[MULTIPLICITY_MAX];
  for (size_t j = 0; j < k; j++) {
    double a = (double)(k - j) * p_or_one(p[order[j]]);
    if (a > 1)
      a = 1;
    if (a > running)
      running = a;
    value[order[j]] = running;
  }
  for (size_t i = 0; i < k; i++)
    adjusted[i] = value[i];
  return 0;
}

int multiplicity_holm_levels(const double *p, size_t k, double alpha, double *alpha_i) {
  if (arguments_bad(p, k, alpha_i) || !(alpha > 0 && alpha < 1))
    return -1;
  size_t order[MULTIPLICITY_MAX];
  order_of(p, k, order);
  double level[MULTIPLICITY_MAX];
  size_t j = 0;
  for (; j < k; j++) {
    double step = alpha / (double)(k - j);
    if (!(p_or_one(p[order[j]]) < step))
      break;
    level[order[j]] = step;
  }
  double stopped = j < k ? alpha / (double)(k - j) : alpha;
  for (; j < k; j++)
    level[order[j]] = stopped;
  for (size_t i = 0; i < k; i++)
    alpha_i[i] = level[i];
  return 0;
}

double multiplicity_simultaneous_confidence(double confidence, size_t k) {
  if (!(confidence > 0 && confidence < 1) || k == 0)
    return NAN;
  return 1 - (1 - confidence) / (double)k;
}

int multiplicity_compare_family(const double *baseline, const double *const *conditions, size_t k,
                                size_t blocks, const blocked_options *options, int holm_equivalence,
                                blocked_result *out, double *p_adjusted) {
  const double *baselines[MULTIPLICITY_MAX];
  if (k > MULTIPLICITY_MAX)
    return BLOCKED_EINVAL;
  for (size_t i = 0; i < k; i++)
    baselines[i] = baseline;
  return multiplicity_compare_pairs(baselines, conditions, k, blocks, options, holm_equivalence,
                                    out, p_adjusted);
}

int multiplicity_compare_pairs(const double *const *baselines, const double *const *conditions,
                               size_t k, size_t blocks, const blocked_options *options,
                               int holm_equivalence, blocked_result *out, double *p_adjusted) {
  if (k > MULTIPLICITY_MAX || (k > 0 && (!baselines || !conditions || !out)))
    return BLOCKED_EINVAL;
  blocked_options first = options ? *options : (blocked_options){0};
  double p[MULTIPLICITY_MAX], tost[MULTIPLICITY_MAX];
  for (size_t i = 0; i < k; i++) {
    if (blocked_compare(baselines[i], conditions[i], blocks, &first, &out[i]) == BLOCKED_EINVAL)
      return BLOCKED_EINVAL;
    p[i] = out[i].p;
    tost[i] = out[i].tost_p;
  }
  if (k == 0)
    return BLOCKED_OK;
  double alpha = 1 - out[0].confidence, eq_alpha = out[0].equivalence_alpha;
  double level[MULTIPLICITY_MAX], eq_level[MULTIPLICITY_MAX];
  multiplicity_holm_levels(p, k, alpha, level);
  multiplicity_holm_levels(tost, k, eq_alpha, eq_level);
  if (p_adjusted)
    multiplicity_holm(p, k, p_adjusted);
  for (size_t i = 0; i < k; i++) {
    if (out[i].status != BLOCKED_OK)
      continue;
    blocked_options again = first;
    again.confidence = 1 - level[i];
    if (holm_equivalence)
      again.equivalence_alpha = eq_level[i];
    blocked_compare(baselines[i], conditions[i], blocks, &again, &out[i]);
  }
  return BLOCKED_OK;
}

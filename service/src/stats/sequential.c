/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sequential.c - alpha-spending boundaries by numerical integration, and the adaptive precision
   rules (the method: sequential.h). */
#include "sequential.h"

#include <math.h>

#include "dist.h"

double seq_alpha_spent(double t, double alpha) {
  if (!(t > 0 && t <= 1) || !(alpha > 0 && alpha < 1))
    return NAN;
  /* Each side spends 2 - 2 Phi(z(1 - a/2) / sqrt(t)) of its one-sided a = alpha / 2, written
     as the lower tail 2 Phi(-x): 2 - 2 Phi(x) cancels to 0 once x passes about 8, which early
     looks of a long run (t of 3 blocks in 80) do. */
  return 4 * dist_normal_cdf(-dist_normal_quantile(1 - alpha / 4) / sqrt(t));
}

/* The state carried from look to look: S's density on an even grid over (-width, width), only
   the part of the paths that has not stopped (it integrates to the probability of still
   running). */
typedef struct seq_density {
  double width;
  double value[SEQ_GRID];
} seq_density;

static double grid_point(const seq_density *d, int i) {
  return -d->width + 2 * d->width * i / (SEQ_GRID - 1);
}

/* Simpson's weight of grid point i. */
static double simpson(const seq_density *d, int i) {
  double h = 2 * d->width / (SEQ_GRID - 1);
  double w = i == 0 || i == SEQ_GRID - 1 ? 1 : (i % 2 ? 4 : 2);
  return w * h / 3;
}

static double normal_density(double x) {
  return exp(-x * x / 2) / sqrt(2 * 3.14159265358979323846);
}

/* P(still running before this look and |S_k| >= c sqrt(t_k)), S_k = S_{k-1} + N(0, delta). */
static double exit_probability(const seq_density *d, double c, double t, double delta) {
  double edge = c * sqrt(t), sd = sqrt(delta), sum = 0;
  for (int i = 0; i < SEQ_GRID; i++) {
    double s = grid_point(d, i);
    double out = dist_normal_cdf((-edge - s) / sd) + dist_normal_cdf((s - edge) / sd);
    sum += simpson(d, i) * d->value[i] * out;
  }
  return sum;
}

/* The density of S_k on (-c sqrt(t_k), c sqrt(t_k)) from the one before. */
static void carry(const seq_density *before, double c, double t, double delta, seq_density *after) {
  double sd = sqrt(delta);
  after->width = c * sqrt(t);
  for (int j = 0; j < SEQ_GRID; j++) {
    double s = grid_point(after, j), sum = 0;
    for (int i = 0; i < SEQ_GRID; i++)
      sum +=
          simpson(before, i) * before->value[i] * normal_density((s - grid_point(before, i)) / sd);
    after->value[j] = sum / sd;
  }
}

int seq_boundaries(const double *fractions, int looks, double alpha, double *bounds) {
  if (!fractions || !bounds || looks < 1 || looks > SEQ_MAX_LOOKS || !(alpha > 0 && alpha < 1))
    return -1;
  for (int k = 0; k < looks; k++)
    if (!(fractions[k] > 0 && fractions[k] <= 1) || (k > 0 && !(fractions[k] > fractions[k - 1])))
      return -1;
  static const double far = 40; /* a boundary beyond which no probability is left */
  /* The first look is the normal tail itself, taken from the lower tail so that a tiny spend
     (1 - spent / 2 rounds to 1 in a double below about 1e-16) keeps its digits; a spend too small
     for a double has its boundary at far. */
  double spent = seq_alpha_spent(fractions[0], alpha);
  bounds[0] = spent > 0 ? -dist_normal_quantile(spent / 2) : far;
  if (!(bounds[0] > 0) || bounds[0] > far)
    bounds[0] = far;
  seq_density d[2];
  d[0].width = bounds[0] * sqrt(fractions[0]);
  for (int i = 0; i < SEQ_GRID; i++)
    d[0].value[i] = normal_density(grid_point(&d[0], i) / sqrt(fractions[0])) / sqrt(fractions[0]);
  int cur = 0;
  for (int k = 1; k < looks; k++) {
    double now = seq_alpha_spent(fractions[k], alpha), target = now - spent;
    double delta = fractions[k] - fractions[k - 1];
    double lo = 0, hi = far;
    for (int it = 0; it < 100 && hi - lo > 1e-12; it++) {
      double mid = (lo + hi) / 2;
      if (exit_probability(&d[cur], mid, fractions[k], delta) > target)
        lo = mid;
      else
        hi = mid;
    }
    bounds[k] = (lo + hi) / 2;
    /* A boundary the integration could not place (a density gone to NaN would drive the
       bisection to 0 and call every look decided) fails the whole set: the caller then runs
       every block. */
    if (!(bounds[k] > 0 && bounds[k] <= far))
      return -1;
    spent = now;
    if (k + 1 < looks) {
      carry(&d[cur], bounds[k], fractions[k], delta, &d[1 - cur]);
      cur = 1 - cur;
    }
  }
  return 0;
}

double seq_z_of_p(double p) {
  if (!(p >= 0 && p <= 1))
    return NAN;
  if (p == 0)
    return INFINITY;
  if (p == 1)
    return 0;
  /* From the lower tail: 1 - p / 2 is 1 in a double for p below about 2e-16. */
  return -dist_normal_quantile(p / 2);
}

int seq_effect_decided(const blocked_result *r, double bound) {
  return r && r->status == BLOCKED_OK && seq_z_of_p(r->p) >= bound;
}

int seq_looks(long planned, long *blocks, double *fractions) {
  if (planned < BLOCKED_MIN_PAIRS)
    return 0;
  long span = planned - BLOCKED_MIN_PAIRS + 1, step = (span + SEQ_MAX_LOOKS - 1) / SEQ_MAX_LOOKS;
  int looks = 0;
  for (long k = BLOCKED_MIN_PAIRS; k < planned && looks < SEQ_MAX_LOOKS - 1; k += step) {
    blocks[looks] = k;
    fractions[looks++] = (double)k / (double)planned;
  }
  blocks[looks] = planned;
  fractions[looks++] = 1;
  return looks;
}

int seq_stop_boundaries(const double *fractions, int looks, size_t comparisons, double alpha,
                        double alpha_eq, double *effect, double *equivalence) {
  if (comparisons == 0 || !(alpha_eq > 0 && alpha_eq < 0.5))
    return -1;
  if (seq_boundaries(fractions, looks, alpha / (double)comparisons, effect) != 0)
    return -1;
  return seq_boundaries(fractions, looks, 2 * alpha_eq, equivalence);
}

int seq_comparison_decided(const blocked_result *r, double effect_bound, double equivalence_bound) {
  if (!r || r->status != BLOCKED_OK || !r->paired)
    return 0;
  if (seq_effect_decided(r, effect_bound))
    return 1;
  /* tost_p is one-sided: its z is that of a two-sided p twice as large. */
  return r->tost_p <= 0.5 && seq_z_of_p(2 * r->tost_p) >= equivalence_bound;
}

double seq_default_precision(double margin_percent) {
  return SEQ_PRECISION_FACTOR * margin_percent;
}

int seq_precision_reached(const blocked_result *r, double target_percent) {
  if (!r || r->status != BLOCKED_OK || !r->paired || r->pairs < SEQ_PRECISION_MIN_BLOCKS ||
      !(target_percent > 0))
    return 0;
  double half = (log1p(r->ci_high / 100) - log1p(r->ci_low / 100)) / 2;
  return half <= log1p(target_percent / 100);
}

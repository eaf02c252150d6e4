/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* multiplicity.h - Holm's step-down correction across a benchmark's load conditions compared with
   the one baseline, and the confidence levels of intervals that agree with its decisions (pure
   C11, no state; reference values from tests/reference/blocked_reference.py, the family-wise
   error rates from seeded simulations in test_stats_multiplicity).

   ---------------------------------------------------------------------------------------------
   WHY: a run with k conditions makes k claims "slower"/"faster". Each at 5 % gives at least one
   false claim in 17 to 27 % of runs that have k = 4 to 8 and no real effect (simulated in
   test_stats_multiplicity; Holm: 4 to 5 %). Holm keeps that
   family-wise rate at most alpha for any dependence between the tests (here they share the
   baseline), and is uniformly more powerful than Bonferroni.

   HOLM: sort the p values p_(1) <= ... <= p_(k); reject H_(j) while p_(j) < alpha / (k - j + 1),
   stop at the first that is not. Adjusted p: max over i <= j of min(1, (k - i + 1) p_(i)); H is
   rejected exactly when its adjusted p is below alpha. Each comparison keeps its own p too.

   THE INTERVALS: a comparison rejected at step j gets the level 1 - alpha / (k - j + 1); every
   comparison not rejected gets the level of the first step that failed, 1 - alpha / (k - j* + 1)
   (1 - alpha / k when none is rejected). Then a t interval excludes 0 exactly when Holm rejects:
   rejected at step j means p < alpha / (k - j + 1); not rejected means p >= p_(j*) >= alpha /
   (k - j* + 1). These intervals are compatible with the decisions, not simultaneous: only the
   Bonferroni set (every interval at 1 - alpha / k, multiplicity_simultaneous_confidence) covers
   all k effects at once with probability 1 - alpha.

   EQUIVALENCE: each "no measurable effect" is its own claim. The claim about all conditions
   together ("none of these loads costs more than M") is an intersection-union test, valid at
   alpha_eq with no correction (Berger 1982), which is why the default leaves TOST alone. A caller
   that reports each condition's equivalence as a separate finding can ask for Holm over the TOST
   p values as well (the same procedure: Holm is valid for any set of p values); the equivalence
   intervals then get levels 1 - 2 alpha_eq,i by the same rule.
   --------------------------------------------------------------------------------------------- */
#ifndef THREADSOUP_STATS_MULTIPLICITY_H
#define THREADSOUP_STATS_MULTIPLICITY_H

#include <stddef.h>

#include "blocked.h"

/* The most claims one family holds: every kernel of a benchmark under every condition. */
#define MULTIPLICITY_MAX_CLAIMS 512

/* Holm adjusted p values of p[0..k-1] into adjusted[0..k-1] (may be the same array). A NaN p
   (a comparison that could not be made) counts as 1: it stays in k, so the others are not
   corrected for fewer claims than the run makes. Returns 0, or -1 for a NULL array with k > 0,
   or a p outside [0, 1] that is not NaN. */
int multiplicity_holm(const double *p, size_t k, double *adjusted);

/* The per-comparison alpha_i that goes with Holm at family level alpha (see above): the interval
   at 1 - alpha_i excludes 0 exactly when Holm rejects. Returns 0, or -1 for bad arguments (as
   multiplicity_holm, or alpha not in (0, 1)). */
int multiplicity_holm_levels(const double *p, size_t k, double alpha, double *alpha_i);

/* 1 - (1 - confidence) / k: the Bonferroni level whose k intervals are simultaneous. */
double multiplicity_simultaneous_confidence(double confidence, size_t k);

/* Every condition against the one baseline with Holm: conditions[i][b] is condition i's score in
   block b (NaN: missing). Each comparison is made as blocked_compare does with `options`
   (family level alpha = 1 - confidence), then remade at its Holm level, so out[i]'s interval and
   verdict are Holm's. With holm_equivalence the TOST claims are corrected the same way. The
   adjusted p values go to p_adjusted (k of them) when it is not NULL. Returns 0 (each out[i].status
   says whether that comparison could be made), or BLOCKED_EINVAL for bad arguments. */
int multiplicity_compare_family(const double *baseline, const double *const *conditions, size_t k,
                                size_t blocks, const blocked_options *options, int holm_equivalence,
                                blocked_result *out, double *p_adjusted);

/* The same over pairs that each have their own baseline, one Holm family: conditions[i] against
   baselines[i] (a benchmark's kernels, each condition against the kernel's own baseline row). */
int multiplicity_compare_pairs(const double *const *baselines, const double *const *conditions,
                               size_t k, size_t blocks, const blocked_options *options,
                               int holm_equivalence, blocked_result *out, double *p_adjusted);

#endif

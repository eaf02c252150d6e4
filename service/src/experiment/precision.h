/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* precision.h - how precise and how decided a run's comparisons are so far, read from the store:
   adaptive repetitions add blocks until the widest interval is narrow enough, and
   --stop-when-decided ends a run once each is decided; the comparisons are made as
   the report makes them (paired within blocks, Holm across a benchmark's conditions), so both see
   the same intervals. */
#ifndef THREADSOUP_PRECISION_H
#define THREADSOUP_PRECISION_H

#include <stdint.h>

#include "../store/store.h"
#include "../plan/plan.h"
#include "../stats/stats.h"

/* The widest half-width (in %, of the interval on the log scale: 100 (exp(h) - 1)) over every
   comparison of the run against its baseline, per benchmark, from the done trials outside
   warm-ups, each made as the report makes it (multiplicity_compare_family with p->margin_pct).
   It is at most a target exactly when seq_precision_reached passes every comparison at that
   target (precision_target(p): the plan's precision, else seq_default_precision of its margin).
   The conditions and benchmarks are the plan's (and any others the trials name);
   the baseline is "baseline", else the plan's first condition. Infinity while a condition has no
   scores, a comparison is not paired or has fewer than SEQ_PRECISION_MIN_BLOCKS (8) complete
   blocks; 0 when there is nothing to compare. */
/* The precision target of a plan: its precision when it sets one, else seq_default_precision of
   its margin (0.62 x M: at that half-width a run with no effect ends "no measurable effect" in
   at least 80 % of simulated runs). */
double precision_target(const plan *p);

int precision_widest_interval(store *s, int64_t run_id, const plan *p, double *widest, ts_err *err);

/* Whether every comparison of the run so far (each made as above) is decided at a look of
   --stop-when-decided whose boundaries are effect_bound and equivalence_bound
   (seq_comparison_decided): *decided is 1 when each is, 0 while any is not or a condition has no
   scores yet. */
int precision_every_comparison_decided(store *s, int64_t run_id, const plan *p, double effect_bound,
                                       double equivalence_bound, int *decided, ts_err *err);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* precision.h - how precise a run's comparisons are so far, read from the store: adaptive
   repetitions add blocks until the widest 95 % CI is narrow enough; the report compares with the
   same options, so both give the same intervals. */
#ifndef THREADSOUP_PRECISION_H
#define THREADSOUP_PRECISION_H

#include <stdint.h>

#include "../store/store.h"
#include "../plan/plan.h"
#include "../stats/stats.h"

/* The stats options of every comparison of a run: the bootstrap is seeded from the run id, so a
   run always reports the same intervals; margin_pct is the plan's equivalence margin (0: the
   default). */
stats_options precision_stats_options(int64_t run_id, double margin_pct);

/* The widest 95 % CI half-width (in %) over every comparison of the run against its baseline, per
   benchmark, from the done trials outside warm-ups: what stats_precision_reached measures, with
   precision_stats_options(run_id, p->margin_pct). The conditions and benchmarks are the plan's
   (and any others the trials name); the baseline is "baseline", else the plan's first condition.
   Infinity while a group has too few trials; 0 when there is nothing to compare. */
int precision_widest_interval(store *s, int64_t run_id, const plan *p, double *widest, ts_err *err);

#endif

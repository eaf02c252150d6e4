/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* calibration.h - the positive control's verdict: whether a run saw the known cost of its burn
   conditions, and its A/A pair no difference (docs/methodology.md, "The positive control"). */
#ifndef THREADSOUP_REPORT_CALIBRATION_H
#define THREADSOUP_REPORT_CALIBRATION_H

#include <stddef.h>
#include <stdio.h>

#include "../stats/stats.h"
#include "data.h"

/* How many threads a benchmark runs: builtin-st, cpuz:single, builtin-mt:1 and 7zip:1 one;
   builtin-mt, 7zip and cpuz more; a command or a score typed in by hand, not known. */
typedef enum calibration_threads {
  CALIBRATION_SINGLE,
  CALIBRATION_MULTI,
  CALIBRATION_UNKNOWN
} calibration_threads;

calibration_threads calibration_bench_threads(const char *bench);
/* "single-thread", "multi-thread", "threads not known". */
const char *calibration_threads_name(calibration_threads t);

/* The effect in % (negative: slower) that `burners` threads each spinning `duty_percent` of the
   time should have on a benchmark, on a machine of `logical_cpus`: from *near to *far. Equal
   ("about -10 %") when burners >= logical CPUs: a single-thread benchmark shares its core with a
   burner, a multi-thread one loses the duty of every core. Fewer burners than CPUs give a range
   from 0 (the scheduler keeps the benchmark off the burners' cores) to -duty x burners / CPUs for
   a multi-thread benchmark and to -duty for a single-thread one or one whose threads are not
   known. */
void calibration_expected(double duty_percent, long burners, int logical_cpus,
                          calibration_threads threads, double *near, double *far);

/* What the verdict is decided on, for one benchmark. */
typedef struct calibration_case {
  const char *control; /* the largest burn condition, for the sentence */
  stats_verdict control_verdict;
  int control_too_few;                /* its comparison had too few (or unusable) scores */
  double control_percent;             /* measured effect in % (NaN: no comparison) */
  double control_detectable;          /* the smallest effect its comparison could detect, % (NaN) */
  double expected_near, expected_far; /* its expected effect, % (see calibration_expected) */
  int aa_pairs;                       /* second baselines (A/A) in the run */
  const char *aa;           /* NULL, or the first second baseline that came out different */
  stats_verdict aa_verdict; /* its verdict (slower or faster) */
  double aa_percent;        /* its measured difference, % */
} calibration_case;

/* The verdict rule: passed (1) only when the largest burn came out slower and no A/A pair came
   out slower or faster. Otherwise failed (0), and `why` says why: the A/A pair differed; or "too
   noisy: this run could detect only ±X %" when the control's detectable effect X exceeds the
   expected cost; or "the control cost less than expected" when the run was precise enough to see
   it. `why` also explains a pass. Pure: unit tested on constructed cases. */
int calibration_decide(const calibration_case *c, char *why, size_t len);

/* One burn condition of a run. */
typedef struct calibration_control {
  int condition;       /* its index in report_data's conditions */
  double duty_percent; /* each burner's share of each period */
  long burners;        /* its threads: the logical CPUs when no count was given */
} calibration_control;

/* The calibration of a run: its burn conditions, its A/A pairs and a verdict per benchmark. */
typedef struct report_calibration {
  int logical_cpus;
  int cpus_from_run; /* 1: stored with the run; 0: this machine's (the run stored none) */
  int control_count;
  calibration_control controls[REPORT_MAX_CONDITIONS];
  int aa_count;
  int aa[REPORT_MAX_CONDITIONS]; /* conditions that are second baselines ("baseline-b") */
  calibration_threads threads[REPORT_MAX_BENCHES];
  int largest[REPORT_MAX_BENCHES]; /* the control each benchmark's verdict rests on */
  int passed[REPORT_MAX_BENCHES];
  char why[REPORT_MAX_BENCHES][480];
  int all_passed;
} report_calibration;

/* Fills *out from the report's cells; returns the number of burn conditions (0: no section). A
   burn condition is one whose only part is burn. */
int report_calibration_of(const report_data *r, report_calibration *out);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* calibration.h - the positive control's verdict: whether a run's burns of known CPU cost cost
   what they should (the slope of measured on expected cost, calibration_fit.h), and its A/A pair
   nothing (docs/methodology.md, "The positive control"). */
#ifndef THREADSOUP_REPORT_CALIBRATION_H
#define THREADSOUP_REPORT_CALIBRATION_H

#include <stddef.h>
#include <stdio.h>

#include "../stats/calibration_fit.h"
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

/* The costs of one burn (or of an A/A pair, expected 0) for one benchmark, in % of the score
   (a slowdown is a positive cost): what it should cost and what it measured, with the interval
   at the calibration's confidence (NaN: not measured). */
typedef struct calibration_cost {
  double expected_near, expected_far; /* equal when the cost is known (see calibration_expected) */
  int fitted;                         /* in the slope: its expected cost is known and above 0 */
  double measured, low, high;
} calibration_cost;

/* What the verdict is decided on, for one benchmark (each cost in %). */
typedef struct calibration_case {
  int status;              /* of the block model: 0, or a negative gls_status (too few blocks) */
  int fitted;              /* burns of known cost in the slope */
  const char *control;     /* the largest of them, for the sentence */
  calibration_cost cost;   /* its costs */
  const calib_result *fit; /* the slope of measured on expected cost (NULL: none) */
  double confidence;       /* of every interval */
  int aa_pairs;            /* second baselines (A/A) in the run */
  const char *aa;          /* NULL, or the first second baseline whose interval excludes 0 */
  calibration_cost aa_cost;
} calibration_case;

/* The verdict rule: passed (1) when the slope of measured on expected cost through 0 has an
   interval covering 1, or the largest burn's interval covers its expected cost (and the slope is
   surely above 0), and no A/A pair's interval excludes 0. Otherwise failed (0), and `why` says
   which burn cost how much against what and what that means, or that the run was too noisy to
   tell, or that the A/A pair differed. `why` also explains a pass. Pure: unit tested on
   constructed cases. */
int calibration_decide(const calibration_case *c, char *why, size_t len);

/* One burn condition of a run. */
typedef struct calibration_control {
  int condition;           /* its index in report_data's conditions */
  double duty_percent;     /* each burner's share of each period, as asked */
  long burners;            /* its threads: the logical CPUs when no count was given */
  double achieved_percent; /* each burner's share as it ran (the trials' load.cpu_percent over
                              the burners); NaN: not recorded, the asked duty stands in */
} calibration_control;

/* One benchmark's calibration. */
typedef struct calibration_bench {
  calibration_threads threads;
  int status;                                    /* of the block model (gls_effects_from_blocks) */
  size_t blocks_used;                            /* complete blocks */
  calibration_cost burns[REPORT_MAX_CONDITIONS]; /* by control */
  calibration_cost aa[REPORT_MAX_CONDITIONS];    /* by A/A pair */
  int largest; /* the control the sentence names: the largest fitted burn (-1: none) */
  calib_result fit;
  int passed;
  char why[640];
} calibration_bench;

/* The calibration of a run: its burn conditions, its A/A pairs and a verdict per benchmark. */
typedef struct report_calibration {
  int logical_cpus;
  int cpus_from_run; /* 1: stored with the run; 0: this machine's (the run stored none) */
  int control_count;
  calibration_control controls[REPORT_MAX_CONDITIONS];
  int aa_count;
  int aa[REPORT_MAX_CONDITIONS]; /* conditions that are second baselines ("baseline-b") */
  int nominal;       /* burns whose burners' CPU was not recorded (the asked duty stood in) */
  double confidence; /* of every interval: 95 % split between the slope and the A/A pairs */
  calibration_bench benches[REPORT_MAX_BENCHES];
  int all_passed;
} report_calibration;

/* Fills *out from the report's scores; returns the number of burn conditions (0: no section). A
   burn condition is one whose only part is burn. load_cpu_percent: each condition's mean
   load.cpu_percent (% of one CPU; NULL or NaN: not recorded). */
int report_calibration_of(const report_data *r, const double *load_cpu_percent,
                          report_calibration *out);

#endif

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

/* The CPU-bound threads a benchmark runs: 1 for a single-thread one; builtin-mt:N and 7zip:N N;
   builtin-mt, 7zip and cpuz one per logical CPU; 0 when not known (a command, a score typed in). */
long calibration_bench_thread_count(const char *bench, int logical_cpus);

/* The cost in % of the score (a slowdown is positive) that `burners` threads, each spinning until
   it has had `duty_percent` of every period in CPU time, all in step, should have on a benchmark
   of `bench_threads` CPU-bound threads (0: not known) on `cpus` CPUs that a fair
   scheduler shares (CFS, Windows' round robin at equal priority). While the burners spin, each of
   the burners + bench_threads runnable threads gets share = min(1, CPUs / all of them) of a CPU
   instead of min(1, CPUs / bench_threads), and the burners spin for duty / share of the period
   (all of it when that is more):
     cost = min(1, duty / share) x (1 - share / min(1, CPUs / bench_threads)).
   One benchmark thread beside B >= 1 burners: share = min(1, CPUs / (B + 1)), so B burners of
   duty d on B = CPUs cost d / CPUs, and 6 burners at 100 % on 2 CPUs 5/7 (71.4 %). With a CPU to
   spare (B + bench_threads <= CPUs) the cost is 0. *low == *high when the threads are known;
   otherwise the range from one thread to one per CPU. */
void calibration_expected(double duty_percent, long burners, double cpus, long bench_threads,
                          double *low, double *high);

/* The costs of one burn (or of an A/A pair, expected 0) for one benchmark, in % of the score
   (a slowdown is a positive cost): what it should cost and what it measured, with the interval
   at the calibration's confidence (NaN: not measured). */
typedef struct calibration_cost {
  double expected_near, expected_far; /* equal when the cost is known (see calibration_expected) */
  int fitted;                         /* in the slope: its expected cost is known and above 0 */
  double measured, low, high;
  /* A burn's interval at the per-burn check's confidence (report_calibration.check_confidence),
     which says whether it cost less or more than expected on its own (NaN: not measured). */
  double check_low, check_high;
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

/* Below this share of what an otherwise idle machine gives them (their duty, at most CPUs /
   burners of a CPU each), the burners were starved: they spun the whole period on what the run
   had. */
#define STARVED_SHARE 0.8

/* The duty and CPUs the expected cost of burn c is worked from. Burners that took what an idle
   machine gives them: their achieved duty on the logical CPUs. Starved burners: the asked duty on
   the CPUs the run had, burners x achieved (other programs, a CPU quota or a scheduling group
   took the rest); then every burn costs about B / (B + 1), whatever its duty. Not recorded: the
   asked duty on the logical CPUs. */
void calibration_duty_and_cpus(const calibration_control *c, int logical_cpus, double *duty,
                               double *cpus);

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
  int starved;       /* burns whose burners were starved (calibration_duty_and_cpus) */
  double confidence; /* of every interval: 95 % split between the slope and the A/A pairs */
  /* Of each burn's own check against its expected cost: 95 % split among the burns, so a machine
     the model fits sees a burn called off its cost in at most 5 % of runs. */
  double check_confidence;
  calibration_bench benches[REPORT_MAX_BENCHES];
  int all_passed;
} report_calibration;

/* Fills *out from the report's scores; returns the number of burn conditions (0: no section). A
   burn condition is one whose only part is burn. load_cpu_percent: each condition's mean
   load.cpu_percent (% of one CPU; NULL or NaN: not recorded). */
int report_calibration_of(const report_data *r, const double *load_cpu_percent,
                          report_calibration *out);

#endif

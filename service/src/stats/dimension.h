/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* dimension.h - how many benchmark runs per load start pay, from what each count gave in this
   machine's earlier runs (pure C11 + libm, no I/O, no state; checked against SciPy and by seeded
   simulation in test_stats_dimension).

   ---------------------------------------------------------------------------------------------
   WHAT DECIDES: a run of n blocks has a 95 % half-width proportional to t(0.975, n - 1) sqrt(V_k
   / n), V_k the variance of its paired log ratios when each trial scores the mean of k runs. A
   second run averages away the runs' own spread, but what stays for a whole trial (the load's
   start, the machine's state) it does not, and each run costs its time in every trial, so fewer
   blocks fit and the trials of a block lie further apart. On the 2-core VM a second run halved
   V idle and made it larger beside a busy neighbour (methodology.md), so V_k is not modelled: it
   is read, per k, from the earlier runs of the benchmark at the same work scale (their paired
   log ratios' sums of squares and degrees of freedom, pooled).

   THE CHOICE between the counts with at least DIMENSION_MIN_DF degrees of freedom: a trial is an
   overhead o (load start, settle, gate, census, teardown) and k runs of b seconds. A plan with a
   time T for its blocks fits n_k = floor(T / (C (o + k b))) blocks of C trials, and a k whose
   least blocks do not fit is no candidate; the least t(0.975, n_k - 1)^2 V_k / n_k wins. A plan
   with a count of blocks compares the variance per unit of time, V_k (o + k b). Ties go to the
   smaller k.

   LEARNING: the plan's usual count u (what the caller takes without history: the runs that
   make the benchmark two thirds of a trial, 1 where the benchmark already is, more where the
   overhead is long) is the other side of one run per trial. Where only one run per trial has
   history, u is tried, as far as its least blocks fit the plan's time (a run measures it); where
   only counts above one have, one run per trial is tried; where one run per trial has and u is 1,
   it stays (a long benchmark gains little from a second run and pays its whole length again).
   Where no count has history there is no choice: the caller takes u.
   --------------------------------------------------------------------------------------------- */
#ifndef THREADSOUP_STATS_DIMENSION_H
#define THREADSOUP_STATS_DIMENSION_H

/* A count needs this many degrees of freedom of paired log ratios to be compared. */
#define DIMENSION_MIN_DF 8
#define DIMENSION_MAX_RUNS 8
/* The usual count makes the benchmark at least this share of a trial. */
#define DIMENSION_USUAL_SHARE 0.67

typedef struct dimension_tally {
  double ss[DIMENSION_MAX_RUNS + 1]; /* by runs per trial: the paired log ratios' sum of squares */
  double df[DIMENSION_MAX_RUNS + 1]; /* and its degrees of freedom */
} dimension_tally;

/* One earlier run's paired log ratios: their sum of squares about their mean(s), its degrees of
   freedom (sum over conditions of blocks - 1), and the run's runs per trial (1..8; others and
   non-finite sums add nothing). */
void dimension_add_run(dimension_tally *t, double ss, double df, int runs_per_trial);
/* V_k, the pooled variance for k runs per trial; NaN with fewer than DIMENSION_MIN_DF degrees of
   freedom. */
double dimension_variance(const dimension_tally *t, int k);

/* u for a trial of overhead_s around runs of run_s: the fewest runs that make the benchmark
   DIMENSION_USUAL_SHARE of the trial, 1 to DIMENSION_MAX_RUNS (1 for times that are not
   positive). */
int dimension_usual_runs(double overhead_s, double run_s);

/* The plan the choice is for. */
typedef struct dimension_plan {
  double overhead_s; /* a trial's time besides its runs, > 0 */
  double run_s;      /* one run's, > 0 */
  int trials_per_block;
  double fill_s;  /* the time for the blocks; 0: a count of blocks */
  int min_blocks; /* with fill_s: the least blocks a run makes */
  int usual_runs; /* u, 1..DIMENSION_MAX_RUNS */
} dimension_plan;

/* What the choice compares for k runs per trial with variance v: the squared 95 % half-width up
   to a factor the same for every k (HUGE_VAL where k's least blocks do not fit the plan's time). */
double dimension_cost(double v, const dimension_plan *p, int k);

typedef enum dimension_basis {
  DIMENSION_INVALID = -1, /* arguments out of range */
  DIMENSION_NONE = 0,     /* no count has enough history: the caller chooses */
  DIMENSION_COMPARED,     /* the best of the counts with history, one run per trial among them */
  DIMENSION_TRYING,       /* the other side (u, or one run per trial), which has no history yet */
  DIMENSION_ONE_ONLY      /* one run per trial has history, and u is 1 or no more fit the plan */
} dimension_basis;
/* The runs per trial into *k and why. */
dimension_basis dimension_runs_per_trial(const dimension_tally *t, const dimension_plan *p, int *k);

#endif

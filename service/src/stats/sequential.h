/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sequential.h - when a blocked run may stop early: group-sequential boundaries (Lan-DeMets
   alpha spending of O'Brien-Fleming type) so `--stop-when-decided` can call a large effect in a
   few blocks without raising the error rate, and the rules of adaptive precision (pure C11 +
   libm, no state; boundaries checked against SciPy's multivariate normal in
   tests/reference/sequential_reference.py, error rates by seeded simulation in
   test_stats_sequential).

   ---------------------------------------------------------------------------------------------
   WHY: looking at the comparison after every block and stopping at the first p < 0.05 calls an
   effect where there is none in far more than 5 % of runs (about 14 % with five looks). Alpha
   spending fixes how much of the 5 % each look may use, as a function of the information
   fraction t = blocks so far / the most blocks the run may take. Each side (slower, faster)
   spends its one-sided alpha/2 by Lan and DeMets' O'Brien-Fleming-type function
       a(t) = 2 - 2 Phi(z(1 - alpha/4) / sqrt(t)),      in all alpha(t) = 2 a(t)
   (the convention of Lan and DeMets 1983 and of the usual software), which spends almost nothing
   early (a look at t = 0.2 needs |z| > 4.88) and leaves the last look nearly the fixed design's
   1.96 (2.03 with five looks).

   THE BOUNDARIES c_k solve, look by look, P(|Z_1| < c_1, ..., |Z_{k-1}| < c_{k-1}, |Z_k| >= c_k)
   = alpha(t_k) - alpha(t_{k-1}) under no effect, where Z_k = S_k / sqrt(t_k) and S is Brownian
   motion in the information (independent increments of variance t_k - t_{k-1}). The density of
   S_k on the continuation region is carried from look to look by numerical integration
   (Armitage, McPherson and Rowe 1969; Jennison and Turnbull 2000, chapter 19): Simpson's rule on
   SEQ_GRID points, c_k by bisection. A look's t statistic enters as the z of its two-sided p
   (seq_z_of_p), so the boundaries hold for t tests on few blocks too. With k conditions against
   the baseline, boundaries computed for alpha / k keep the run's family-wise rate at alpha
   (Bonferroni over the conditions; each condition's own spending is as above).

   ADAPTIVE PRECISION (--precision): adding blocks until the effect's 95 % interval is narrow
   enough. Two rules:
   - checks only from SEQ_PRECISION_MIN_BLOCKS (8) complete blocks on: with fewer, the spread is
     estimated from so few ratios that the runs that stop are mostly the ones whose spread came
     out small by chance, and their intervals are too narrow;
   - the default target half-width is SEQ_PRECISION_FACTOR x the margin M. Derivation: at the
     stop the 95 % half-width is h = z(0.975) se; "no measurable effect" needs the 90 %
     equivalence interval inside +-M: |estimate| < M - z(0.95) se. With no effect the estimate
     is N(0, se^2), so P(no measurable effect) = P(|Z| < M/se - z(0.95)). For this to be 80 %,
     M/se - z(0.95) = z(0.90), i.e. h = M z(0.975) / (z(0.95) + z(0.90)) = 0.6698 M. That is the
     normal limit: with the t quantiles of a run's few blocks and a spread estimated from them,
     0.67 M gave "no measurable effect" in 79.5 % of simulated runs (test_stats_sequential, cv
     2 %), so the factor is 0.62, which gives 86.5 %. With the target equal to M the same
     probability is P(|Z| < 1.96 - 1.645) = 25 % (32 % simulated), which is what the shipped
     default gave.
   --------------------------------------------------------------------------------------------- */
#ifndef THREADSOUP_STATS_SEQUENTIAL_H
#define THREADSOUP_STATS_SEQUENTIAL_H

#include "blocked.h"

#define SEQ_MAX_LOOKS 64
#define SEQ_GRID 601
#define SEQ_PRECISION_MIN_BLOCKS 8
#define SEQ_PRECISION_FACTOR 0.62

/* The O'Brien-Fleming-type spending function: the two-sided alpha spent by information fraction
   t (0 < t <= 1), 2 a(t) above. NaN outside. */
double seq_alpha_spent(double t, double alpha);

/* The two-sided z boundaries of looks at information fractions[0..looks-1] (strictly increasing
   in (0, 1]) for a family level alpha. Returns 0, or -1 for bad arguments (bounds untouched). */
int seq_boundaries(const double *fractions, int looks, double alpha, double *bounds);

/* The z whose two-sided normal p is p: Phi^-1(1 - p/2); infinity for p = 0, NaN outside [0, 1]. */
double seq_z_of_p(double p);

/* Whether a comparison at a look may stop with its effect: |seq_z_of_p(r->p)| >= bound. */
int seq_effect_decided(const blocked_result *r, double bound);

/* --- stopping when decided (--stop-when-decided) ---------------------------------------------
   A run of n planned blocks looks after each block from BLOCKED_MIN_PAIRS (3) on, at information
   fraction k / n (every ceil((n - 2) / SEQ_MAX_LOOKS)-th block when there are more, and always
   at n). At each look every comparison of a benchmark (its conditions against the baseline) must
   be decided for the run to stop:
   - an effect: seq_effect_decided at the boundary of alpha / k for k comparisons (Bonferroni,
     stricter than the report's Holm, so the report calls the same effect);
   - equivalence: both one-sided tests of TOST beyond the boundary that spends 2 alpha_eq
     two-sided (each side its alpha_eq, as TOST), so the report's 90 % equivalence interval is
     inside the margin too. */

/* The looks of a run of `planned` blocks: fills blocks[] (the block after which each look comes)
   and fractions[] (SEQ_MAX_LOOKS room each); returns how many, 0 when planned <
   BLOCKED_MIN_PAIRS. */
int seq_looks(long planned, long *blocks, double *fractions);

/* The boundaries of those looks for a benchmark with `comparisons` conditions against its
   baseline: effect[] at family level alpha (alpha / comparisons each), equivalence[] for TOST at
   alpha_eq per side. Returns 0, or -1 for bad arguments. */
int seq_stop_boundaries(const double *fractions, int looks, size_t comparisons, double alpha,
                        double alpha_eq, double *effect, double *equivalence);

/* Whether comparison r is decided at a look: an effect beyond effect_bound, or both one-sided
   tests of equivalence beyond equivalence_bound. */
int seq_comparison_decided(const blocked_result *r, double effect_bound, double equivalence_bound);

/* The default precision target for margin M: SEQ_PRECISION_FACTOR x M. */
double seq_default_precision(double margin_percent);

/* Whether comparison r is precise enough to stop adding blocks: paired, at least
   SEQ_PRECISION_MIN_BLOCKS complete blocks, and its effect interval's half-width on the log scale
   at most log(1 + target/100). */
int seq_precision_reached(const blocked_result *r, double target_percent);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sim.h - simulated blocked runs for the statistics tests: lognormal benchmark scores with block
   effects, a random trial order per block and a slow drift of the machine, drawn from splitmix64
   so every platform simulates the same runs from the same seed. */
#ifndef THREADSOUP_TEST_SIM_H
#define THREADSOUP_TEST_SIM_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "threadsoup/rng.h"

#define SIM_MAX_CONDITIONS 16
#define SIM_MAX_BLOCKS 512

typedef struct sim_rng {
  uint64_t state;
  int has_spare;
  double spare;
} sim_rng;

static inline sim_rng sim_seed(uint64_t seed) {
  sim_rng r = {seed, 0, 0};
  return r;
}

/* Uniform on (0, 1): 53 random bits, never 0. */
static inline double sim_uniform(sim_rng *r) {
  return ((double)(ts_splitmix64(&r->state) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* Standard normal (Box-Muller, both values used). */
static inline double sim_normal(sim_rng *r) {
  if (r->has_spare) {
    r->has_spare = 0;
    return r->spare;
  }
  double radius = sqrt(-2 * log(sim_uniform(r)));
  double angle = 6.283185307179586 * sim_uniform(r);
  r->spare = radius * sin(angle);
  r->has_spare = 1;
  return radius * cos(angle);
}

/* A blocked run: the baseline and `conditions` load conditions, each once per block in random
   order. log score = log 100 + effect + block effect + drift + noise, where the block effect and
   the noise split the variance cv^2 as block_share : 1 - block_share (block_share is the
   intra-block correlation), and the drift moves every score by drift_per_trial per trial run. */
typedef struct sim_design {
  size_t conditions;
  size_t blocks;
  double cv;
  double block_share;
  double drift_per_trial;
  const double *effect_log; /* conditions of them; NULL: no effect anywhere */
} sim_design;

/* Fills baseline[0..blocks-1] and condition[i][0..blocks-1]. */
static inline void sim_run(sim_rng *r, const sim_design *d, double *baseline,
                           double *const *condition) {
  size_t groups = d->conditions + 1, order[SIM_MAX_CONDITIONS + 1];
  double block_sd = d->cv * sqrt(d->block_share), noise_sd = d->cv * sqrt(1 - d->block_share);
  for (size_t b = 0; b < d->blocks; b++) {
    for (size_t g = 0; g < groups; g++)
      order[g] = g;
    for (size_t g = groups - 1; g > 0; g--) { /* Fisher-Yates */
      size_t j = (size_t)(sim_uniform(r) * (double)(g + 1));
      size_t t = order[g];
      order[g] = order[j];
      order[j] = t;
    }
    double block = block_sd * sim_normal(r);
    for (size_t pos = 0; pos < groups; pos++) {
      size_t g = order[pos];
      double when = (double)(b * groups + pos);
      double effect = g > 0 && d->effect_log ? d->effect_log[g - 1] : 0;
      double score =
          exp(log(100.0) + effect + block + d->drift_per_trial * when + noise_sd * sim_normal(r));
      if (g == 0)
        baseline[b] = score;
      else
        condition[g - 1][b] = score;
    }
  }
}

/* The scores of one simulated run, with the row pointers the statistics take. */
typedef struct sim_scores {
  double baseline[SIM_MAX_BLOCKS];
  double data[SIM_MAX_CONDITIONS][SIM_MAX_BLOCKS];
  double *condition[SIM_MAX_CONDITIONS];
  const double *conditions[SIM_MAX_CONDITIONS]; /* the same rows, read-only */
} sim_scores;

static inline void sim_scores_init(sim_scores *s) {
  for (size_t i = 0; i < SIM_MAX_CONDITIONS; i++)
    s->conditions[i] = s->condition[i] = s->data[i];
}

/* A proportion with its Monte-Carlo standard error, printed so a run shows the rates. */
static inline double sim_report(const char *what, long hits, long runs) {
  double rate = (double)hits / (double)runs;
  printf("  %-60s %6.2f %% (+- %.2f, %ld runs)\n", what, 100 * rate,
         100 * sqrt(rate * (1 - rate) / (double)runs), runs);
  return rate;
}

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* precision.c - the widest interval of a run so far, and whether every comparison is decided,
   from its stored scores grouped by benchmark, condition and block, for adaptive repetitions and
   stopping when decided (precision.h). */
#include "precision.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../stats/multiplicity.h"
#include "../stats/sequential.h"

#define CONDITION_MAX sizeof(((store_trial_row *)0)->condition)
#define BENCH_MAX sizeof(((store_trial_row *)0)->bench)

typedef struct score {
  int bench, condition, block;
  double value;
} score;

/* The done, non-warm-up scores of a run in sequence order, and the names they are grouped by. */
typedef struct score_groups {
  char (*conditions)[CONDITION_MAX];
  int condition_count, condition_cap;
  char (*benches)[BENCH_MAX];
  int bench_count, bench_cap;
  score *scores;
  size_t score_count, score_cap;
  int out_of_memory;
  int64_t bad_trial; /* a trial stored in a block no run has (0: none), and that block */
  int bad_block;
} score_groups;

/* Grows an array by doubling; 0 on success, -1 when out of memory (the array is kept). */
static int grow(void **items, size_t *cap, size_t size) {
  size_t n = *cap ? *cap * 2 : 16;
  void *p = realloc(*items, n * size);
  if (!p)
    return -1;
  *items = p;
  *cap = n;
  return 0;
}

/* The index of `name` in names[count], added at the end when missing; -1 when out of memory. */
static int find_or_add(void **names, int *count, int *cap, size_t width, const char *name) {
  for (int i = 0; i < *count; i++)
    if (strcmp((const char *)*names + (size_t)i * width, name) == 0)
      return i;
  size_t capacity = (size_t)*cap;
  if (*count == *cap) {
    if (grow(names, &capacity, width) != 0)
      return -1;
    *cap = (int)capacity;
  }
  snprintf((char *)*names + (size_t)*count * width, width, "%s", name);
  return (*count)++;
}

static int add_condition(score_groups *g, const char *name) {
  return find_or_add((void **)&g->conditions, &g->condition_count, &g->condition_cap, CONDITION_MAX,
                     name);
}

static int add_bench(score_groups *g, const char *name) {
  return find_or_add((void **)&g->benches, &g->bench_count, &g->bench_cap, BENCH_MAX, name);
}

static int collect_score(void *ctx, const store_trial_row *row) {
  score_groups *g = ctx;
  /* A block no run writes is refused, not allocated. */
  if (!plan_block_in_range(row->block)) {
    g->bad_trial = row->id;
    g->bad_block = row->block;
    return 1;
  }
  if (row->status != STORE_TRIAL_DONE || row->block == 0)
    return 0;
  int b = add_bench(g, row->bench);
  int c = b < 0 ? -1 : add_condition(g, row->condition);
  if (c < 0 || (g->score_count == g->score_cap &&
                grow((void **)&g->scores, &g->score_cap, sizeof *g->scores) != 0)) {
    g->out_of_memory = 1;
    return 1;
  }
  g->scores[g->score_count++] = (score){b, c, row->block, row->score};
  return 0;
}

/* The half-width in % of a comparison's interval as seq_precision_reached measures it (on the log
   scale: 100 (exp(h) - 1), so it is at most the target exactly when the check passes); infinity
   while the check cannot pass (unpaired, fewer than SEQ_PRECISION_MIN_BLOCKS complete blocks). */
static double half_width_percent(const blocked_result *c) {
  if (c->status != BLOCKED_OK || !c->paired || c->pairs < SEQ_PRECISION_MIN_BLOCKS)
    return INFINITY;
  double h = (log1p(c->ci_high / 100) - log1p(c->ci_low / 100)) / 2;
  return isfinite(h) ? 100 * expm1(h) : INFINITY;
}

/* What each benchmark's comparisons are asked: their widest half-width, or whether every one is
   decided at a look's boundaries. */
typedef struct comparison_question {
  double effect_bound, equivalence_bound; /* deciding: the look's boundaries */
  double widest;                          /* the widest half-width so far */
  int undecided;                          /* a comparison not decided, or not made */
} comparison_question;

/* One benchmark's comparisons, made as the report makes them: each condition with scores against
   the baseline, paired within blocks, Holm across them; a condition without scores yet is neither
   precise (infinity) nor decided. by_block holds conds x blocks. */
static int ask_bench(const score_groups *g, int bench, size_t baseline, size_t blocks,
                     const plan *p, double *by_block, comparison_question *q) {
  size_t conds = (size_t)g->condition_count, k = 0;
  const double **conditions = malloc((conds + 1) * sizeof *conditions);
  blocked_result *results = malloc((conds + 1) * sizeof *results);
  int *has = calloc(conds + 1, sizeof *has);
  if (!conditions || !results || !has) {
    free(conditions);
    free(results);
    free(has);
    return -1;
  }
  for (size_t i = 0; i < conds * blocks; i++)
    by_block[i] = NAN;
  for (size_t i = 0; i < g->score_count; i++)
    if (g->scores[i].bench == bench && g->scores[i].block > 0 &&
        (size_t)g->scores[i].block <= blocks) {
      by_block[(size_t)g->scores[i].condition * blocks + (size_t)g->scores[i].block - 1] =
          g->scores[i].value;
      has[g->scores[i].condition] = 1;
    }
  for (size_t c = 0; c < conds; c++) {
    if (c == baseline)
      continue;
    if (has[c]) {
      conditions[k++] = by_block + c * blocks;
    } else {
      q->widest = INFINITY;
      q->undecided = 1;
    }
  }
  blocked_options options = {0, 0, p->margin_pct, 0};
  int rc = k ? multiplicity_compare_family(by_block + baseline * blocks, conditions, k, blocks,
                                           &options, 0, results, NULL)
             : BLOCKED_OK;
  for (size_t i = 0; rc == BLOCKED_OK && i < k; i++) {
    double half = half_width_percent(&results[i]);
    if (half > q->widest)
      q->widest = half;
    if (!seq_comparison_decided(&results[i], q->effect_bound, q->equivalence_bound))
      q->undecided = 1;
  }
  free(conditions);
  free(results);
  free(has);
  return rc == BLOCKED_OK ? 0 : -1;
}

/* Every benchmark's comparisons, asked q. */
static int ask(const score_groups *g, const plan *p, comparison_question *q, ts_err *err) {
  size_t conds = (size_t)g->condition_count, blocks = 0;
  for (size_t i = 0; i < g->score_count; i++)
    if ((size_t)g->scores[i].block > blocks)
      blocks = (size_t)g->scores[i].block;
  /* The reference condition: "baseline" when there is one, else the first. */
  size_t baseline = 0;
  for (size_t c = 0; c < conds; c++)
    if (strcmp(g->conditions[c], "baseline") == 0) {
      baseline = c;
      break;
    }
  double *by_block = malloc((conds * blocks + 1) * sizeof *by_block);
  int rc = by_block ? TS_OK : ts_err_set(err, TS_ENOMEM, "no memory for the statistics");
  for (int b = 0; rc == TS_OK && b < g->bench_count; b++)
    if (ask_bench(g, b, baseline, blocks, p, by_block, q) != 0)
      rc = ts_err_set(err, TS_ENOMEM, "no memory for the statistics");
  free(by_block);
  return rc;
}

double precision_target(const plan *p) {
  return p->precision_pct > 0
             ? p->precision_pct
             : seq_default_precision(p->margin_pct > 0 ? p->margin_pct
                                                       : STATS_DEFAULT_MARGIN_PERCENT);
}

/* Reads the run's scores and asks every benchmark's comparisons q. */
static int ask_run(store *s, int64_t run_id, const plan *p, comparison_question *q, ts_err *err) {
  score_groups g;
  memset(&g, 0, sizeof g);
  /* The plan's conditions and benchmarks come first, in its order, as in the report. */
  for (int i = 0; i < p->condition_count && !g.out_of_memory; i++)
    g.out_of_memory = add_condition(&g, p->conditions[i].text) < 0;
  for (int i = 0; i < p->bench_count && !g.out_of_memory; i++)
    g.out_of_memory = add_bench(&g, p->benches[i]) < 0;
  int rc = g.out_of_memory ? TS_OK : store_run_trials(s, run_id, collect_score, &g, err);
  if (rc == TS_OK && g.out_of_memory)
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the scores of run %lld", (long long)run_id);
  if (rc == TS_OK && g.bad_trial)
    rc = plan_block_refuse(run_id, g.bad_trial, g.bad_block, err);
  if (rc == TS_OK)
    rc = ask(&g, p, q, err);
  free(g.conditions);
  free(g.benches);
  free(g.scores);
  return rc;
}

int precision_widest_interval(store *s, int64_t run_id, const plan *p, double *widest,
                              ts_err *err) {
  comparison_question q = {INFINITY, INFINITY, 0, 0};
  int rc = ask_run(s, run_id, p, &q, err);
  *widest = rc == TS_OK ? q.widest : 0;
  return rc;
}

int precision_every_comparison_decided(store *s, int64_t run_id, const plan *p, double effect_bound,
                                       double equivalence_bound, int *decided, ts_err *err) {
  comparison_question q = {effect_bound, equivalence_bound, 0, 0};
  int rc = ask_run(s, run_id, p, &q, err);
  *decided = rc == TS_OK && !q.undecided;
  return rc;
}

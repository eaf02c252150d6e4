/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* precision.c - the widest 95 % CI of a run so far, from its stored scores grouped by benchmark
   and condition, for adaptive repetitions (precision.h). */
#include "precision.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/rng.h"

stats_options precision_stats_options(int64_t run_id, double margin_pct) {
  stats_options o = {(uint64_t)run_id * TS_SPLITMIX64_GAMMA + 1, 0, margin_pct};
  return o;
}

#define CONDITION_MAX sizeof(((store_trial_row *)0)->condition)
#define BENCH_MAX sizeof(((store_trial_row *)0)->bench)

typedef struct score {
  int bench, condition;
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
  if (row->status != STORE_TRIAL_DONE || row->block == 0)
    return 0;
  int b = add_bench(g, row->bench);
  int c = b < 0 ? -1 : add_condition(g, row->condition);
  if (c < 0 || (g->score_count == g->score_cap &&
                grow((void **)&g->scores, &g->score_cap, sizeof *g->scores) != 0)) {
    g->out_of_memory = 1;
    return 1;
  }
  g->scores[g->score_count++] = (score){b, c, row->score};
  return 0;
}

/* Groups each benchmark's scores by condition and measures every condition's comparison with the
   baseline, as the report compares them; *widest is the widest half-width over all benchmarks. */
static int widest_of(const score_groups *g, int64_t run_id, const plan *p, double *widest,
                     ts_err *err) {
  size_t conds = (size_t)g->condition_count, groups = (size_t)g->bench_count * conds;
  /* Group k = bench * conds + condition holds values[first[k] .. first[k] + n[k]), in sequence
     order (a counting sort). One spare entry keeps every array non-empty. */
  size_t *first = calloc(groups + 1, sizeof *first);
  size_t *n = calloc(groups + 1, sizeof *n);
  double *values = malloc((g->score_count + 1) * sizeof *values);
  const double **conditions = malloc((conds + 1) * sizeof *conditions);
  size_t *counts = malloc((conds + 1) * sizeof *counts);
  int rc = first && n && values && conditions && counts
               ? TS_OK
               : ts_err_set(err, TS_ENOMEM, "no memory for the statistics");
  *widest = 0;
  if (rc == TS_OK) {
    for (size_t i = 0; i < g->score_count; i++)
      n[(size_t)g->scores[i].bench * conds + (size_t)g->scores[i].condition]++;
    for (size_t k = 1; k < groups; k++)
      first[k] = first[k - 1] + n[k - 1];
    memset(n, 0, (groups + 1) * sizeof *n);
    for (size_t i = 0; i < g->score_count; i++) {
      size_t k = (size_t)g->scores[i].bench * conds + (size_t)g->scores[i].condition;
      values[first[k] + n[k]++] = g->scores[i].value;
    }
  }
  /* The reference condition: "baseline" when there is one, else the first. */
  size_t baseline = 0;
  for (size_t c = 0; c < conds; c++)
    if (strcmp(g->conditions[c], "baseline") == 0) {
      baseline = c;
      break;
    }
  stats_options options = precision_stats_options(run_id, p->margin_pct);
  for (size_t b = 0; rc == TS_OK && b < (size_t)g->bench_count; b++) {
    size_t row = b * conds, k = 0;
    for (size_t c = 0; c < conds; c++)
      if (c != baseline) {
        conditions[k] = values + first[row + c];
        counts[k++] = n[row + c];
      }
    double worst = 0;
    if (stats_precision_reached(values + first[row + baseline], n[row + baseline], conditions,
                                counts, k, p->precision_pct, &options, &worst) < 0)
      rc = ts_err_set(err, TS_ENOMEM, "no memory for the statistics");
    if (worst > *widest)
      *widest = worst;
  }
  free(first);
  free(n);
  free(values);
  free(conditions);
  free(counts);
  return rc;
}

int precision_widest_interval(store *s, int64_t run_id, const plan *p, double *widest,
                              ts_err *err) {
  score_groups g;
  memset(&g, 0, sizeof g);
  *widest = 0;
  /* The plan's conditions and benchmarks come first, in its order, as in the report. */
  for (int i = 0; i < p->condition_count && !g.out_of_memory; i++)
    g.out_of_memory = add_condition(&g, p->conditions[i].text) < 0;
  for (int i = 0; i < p->bench_count && !g.out_of_memory; i++)
    g.out_of_memory = add_bench(&g, p->benches[i]) < 0;
  int rc = g.out_of_memory ? TS_OK : store_run_trials(s, run_id, collect_score, &g, err);
  if (rc == TS_OK && g.out_of_memory)
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the scores of run %lld", (long long)run_id);
  if (rc == TS_OK)
    rc = widest_of(&g, run_id, p, widest, err);
  free(g.conditions);
  free(g.benches);
  free(g.scores);
  return rc;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* data.c - reads a run's trials once and computes the statistics and verdicts that every report
   format shows (report/data.h). */
#include "data.h"

#include "../experiment/estimate.h"
#include "../experiment/precision.h"
#include "../stats/multiplicity.h"
#include "../quiet/quiet.h"
#include "threadsoup/buf.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int find_or_add(char (*names)[128], int *count, int max, const char *name) {
  for (int i = 0; i < *count; i++)
    if (strcmp(names[i], name) == 0)
      return i;
  if (*count == max)
    return -1;
  snprintf(names[*count], 128, "%s", name);
  return (*count)++;
}

static int find_or_add_bench(report_data *r, const char *name) {
  for (int i = 0; i < r->bench_count; i++)
    if (strcmp(r->benches[i], name) == 0)
      return i;
  if (r->bench_count == REPORT_MAX_BENCHES)
    return -1;
  snprintf(r->benches[r->bench_count], sizeof r->benches[0], "%s", name);
  return r->bench_count++;
}

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

static int add_score(report_score_list *l, const store_trial_row *row) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    double *v = realloc(l->values, cap * sizeof *v);
    if (v)
      l->values = v;
    int *q = v ? realloc(l->seqs, cap * sizeof *q) : NULL;
    if (q)
      l->seqs = q;
    int *k = q ? realloc(l->blocks, cap * sizeof *k) : NULL;
    if (k)
      l->blocks = k;
    int64_t *ids = k ? realloc(l->trial_ids, cap * sizeof *ids) : NULL;
    if (!ids)
      return -1;
    l->trial_ids = ids;
    l->cap = cap;
  }
  l->values[l->n] = row->score;
  l->seqs[l->n] = row->seq;
  l->trial_ids[l->n] = row->id;
  l->blocks[l->n++] = row->block;
  return 0;
}

typedef struct collect_ctx {
  report_data *r;
  int with_trials;
  int64_t bad_trial; /* a trial stored in a block no run has (0: none), and that block */
  int bad_block;
} collect_ctx;

static int collect_row(void *ctx, const store_trial_row *row) {
  collect_ctx *cx = ctx;
  report_data *r = cx->r;
  /* A block no run writes is refused, not answered with a table of its size. */
  if (!plan_block_in_range(row->block)) {
    cx->bad_trial = row->id;
    cx->bad_block = row->block;
    return 1;
  }
  if (cx->with_trials) {
    if (r->trial_count == r->trial_cap &&
        grow((void **)&r->trials, &r->trial_cap, sizeof *r->trials) != 0) {
      r->out_of_memory = 1;
      return 1;
    }
    report_trial *t = &r->trials[r->trial_count++];
    memset(t, 0, sizeof *t);
    t->row = *row;
  }
  if (row->status == STORE_TRIAL_PENDING)
    r->pending++;
  if (row->status == STORE_TRIAL_FAILED)
    r->failed++;
  r->warnings += row->has_warnings;
  if (row->status != STORE_TRIAL_DONE || row->block == 0)
    return 0;
  int b = find_or_add_bench(r, row->bench);
  int c = find_or_add(r->conditions, &r->condition_count, REPORT_MAX_CONDITIONS, row->condition);
  if (b < 0 || c < 0)
    return 0; /* beyond what one report shows */
  if (add_score(&r->lists[b][c], row) != 0) {
    r->out_of_memory = 1;
    return 1;
  }
  snprintf(r->units[b], sizeof r->units[b], "%s", row->unit);
  return 0;
}

static int collect_metric(void *ctx, int64_t trial_id, const char *name, double value) {
  report_data *r = ctx;
  if (r->metric_count == r->metric_cap &&
      grow((void **)&r->metrics, &r->metric_cap, sizeof *r->metrics) != 0) {
    r->out_of_memory = 1;
    return 1;
  }
  report_metric *m = &r->metrics[r->metric_count++];
  m->trial_id = trial_id;
  snprintf(m->name, sizeof m->name, "%s", name ? name : "");
  m->value = value;
  return 0;
}

static int compare_names(const void *a, const void *b) { return strcmp(a, b); }

/* Ties each trial to its metrics (both are in sequence order; a trial's metrics by name) and
   lists the distinct names: all of them sorted, then each kept once, so a run of many names costs
   n log n rather than n squared. */
static int index_metrics(report_data *r) {
  size_t m = 0;
  for (size_t i = 0; i < r->trial_count; i++) {
    report_trial *t = &r->trials[i];
    t->metric_first = m;
    while (m < r->metric_count && r->metrics[m].trial_id == t->row.id)
      m++;
    t->metric_count = m - t->metric_first;
  }
  r->metric_names = calloc(r->metric_count ? r->metric_count : 1, sizeof *r->metric_names);
  if (!r->metric_names)
    return -1;
  for (size_t i = 0; i < r->metric_count; i++)
    memcpy(r->metric_names[i], r->metrics[i].name, REPORT_METRIC_NAME_MAX);
  qsort(r->metric_names, r->metric_count, sizeof *r->metric_names, compare_names);
  for (size_t i = 0; i < r->metric_count; i++)
    if (r->metric_name_count == 0 ||
        strcmp(r->metric_names[r->metric_name_count - 1], r->metric_names[i]) != 0)
      memmove(r->metric_names[r->metric_name_count++], r->metric_names[i], REPORT_METRIC_NAME_MAX);
  return 0;
}

/* Blocks (pairs) until the paired comparison could detect the margin, from its own spread of log
   ratios; -1 when the spread is not known (the unpaired fallback). */
static long more_blocks_for_margin(const report_data *r, const report_cell *cell) {
  const blocked_result *c = &cell->cmp;
  double margin = r->margin_pct > 0 ? r->margin_pct : STATS_DEFAULT_MARGIN_PERCENT;
  if (c->status != BLOCKED_OK || !c->paired || !isfinite(c->sd_log))
    return -1;
  long need = blocked_blocks_for_detectable(c->sd_log, margin, 0.95, STATS_POWER);
  if (need <= 0 || need > BLOCKED_BLOCKS_MAX)
    return need <= 0 ? -1 : BLOCKED_BLOCKS_MAX + 1;
  return need > (long)c->pairs ? need - (long)c->pairs : 0;
}

/* The blocks' wall times, for the median (minutes for more blocks): a run has at most
   PLAN_MAX_REPS blocks. */
typedef struct block_times {
  double *seconds;
  size_t n;
} block_times;

static int collect_block_seconds(void *ctx, int block, double seconds) {
  (void)block;
  block_times *t = ctx;
  if (t->n < PLAN_MAX_REPS)
    t->seconds[t->n++] = seconds;
  return 0;
}

static int read_block_seconds(store *s, report_data *r, ts_err *err) {
  block_times t = {malloc(PLAN_MAX_REPS * sizeof(double)), 0};
  if (!t.seconds)
    return ts_err_set(err, TS_ENOMEM, "no memory for the blocks' times");
  int rc = store_run_block_seconds(s, r->run_id, collect_block_seconds, &t, err);
  r->block_seconds = t.n ? stats_median(t.seconds, t.n) : NAN;
  free(t.seconds);
  return rc;
}

double report_more_minutes(const report_data *r, const report_cell *cell) {
  long more = cell->more_blocks_for_margin;
  if (!cell->compared || more < 0 || more > BLOCKED_BLOCKS_MAX || !isfinite(r->block_seconds))
    return NAN;
  return (double)more * r->block_seconds / 60;
}

/* The largest block number among a benchmark's scores: the length of its by-block arrays. */
static size_t block_count(const report_data *r, int b) {
  int most = 0;
  for (int c = 0; c < r->condition_count; c++)
    for (size_t i = 0; i < r->lists[b][c].n; i++)
      if (r->lists[b][c].blocks[i] > most)
        most = r->lists[b][c].blocks[i];
  return (size_t)most;
}

/* A condition's scores by block into by_block[0 .. blocks) (NaN: that block's trial not done). */
static void scores_by_block(const report_score_list *l, size_t blocks, double *by_block) {
  for (size_t k = 0; k < blocks; k++)
    by_block[k] = NAN;
  for (size_t i = 0; i < l->n; i++)
    by_block[l->blocks[i] - 1] = l->values[i];
}

/* The cell's sensitivity: of the paired comparison from its spread of log ratios, else (the
   unpaired fallback) of Welch's test on the scores as they are. */
static void cell_sensitivity(report_cell *cell, const report_score_list *bl,
                             const report_score_list *l) {
  const blocked_result *c = &cell->cmp;
  if (c->status == BLOCKED_OK && c->paired) {
    cell->sens.detectable_percent =
        blocked_detectable_percent(c->sd_log, c->pairs, 0.95, STATS_POWER);
    cell->sens.se_percent = 100 * c->se;
    cell->sens.df = c->df;
  } else
    stats_sensitivity_of(bl->values, bl->n, l->values, l->n, &cell->sens);
}

/* Whether a row of by_block has a score in any block. */
static int row_has_value(const double *row, size_t blocks) {
  for (size_t i = 0; i < blocks; i++)
    if (!isnan(row[i]))
      return 1;
  return 0;
}

/* A compared cell: its comparison (at its Holm level), its Holm p, the variance ratio of its
   condition's row to its baseline's and the verdict line. */
static void fill_cell(report_cell *cell, const blocked_result *result, double p_holm,
                      const double *baseline, const double *condition, size_t blocks) {
  blocked_variance_ratio vr;
  cell->compared = 1;
  cell->cmp = *result;
  cell->p_holm = result->status == BLOCKED_OK ? p_holm : NAN;
  cell->variance_ratio =
      blocked_variance_ratio_of(baseline, condition, blocks, 0.95, &vr) == BLOCKED_OK ? vr.ratio
                                                                                      : NAN;
  report_format_verdict(cell, cell->verdict, sizeof cell->verdict);
}

/* Every condition with values in by_block (condition_count rows of `blocks`, NaN where a block's
   trial is not done) against the baseline's row, paired within blocks, Holm across them
   (multiplicity_compare_family), into cells[c]: the comparison, its Holm p, the variance ratio
   and the verdict line. */
static int compare_family(const report_data *r, const double *by_block, size_t blocks,
                          report_cell *cells) {
  size_t k = 0;
  int members[REPORT_MAX_CONDITIONS];
  const double *conditions[REPORT_MAX_CONDITIONS];
  blocked_result results[REPORT_MAX_CONDITIONS];
  double p_holm[REPORT_MAX_CONDITIONS];
  const double *baseline = by_block + (size_t)r->baseline * blocks;
  int baseline_done = 0;
  for (size_t i = 0; i < blocks && !baseline_done; i++)
    baseline_done = !isnan(baseline[i]);
  for (int c = 0; c < r->condition_count; c++) {
    const double *row = by_block + (size_t)c * blocks;
    if (c != r->baseline && row_has_value(row, blocks)) {
      members[k] = c;
      conditions[k++] = row;
    }
  }
  blocked_options options = {0, 0, r->margin_pct, 0};
  int rc =
      k ? multiplicity_compare_family(baseline, conditions, k, blocks, &options, 0, results, p_holm)
        : BLOCKED_OK;
  for (size_t i = 0; rc == BLOCKED_OK && i < k; i++) {
    fill_cell(&cells[members[i]], &results[i], p_holm[i], baseline, conditions[i], blocks);
    /* Said for what it is, not as a count of blocks: none of the reference's trials is done. */
    if (!baseline_done)
      snprintf(cells[members[i]].verdict, sizeof cells[members[i]].verdict,
               "inconclusive: no %s trials done, so nothing to compare with",
               r->conditions[r->baseline]);
  }
  return rc;
}

/* One benchmark: its conditions' scores compared (compare_family), each comparison's
   sensitivity, and the baseline's drift over the blocks. */
static int compare_bench(report_data *r, int b, ts_err *err) {
  size_t blocks = block_count(r, b);
  double *by_block = malloc(((size_t)r->condition_count * blocks + 1) * sizeof *by_block);
  if (!by_block)
    return ts_err_set(err, TS_ENOMEM, "no memory for the statistics");
  for (int c = 0; c < r->condition_count; c++)
    scores_by_block(&r->lists[b][c], blocks, by_block + (size_t)c * blocks);
  int rc = compare_family(r, by_block, blocks, r->cells[b]);
  for (int c = 0; rc == BLOCKED_OK && c < r->condition_count; c++) {
    report_cell *cell = &r->cells[b][c];
    if (!cell->compared)
      continue;
    cell_sensitivity(cell, &r->lists[b][r->baseline], &r->lists[b][c]);
    cell->more_blocks_for_margin = more_blocks_for_margin(r, cell);
  }
  drift_of_scores(by_block + (size_t)r->baseline * blocks, blocks, 0, r->margin_pct, &r->drift[b]);
  free(by_block);
  return rc == BLOCKED_OK
             ? TS_OK
             : ts_err_set(err, TS_EINVAL, "the comparisons of %s failed", r->benches[b]);
}

/* ---- each benchmark's sub-scores (its kernels), compared as its score is ----------------------
 */

/* The run's sub-scores: the trials' metrics whose names have no '.' (the trial's own measurements
   are named family.name: load.switches_per_s), sorted by trial and name for bsearch. */
typedef struct subscore_list {
  report_metric *items;
  size_t n, cap;
  int out_of_memory;
} subscore_list;

static int collect_subscore(void *ctx, int64_t trial_id, const char *name, double value) {
  subscore_list *l = ctx;
  if (strchr(name, '.'))
    return 0;
  if (l->n == l->cap && grow((void **)&l->items, &l->cap, sizeof *l->items) != 0) {
    l->out_of_memory = 1;
    return 1;
  }
  report_metric *m = &l->items[l->n++];
  m->trial_id = trial_id;
  snprintf(m->name, sizeof m->name, "%s", name);
  m->value = value;
  return 0;
}

static int compare_metric(const void *a, const void *b) {
  const report_metric *x = a, *y = b;
  if (x->trial_id != y->trial_id)
    return x->trial_id < y->trial_id ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* The sub-score `name` of a trial; NaN when it has none. */
static double subscore_of(const subscore_list *l, int64_t trial_id, const char *name) {
  report_metric key = {.trial_id = trial_id};
  snprintf(key.name, sizeof key.name, "%s", name);
  const report_metric *m = bsearch(&key, l->items, l->n, sizeof *l->items, compare_metric);
  return m ? m->value : NAN;
}

/* The first sub-score of a trial; NULL when it has none. */
static const report_metric *first_subscore(const subscore_list *l, int64_t trial_id) {
  size_t low = 0, high = l->n; /* the first item at or after trial_id is in [low, high] */
  while (low < high) {
    size_t mid = low + (high - low) / 2;
    if (l->items[mid].trial_id < trial_id)
      low = mid + 1;
    else
      high = mid;
  }
  return low < l->n && l->items[low].trial_id == trial_id ? &l->items[low] : NULL;
}

/* The distinct sub-score names of benchmark b's trials, in name order, into r->kernels[b]. */
static void kernel_names_of(report_data *r, int b, const subscore_list *l) {
  report_kernels *k = &r->kernels[b];
  for (int c = 0; c < r->condition_count; c++)
    for (size_t i = 0; i < r->lists[b][c].n; i++) {
      int64_t id = r->lists[b][c].trial_ids[i];
      for (const report_metric *m = first_subscore(l, id);
           m && m < l->items + l->n && m->trial_id == id; m++) {
        int known = 0;
        for (int j = 0; j < k->count && !known; j++)
          known = strcmp(k->names[j], m->name) == 0;
        if (!known && k->count < BENCH_MAX_SUBSCORES)
          snprintf(k->names[k->count++], sizeof k->names[0], "%s", m->name);
      }
    }
  qsort(k->names, (size_t)k->count, sizeof k->names[0], compare_names);
}

/* A benchmark's kernel comparisons as one Holm family (compare_kernels). */
typedef struct kernel_family {
  const double *baselines[MULTIPLICITY_MAX_CLAIMS], *conditions[MULTIPLICITY_MAX_CLAIMS];
  report_cell *cell[MULTIPLICITY_MAX_CLAIMS];
  blocked_result results[MULTIPLICITY_MAX_CLAIMS];
  double p_holm[MULTIPLICITY_MAX_CLAIMS];
} kernel_family;

/* The run's sub-scores read into r (report_data_read), sorted for bsearch. */
static int read_subscores(store *s, report_data *r, ts_err *err) {
  subscore_list *l = calloc(1, sizeof *l);
  if (!l)
    return ts_err_set(err, TS_ENOMEM, "no memory for the sub-scores");
  r->subscores = l;
  int rc = store_run_metrics(s, r->run_id, collect_subscore, l, err);
  if (rc == TS_OK && l->out_of_memory)
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the sub-scores");
  if (rc == TS_OK && l->n)
    qsort(l->items, l->n, sizeof *l->items, compare_metric);
  return rc;
}

/* Each benchmark's sub-scores, each one compared across the conditions as the score is. */
static int compare_kernels(report_data *r, ts_err *err) {
  const subscore_list *l = r->subscores;
  int rc = TS_OK;
  for (int b = 0; rc == TS_OK && l->n && b < r->bench_count; b++) {
    kernel_names_of(r, b, l);
    report_kernels *k = &r->kernels[b];
    size_t blocks = block_count(r, b), rows = (size_t)k->count * (size_t)r->condition_count;
    double *by_block = malloc((rows * blocks + 1) * sizeof *by_block);
    k->cells = k->count ? calloc((size_t)k->count * REPORT_MAX_CONDITIONS, sizeof *k->cells) : NULL;
    kernel_family *f = malloc(sizeof *f);
    if (!by_block || !f || (k->count && !k->cells))
      rc = ts_err_set(err, TS_ENOMEM, "no memory for the sub-scores' statistics");
    size_t n = 0;
    int kernels_in = 0, conditions_in[REPORT_MAX_CONDITIONS] = {0};
    for (int j = 0; rc == TS_OK && j < k->count; j++) {
      double *kernel = by_block + (size_t)j * (size_t)r->condition_count * blocks;
      for (int c = 0; c < r->condition_count; c++) {
        const report_score_list *sl = &r->lists[b][c];
        double *row = kernel + (size_t)c * blocks;
        for (size_t i = 0; i < blocks; i++)
          row[i] = NAN;
        for (size_t i = 0; i < sl->n; i++)
          row[sl->blocks[i] - 1] = subscore_of(l, sl->trial_ids[i], k->names[j]);
      }
      int compared = 0;
      for (int c = 0; c < r->condition_count; c++) {
        const double *row = kernel + (size_t)c * blocks;
        if (c == r->baseline || !row_has_value(row, blocks))
          continue;
        f->baselines[n] = kernel + (size_t)r->baseline * blocks;
        f->conditions[n] = row;
        f->cell[n++] = k->cells + (size_t)j * REPORT_MAX_CONDITIONS + c;
        compared = conditions_in[c] = 1;
      }
      kernels_in += compared;
    }
    /* One family: every kernel under every condition, so that a run makes at most 5 % of false
       kernel claims in all, not per kernel. */
    blocked_options options = {0, 0, r->margin_pct, 0};
    if (rc == TS_OK && n &&
        multiplicity_compare_pairs(f->baselines, f->conditions, n, blocks, &options, 0, f->results,
                                   f->p_holm) != BLOCKED_OK)
      rc = ts_err_set(err, TS_EINVAL, "the comparisons of %s's kernels failed", r->benches[b]);
    for (size_t i = 0; rc == TS_OK && i < n; i++)
      fill_cell(f->cell[i], &f->results[i], f->p_holm[i], f->baselines[i], f->conditions[i],
                blocks);
    k->family_kernels = kernels_in;
    for (int c = 0; c < r->condition_count; c++)
      k->family_conditions += conditions_in[c];
    free(f);
    free(by_block);
  }
  return rc;
}

/* What the statistics are computed from besides the scores: the blocks' times, the sub-scores,
   and, when the trials are not copied in (a headline, a comparison), each condition's means of
   the load's wake-ups, timer lateness, burners' CPU, the CPU used outside ThreadSoup and its
   timers, asked of the database;
   with the trials, conditions_from_trials computes those outside the database's lock. */
static int read_stats(store *s, report_data *r, ts_err *err) {
  int block_rc = read_block_seconds(s, r, err);
  if (block_rc != TS_OK)
    return block_rc;
  for (int c = 0; !(r->flags & REPORT_WITH_TRIALS) && c < r->condition_count; c++) {
    r->switches_per_s[c] =
        store_condition_metric_mean(s, r->run_id, r->conditions[c], "load.switches_per_s");
    r->timer_overshoot_us[c] =
        store_condition_metric_mean(s, r->run_id, r->conditions[c], "timer.overshoot_us");
    r->load_cpu_percent[c] =
        store_condition_metric_mean(s, r->run_id, r->conditions[c], "load.cpu_percent");
    r->outside_cpu_percent[c] =
        store_condition_metric_mean(s, r->run_id, r->conditions[c], "outside.cpu_percent");
    int rc =
        store_condition_timer(s, r->run_id, r->conditions[c], r->resolution_asked[c],
                              sizeof r->resolution_asked[c], r->resolution_obtained[c],
                              sizeof r->resolution_obtained[c], &r->timer_resolution_us[c], err);
    if (rc != TS_OK)
      return rc;
  }
  return read_subscores(s, r, err);
}

/* Each condition's means and timers as read_stats asks the store for them (trial_metric's and
   store_condition_timer's queries: done trials past the warm-up, NULLs left out, the distinct
   resolutions sorted and joined by commas), from the trials copied in. */
static void conditions_from_trials(report_data *r) {
  static const char *const names[4] = {"load.switches_per_s", "timer.overshoot_us",
                                       "load.cpu_percent", "outside.cpu_percent"};
  for (int c = 0; c < r->condition_count; c++) {
    double sum[5] = {0, 0, 0, 0, 0};
    size_t n[5] = {0, 0, 0, 0, 0};
    int asked = 0, obtained = 0; /* bits: 1 default, 2 high */
    for (size_t i = 0; i < r->trial_count; i++) {
      const report_trial *t = &r->trials[i];
      if (t->row.status != STORE_TRIAL_DONE || t->row.block == 0 ||
          strcmp(t->row.condition, r->conditions[c]) != 0)
        continue;
      for (int k = 0; k < 5; k++) {
        double v = k < 4 ? report_trial_metric(r, t, names[k]) : t->row.timer_resolution_us;
        if (!isnan(v)) {
          sum[k] += v;
          n[k]++;
        }
      }
      asked |= (strcmp(t->row.resolution_asked, "default") == 0) |
               (strcmp(t->row.resolution_asked, "high") == 0) << 1;
      obtained |= (strcmp(t->row.resolution_obtained, "default") == 0) |
                  (strcmp(t->row.resolution_obtained, "high") == 0) << 1;
    }
    double *means[5] = {&r->switches_per_s[c], &r->timer_overshoot_us[c], &r->load_cpu_percent[c],
                        &r->outside_cpu_percent[c], &r->timer_resolution_us[c]};
    for (int k = 0; k < 5; k++)
      *means[k] = n[k] ? sum[k] / (double)n[k] : NAN;
    static const char *const resolutions[4] = {"", "default", "high", "default,high"};
    snprintf(r->resolution_asked[c], sizeof r->resolution_asked[c], "%s", resolutions[asked]);
    snprintf(r->resolution_obtained[c], sizeof r->resolution_obtained[c], "%s",
             resolutions[obtained]);
  }
}

static int compute_stats(report_data *r, ts_err *err) {
  if (r->flags & REPORT_WITH_TRIALS)
    conditions_from_trials(r);
  for (int b = 0; b < r->bench_count; b++) {
    for (int c = 0; c < r->condition_count; c++)
      if (stats_describe(r->lists[b][c].values, r->lists[b][c].n, &r->cells[b][c].d) != 0)
        return ts_err_set(err, TS_ENOMEM, "no memory for the statistics");
    int rc = compare_bench(r, b, err);
    if (rc != TS_OK)
      return rc;
  }
  return compare_kernels(r, err);
}

/* How the comparison was made: "paired over 8 blocks", or the unpaired fallback's counts. */
static int method_text(const blocked_result *c, char *buf, size_t len) {
  if (c->paired)
    return snprintf(buf, len, "paired over %zu blocks", c->pairs);
  return snprintf(buf, len, "unpaired: %zu complete block%s, %zu baseline and %zu condition scores",
                  c->pairs, c->pairs == 1 ? "" : "s", c->n_baseline, c->n_condition);
}

/* 0.0 prints as 0, not -0. */
static double unsigned_zero(double x) { return x == 0 ? 0 : x; }

int report_format_verdict(const report_cell *cell, char *buf, size_t len) {
  const blocked_result *c = &cell->cmp;
  if (c->status == BLOCKED_ESCORE)
    return snprintf(buf, len, "inconclusive: unusable scores (not finite, or at or below 0)");
  if (c->status != BLOCKED_OK)
    return snprintf(buf, len,
                    "inconclusive: too few trials (%d complete blocks, or 2 scores in each group, "
                    "are needed)",
                    BLOCKED_MIN_PAIRS);
  char method[128], facts[320], p[64] = "p not known (no spread)", ratio[48] = "not known";
  method_text(c, method, sizeof method);
  if (isfinite(c->p))
    snprintf(p, sizeof p, "p %.2g per comparison, %.2g Holm-adjusted", c->p, cell->p_holm);
  if (isfinite(cell->variance_ratio))
    snprintf(ratio, sizeof ratio, "%.2f", cell->variance_ratio);
  snprintf(facts, sizeof facts, "%s; %s; variance ratio %s", p, method, ratio);
  double level = 100 * c->confidence;
  switch (c->verdict) {
  case STATS_SLOWER:
  case STATS_FASTER: {
    int slower = c->verdict == STATS_SLOWER;
    /* a slowdown is told as a positive number: "slower by 3.20 % (95 % CI 2.10 to 4.30 %)" */
    double by = slower ? -c->percent : c->percent;
    double lo = slower ? -c->ci_high : c->ci_low, hi = slower ? -c->ci_low : c->ci_high;
    char within[64] = "";
    if (c->within_margin)
      snprintf(within, sizeof within, "; within the ±%.1f %% margin", c->margin_percent);
    return snprintf(buf, len, "%s by %.2f %% (%.3g %% CI %.2f to %.2f %%%s; %s)",
                    slower ? "slower" : "faster", by, level, lo, hi, within, facts);
  }
  case STATS_NO_EFFECT:
    return snprintf(buf, len,
                    "no measurable effect (within ±%.1f %%: %.3g %% equivalence interval %.2f to "
                    "%.2f %%; %s)",
                    c->margin_percent, 100 * (1 - 2 * c->equivalence_alpha),
                    unsigned_zero(c->eq_low), unsigned_zero(c->eq_high), facts);
  case STATS_INCONCLUSIVE:
    break;
  }
  return snprintf(buf, len,
                  "inconclusive: %+.2f %% (%.3g %% CI %.2f to %.2f %%), neither an effect nor "
                  "within ±%.1f %%; %s",
                  unsigned_zero(c->percent), level, unsigned_zero(c->ci_low),
                  unsigned_zero(c->ci_high), c->margin_percent, facts);
}

int report_sensitivity_text(const report_data *r, const report_cell *cell, char *buf, size_t len) {
  buf[0] = '\0';
  if (!cell->compared || isnan(cell->sens.detectable_percent))
    return 0;
  double margin = r->margin_pct > 0 ? r->margin_pct : 1.0;
  ts_buf text = ts_buf_on(buf, len);
  ts_buf_addf(&text, "could detect ±%.2f %% (95 %% confidence, 80 %% power)",
              cell->sens.detectable_percent);
  long more = cell->more_blocks_for_margin;
  if (cell->cmp.verdict != STATS_INCONCLUSIVE)
    return 1;
  if (more > BLOCKED_BLOCKS_MAX)
    ts_buf_addf(&text, "; ±%.1f %% would take more than %ld blocks", margin, BLOCKED_BLOCKS_MAX);
  else if (more > 0) {
    char time[80] = "";
    double minutes = report_more_minutes(r, cell);
    if (isfinite(minutes)) {
      char words[64];
      estimate_duration_words(minutes * 60, words, sizeof words);
      snprintf(time, sizeof time, " (%s)", words);
    }
    ts_buf_addf(&text, "; about %ld more block%s%s would detect ±%.1f %%", more,
                more == 1 ? "" : "s", time, margin);
  }
  double outside = r->outside_cpu_percent[r->baseline];
  if (outside >= REPORT_BUSY_OUTSIDE_PERCENT)
    ts_buf_addf(&text,
                "; other programs used %.0f %% of the CPU during the baseline's benchmarks: "
                "their work is in every interval of this run",
                outside);
  return 1;
}

/* A variance ratio from which the load's own noise is named as what limits the precision: at 2
   the condition adds at least as much variance to each log ratio as the baseline does. */
#define PRECISION_LOAD_NOISE_RATIO 2.0

const char *report_precision_cause_name(report_precision_cause cause) {
  static const char *const names[] = {"load", "drift", "outside", "spread"};
  return names[cause];
}

int report_precision_limit_of(const report_data *r, int b, const report_cell *cell,
                              report_precision_limit *out) {
  memset(out, 0, sizeof *out);
  const blocked_result *c = &cell->cmp;
  if (r->precision_target_pct <= 0 || !cell->compared || c->status != BLOCKED_OK || !c->paired ||
      !isfinite(c->sd_log) || c->pairs < 2)
    return 0;
  double t = stats_t_quantile(0.975, (double)c->pairs - 1);
  double half = 100 * expm1(t * c->sd_log / sqrt((double)c->pairs));
  if (!(half > r->precision_target_pct))
    return 0;
  out->target_percent = r->precision_target_pct;
  out->half_width_percent = half;
  out->variance_ratio = cell->variance_ratio;
  out->baseline_cv_percent = 100 * r->cells[b][r->baseline].d.cv;
  out->drift_percent = r->drift[b].status == DRIFT_OK ? r->drift[b].change_percent : NAN;
  out->outside_cpu_percent = r->outside_cpu_percent[r->baseline];
  out->cause = cell->variance_ratio >= PRECISION_LOAD_NOISE_RATIO        ? REPORT_PRECISION_LOAD
               : r->drift[b].status == DRIFT_OK && r->drift[b].flagged   ? REPORT_PRECISION_DRIFT
               : out->outside_cpu_percent >= REPORT_BUSY_OUTSIDE_PERCENT ? REPORT_PRECISION_OUTSIDE
                                                                         : REPORT_PRECISION_SPREAD;
  out->blocks = blocked_blocks_for_half_width(c->sd_log, r->precision_target_pct, 0.95);
  return 1;
}

/* "0.3 %", or "an unmeasured share" for a run that did not record it. */
static const char *outside_words(double percent, char *buf, size_t len) {
  if (isfinite(percent))
    snprintf(buf, len, "%.1f %%", percent);
  else
    snprintf(buf, len, "an unmeasured share");
  return buf;
}

int report_precision_limit_text(const report_data *r, int b, const report_cell *cell, char *buf,
                                size_t len) {
  buf[0] = '\0';
  report_precision_limit lim;
  if (!report_precision_limit_of(r, b, cell, &lim))
    return 0;
  char cause[200], outside[24];
  if (lim.cause == REPORT_PRECISION_LOAD)
    snprintf(cause, sizeof cause,
             "the load itself: it makes the benchmark %.1f times as variable as the baseline "
             "(variance ratio)",
             lim.variance_ratio);
  else if (lim.cause == REPORT_PRECISION_DRIFT)
    snprintf(cause, sizeof cause,
             "the machine's drift: the baseline changed by %+.1f %% over the run",
             lim.drift_percent);
  else if (lim.cause == REPORT_PRECISION_OUTSIDE)
    snprintf(cause, sizeof cause,
             "other programs: they used %.0f %% of the CPU during the baseline's benchmarks (the "
             "baseline's cv %.1f %%)",
             lim.outside_cpu_percent, lim.baseline_cv_percent);
  else
    snprintf(cause, sizeof cause,
             "the benchmark's own spread on this machine (the baseline's cv %.1f %%, the load's "
             "variance ratio %.2f; other programs used %s of the CPU during its benchmarks)",
             lim.baseline_cv_percent, lim.variance_ratio,
             outside_words(lim.outside_cpu_percent, outside, sizeof outside));
  char more[96] = "";
  if (lim.blocks > BLOCKED_BLOCKS_MAX)
    snprintf(more, sizeof more, "; more than %ld blocks would reach it", BLOCKED_BLOCKS_MAX);
  else if (lim.blocks > 0)
    snprintf(more, sizeof more, "; about %ld blocks in all would reach it", lim.blocks);
  return snprintf(buf, len,
                  "precision ±%.3g %% not reached (95 %% CI ±%.2f %%): what widens it is %s%s",
                  lim.target_percent, lim.half_width_percent, cause, more) > 0;
}

int report_drift_text(const report_data *r, int b, char *buf, size_t len) {
  const drift_trend *d = &r->drift[b];
  buf[0] = '\0';
  if (d->status != DRIFT_OK)
    return 0;
  int n = snprintf(buf, len,
                   "the baseline changed by %+.2f %% over the run (%.3g %% CI %.2f to %.2f %%)",
                   unsigned_zero(d->change_percent), 100 * d->confidence,
                   unsigned_zero(d->change_low), unsigned_zero(d->change_high));
  size_t used = n < 0 ? 0 : ((size_t)n < len ? (size_t)n : len - 1);
  if (d->flagged)
    snprintf(buf + used, len - used,
             "; surely more than the ±%.1f %% margin: the machine changed during the run",
             d->margin_percent);
  return 1;
}

void report_data_free(report_data *r) {
  if (!r)
    return;
  for (int b = 0; b < REPORT_MAX_BENCHES; b++) {
    for (int c = 0; c < REPORT_MAX_CONDITIONS; c++) {
      free(r->lists[b][c].values);
      free(r->lists[b][c].seqs);
      free(r->lists[b][c].blocks);
      free(r->lists[b][c].trial_ids);
    }
    free(r->kernels[b].cells);
  }
  free(r->trials);
  free(r->metrics);
  free(r->metric_names);
  free(r->checks);
  free(r->placements);
  if (r->subscores)
    free(r->subscores->items);
  free(r->subscores);
  report_data_free(r->machine_cost);
  free(r);
}

/* Appends one stored machine check. */
static int collect_placement(void *ctx, const char *power_source, const char *power_throttling,
                             const char *core_classes, int trials) {
  report_data *r = ctx;
  report_placement *more = realloc(r->placements, (size_t)(r->placement_count + 1) * sizeof *more);
  if (!more) {
    r->out_of_memory = 1;
    return 1;
  }
  r->placements = more;
  report_placement *p = &r->placements[r->placement_count++];
  snprintf(p->power_source, sizeof p->power_source, "%s", power_source);
  snprintf(p->power_throttling, sizeof p->power_throttling, "%s", power_throttling);
  snprintf(p->core_classes, sizeof p->core_classes, "%s", core_classes);
  p->trials = trials;
  return 0;
}

static int collect_check(void *ctx, const store_doctor_row *row) {
  report_data *r = ctx;
  store_doctor_row *more = realloc(r->checks, (size_t)(r->check_count + 1) * sizeof *more);
  if (!more) {
    r->out_of_memory = 1;
    return 1;
  }
  r->checks = more;
  r->checks[r->check_count++] = *row;
  return 0;
}

static int read_run(store *s, report_data *r, const plan **p, plan **own, ts_err *err) {
  int rc = store_run_get(s, r->run_id, &r->run, err);
  if (rc != TS_OK)
    return rc;
  r->have_run = 1;
  int found = 0;
  rc = store_quiet_run_entry(s, r->run_id, &r->quiet, &found, err);
  if (rc != TS_OK)
    return rc;
  r->have_quiet = found;
  if (found)
    quiet_describe_entry(&r->quiet, r->quiet_line, sizeof r->quiet_line);
  rc = store_doctor_findings(s, r->run_id, collect_check, r, err);
  if (rc != TS_OK)
    return rc;
  if (*p)
    return TS_OK;
  *own = malloc(sizeof **own);
  if (!*own)
    return ts_err_set(err, TS_ENOMEM, "no memory for the report");
  ts_err plan_err;
  /* A stored plan that no longer parses (an older version's) still leaves the scores. */
  if (plan_parse(r->run.plan_text, "stored plan", *own, &plan_err) == TS_OK)
    *p = *own;
  return TS_OK;
}

typedef struct latest_cost {
  int64_t except, found;
} latest_cost;

static int find_cost_run(void *ctx, const store_run_row *row) {
  latest_cost *l = ctx;
  if (row->id != l->except && strcmp(row->plan_name, "cost") == 0 &&
      row->status == STORE_RUN_FINISHED && !row->imported_from[0])
    l->found = row->id;
  return l->found != 0;
}

int report_latest_cost_run(store *s, int64_t except, int64_t *run_id, ts_err *err) {
  latest_cost l = {except, 0};
  int rc = store_runs(s, INT_MAX, find_cost_run, &l, err);
  *run_id = l.found;
  return rc;
}

int report_freezes_programs(const report_data *r) {
  for (int c = 0; c < r->condition_count; c++)
    if (strstr(r->conditions[c], "freeze:"))
      return 1;
  return 0;
}

/* A run that freezes programs reads the machine's cost run too, for its predicted costs. */
static int read_machine_cost(store *s, report_data *r, ts_err *err) {
  int64_t cost_run = 0;
  /* A cost run's own report (one that also froze programs) predicts from no other. */
  if (!report_freezes_programs(r) || (r->have_run && strcmp(r->run.plan_name, "cost") == 0))
    return TS_OK;
  int rc = report_latest_cost_run(s, r->run_id, &cost_run, err);
  if (rc != TS_OK || cost_run == 0)
    return rc;
  rc = report_data_read(s, cost_run, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &r->machine_cost,
                        err);
  if (rc != TS_OK)
    ts_err_prefix(err, "the cost run %lld this run's predicted costs come from",
                  (long long)cost_run);
  return rc;
}

int report_data_read(store *s, int64_t run_id, const plan *p, int flags, report_data **out,
                     ts_err *err) {
  report_data *r = calloc(1, sizeof *r);
  if (!r)
    return ts_err_set(err, TS_ENOMEM, "no memory for the report");
  r->run_id = run_id;
  r->flags = flags;
  plan *own = NULL;
  int rc = flags & REPORT_WITH_RUN ? read_run(s, r, &p, &own, err) : TS_OK;
  if (rc == TS_OK) {
    r->margin_pct = p ? p->margin_pct : 0;
    r->precision_target_pct = p && p->precision_pct != 0 ? precision_target(p) : 0;
    for (int i = 0; p && i < p->condition_count; i++)
      find_or_add(r->conditions, &r->condition_count, REPORT_MAX_CONDITIONS, p->conditions[i].text);
    for (int i = 0; p && i < p->bench_count; i++)
      find_or_add_bench(r, p->benches[i]);
    collect_ctx cx = {r, (flags & REPORT_WITH_TRIALS) != 0, 0, 0};
    rc = store_run_trials(s, run_id, collect_row, &cx, err);
    if (rc == TS_OK && cx.bad_trial)
      rc = plan_block_refuse(run_id, cx.bad_trial, cx.bad_block, err);
  }
  free(own);
  if (rc == TS_OK)
    rc = store_run_placement(s, run_id, collect_placement, r, err);
  if (rc == TS_OK && (flags & REPORT_WITH_TRIALS))
    rc = store_run_metrics(s, run_id, collect_metric, r, err);
  if (rc == TS_OK && (flags & REPORT_WITH_TRIALS) && index_metrics(r) != 0)
    r->out_of_memory = 1;
  if (rc == TS_OK && r->out_of_memory)
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the report");
  /* The reference condition: "baseline" when there is one, else the first. */
  r->baseline = 0;
  for (int c = 0; c < r->condition_count; c++)
    if (strcmp(r->conditions[c], "baseline") == 0) {
      r->baseline = c;
      break;
    }
  if (rc == TS_OK && (flags & REPORT_WITH_STATS))
    rc = read_stats(s, r, err);
  if (rc == TS_OK && (flags & REPORT_WITH_STATS))
    rc = read_machine_cost(s, r, err);
  if (rc != TS_OK) {
    report_data_free(r);
    return rc;
  }
  *out = r;
  return TS_OK;
}

int report_data_compute(report_data *r, ts_err *err) {
  int rc = r->flags & REPORT_WITH_STATS ? compute_stats(r, err) : TS_OK;
  return rc == TS_OK && r->machine_cost ? compute_stats(r->machine_cost, err) : rc;
}

int report_data_load(store *s, int64_t run_id, const plan *p, int flags, report_data **out,
                     ts_err *err) {
  report_data *r;
  int rc = report_data_read(s, run_id, p, flags, &r, err);
  if (rc == TS_OK && (rc = report_data_compute(r, err)) != TS_OK)
    report_data_free(r);
  if (rc == TS_OK)
    *out = r;
  return rc;
}

int report_each_trial(store *s, const report_data *r,
                      int (*trial)(void *ctx, const store_trial_row *row),
                      int (*metric)(void *ctx, int64_t trial_id, const char *name, double value),
                      void *ctx, ts_err *err) {
  if (!(r->flags & REPORT_WITH_TRIALS)) {
    int rc = store_run_trials(s, r->run_id, trial, ctx, err);
    return rc == TS_OK ? store_run_metrics(s, r->run_id, metric, ctx, err) : rc;
  }
  /* The model's lists are the store's, in the store's order: trials by sequence, metrics by
     trial sequence then name. */
  for (size_t i = 0; i < r->trial_count; i++)
    if (trial(ctx, &r->trials[i].row) != 0)
      break;
  for (size_t i = 0; i < r->metric_count; i++)
    if (metric(ctx, r->metrics[i].trial_id, r->metrics[i].name, r->metrics[i].value) != 0)
      return TS_OK;
  return TS_OK;
}

int report_stopped(const report_data *r, FILE *out) {
  report_guard *g = r->guard;
  if (!g || g->tripped)
    return g != NULL;
  if (g->max_bytes > 0 && ftell(out) > g->max_bytes)
    g->tripped = REPORT_GUARD_TOO_LARGE;
  else if (g->stop && g->stop(g->ctx))
    g->tripped = REPORT_GUARD_STOPPED;
  return g->tripped != 0;
}

static int compare_metric_name(const void *name, const void *metric) {
  return strcmp(name, ((const report_metric *)metric)->name);
}

double report_trial_metric(const report_data *r, const report_trial *t, const char *name) {
  /* The trial's metrics are in name order (store_run_metrics): searched, not walked. */
  const report_metric *m = t->metric_count
                               ? bsearch(name, &r->metrics[t->metric_first], t->metric_count,
                                         sizeof *r->metrics, compare_metric_name)
                               : NULL;
  return m ? m->value : NAN;
}

int report_has_timers(const report_data *r) {
  for (int c = 0; c < r->condition_count; c++)
    if (r->resolution_asked[c][0])
      return 1;
  return 0;
}

int report_condition_index(const report_data *r, const char *name) {
  for (int c = 0; c < r->condition_count; c++)
    if (strcmp(r->conditions[c], name) == 0)
      return c;
  return -1;
}

size_t report_block_count(const report_data *r, int b) { return block_count(r, b); }

void report_scores_by_block(const report_score_list *l, size_t blocks, double *by_block) {
  scores_by_block(l, blocks, by_block);
}

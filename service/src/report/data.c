/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* data.c - reads a run's trials once and computes the statistics and verdicts that every report
   format shows (report/data.h). */
#include "data.h"

#include "../experiment/estimate.h"
#include "../quiet/quiet.h"

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

static int add_score(report_score_list *l, double score, int seq) {
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    double *v = realloc(l->values, cap * sizeof *v);
    if (v)
      l->values = v;
    int *q = v ? realloc(l->seqs, cap * sizeof *q) : NULL;
    if (!q)
      return -1;
    l->seqs = q;
    l->cap = cap;
  }
  l->values[l->n] = score;
  l->seqs[l->n++] = seq;
  return 0;
}

typedef struct collect_ctx {
  report_data *r;
  int with_trials;
} collect_ctx;

static int collect_row(void *ctx, const store_trial_row *row) {
  collect_ctx *cx = ctx;
  report_data *r = cx->r;
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
  if (add_score(&r->lists[b][c], row->score, row->seq) != 0) {
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

/* Ties each trial to its metrics (both are in sequence order) and lists the distinct names. */
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
  for (size_t i = 0; i < r->metric_count; i++) {
    size_t k = 0;
    while (k < r->metric_name_count && strcmp(r->metric_names[k], r->metrics[i].name) != 0)
      k++;
    if (k == r->metric_name_count)
      memcpy(r->metric_names[r->metric_name_count++], r->metrics[i].name, REPORT_METRIC_NAME_MAX);
  }
  qsort(r->metric_names, r->metric_name_count, sizeof *r->metric_names, compare_names);
  return 0;
}

/* Baseline drift: the mean of the later half of the baseline trials against the earlier half. */
static double baseline_drift(const report_score_list *l) {
  if (l->n < 4)
    return NAN;
  size_t half = l->n / 2;
  double early = 0, late = 0;
  for (size_t i = 0; i < half; i++)
    early += l->values[i];
  for (size_t i = l->n - half; i < l->n; i++)
    late += l->values[i];
  return early > 0 ? (late / early - 1) * 100 : NAN;
}

/* Blocks (one more score in each group each) until the detectable effect is the margin, from the
   groups' own spread; -1 when the spread is not known. */
static long more_blocks_for_margin(const report_data *r, const report_cell *cell, size_t nb,
                                   size_t nc) {
  double mb = cell->cmp.baseline.mean, margin = r->margin_pct > 0 ? r->margin_pct : 1.0;
  if (!(mb > 0) || nb < 2 || nc < 2)
    return -1;
  double sb = 100 * cell->cmp.baseline.sd / mb, sc = 100 * cell->cmp.condition.sd / mb;
  long need = stats_trials_for_detectable(sb, sc, margin);
  if (need <= 0)
    return -1;
  if (need > STATS_TRIALS_NEEDED_MAX)
    return need;
  long have = (long)(nb < nc ? nb : nc);
  return need > have ? need - have : 0;
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
  if (!cell->compared || more < 0 || more > STATS_TRIALS_NEEDED_MAX || !isfinite(r->block_seconds))
    return NAN;
  return (double)more * r->block_seconds / 60;
}

static int compute_stats(store *s, report_data *r, ts_err *err) {
  int block_rc = read_block_seconds(s, r, err);
  if (block_rc != TS_OK)
    return block_rc;
  /* The options the precision check uses, so adaptive repetitions stop on the intervals shown. */
  stats_options options = precision_stats_options(r->run_id, r->margin_pct);
  for (int c = 0; c < r->condition_count; c++) {
    r->switches_per_s[c] =
        store_condition_metric_mean(s, r->run_id, r->conditions[c], "load.switches_per_s");
    r->timer_overshoot_us[c] =
        store_condition_metric_mean(s, r->run_id, r->conditions[c], "timer.overshoot_us");
    int rc =
        store_condition_timer(s, r->run_id, r->conditions[c], r->resolution_asked[c],
                              sizeof r->resolution_asked[c], r->resolution_obtained[c],
                              sizeof r->resolution_obtained[c], &r->timer_resolution_us[c], err);
    if (rc != TS_OK)
      return rc;
  }
  for (int b = 0; b < r->bench_count; b++) {
    const report_score_list *bl = &r->lists[b][r->baseline];
    for (int c = 0; c < r->condition_count; c++) {
      const report_score_list *l = &r->lists[b][c];
      report_cell *cell = &r->cells[b][c];
      if (stats_describe(l->values, l->n, &cell->d) != 0)
        return ts_err_set(err, TS_ENOMEM, "no memory for the statistics");
      if (c == r->baseline || l->n == 0)
        continue;
      if (stats_compare(bl->values, bl->n, l->values, l->n, &options, &cell->cmp) != 0)
        return ts_err_set(err, TS_ENOMEM, "no memory for the statistics");
      cell->compared = 1;
      stats_format_verdict(&cell->cmp, cell->verdict, sizeof cell->verdict);
      stats_sensitivity_of(bl->values, bl->n, l->values, l->n, &cell->sens);
      cell->more_blocks_for_margin = more_blocks_for_margin(r, cell, bl->n, l->n);
    }
    r->drift[b] = baseline_drift(bl);
  }
  return TS_OK;
}

int report_sensitivity_text(const report_data *r, const report_cell *cell, char *buf, size_t len) {
  buf[0] = '\0';
  if (!cell->compared || isnan(cell->sens.detectable_percent))
    return 0;
  double margin = r->margin_pct > 0 ? r->margin_pct : 1.0;
  int n = snprintf(buf, len, "could detect ±%.2f %% (95 %% confidence, 80 %% power)",
                   cell->sens.detectable_percent);
  long more = cell->more_blocks_for_margin;
  size_t used = n < 0 ? 0 : ((size_t)n < len ? (size_t)n : len - 1);
  if (cell->cmp.verdict == STATS_INCONCLUSIVE && more > STATS_TRIALS_NEEDED_MAX)
    snprintf(buf + used, len - used, "; ±%.1f %% would take more than %ld blocks", margin,
             STATS_TRIALS_NEEDED_MAX);
  else if (cell->cmp.verdict == STATS_INCONCLUSIVE && more > 0) {
    char time[80] = "";
    double minutes = report_more_minutes(r, cell);
    if (isfinite(minutes)) {
      char words[64];
      estimate_duration_words(minutes * 60, words, sizeof words);
      snprintf(time, sizeof time, " (%s)", words);
    }
    snprintf(buf + used, len - used, "; about %ld more block%s%s would detect ±%.1f %%", more,
             more == 1 ? "" : "s", time, margin);
  }
  return 1;
}

void report_data_free(report_data *r) {
  if (!r)
    return;
  for (int b = 0; b < REPORT_MAX_BENCHES; b++)
    for (int c = 0; c < REPORT_MAX_CONDITIONS; c++) {
      free(r->lists[b][c].values);
      free(r->lists[b][c].seqs);
    }
  free(r->trials);
  free(r->metrics);
  free(r->metric_names);
  free(r->checks);
  free(r->placements);
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

int report_data_load(store *s, int64_t run_id, const plan *p, int flags, report_data **out,
                     ts_err *err) {
  report_data *r = calloc(1, sizeof *r);
  if (!r)
    return ts_err_set(err, TS_ENOMEM, "no memory for the report");
  r->run_id = run_id;
  plan *own = NULL;
  int rc = flags & REPORT_WITH_RUN ? read_run(s, r, &p, &own, err) : TS_OK;
  if (rc == TS_OK) {
    r->margin_pct = p ? p->margin_pct : 0;
    for (int i = 0; p && i < p->condition_count; i++)
      find_or_add(r->conditions, &r->condition_count, REPORT_MAX_CONDITIONS, p->conditions[i].text);
    for (int i = 0; p && i < p->bench_count; i++)
      find_or_add_bench(r, p->benches[i]);
    collect_ctx cx = {r, (flags & REPORT_WITH_TRIALS) != 0};
    rc = store_run_trials(s, run_id, collect_row, &cx, err);
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
    rc = compute_stats(s, r, err);
  if (rc != TS_OK) {
    report_data_free(r);
    return rc;
  }
  *out = r;
  return TS_OK;
}

double report_trial_metric(const report_data *r, const report_trial *t, const char *name) {
  for (size_t i = t->metric_first; i < t->metric_first + t->metric_count; i++)
    if (strcmp(r->metrics[i].name, name) == 0)
      return r->metrics[i].value;
  return NAN;
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

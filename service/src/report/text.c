/* text.c - the plain-text report of one run: per benchmark a table of conditions with their
   statistics against the baseline, a verdict for each, and the drift of the baseline; computed
   from the database so what is printed is what was kept. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../experiment/stats.h"
#include "report.h"

#define REPORT_MAX_CONDITIONS 64
#define REPORT_MAX_BENCHES 16

typedef struct score_list {
  double *values;
  int *seqs; /* when each was measured, for the drift */
  size_t n;
  size_t cap;
} score_list;

/* Every done, non-warm-up score of a run, by benchmark and condition. */
typedef struct run_scores {
  int condition_count;
  char conditions[REPORT_MAX_CONDITIONS][128];
  int bench_count;
  char benches[REPORT_MAX_BENCHES][64];
  char units[REPORT_MAX_BENCHES][32];
  score_list lists[REPORT_MAX_BENCHES][REPORT_MAX_CONDITIONS];
  int warnings;
  int pending;
  int failed;
  int out_of_memory;
} run_scores;

static int find_or_add(char (*names)[128], int *count, int max, const char *name) {
  for (int i = 0; i < *count; i++)
    if (strcmp(names[i], name) == 0)
      return i;
  if (*count == max)
    return -1;
  snprintf(names[*count], 128, "%s", name);
  return (*count)++;
}

static int find_or_add_bench(run_scores *r, const char *name) {
  for (int i = 0; i < r->bench_count; i++)
    if (strcmp(r->benches[i], name) == 0)
      return i;
  if (r->bench_count == REPORT_MAX_BENCHES)
    return -1;
  snprintf(r->benches[r->bench_count], sizeof r->benches[0], "%s", name);
  return r->bench_count++;
}

static int collect_row(void *ctx, const store_trial_row *row) {
  run_scores *r = ctx;
  if (strcmp(row->status, "pending") == 0)
    r->pending++;
  if (strcmp(row->status, "failed") == 0)
    r->failed++;
  r->warnings += row->has_warnings;
  if (strcmp(row->status, "done") != 0 || row->block == 0)
    return 0;
  int b = find_or_add_bench(r, row->bench);
  int c = find_or_add(r->conditions, &r->condition_count, REPORT_MAX_CONDITIONS, row->condition);
  if (b < 0 || c < 0)
    return 0; /* beyond what one report shows */
  score_list *l = &r->lists[b][c];
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 16;
    double *v = realloc(l->values, cap * sizeof *v);
    int *q = v ? realloc(l->seqs, cap * sizeof *q) : NULL;
    if (v)
      l->values = v;
    if (!v || !q) {
      r->out_of_memory = 1;
      return 1;
    }
    l->seqs = q;
    l->cap = cap;
  }
  l->values[l->n] = row->score;
  l->seqs[l->n++] = row->seq;
  snprintf(r->units[b], sizeof r->units[b], "%s", row->unit);
  return 0;
}

static void free_scores(run_scores *r) {
  for (int b = 0; b < REPORT_MAX_BENCHES; b++)
    for (int c = 0; c < REPORT_MAX_CONDITIONS; c++) {
      free(r->lists[b][c].values);
      free(r->lists[b][c].seqs);
    }
  free(r);
}

/* Reads a run's scores; conditions and benchmarks in the plan's order when there is a plan. */
static int load_scores(store *s, int64_t run_id, const plan *p, run_scores **out, ts_err *err) {
  run_scores *r = calloc(1, sizeof *r);
  if (!r)
    return ts_err_set(err, TS_ENOMEM, "no memory for the report");
  for (int i = 0; p && i < p->condition_count; i++)
    find_or_add(r->conditions, &r->condition_count, REPORT_MAX_CONDITIONS, p->conditions[i].text);
  for (int i = 0; p && i < p->bench_count; i++)
    find_or_add_bench(r, p->benches[i]);
  int rc = store_run_trials(s, run_id, collect_row, r, err);
  if (rc == TS_OK && r->out_of_memory)
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the report");
  if (rc != TS_OK) {
    free_scores(r);
    return rc;
  }
  *out = r;
  return TS_OK;
}

/* The reference condition: "baseline" when there is one, else the first. */
static int baseline_index(const run_scores *r) {
  for (int c = 0; c < r->condition_count; c++)
    if (strcmp(r->conditions[c], "baseline") == 0)
      return c;
  return 0;
}

static stats_options options_for(int64_t run_id, const plan *p) {
  /* The bootstrap's seed comes from the run: the same run always reports the same intervals. */
  stats_options o = {(uint64_t)run_id * 0x9E3779B97F4A7C15ull + 1, 0, p ? p->margin_pct : 0};
  return o;
}

/* Baseline drift: the mean of the later half of the baseline trials against the earlier half. */
static double baseline_drift(const score_list *l) {
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

static int print_scores(store *s, int64_t run_id, const plan *p, const run_scores *r, FILE *out,
                        ts_err *err) {
  int base = baseline_index(r);
  stats_options options = options_for(run_id, p);
  for (int b = 0; b < r->bench_count; b++) {
    fprintf(out, "\n%s (%s, higher is faster)\n", r->benches[b],
            r->units[b][0] ? r->units[b] : "score");
    fprintf(out, "  %-30s %4s %10s %10s %6s %11s %9s %19s %8s %8s\n", "condition", "n", "mean",
            "median", "cv", "switches/s", "vs base", "95% CI", "p Welch", "p MW");
    const score_list *bl = &r->lists[b][base];
    char verdicts[REPORT_MAX_CONDITIONS][256];
    for (int c = 0; c < r->condition_count; c++) {
      const score_list *l = &r->lists[b][c];
      stats_description d;
      verdicts[c][0] = '\0';
      if (stats_describe(l->values, l->n, &d) != 0)
        return ts_err_set(err, TS_ENOMEM, "no memory for the statistics");
      double wakeups = store_condition_metric_mean(s, run_id, r->conditions[c], "load.switches_per_s");
      char wake_text[16] = "-";
      if (!isnan(wakeups))
        snprintf(wake_text, sizeof wake_text, "%.0f", wakeups);
      fprintf(out, "  %-30s %4zu %10.2f %10.2f %5.1f%% %11s", r->conditions[c], d.n, d.mean,
              d.median, isnan(d.cv) ? 0 : d.cv * 100, wake_text);
      if (c == base || l->n == 0) {
        fprintf(out, " %9s\n", l->n == 0 ? "no data" : "reference");
        continue;
      }
      stats_comparison cmp;
      if (stats_compare(bl->values, bl->n, l->values, l->n, &options, &cmp) != 0)
        return ts_err_set(err, TS_ENOMEM, "no memory for the statistics");
      char ci[40] = "", welch[16] = "", mw[16] = "";
      if (!isnan(cmp.ci95_low))
        snprintf(ci, sizeof ci, "[%+.2f, %+.2f]", cmp.ci95_low, cmp.ci95_high);
      if (!isnan(cmp.welch.p))
        snprintf(welch, sizeof welch, "%.3g", cmp.welch.p);
      if (!isnan(cmp.mann_whitney.p))
        snprintf(mw, sizeof mw, "%.3g", cmp.mann_whitney.p);
      fprintf(out, " %+8.2f%% %19s %8s %8s\n", cmp.percent, ci, welch, mw);
      stats_format_verdict(&cmp, verdicts[c], sizeof verdicts[c]);
    }
    for (int c = 0; c < r->condition_count; c++)
      if (verdicts[c][0])
        fprintf(out, "  %s: %s\n", r->conditions[c], verdicts[c]);
    double drift = baseline_drift(bl);
    if (!isnan(drift)) {
      double margin = p && p->margin_pct > 0 ? p->margin_pct : 1.0;
      fprintf(out, "  drift: the baseline's later half scored %+.2f %% against its earlier half%s\n",
              drift, fabs(drift) > margin ? " - more than the margin: the machine changed during the run" : "");
    }
  }
  if (r->pending || r->failed || r->warnings)
    fprintf(out, "\n%d trial(s) pending, %d failed, %d with warnings (a skipped quiet gate).\n",
            r->pending, r->failed, r->warnings);
  return TS_OK;
}

int report_text(store *s, int64_t run_id, const plan *p, FILE *out, ts_err *err) {
  run_scores *r;
  int rc = load_scores(s, run_id, p, &r, err);
  if (rc != TS_OK)
    return rc;
  rc = print_scores(s, run_id, p, r, out, err);
  free_scores(r);
  return rc;
}

int report_run(store *s, int64_t run_id, FILE *out, ts_err *err) {
  store_run_row *row = malloc(sizeof *row);
  plan *p = malloc(sizeof *p);
  int rc = row && p ? TS_OK : ts_err_set(err, TS_ENOMEM, "no memory for the report");
  if (rc == TS_OK)
    rc = store_run_get(s, run_id, row, err);
  int have_plan = 0;
  if (rc == TS_OK) {
    fprintf(out, "run %lld: plan %s, %s; started %s%s%s; %d of %d trials done\n", (long long)row->id,
            row->plan_name, row->status, row->started_at, row->finished_at[0] ? ", ended " : "",
            row->finished_at, row->trials_done, row->trials_total);
    fprintf(out, "machine: %s, %s, %s\n", row->host, row->os, row->cpu);
    if (row->status_detail[0])
      fprintf(out, "detail: %s\n", row->status_detail);
    ts_err plan_err;
    /* A stored plan that no longer parses (an older version's) still leaves the scores. */
    have_plan = plan_parse(row->plan_text, "stored plan", p, &plan_err) == TS_OK;
  }
  if (rc == TS_OK)
    rc = report_text(s, run_id, have_plan ? p : NULL, out, err);
  free(row);
  free(p);
  return rc;
}

int report_widest_interval(store *s, int64_t run_id, const plan *p, double *widest, ts_err *err) {
  run_scores *r;
  int rc = load_scores(s, run_id, p, &r, err);
  if (rc != TS_OK)
    return rc;
  int base = baseline_index(r);
  stats_options options = options_for(run_id, p);
  *widest = 0;
  for (int b = 0; b < r->bench_count && rc == TS_OK; b++) {
    const double *conditions[REPORT_MAX_CONDITIONS];
    size_t counts[REPORT_MAX_CONDITIONS], k = 0;
    for (int c = 0; c < r->condition_count; c++)
      if (c != base) {
        conditions[k] = r->lists[b][c].values;
        counts[k++] = r->lists[b][c].n;
      }
    double worst = 0;
    if (stats_precision_reached(r->lists[b][base].values, r->lists[b][base].n, conditions, counts,
                                k, p->precision_pct, &options, &worst) < 0)
      rc = ts_err_set(err, TS_ENOMEM, "no memory for the statistics");
    if (worst > *widest)
      *widest = worst;
  }
  free_scores(r);
  return rc;
}

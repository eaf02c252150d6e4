/* text.c - the plain-text report of one run: a table per benchmark, computed from the database so
   what is printed is what was kept. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../experiment/stats.h"
#include "report.h"

typedef struct score_column {
  const char *condition;
  const char *bench;
  double *values;
  size_t n;
  size_t cap;
  char unit[32];
} score_column;

typedef struct collect_context {
  score_column *columns;
  int count;
  int failed; /* out of memory while collecting */
} collect_context;

static int collect_row(void *ctx, const store_trial_row *row) {
  collect_context *c = ctx;
  if (strcmp(row->status, "done") != 0)
    return 0;
  for (int i = 0; i < c->count; i++) {
    score_column *col = &c->columns[i];
    if (strcmp(col->condition, row->condition) != 0 || strcmp(col->bench, row->bench) != 0)
      continue;
    if (col->n == col->cap) {
      size_t cap = col->cap ? col->cap * 2 : 16;
      double *v = realloc(col->values, cap * sizeof *v);
      if (!v) {
        c->failed = 1;
        return 1;
      }
      col->values = v;
      col->cap = cap;
    }
    col->values[col->n++] = row->score;
    snprintf(col->unit, sizeof col->unit, "%s", row->unit);
    return 0;
  }
  return 0;
}

int report_text(store *s, int64_t run_id, const plan *p, FILE *out, ts_err *err) {
  int count = p->condition_count * p->bench_count;
  collect_context c = {calloc((size_t)count, sizeof(score_column)), count, 0};
  if (!c.columns)
    return ts_err_set(err, TS_ENOMEM, "no memory for the report");
  for (int b = 0; b < p->bench_count; b++)
    for (int i = 0; i < p->condition_count; i++) {
      c.columns[b * p->condition_count + i].condition = p->conditions[i].text;
      c.columns[b * p->condition_count + i].bench = p->benches[b];
    }
  int rc = store_run_trials(s, run_id, collect_row, &c, err);
  if (rc == TS_OK && c.failed)
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the report");

  for (int b = 0; rc == TS_OK && b < p->bench_count; b++) {
    score_column *cols = &c.columns[b * p->condition_count];
    stats_summary baseline = {0, 0, 0, 0, 0};
    for (int i = 0; i < p->condition_count; i++)
      if (strcmp(cols[i].condition, "baseline") == 0)
        stats_summarize(cols[i].values, cols[i].n, &baseline);
    fprintf(out, "\n%s (%s, higher is faster)\n", p->benches[b],
            cols[0].unit[0] ? cols[0].unit : "score");
    fprintf(out, "  %-28s %4s %12s %10s %12s\n", "condition", "n", "mean", "sd", "vs baseline");
    for (int i = 0; i < p->condition_count; i++) {
      stats_summary sum;
      stats_summarize(cols[i].values, cols[i].n, &sum);
      char versus[32];
      if (sum.n == 0)
        snprintf(versus, sizeof versus, "%s", "no data");
      else if (strcmp(cols[i].condition, "baseline") == 0)
        snprintf(versus, sizeof versus, "%s", "reference");
      else if (baseline.n == 0)
        snprintf(versus, sizeof versus, "%s", "no baseline");
      else
        snprintf(versus, sizeof versus, "%+.2f %%", stats_percent_change(sum.mean, baseline.mean));
      fprintf(out, "  %-28s %4zu %12.2f %10.2f %12s\n", cols[i].condition, sum.n, sum.mean, sum.sd,
              versus);
    }
  }
  for (int i = 0; i < count; i++)
    free(c.columns[i].values);
  free(c.columns);
  return rc;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* program_costs.c - what a running program costs a benchmark, from a database: the latest cost
   run's prediction from its wake-ups and threads, and the newest freeze run's measurement, for
   `census --cost` (the CLI with a database file, the service with its own). */
#include "program_costs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../experiment/estimate.h"
#include "freeze.h"
#include "threadsoup/utf8.h"

typedef struct freeze_ids {
  int64_t ids[REPORT_PROGRAM_COSTS_RUNS];
  int count;
} freeze_ids;

static int collect_freeze_run(void *ctx, const store_run_row *row) {
  freeze_ids *f = ctx;
  if (!row->imported_from[0] && strstr(row->plan_text, "freeze:"))
    f->ids[f->count++] = row->id;
  return f->count == REPORT_PROGRAM_COSTS_RUNS;
}

/* How long the cost preset takes here, in words: from this machine's history when it has some. */
static void cost_run_time(store *s, char *buf, size_t len) {
  plan p;
  estimate e;
  ts_err err;
  if (plan_preset("cost", &p, &err) == TS_OK && s &&
      estimate_plan(s, &p, NULL, &e, &err) == TS_OK && e.all_timed) {
    double seconds[ESTIMATE_RANGE];
    for (int end = 0; end < ESTIMATE_RANGE; end++)
      seconds[end] = estimate_plan_seconds(&e, &p, p.reps, end);
    char words[160];
    estimate_range_words(seconds, words, sizeof words);
    snprintf(buf, len, "%s on this machine", words);
    return;
  }
  snprintf(buf, len,
           "%d conditions x %ld blocks of builtin-st; `threadsoup run cost --estimate` says how "
           "long on this machine",
           p.condition_count, p.reps);
}

void report_program_costs_free(report_program_costs *pc) {
  report_data_free(pc->cost_run);
  free(pc->model);
  for (int i = 0; i < pc->freeze_run_count; i++)
    report_data_free(pc->freeze_runs[i]);
  memset(pc, 0, sizeof *pc);
}

int report_program_costs_load(store *s, const char *missing_path, report_program_costs *pc,
                              ts_err *err) {
  char time[400];
  memset(pc, 0, sizeof *pc);
  if (!s) {
    cost_run_time(NULL, time, sizeof time);
    snprintf(pc->no_model, sizeof pc->no_model,
             "no cost run yet (no database at %s): `threadsoup run cost` measures this machine's "
             "cost model (%s)",
             missing_path, time);
    return TS_OK;
  }
  int64_t cost_id = 0;
  int rc = report_latest_cost_run(s, 0, &cost_id, err);
  if (rc == TS_OK && cost_id == 0) {
    cost_run_time(s, time, sizeof time);
    snprintf(pc->no_model, sizeof pc->no_model,
             "no cost run in this database: `threadsoup run cost` measures this machine's cost "
             "model (%s)",
             time);
  }
  if (rc == TS_OK && cost_id != 0)
    rc =
        report_data_load(s, cost_id, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &pc->cost_run, err);
  if (rc == TS_OK && pc->cost_run && !(pc->model = report_cost_compute(pc->cost_run)))
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the cost model");
  freeze_ids f = {{0}, 0};
  if (rc == TS_OK)
    rc = store_runs(s, 100000, collect_freeze_run, &f, err);
  for (int i = 0; rc == TS_OK && i < f.count; i++, pc->freeze_run_count++)
    rc = report_data_load(s, f.ids[i], NULL, REPORT_WITH_RUN | REPORT_WITH_STATS,
                          &pc->freeze_runs[i], err);
  if (rc != TS_OK)
    report_program_costs_free(pc); /* the runs not read yet are NULL */
  return rc;
}

/* "2.00 (1.75 to 2.25)": a cost and its interval in %. */
static void cost_cell(double v, double low, double high, char *buf, size_t len) {
  snprintf(buf, len, "%.2f (%.2f to %.2f)", v, low, high);
  for (char *minus_zero; (minus_zero = strstr(buf, "-0.00")) != NULL;)
    memmove(minus_zero, minus_zero + 1, strlen(minus_zero));
}

void report_program_costs_columns(const report_program_costs *pc, const char *name,
                                  double switches_per_s, long threads,
                                  char predicted[REPORT_PROGRAM_COST_MAX],
                                  char measured[REPORT_PROGRAM_COST_MAX]) {
  const size_t len = REPORT_PROGRAM_COST_MAX;
  report_program_cost cost;
  report_program_cost_of(pc->model, 0, (const report_data *const *)pc->freeze_runs,
                         pc->freeze_run_count, pc->cost_run ? pc->cost_run->benches[0] : NULL, name,
                         switches_per_s, threads >= 0 ? (double)threads : -1, &cost);
  snprintf(predicted, len, "-");
  snprintf(measured, len, "-");
  if (cost.predicted)
    cost_cell(cost.cost, cost.low, cost.high, predicted, len);
  if (!cost.cell)
    return;
  double v, low, high;
  char numbers[REPORT_PROGRAM_COST_MAX];
  report_freeze_finding f = report_freeze_cost_of(cost.cell, &v, &low, &high);
  if (!isfinite(v)) {
    snprintf(measured, len, "too few trials, run %lld", (long long)cost.run);
    return;
  }
  cost_cell(v, low, high, numbers, sizeof numbers);
  snprintf(measured, len, "%s%s run %lld", numbers,
           f == REPORT_FREEZE_COSTS     ? " costs,"
           : f == REPORT_FREEZE_NOTHING ? " nothing,"
           : f == REPORT_FREEZE_HELPS   ? " frozen slower,"
                                        : " unsure,",
           (long long)cost.run);
}

void report_program_costs_source(const report_program_costs *pc, char *buf, size_t len) {
  if (!pc->model) {
    snprintf(buf, len, "cost: %s", pc->no_model);
    return;
  }
  char shown[256], line[600];
  report_freeze_model_text(pc->cost_run->run_id, pc->model, 0, line, sizeof line);
  snprintf(buf, len,
           "cost on %s in %% (how much slower the benchmark runs with the program running): %s\n"
           "  predicted: the program's wake-ups' share plus its threads' (the intervals' ends "
           "added); measured: where a freeze run froze it alone",
           ts_utf8_printable(pc->cost_run->benches[0], shown, sizeof shown), line);
}

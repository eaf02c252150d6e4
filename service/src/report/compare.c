/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* compare.c - the comparison of several runs, one row per machine (report/compare.h): each run's
   statistics come from report_data_load, as in its own report, so the numbers are the same to the
   last digit; this file only lines them up and writes them as text, CSV, JSON or HTML. */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "threadsoup/json_write.h"
#include "threadsoup/utf8.h"

void report_compare_free(report_compare *c) {
  if (!c)
    return;
  for (int k = 0; k < c->run_count; k++)
    report_data_free(c->runs[k]);
  free(c);
}

static int union_index(char (*names)[128], int *count, int max, const char *name) {
  for (int i = 0; i < *count; i++)
    if (strcmp(names[i], name) == 0)
      return i;
  if (*count == max)
    return -1;
  snprintf(names[*count], sizeof names[0], "%s", name);
  return (*count)++;
}

/* "run 3" or "runs 1, 3, 4": the runs whose bit is set in mask, by id. */
static void runs_named(const report_compare *c, unsigned mask, char *buf, size_t len) {
  int64_t ids[REPORT_COMPARE_MAX_RUNS];
  int n = 0;
  for (int k = 0; k < c->run_count; k++)
    if ((mask >> k) & 1) {
      int at = n++;
      for (; at > 0 && ids[at - 1] > c->runs[k]->run_id; at--)
        ids[at] = ids[at - 1];
      ids[at] = c->runs[k]->run_id;
    }
  size_t used = (size_t)snprintf(buf, len, "run%s", n == 1 ? "" : "s");
  for (int i = 0; i < n && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? ", " : " ", (long long)ids[i]);
}

static void add_difference(report_compare *c, const char *setting, const char *text) {
  if (c->difference_count == REPORT_COMPARE_MAX_DIFFERENCES)
    return;
  report_compare_difference *d = &c->differences[c->difference_count++];
  snprintf(d->setting, sizeof d->setting, "%s", setting);
  snprintf(d->text, sizeof d->text, "%s", text);
}

/* A name (condition or benchmark) that only some runs have: which do and which do not. */
static void name_differences(report_compare *c, const char *setting, int count,
                             const char (*names)[128], const int (*index_of)[REPORT_MAX_CONDITIONS],
                             const char (*bench_names)[64],
                             const int (*bench_of)[REPORT_MAX_BENCHES]) {
  for (int i = 0; i < count; i++) {
    unsigned has = 0, all = (1u << c->run_count) - 1;
    for (int k = 0; k < c->run_count; k++)
      if ((names ? index_of[k][i] : bench_of[k][i]) >= 0)
        has |= 1u << k;
    if (has == all)
      continue;
    char with[200], without[200], text[1024];
    runs_named(c, has, with, sizeof with);
    runs_named(c, all & ~has, without, sizeof without);
    snprintf(text, sizeof text, "%s measured in %s; not measured in %s",
             names ? names[i] : bench_names[i], with, without);
    add_difference(c, setting, text);
  }
}

/* A setting with one value per run: when they differ, "1 in runs 1, 2; 0.5 in run 3". */
static void value_difference(report_compare *c, const char *setting, char (*values)[64]) {
  unsigned done = 0;
  char text[1024] = "";
  size_t used = 0;
  int distinct = 0;
  for (int k = 0; k < c->run_count; k++) {
    if ((done >> k) & 1)
      continue;
    unsigned same = 0;
    for (int j = k; j < c->run_count; j++)
      if (strcmp(values[j], values[k]) == 0)
        same |= 1u << j;
    done |= same;
    char runs[200];
    runs_named(c, same, runs, sizeof runs);
    if (used < sizeof text)
      used += (size_t)snprintf(text + used, sizeof text - used, "%s%s in %s", distinct ? "; " : "",
                               values[k], runs);
    distinct++;
  }
  if (distinct > 1)
    add_difference(c, setting, text);
}

static void find_differences(report_compare *c) {
  name_differences(c, "conditions", c->condition_count, (const char(*)[128])c->conditions,
                   (const int(*)[REPORT_MAX_CONDITIONS])c->condition_of, NULL, NULL);
  name_differences(c, "benchmarks", c->bench_count, NULL, NULL, (const char(*)[64])c->benches,
                   (const int(*)[REPORT_MAX_BENCHES])c->bench_of);
  char values[REPORT_COMPARE_MAX_RUNS][64];
  for (int k = 0; k < c->run_count; k++)
    if (isfinite(c->work_scale[k]))
      snprintf(values[k], sizeof values[k], "%g", c->work_scale[k]);
    else
      snprintf(values[k], sizeof values[k], "unknown (the stored plan does not parse)");
  value_difference(c, "work scale", values);
  for (int k = 0; k < c->run_count; k++)
    if (c->runs[k]->margin_pct > 0)
      snprintf(values[k], sizeof values[k], "%g %%", c->runs[k]->margin_pct);
    else
      snprintf(values[k], sizeof values[k], "automatic");
  value_difference(c, "margin", values);
}

int report_compare_load(store *s, const int64_t *run_ids, int count, report_compare **out,
                        ts_err *err) {
  if (count < 2)
    return ts_err_set(err, TS_EUSAGE,
                      "a comparison needs at least 2 runs, got %d (accepted: 2 to %d run ids, "
                      "e.g. --compare 3,7)",
                      count, REPORT_COMPARE_MAX_RUNS);
  if (count > REPORT_COMPARE_MAX_RUNS)
    return ts_err_set(err, TS_EUSAGE, "a comparison takes at most %d runs, got %d",
                      REPORT_COMPARE_MAX_RUNS, count);
  for (int k = 0; k < count; k++)
    for (int j = 0; j < k; j++)
      if (run_ids[j] == run_ids[k])
        return ts_err_set(err, TS_EUSAGE,
                          "run %lld is listed twice (accepted: each run once, e.g. --compare 3,7)",
                          (long long)run_ids[k]);
  report_compare *c = calloc(1, sizeof *c);
  if (!c)
    return ts_err_set(err, TS_ENOMEM, "no memory for the comparison");
  int rc = TS_OK;
  for (int k = 0; k < count && rc == TS_OK; k++) {
    rc = report_data_load(s, run_ids[k], NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &c->runs[k],
                          err);
    if (rc == TS_EINVAL) {
      char text[sizeof err->text];
      snprintf(text, sizeof text, "%s", err->text);
      rc = ts_err_set(err, TS_EINVAL, "%s (accepted: the ids threadsoup history lists)", text);
    }
    if (rc != TS_OK)
      break;
    c->run_count++;
    const report_data *r = c->runs[k];
    if (r->run.trials_done == 0 || r->bench_count == 0)
      rc = ts_err_set(err, TS_EINVAL,
                      "run %lld has no finished trials to compare (status %s; a compared run "
                      "needs done trials of its baseline and conditions)",
                      (long long)run_ids[k], store_run_status_name(r->run.status));
    plan p;
    ts_err plan_err;
    c->work_scale[k] =
        plan_parse(r->run.plan_text, "stored plan", &p, &plan_err) == TS_OK ? p.work_scale : NAN;
    for (int b = 0; b < REPORT_MAX_BENCHES; b++)
      c->bench_of[k][b] = -1;
    for (int i = 0; i < REPORT_MAX_CONDITIONS; i++)
      c->condition_of[k][i] = -1;
  }
  if (rc != TS_OK) {
    report_compare_free(c);
    return rc;
  }
  for (int k = 0; k < c->run_count; k++) {
    const report_data *r = c->runs[k];
    for (int b = 0; b < r->bench_count; b++) {
      int u = -1;
      for (int i = 0; i < c->bench_count && u < 0; i++)
        if (strcmp(c->benches[i], r->benches[b]) == 0)
          u = i;
      if (u < 0 && c->bench_count < REPORT_MAX_BENCHES) {
        u = c->bench_count++;
        snprintf(c->benches[u], sizeof c->benches[u], "%s", r->benches[b]);
      }
      if (u >= 0)
        c->bench_of[k][u] = b;
    }
    for (int i = 0; i < r->condition_count; i++) {
      int u =
          union_index(c->conditions, &c->condition_count, REPORT_MAX_CONDITIONS, r->conditions[i]);
      if (u >= 0)
        c->condition_of[k][u] = i;
    }
  }
  find_differences(c);
  *out = c;
  return TS_OK;
}

const report_cell *report_compare_cell(const report_compare *c, int k, int b, int c_index,
                                       const report_data **r) {
  *r = c->runs[k];
  int rb = c->bench_of[k][b], rc = c->condition_of[k][c_index];
  return rb < 0 || rc < 0 ? NULL : &c->runs[k]->cells[rb][rc];
}

int report_compare_is_reference(const report_compare *c, int c_index) {
  int seen = 0;
  for (int k = 0; k < c->run_count; k++) {
    int i = c->condition_of[k][c_index];
    if (i < 0)
      continue;
    if (i != c->runs[k]->baseline)
      return 0;
    seen = 1;
  }
  return seen;
}

/* ---- which runs: the newest finished one of each machine ---------------------------------- */

typedef struct pick_ctx {
  int64_t *ids;
  char (*keys)[300];
  char (*hosts)[128];
  int max, count, too_many;
} pick_ctx;

static int pick_run(void *ctx, const store_run_row *row) {
  pick_ctx *p = ctx;
  if (row->status != STORE_RUN_FINISHED || row->trials_done == 0)
    return 0;
  char key[300];
  /* Without a machine id (runs stored before schema 12), the host and CPU name the machine. */
  if (row->machine_id[0])
    snprintf(key, sizeof key, "id:%s", row->machine_id);
  else
    snprintf(key, sizeof key, "host:%s\n%s", row->host, row->cpu);
  for (int i = 0; i < p->count; i++)
    if (strcmp(p->keys[i], key) == 0)
      return 0; /* newest first: this machine has its run */
  if (p->count == p->max) {
    p->too_many = 1;
    return 1;
  }
  p->ids[p->count] = row->id;
  snprintf(p->keys[p->count], sizeof p->keys[0], "%s", key);
  snprintf(p->hosts[p->count], sizeof p->hosts[0], "%s", row->host);
  p->count++;
  return 0;
}

int report_compare_pick_machines(store *s, int64_t *run_ids, int max, int *count, ts_err *err) {
  char(*keys)[300] = calloc((size_t)max + 1, sizeof *keys);
  char(*hosts)[128] = calloc((size_t)max + 1, sizeof *hosts);
  pick_ctx p = {run_ids, keys, hosts, max, 0, 0};
  int rc = keys && hosts ? store_runs(s, 2147483647, pick_run, &p, err)
                         : ts_err_set(err, TS_ENOMEM, "no memory for the machines");
  /* By host, then run: the same order however the runs were stored or imported. */
  for (int i = 1; rc == TS_OK && i < p.count; i++)
    for (int j = i; j > 0; j--) {
      int order = strcmp(hosts[j - 1], hosts[j]);
      if (order < 0 || (order == 0 && run_ids[j - 1] < run_ids[j]))
        break;
      int64_t id = run_ids[j];
      run_ids[j] = run_ids[j - 1];
      run_ids[j - 1] = id;
      char host[128];
      memcpy(host, hosts[j], sizeof host);
      memcpy(hosts[j], hosts[j - 1], sizeof host);
      memcpy(hosts[j - 1], host, sizeof host);
    }
  free(keys);
  free(hosts);
  if (rc != TS_OK)
    return rc;
  if (p.too_many)
    return ts_err_set(err, TS_EINVAL,
                      "the database holds finished runs of more than %d machines: compare at "
                      "most %d with --compare RUN,RUN,...",
                      max, max);
  if (p.count < 2)
    return ts_err_set(err, TS_EINVAL,
                      "the database holds finished runs of %d machine%s: --compare-all-machines "
                      "needs 2 or more (import runs measured on other machines, or compare runs "
                      "of this one with --compare RUN,RUN,...)",
                      p.count, p.count == 1 ? "" : "s");
  *count = p.count;
  return TS_OK;
}

/* ---- words and numbers shared by the formats ---------------------------------------------- */

/* "16.0 GiB" and "8", or "unknown" when the store could not read a number (store_run_row: 0;
   an imported -1 or 2^63-1 among them), never a number that was not measured. */
static void memory_text(uint64_t bytes, char *buf, size_t len) {
  if (bytes == 0)
    snprintf(buf, len, "unknown");
  else
    snprintf(buf, len, "%.1f GiB", (double)bytes / (1024.0 * 1024 * 1024));
}

static void cpus_text(int cpus, char *buf, size_t len) {
  if (cpus <= 0)
    snprintf(buf, len, "unknown");
  else
    snprintf(buf, len, "%d", cpus);
}

/* What a cell says in one word: the verdict's name, "reference", "no data" or "not measured". */
static const char *cell_word(const report_data *r, const report_cell *cell) {
  if (!cell)
    return "not measured";
  if (cell->compared)
    return stats_verdict_name(cell->cmp.verdict);
  (void)r;
  return cell->d.n > 0 ? "reference" : "no data";
}

/* The baseline's spread for a benchmark of run k: its coefficient of variation (a fraction, as
   the run's own report has it), NaN when the run lacks the benchmark or the baseline's data. */
static double baseline_cv(const report_compare *c, int k, int b, size_t *n) {
  const report_data *r = c->runs[k];
  int rb = c->bench_of[k][b];
  *n = 0;
  if (rb < 0)
    return NAN;
  const stats_description *d = &r->cells[rb][r->baseline].d;
  *n = d->n;
  return d->n > 1 ? d->cv : NAN;
}

/* ---- text ---------------------------------------------------------------------------------- */

static void machine_label(const report_data *r, char *buf, size_t len) {
  char host[256];
  snprintf(buf, len, "%s (run %lld)", SHOWN(r->run.host[0] ? r->run.host : "?", host),
           (long long)r->run_id);
}

static void write_machines_text(const report_compare *c, FILE *out) {
  fprintf(out, "  %-5s %-24s %-20s %-32s %5s %10s  %s\n", "run", "started", "host", "cpu", "CPUs",
          "memory", "plan, status");
  for (int k = 0; k < c->run_count; k++) {
    const store_run_row *row = &c->runs[k]->run;
    char host[512], cpu[512], plan_name[256], memory[32], started[160], cpus[16];
    memory_text(row->memory_bytes, memory, sizeof memory);
    cpus_text(row->logical_cpus, cpus, sizeof cpus);
    fprintf(out, "  %-5lld %-24s %-20s %-32s %5s %10s  %s, %s\n", (long long)row->id,
            SHOWN(row->started_at, started), SHOWN(row->host, host), SHOWN(row->cpu, cpu), cpus,
            memory, SHOWN(row->plan_name, plan_name), store_run_status_name(row->status));
  }
}

/* A cell in a few words, for the summary table: "-5.00% [-5.20, -4.80] slower", or what it is
   when not compared ("not measured", "no data"). */
static void cell_summary(const report_data *r, const report_cell *cell, char *buf, size_t len) {
  if (!cell || !cell->compared || !isfinite(cell->cmp.percent))
    snprintf(buf, len, "%s", cell_word(r, cell));
  else if (isfinite(cell->cmp.ci_low))
    snprintf(buf, len, "%+.2f%% [%+.2f, %+.2f] %s", cell->cmp.percent, cell->cmp.ci_low,
             cell->cmp.ci_high, cell_word(r, cell));
  else
    snprintf(buf, len, "%+.2f%% %s", cell->cmp.percent, cell_word(r, cell));
}

/* The table of the original experiment: per condition, a row per machine and a column per
   benchmark. */
static void write_summary_text(const report_compare *c, FILE *out) {
  fputs("\nEffects (each against its machine's own baseline: mean, interval at the Holm level, "
        "verdict):\n",
        out);
  for (int i = 0; i < c->condition_count; i++) {
    if (report_compare_is_reference(c, i))
      continue;
    char cond[512], text[512], label[400];
    fprintf(out, "  %-30s", SHOWN(c->conditions[i], cond));
    for (int b = 0; b < c->bench_count; b++)
      fprintf(out, b + 1 < c->bench_count ? " %-44s" : " %s", SHOWN(c->benches[b], text));
    fputc('\n', out);
    for (int k = 0; k < c->run_count; k++) {
      machine_label(c->runs[k], label, sizeof label);
      fprintf(out, "    %-28s", label);
      for (int b = 0; b < c->bench_count; b++) {
        const report_data *r;
        const report_cell *cell = report_compare_cell(c, k, b, i, &r);
        cell_summary(r, cell, text, sizeof text);
        fprintf(out, b + 1 < c->bench_count ? " %-44s" : " %s", text);
      }
      fputc('\n', out);
    }
  }
}

void report_write_compare_text(const report_compare *c, FILE *out) {
  fprintf(out,
          "Comparison of %d runs: each condition's effect against the same machine's own "
          "baseline\n",
          c->run_count);
  write_machines_text(c, out);
  if (c->difference_count == 0)
    fputs("Plans: the same conditions, benchmarks, work scale and margin.\n", out);
  else {
    fputs("Plans differ (each effect is still against its own run's baseline):\n", out);
    for (int i = 0; i < c->difference_count; i++) {
      char text[2048];
      fprintf(out, "  %s: %s\n", c->differences[i].setting, SHOWN(c->differences[i].text, text));
    }
  }
  write_summary_text(c, out);
  for (int b = 0; b < c->bench_count; b++) {
    char bench[256], label[400], cond[512];
    const char *unit = "";
    for (int k = 0; k < c->run_count && !unit[0]; k++)
      if (c->bench_of[k][b] >= 0)
        unit = c->runs[k]->units[c->bench_of[k][b]];
    char unit_shown[128];
    fprintf(out, "\n%s (%s, higher is faster)\n", SHOWN(c->benches[b], bench),
            unit[0] ? SHOWN(unit, unit_shown) : "score");
    fprintf(out, "  %-32s %10s %12s\n", "noise: baseline of", "n", "cv");
    for (int k = 0; k < c->run_count; k++) {
      size_t n;
      double cv = baseline_cv(c, k, b, &n);
      machine_label(c->runs[k], label, sizeof label);
      if (c->bench_of[k][b] < 0)
        fprintf(out, "  %-32s %10s %12s\n", label, "-", "not measured");
      else if (isnan(cv))
        fprintf(out, "  %-32s %10zu %12s\n", label, n, "-");
      else
        fprintf(out, "  %-32s %10zu %11.1f%%\n", label, n, cv * 100);
    }
    for (int i = 0; i < c->condition_count; i++) {
      if (report_compare_is_reference(c, i))
        continue;
      fprintf(out, "  %s\n", SHOWN(c->conditions[i], cond));
      fprintf(out, "    %-30s %9s %19s  %-22s %s\n", "machine", "vs base", "CI (Holm level)",
              "verdict", "could detect");
      for (int k = 0; k < c->run_count; k++) {
        const report_data *r;
        const report_cell *cell = report_compare_cell(c, k, b, i, &r);
        machine_label(r, label, sizeof label);
        if (!cell || !cell->compared) {
          fprintf(out, "    %-30s %9s\n", label, cell_word(r, cell));
          continue;
        }
        char effect[32] = "-", ci[48] = "-", detect[32] = "-";
        if (isfinite(cell->cmp.percent))
          snprintf(effect, sizeof effect, "%+.2f%%", cell->cmp.percent);
        if (!isnan(cell->cmp.ci_low))
          snprintf(ci, sizeof ci, "[%+.2f, %+.2f]", cell->cmp.ci_low, cell->cmp.ci_high);
        if (!isnan(cell->sens.detectable_percent))
          snprintf(detect, sizeof detect, "±%.2f %%", cell->sens.detectable_percent);
        fprintf(out, "    %-30s %9s %19s  %-22s %s\n", label, effect, ci, cell_word(r, cell),
                detect);
        char verdict[1024];
        fprintf(out, "      %s\n", SHOWN(cell->verdict, verdict));
      }
    }
  }
}

/* ---- CSV ----------------------------------------------------------------------------------- */

void report_write_compare_csv(const report_compare *c, FILE *out) {
  static const char *const columns[] = {"run",
                                        "uid",
                                        "machine_id",
                                        "host",
                                        "os",
                                        "cpu",
                                        "logical_cpus",
                                        "memory_bytes",
                                        "started_at",
                                        "finished_at",
                                        "plan_name",
                                        "work_scale",
                                        "margin_percent",
                                        "bench",
                                        "unit",
                                        "condition",
                                        "n",
                                        "mean",
                                        "baseline_n",
                                        "baseline_cv",
                                        "percent",
                                        REPORT_CSV_COMPARISON,
                                        "verdict",
                                        "detectable_percent"};
  report_csv_names(out, columns, sizeof columns / sizeof columns[0]);
  fputc('\n', out);
  for (int b = 0; b < c->bench_count; b++)
    for (int i = 0; i < c->condition_count; i++)
      for (int k = 0; k < c->run_count; k++) {
        const report_data *r;
        const report_cell *cell = report_compare_cell(c, k, b, i, &r);
        const store_run_row *row = &r->run;
        fprintf(out, "%lld,", (long long)row->id);
        const char *texts[] = {row->uid, row->machine_id, row->host, row->os, row->cpu};
        for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
          report_csv_field(out, texts[t]);
          fputc(',', out);
        }
        if (row->logical_cpus > 0)
          fprintf(out, "%d", row->logical_cpus);
        fputc(',', out);
        if (row->memory_bytes)
          fprintf(out, "%llu", (unsigned long long)row->memory_bytes);
        fputc(',', out);
        report_csv_field(out, row->started_at);
        fputc(',', out);
        report_csv_field(out, row->finished_at);
        fputc(',', out);
        report_csv_field(out, row->plan_name);
        fputc(',', out);
        report_csv_number(out, c->work_scale[k]);
        fputc(',', out);
        report_csv_number(out, r->margin_pct > 0 ? r->margin_pct : NAN);
        fputc(',', out);
        report_csv_field(out, c->benches[b]);
        fputc(',', out);
        report_csv_field(out, c->bench_of[k][b] >= 0 ? r->units[c->bench_of[k][b]] : "");
        fputc(',', out);
        report_csv_field(out, c->conditions[i]);
        fputc(',', out);
        size_t bn;
        double cv = baseline_cv(c, k, b, &bn);
        int has = cell && cell->d.n > 0;
        if (cell)
          fprintf(out, "%zu", cell->d.n);
        fputc(',', out);
        report_csv_number(out, has ? cell->d.mean : NAN);
        fputc(',', out);
        if (c->bench_of[k][b] >= 0)
          fprintf(out, "%zu", bn);
        fputc(',', out);
        report_csv_number(out, cv);
        int compared = cell && cell->compared;
        fputc(',', out);
        report_csv_number(out, compared ? cell->cmp.percent : NAN);
        report_csv_comparison(out, cell);
        fputc(',', out);
        report_csv_field(out, cell_word(r, cell));
        fputc(',', out);
        report_csv_number(out, compared ? cell->sens.detectable_percent : NAN);
        fputc('\n', out);
      }
  /* After an empty line, as the run report's census: the ways the plans differ. */
  fputs("\nplan_difference,detail\n", out);
  for (int i = 0; i < c->difference_count; i++) {
    report_csv_field(out, c->differences[i].setting);
    fputc(',', out);
    report_csv_field(out, c->differences[i].text);
    fputc('\n', out);
  }
}

/* ---- JSON ---------------------------------------------------------------------------------- */

static void write_run_json(const report_data *none, const void *prepared, int k, FILE *out) {
  (void)none;
  const report_compare *c = prepared;
  const report_data *r = c->runs[k];
  const store_run_row *row = &r->run;
  fprintf(out, "{\"id\":%lld", (long long)row->id);
  const char *keys[] = {"uid",        "machine_id",  "host",      "os",     "cpu",
                        "started_at", "finished_at", "plan_name", "status", "imported_from"};
  const char *values[] = {row->uid,          row->machine_id, row->host,
                          row->os,           row->cpu,        row->started_at,
                          row->finished_at,  row->plan_name,  store_run_status_name(row->status),
                          row->imported_from};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    ts_json_string_member(out, keys[i], values[i]);
  if (row->logical_cpus > 0)
    fprintf(out, ",\"logical_cpus\":%d", row->logical_cpus);
  else
    fputs(",\"logical_cpus\":null", out);
  /* An integer, every digit (a double's %.10g would round it). */
  if (row->memory_bytes)
    fprintf(out, ",\"memory_bytes\":%llu", (unsigned long long)row->memory_bytes);
  else
    fputs(",\"memory_bytes\":null", out);
  ts_json_number_member(out, "work_scale", c->work_scale[k], REPORT_JSON_DIGITS);
  ts_json_number_member(out, "margin_percent", r->margin_pct > 0 ? r->margin_pct : NAN,
                        REPORT_JSON_DIGITS);
  fputs(",\"conditions\":[", out);
  for (int i = 0; i < r->condition_count; i++) {
    if (i)
      fputc(',', out);
    ts_json_string(out, r->conditions[i]);
  }
  fputs("],\"benchmarks\":[", out);
  for (int b = 0; b < r->bench_count; b++) {
    if (b)
      fputc(',', out);
    ts_json_string(out, r->benches[b]);
  }
  fputs("]}", out);
}

static void write_cell_json(const report_compare *c, int k, int b, int i, FILE *out) {
  const report_data *r;
  const report_cell *cell = report_compare_cell(c, k, b, i, &r);
  fprintf(out, "{\"run\":%lld", (long long)r->run_id);
  ts_json_string_member(out, "condition", c->conditions[i]);
  fprintf(out, ",\"measured\":%s", cell ? "true" : "false");
  int compared = cell && cell->compared;
  ts_json_number_member(out, "n", cell ? (double)cell->d.n : NAN, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "percent", compared ? cell->cmp.percent : NAN, REPORT_JSON_DIGITS);
  /* No cell (a condition this run lacks): nothing to read the interval from. */
  report_json_comparison(out, compared ? cell : NULL);
  ts_json_string_member(out, "verdict", cell_word(r, cell));
  ts_json_string_member(out, "verdict_text", compared ? cell->verdict : "");
  ts_json_number_member(out, "detectable_percent", compared ? cell->sens.detectable_percent : NAN,
                        REPORT_JSON_DIGITS);
  fputc('}', out);
}

/* A plan setting that differs between the runs, in words. */
static void write_difference_json(const report_data *none, const void *prepared, int i, FILE *out) {
  (void)none;
  const report_compare *c = prepared;
  fputs("{\"setting\":", out);
  ts_json_string(out, c->differences[i].setting);
  ts_json_string_member(out, "text", c->differences[i].text);
  fputc('}', out);
}

void report_write_compare_json(const report_compare *c, FILE *out) {
  fputs("{\"comparison\":{\"runs\":", out);
  report_json_array(out, REPORT_JSON_LINES, c->run_count, write_run_json, NULL, c);
  fputs(",\n\"plan_differences\":", out);
  report_json_array(out, REPORT_JSON_LINES, c->difference_count, write_difference_json, NULL, c);
  fputs(",\n\"benchmarks\":[", out);
  for (int b = 0; b < c->bench_count; b++) {
    fputs(b ? ",\n{" : "\n{", out);
    fputs("\"name\":", out);
    ts_json_string(out, c->benches[b]);
    fputs(",\"machines\":[", out);
    for (int k = 0; k < c->run_count; k++) {
      const report_data *r = c->runs[k];
      size_t n;
      double cv = baseline_cv(c, k, b, &n);
      int rb = c->bench_of[k][b];
      fprintf(out, "%s{\"run\":%lld,\"measured\":%s", k ? ",\n " : "\n ", (long long)r->run_id,
              rb >= 0 ? "true" : "false");
      ts_json_string_member(out, "unit", rb >= 0 ? r->units[rb] : "");
      ts_json_string_member(out, "baseline", r->conditions[r->baseline]);
      ts_json_number_member(out, "baseline_n", rb >= 0 ? (double)n : NAN, REPORT_JSON_DIGITS);
      ts_json_number_member(out, "baseline_cv", cv, REPORT_JSON_DIGITS);
      report_json_drift(out, rb >= 0 ? &r->drift[rb] : NULL);
      fputs(",\"conditions\":[", out);
      int first = 1;
      for (int i = 0; i < c->condition_count; i++) {
        if (report_compare_is_reference(c, i))
          continue;
        fputs(first ? "\n  " : ",\n  ", out);
        first = 0;
        write_cell_json(c, k, b, i, out);
      }
      fputs("]}", out);
    }
    fputs("]}", out);
  }
  fputs("]}}\n", out);
}

/* ---- HTML ---------------------------------------------------------------------------------- */

static void html_machine(const report_data *r, FILE *out) {
  report_html_text(out, r->run.host[0] ? r->run.host : "?");
  fprintf(out, " (run %lld)", (long long)r->run_id);
}

static void write_machines_html(const report_compare *c, FILE *out) {
  fputs("<h2>Machines</h2>\n<div class=\"wrap\"><table class=\"machines\">\n<thead><tr>"
        "<th class=\"cond\">host</th><th class=\"cond\">CPU</th><th>logical CPUs</th>"
        "<th>memory</th><th>run</th><th>started</th><th class=\"cond\">OS</th>"
        "<th class=\"cond\">plan, status</th></tr></thead>\n<tbody>\n",
        out);
  for (int k = 0; k < c->run_count; k++) {
    const store_run_row *row = &c->runs[k]->run;
    char memory[32], cpus[16];
    memory_text(row->memory_bytes, memory, sizeof memory);
    cpus_text(row->logical_cpus, cpus, sizeof cpus);
    fprintf(out,
            "<tr class=\"machine\"><td class=\"cond\"><span class=\"swatch\" "
            "style=\"background:%s\"></span>",
            report_html_palette(k));
    report_html_name(out, row->host);
    fputs("</td><td class=\"cond\">", out);
    report_html_name(out, row->cpu);
    fprintf(out, "</td><td>%s</td><td>%s</td><td>%lld</td><td>", cpus, memory, (long long)row->id);
    report_html_text(out, row->started_at);
    fputs("</td><td class=\"cond\">", out);
    report_html_name(out, row->os);
    fputs("</td><td class=\"cond\">", out);
    report_html_name(out, row->plan_name);
    fputs(", ", out);
    report_html_text(out, store_run_status_name(row->status));
    fputs("</td></tr>\n", out);
  }
  fputs("</tbody></table></div>\n", out);
}

/* One chart per benchmark: per condition a row per machine, the effect against that machine's
   baseline as a dot with its interval at the Holm level, the shaded band that run's equivalence
   margin. */
static void write_chart_html(const report_compare *c, int b, FILE *out) {
  double range = 0;
  int groups = 0, off_chart = 0;
  for (int i = 0; i < c->condition_count; i++) {
    if (report_compare_is_reference(c, i))
      continue;
    groups++;
    for (int k = 0; k < c->run_count; k++) {
      const report_data *r;
      const report_cell *cell = report_compare_cell(c, k, b, i, &r);
      double margin = r->margin_pct > 0 ? r->margin_pct : 1.0;
      range = fmax(range, fmin(margin, REPORT_CHART_PERCENT_MAX));
      if (!cell || !cell->compared)
        continue;
      double values[3] = {cell->cmp.percent, cell->cmp.ci_low, cell->cmp.ci_high};
      for (int v = 0; v < 3; v++)
        if (isfinite(values[v])) {
          off_chart |= fabs(values[v]) > REPORT_CHART_PERCENT_MAX;
          range = fmax(range, fmin(fabs(values[v]), REPORT_CHART_PERCENT_MAX));
        }
    }
  }
  if (groups == 0)
    return;
  double step = report_html_step(range, 2);
  range = ceil(range * 1.02 / step) * step;
  const double left = 250, right = 730, top = 10, head_h = 22, row_h = 24, width = 760;
  double bottom = top + groups * (head_h + c->run_count * row_h);
#define X_OF(v) (left + (report_chart_clamp(v, range) + range) / (2 * range) * (right - left))
  fputs("<figure class=\"compare-chart\">\n<figcaption>Effect against each machine's own baseline "
        "(mean, with its interval at the Holm level; the shaded band is that run's equivalence "
        "margin)",
        out);
  fputs(off_chart ? REPORT_CHART_EDGE_NOTE "</figcaption>\n" : "</figcaption>\n", out);
  fprintf(out,
          "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"effect per machine and "
          "condition\" xmlns=\"http://www.w3.org/2000/svg\">\n",
          width, bottom + 30);
  report_html_percent_axis(out, range, step, left, right, top, bottom);
  double y = top;
  for (int i = 0; i < c->condition_count; i++) {
    if (report_compare_is_reference(c, i))
      continue;
    fprintf(out, "<text x=\"8\" y=\"%.1f\" dominant-baseline=\"middle\" font-weight=\"600\">",
            y + head_h / 2);
    report_html_short_label(out, c->conditions[i]);
    fputs("</text>\n", out);
    y += head_h;
    for (int k = 0; k < c->run_count; k++, y += row_h) {
      const report_data *r;
      const report_cell *cell = report_compare_cell(c, k, b, i, &r);
      double cy = y + row_h / 2, margin = r->margin_pct > 0 ? r->margin_pct : 1.0;
      const char *color = report_html_palette(k);
      fprintf(out, "<g class=\"machine-row\" data-run=\"%lld\"><title>", (long long)r->run_id);
      html_machine(r, out);
      fputs(", ", out);
      report_html_text(out, c->conditions[i]);
      fputs(": ", out);
      report_html_text(out, cell && cell->verdict[0] ? cell->verdict : cell_word(r, cell));
      fputs("</title>\n", out);
      fprintf(out,
              "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#eef3ea\"/>\n",
              X_OF(-margin), y + 2, X_OF(margin) - X_OF(-margin), row_h - 4);
      fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">",
              left - 8, cy);
      report_html_short_label(out, r->run.host[0] ? r->run.host : "?");
      fprintf(out, " (run %lld)</text>\n", (long long)r->run_id);
      if (!cell || !cell->compared || !isfinite(cell->cmp.percent)) {
        fprintf(out,
                "<text x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\" "
                "fill=\"#888\">%s</text>\n</g>\n",
                left + 6, cy, cell_word(r, cell));
        continue;
      }
      if (isfinite(cell->cmp.ci_low) && isfinite(cell->cmp.ci_high)) {
        double x1 = X_OF(cell->cmp.ci_low), x2 = X_OF(cell->cmp.ci_high);
        fprintf(out,
                "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fV%.1f\" stroke=\"%s\" "
                "stroke-width=\"2\" fill=\"none\"/>\n",
                x1, cy - 6, cy + 6, x1, cy, x2, x2, cy - 6, cy + 6, color);
      }
      fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>\n</g>\n",
              X_OF(cell->cmp.percent), cy, color);
    }
  }
#undef X_OF
  fputs("</svg>\n</figure>\n", out);
}

static void write_bench_table_html(const report_compare *c, int b, FILE *out) {
  fputs("<div class=\"wrap\"><table class=\"noise\">\n<thead><tr><th class=\"cond\">machine</th>"
        "<th>baseline n</th><th>baseline cv (noise)</th></tr></thead>\n<tbody>\n",
        out);
  for (int k = 0; k < c->run_count; k++) {
    size_t n;
    double cv = baseline_cv(c, k, b, &n);
    fprintf(out, "<tr><td class=\"cond\"><span class=\"swatch\" style=\"background:%s\"></span>",
            report_html_palette(k));
    html_machine(c->runs[k], out);
    if (c->bench_of[k][b] < 0)
      fputs("</td><td colspan=\"2\">not measured</td></tr>\n", out);
    else if (isnan(cv))
      fprintf(out, "</td><td>%zu</td><td>-</td></tr>\n", n);
    else
      fprintf(out, "</td><td>%zu</td><td>%.1f&nbsp;%%</td></tr>\n", n, cv * 100);
  }
  fputs("</tbody></table></div>\n<div class=\"wrap\"><table class=\"effects\">\n<thead><tr>"
        "<th class=\"cond\">condition</th><th class=\"cond\">machine</th><th>n</th>"
        "<th>vs base</th><th>CI (Holm level)</th><th class=\"cond\">verdict</th>"
        "<th>could detect</th></tr></thead>\n<tbody>\n",
        out);
  for (int i = 0; i < c->condition_count; i++) {
    if (report_compare_is_reference(c, i))
      continue;
    for (int k = 0; k < c->run_count; k++) {
      const report_data *r;
      const report_cell *cell = report_compare_cell(c, k, b, i, &r);
      fputs("<tr><td class=\"cond\">", out);
      report_html_name(out, c->conditions[i]);
      fputs("</td><td class=\"cond\">", out);
      html_machine(r, out);
      fputs("</td>", out);
      if (!cell || !cell->compared) {
        fprintf(out,
                "<td>%s</td><td colspan=\"2\"></td><td class=\"cond verdict ref\">%s</td>"
                "<td></td></tr>\n",
                cell ? "0" : "-", cell_word(r, cell));
        continue;
      }
      fprintf(out, "<td>%zu</td>", cell->d.n);
      if (isfinite(cell->cmp.percent))
        fprintf(out, "<td>%+.2f&nbsp;%%</td>", cell->cmp.percent);
      else
        fputs("<td>-</td>", out);
      if (isfinite(cell->cmp.ci_low))
        fprintf(out, "<td>[%+.2f, %+.2f]</td>", cell->cmp.ci_low, cell->cmp.ci_high);
      else
        fputs("<td>-</td>", out);
      fprintf(out, "<td class=\"cond verdict %s\">",
              report_html_verdict_class(cell->compared, cell->cmp.verdict));
      report_html_text(out, cell->verdict);
      if (isfinite(cell->sens.detectable_percent))
        fprintf(out, "</td><td>&plusmn;%.2f&nbsp;%%</td></tr>\n", cell->sens.detectable_percent);
      else
        fputs("</td><td>-</td></tr>\n", out);
    }
  }
  fputs("</tbody></table></div>\n", out);
}

static void write_summary_html(const report_compare *c, FILE *out) {
  fputs("<h2>Effects</h2>\n<p class=\"note\">Each against its machine's own baseline: mean, "
        "interval at the Holm level, verdict.</p>\n<div class=\"wrap\"><table "
        "class=\"summary\">\n<thead><tr>"
        "<th class=\"cond\">machine</th>",
        out);
  for (int b = 0; b < c->bench_count; b++) {
    fputs("<th class=\"cond\">", out);
    report_html_name(out, c->benches[b]);
    fputs("</th>", out);
  }
  fputs("</tr></thead>\n<tbody>\n", out);
  for (int i = 0; i < c->condition_count; i++) {
    if (report_compare_is_reference(c, i))
      continue;
    fprintf(out, "<tr><th class=\"cond\" colspan=\"%d\">", c->bench_count + 1);
    report_html_name(out, c->conditions[i]);
    fputs("</th></tr>\n", out);
    for (int k = 0; k < c->run_count; k++) {
      fprintf(out, "<tr><td class=\"cond\"><span class=\"swatch\" style=\"background:%s\"></span>",
              report_html_palette(k));
      html_machine(c->runs[k], out);
      fputs("</td>", out);
      for (int b = 0; b < c->bench_count; b++) {
        const report_data *r;
        const report_cell *cell = report_compare_cell(c, k, b, i, &r);
        char text[512];
        cell_summary(r, cell, text, sizeof text);
        fprintf(out, "<td class=\"cond verdict %s\">",
                cell ? report_html_verdict_class(cell->compared, cell->cmp.verdict) : "ref");
        report_html_text(out, text);
        fputs("</td>", out);
      }
      fputs("</tr>\n", out);
    }
  }
  fputs("</tbody></table></div>\n", out);
}

void report_write_compare_html(const report_compare *c, FILE *out) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        out);
  fprintf(out, "<title>ThreadSoup: %d runs compared</title>\n", c->run_count);
  report_html_style(out);
  /* The noise table and the effects table of a benchmark apart. */
  fputs("<style>.wrap+.wrap{margin-top:1em}</style>\n", out);
  fprintf(out,
          "</head>\n<body>\n<h1>ThreadSoup: %d runs compared</h1>\n<p class=\"note\">Each "
          "condition's effect is against the same machine's own baseline, with the statistics "
          "of that run's own report.</p>\n",
          c->run_count);
  write_machines_html(c, out);
  fputs("<h2>Plans</h2>\n", out);
  if (c->difference_count == 0)
    fputs("<p class=\"plans same\">The same conditions, benchmarks, work scale and margin.</p>\n",
          out);
  else {
    fputs("<p class=\"note warn\">The plans differ (each effect is still against its own run's "
          "baseline):</p>\n<ul class=\"differences\">\n",
          out);
    for (int i = 0; i < c->difference_count; i++) {
      fputs("<li><b>", out);
      report_html_name(out, c->differences[i].setting);
      fputs("</b>: ", out);
      report_html_name(out, c->differences[i].text);
      fputs("</li>\n", out);
    }
    fputs("</ul>\n", out);
  }
  write_summary_html(c, out);
  for (int b = 0; b < c->bench_count; b++) {
    const char *unit = "";
    for (int k = 0; k < c->run_count && !unit[0]; k++)
      if (c->bench_of[k][b] >= 0)
        unit = c->runs[k]->units[c->bench_of[k][b]];
    fputs("<section class=\"bench\">\n<h2>", out);
    report_html_name(out, c->benches[b]);
    fputs(" <span class=\"note\">(", out);
    report_html_text(out, unit[0] ? unit : "score");
    fputs(", higher is faster)</span></h2>\n", out);
    write_chart_html(c, b, out);
    write_bench_table_html(c, b, out);
    fputs("</section>\n", out);
  }
  fputs("<p class=\"note\">Written by <code>threadsoup report --compare</code> from the "
        "database; scores are higher-is-faster.</p>\n</body>\n</html>\n",
        out);
}

/* ---- entry ---------------------------------------------------------------------------------- */

int report_compare_format(store *s, const int64_t *run_ids, int count, report_format format,
                          FILE *out, ts_err *err) {
  report_compare *c;
  int rc = report_compare_load(s, run_ids, count, &c, err);
  if (rc != TS_OK)
    return rc;
  switch (format) {
  case REPORT_FORMAT_TEXT:
    report_write_compare_text(c, out);
    break;
  case REPORT_FORMAT_CSV:
    report_write_compare_csv(c, out);
    break;
  case REPORT_FORMAT_JSON:
    report_write_compare_json(c, out);
    break;
  case REPORT_FORMAT_HTML:
    report_write_compare_html(c, out);
    break;
  }
  report_compare_free(c);
  return TS_OK;
}

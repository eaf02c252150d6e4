/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* freeze.c - the reports' "Frozen programs": for a run whose conditions freeze programs, what
   each costs the benchmark (how much faster it ran with them frozen, with the run's verdicts and
   their Holm family), next to what this machine's cost model predicts from their wake-ups, and
   one line of advice naming the programs worth removing; in text, CSV, JSON and HTML. */
#include "freeze.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../engine/freeze.h"
#include "format.h"
#include "section.h"
#include "threadsoup/json_write.h"

/* ---- the model ------------------------------------------------------------------------------ */

int report_freeze_programs(const char *condition, char (*names)[REPORT_FREEZE_NAME_MAX], int max) {
  load_spec spec;
  ts_err err;
  if (load_spec_parse(condition, &spec, &err) != TS_OK || spec.part_count == 0)
    return 0;
  int n = 0;
  for (int i = 0; i < spec.part_count; i++) {
    if (strcmp(spec.parts[i].scenario->name, "freeze") != 0)
      return 0;
    if (n < max)
      snprintf(names[n++], REPORT_FREEZE_NAME_MAX, "%s",
               LOAD_PARAMS(&spec.parts[i], freeze_params)->target);
  }
  return n;
}

report_freeze_finding report_freeze_cost_of(const report_cell *cell, double *cost, double *low,
                                            double *high) {
  *cost = *low = *high = NAN;
  if (!cell->compared || cell->cmp.status != BLOCKED_OK)
    return REPORT_FREEZE_NOT_DETERMINED;
  /* The comparison is the frozen condition against the baseline (the program running): faster
     frozen is what the program costs. */
  *cost = cell->cmp.percent;
  *low = cell->cmp.ci_low;
  *high = cell->cmp.ci_high;
  switch (cell->cmp.verdict) {
  case STATS_FASTER:
    return REPORT_FREEZE_COSTS;
  case STATS_SLOWER:
    return REPORT_FREEZE_HELPS;
  case STATS_NO_EFFECT:
    *low = cell->cmp.eq_low;
    *high = cell->cmp.eq_high;
    return REPORT_FREEZE_NOTHING;
  case STATS_INCONCLUSIVE:
    break;
  }
  return REPORT_FREEZE_NOT_DETERMINED;
}

/* 0.0 prints as 0, not -0. */
static double unsigned_zero(double x) { return x == 0 ? 0 : x; }

int report_freeze_cost_text(const report_cell *cell, char *buf, size_t len) {
  double cost, low, high;
  report_freeze_finding f = report_freeze_cost_of(cell, &cost, &low, &high);
  const blocked_result *c = &cell->cmp;
  double level = 100 * c->confidence;
  switch (f) {
  case REPORT_FREEZE_COSTS:
    return snprintf(buf, len, "costs %.2f %% (%.3g %% CI %.2f to %.2f %%; p %.2g Holm)", cost,
                    level, low, high, cell->p_holm);
  case REPORT_FREEZE_HELPS:
    return snprintf(buf, len,
                    "frozen, the benchmark ran slower by %.2f %% (%.3g %% CI %.2f to %.2f %%; "
                    "p %.2g Holm): it costs nothing here",
                    -cost, level, -high, -low, cell->p_holm);
  case REPORT_FREEZE_NOTHING:
    return snprintf(buf, len,
                    "costs nothing measurable (within ±%.1f %%: %.3g %% equivalence interval "
                    "%.2f to %.2f %%)",
                    c->margin_percent, 100 * (1 - 2 * c->equivalence_alpha), unsigned_zero(low),
                    unsigned_zero(high));
  case REPORT_FREEZE_NOT_DETERMINED:
    break;
  }
  if (!isfinite(cost))
    return snprintf(buf, len, "not determined: too few trials");
  return snprintf(buf, len,
                  "not determined: %+.2f %% (%.3g %% CI %.2f to %.2f %%), neither a cost nor "
                  "within ±%.1f %%",
                  unsigned_zero(cost), level, unsigned_zero(low), unsigned_zero(high),
                  c->margin_percent);
}

/* A share in % with two decimals, "-0.00" printed as "0.00". */
static const char *share_text(double v, char *buf, size_t len) {
  snprintf(buf, len, "%.2f", v);
  if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
    memmove(buf, buf + 1, strlen(buf));
  return buf;
}

/* "0.40 % (95 % CI 0.35 to 0.45 %)" */
static int share_interval_text(double v, double low, double high, char *buf, size_t len) {
  char a[32], b[32], c[32];
  return snprintf(buf, len, "%s %% (95 %% CI %s to %s %%)", share_text(v, a, sizeof a),
                  share_text(low, b, sizeof b), share_text(high, c, sizeof c));
}

int report_freeze_prediction_text(const report_cost_prediction *p, char *buf, size_t len) {
  char wake[160] = "", threads[160] = "";
  if (isfinite(p->wakeups))
    share_interval_text(p->wakeups, p->wakeups_low, p->wakeups_high, wake, sizeof wake);
  if (isfinite(p->threads))
    share_interval_text(p->threads, p->threads_low, p->threads_high, threads, sizeof threads);
  if (wake[0] && threads[0])
    return snprintf(buf, len, "%s from its wake-ups, %s from its threads", wake, threads);
  if (wake[0] || threads[0])
    return snprintf(buf, len, "%s from its %s", wake[0] ? wake : threads,
                    wake[0] ? "wake-ups" : "threads");
  return snprintf(buf, len, "none");
}

/* The program counts of one freeze row: the medians over the run's trials of each program's
   census metrics, summed; warm-ups left out, as the census table leaves them out. */
typedef struct freeze_counts {
  const char *names[8];
  int count;
  double *values; /* [trial][2 * program + k], k 0: switches/s, 1: threads; NaN: not counted */
  size_t trials, cap;
  int64_t last_trial;
  int64_t *warmups; /* the ids of the warm-up trials (block 0) */
  size_t warmup_count, warmup_cap;
  int out_of_memory;
} freeze_counts;

static int note_warmup(void *ctx, const store_trial_row *row) {
  freeze_counts *fc = ctx;
  if (row->block != 0)
    return 0;
  if (fc->warmup_count == fc->warmup_cap) {
    size_t cap = fc->warmup_cap ? fc->warmup_cap * 2 : 8;
    int64_t *more = realloc(fc->warmups, cap * sizeof *more);
    if (!more) {
      fc->out_of_memory = 1;
      return 1;
    }
    fc->warmups = more;
    fc->warmup_cap = cap;
  }
  fc->warmups[fc->warmup_count++] = row->id;
  return 0;
}

static int is_warmup(const freeze_counts *fc, int64_t trial_id) {
  for (size_t i = 0; i < fc->warmup_count; i++)
    if (fc->warmups[i] == trial_id)
      return 1;
  return 0;
}

static int count_metric(void *ctx, int64_t trial_id, const char *name, double value) {
  freeze_counts *fc = ctx;
  if (strncmp(name, "program.", 8) != 0 || is_warmup(fc, trial_id))
    return 0;
  for (int i = 0; i < fc->count; i++) {
    size_t n = strlen(fc->names[i]);
    const char *rest = name + 8;
    if (strncmp(rest, fc->names[i], n) != 0 || rest[n] != '.')
      continue;
    int k = strcmp(rest + n + 1, "switches_per_s") == 0 ? 0
            : strcmp(rest + n + 1, "threads") == 0      ? 1
                                                        : -1;
    if (k < 0)
      continue;
    if (fc->trials == 0 || fc->last_trial != trial_id) {
      if (fc->trials == fc->cap) {
        size_t cap = fc->cap ? fc->cap * 2 : 16;
        double *more = realloc(fc->values, cap * 16 * sizeof *more);
        if (!more) {
          fc->out_of_memory = 1;
          return 1;
        }
        fc->values = more;
        fc->cap = cap;
      }
      for (int j = 0; j < 16; j++)
        fc->values[fc->trials * 16 + (size_t)j] = NAN;
      fc->trials++;
      fc->last_trial = trial_id;
    }
    fc->values[(fc->trials - 1) * 16 + (size_t)(2 * i + k)] = value;
  }
  return 0;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of column j over the counted trials; NaN when no trial counted it. */
static double median_of(const freeze_counts *fc, int j, double *scratch) {
  size_t n = 0;
  for (size_t t = 0; t < fc->trials; t++)
    if (isfinite(fc->values[t * 16 + (size_t)j]))
      scratch[n++] = fc->values[t * 16 + (size_t)j];
  if (n == 0)
    return NAN;
  qsort(scratch, n, sizeof *scratch, compare_doubles);
  return n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
}

static int count_programs(store *s, const report_data *r, report_freeze_row *row, ts_err *err) {
  freeze_counts fc = {{0}, row->program_count, NULL, 0, 0, 0, NULL, 0, 0, 0};
  for (int i = 0; i < row->program_count; i++)
    fc.names[i] = row->programs[i];
  row->wakeups_per_s = row->threads = NAN;
  int rc = report_each_trial(s, r, note_warmup, count_metric, &fc, err);
  double *scratch = fc.trials ? malloc(fc.trials * sizeof *scratch) : NULL;
  if (rc == TS_OK && (fc.out_of_memory || (fc.trials && !scratch)))
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the frozen programs' counts");
  if (rc == TS_OK && fc.trials) {
    double sums[2] = {0, 0};
    for (int i = 0; i < row->program_count; i++)
      for (int k = 0; k < 2; k++)
        sums[k] += median_of(&fc, 2 * i + k, scratch);
    row->wakeups_per_s = sums[0];
    row->threads = sums[1];
  }
  free(scratch);
  free(fc.values);
  free(fc.warmups);
  return rc;
}

void report_freeze_free(void *p) {
  report_freeze *f = p;
  if (f)
    free(f->model);
  free(f);
}

/* Which benchmark of the cost run predicts for benchmark b of r, or why none does. */
static void match_cost_bench(const report_data *r, report_freeze *f, int b) {
  const report_data *m = r->machine_cost;
  f->cost_bench[b] = -1;
  f->no_prediction[b] = NULL;
  if (!m) {
    f->no_prediction[b] = "no cost run in this database";
    return;
  }
  for (int k = 0; k < m->bench_count; k++)
    if (strcmp(m->benches[k], r->benches[b]) == 0)
      f->cost_bench[b] = k;
  if (f->cost_bench[b] < 0)
    f->no_prediction[b] = "the cost run did not measure this benchmark";
}

int report_freeze_compute(store *s, const report_data *r, report_freeze **out, ts_err *err) {
  report_freeze *f = calloc(1, sizeof *f);
  *out = NULL;
  if (!f)
    return ts_err_set(err, TS_ENOMEM, "no memory for the frozen programs");
  if (r->machine_cost) {
    f->cost_run = r->machine_cost->run_id;
    f->model = report_cost_compute(r->machine_cost);
    if (!f->model) {
      report_freeze_free(f);
      return ts_err_set(err, TS_ENOMEM, "no memory for the cost model");
    }
  }
  for (int b = 0; b < r->bench_count; b++)
    match_cost_bench(r, f, b);
  int rc = TS_OK;
  for (int c = 0; c < r->condition_count && rc == TS_OK; c++) {
    report_freeze_row *row = &f->rows[f->row_count];
    row->program_count = report_freeze_programs(r->conditions[c], row->programs, 8);
    if (row->program_count == 0)
      continue;
    row->condition = c;
    f->row_count++;
    rc = count_programs(s, r, row, err);
    for (int b = 0; b < r->bench_count; b++) {
      double cost, low, high;
      row->finding[b] = report_freeze_cost_of(&r->cells[b][c], &cost, &low, &high);
      const char *why = NULL;
      if (f->cost_bench[b] >= 0 && isfinite(row->wakeups_per_s) &&
          !report_cost_predict(f->model, f->cost_bench[b], row->wakeups_per_s, row->threads,
                               &row->prediction[b], &why))
        f->no_prediction[b] = why;
      row->predicted[b] = f->cost_bench[b] >= 0 && isfinite(row->wakeups_per_s) && !why;
    }
  }
  if (rc != TS_OK) {
    report_freeze_free(f);
    return rc;
  }
  *out = f;
  return TS_OK;
}

static int same_name(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
      return 0;
  return *a == *b;
}

void report_program_cost_of(const report_cost *model, int model_bench,
                            const report_data *const *runs, int run_count, const char *bench,
                            const char *name, double wakeups_per_s, double threads,
                            report_program_cost *out) {
  *out = (report_program_cost){0, NAN, NAN, NAN, 0, NULL};
  report_cost_prediction p;
  const char *why;
  if (model && report_cost_predict(model, model_bench, wakeups_per_s, threads, &p, &why)) {
    double shares[2][3] = {{p.wakeups, p.wakeups_low, p.wakeups_high},
                           {p.threads, p.threads_low, p.threads_high}};
    out->predicted = 1;
    out->cost = out->low = out->high = 0;
    for (int k = 0; k < 2; k++)
      if (isfinite(shares[k][0])) {
        out->cost += shares[k][0];
        out->low += shares[k][1];
        out->high += shares[k][2];
      }
  }
  char names[8][REPORT_FREEZE_NAME_MAX];
  for (int i = 0; i < run_count; i++) {
    const report_data *r = runs[i];
    int b = 0;
    for (int k = 0; bench && k < r->bench_count; k++)
      if (strcmp(r->benches[k], bench) == 0)
        b = k;
    for (int c = 0; c < r->condition_count; c++)
      if (report_freeze_programs(r->conditions[c], names, 8) == 1 && same_name(names[0], name) &&
          r->cells[b][c].compared) {
        out->run = r->run_id;
        out->cell = &r->cells[b][c];
        return;
      }
  }
}

/* ---- words ---------------------------------------------------------------------------------- */

/* A row's programs: "busy", "busy + helper". */
static void programs_text(const report_freeze_row *row, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < row->program_count && used + 1 < len; i++) {
    int n = snprintf(buf + used, len - used, "%s%s", i ? " + " : "", row->programs[i]);
    used += n < 0 ? 0 : (size_t)n;
  }
}

/* Names joined as a sentence lists them: "a", "a and b", "a, b and c". */
static void names_sentence(const char *const *names, int n, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && used + 1 < len; i++) {
    const char *joint = i == 0 ? "" : i == n - 1 ? " and " : ", ";
    int k = snprintf(buf + used, len - used, "%s%s", joint, names[i]);
    used += k < 0 ? 0 : (size_t)k;
  }
}

static const char *const count_words[] = {"no",  "one",   "two",   "three", "four", "five",
                                          "six", "seven", "eight", "nine",  "ten"};

static void count_word(int n, char *buf, size_t len) {
  if (n >= 0 && n <= 10)
    snprintf(buf, len, "%s", count_words[n]);
  else
    snprintf(buf, len, "%d", n);
}

/* What the programs that did not cost came to: "the other two cost nothing measurable (each
   within ±1.0 %); one not determined (more blocks would tell)"; `other` when some did cost. */
static void others_text(int nothing, int open, int helps, int other, double margin, char *buf,
                        size_t len) {
  char word[16];
  size_t used = 0;
  buf[0] = '\0';
  if (nothing) {
    count_word(nothing, word, sizeof word);
    int n = snprintf(buf, len, "%s%s %s nothing measurable (%swithin ±%.1f %%)",
                     other ? "the other " : "", word, nothing == 1 ? "costs" : "cost",
                     nothing == 1 ? "" : "each ", margin);
    used = n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
  }
  if (helps && used + 1 < len) {
    count_word(helps, word, sizeof word);
    int n =
        snprintf(buf + used, len - used, "%s%s made it slower when frozen", used ? "; " : "", word);
    used += n < 0 ? 0 : (size_t)n < len - used ? (size_t)n : len - used - 1;
  }
  if (open && used + 1 < len) {
    count_word(open, word, sizeof word);
    snprintf(buf + used, len - used, "%s%s not determined (more blocks would tell)",
             used ? "; " : "", word);
  }
}

/* The one line of advice for benchmark b: which programs frozen alone cost something, what
   removing them would buy (the condition that froze exactly those together when the run had it,
   else the one that cost alone), and how many others cost nothing measurable or were not
   determined. "" when the run froze no program alone. */
static void advice_text(const report_data *r, const report_freeze *f, int b, char *buf,
                        size_t len) {
  const char *costly[REPORT_MAX_CONDITIONS];
  int costly_rows[REPORT_MAX_CONDITIONS], n_costly = 0, n_nothing = 0, n_open = 0, n_helps = 0;
  double margin = r->margin_pct > 0 ? r->margin_pct : STATS_DEFAULT_MARGIN_PERCENT;
  buf[0] = '\0';
  for (int i = 0; i < f->row_count; i++) {
    const report_freeze_row *row = &f->rows[i];
    if (row->program_count != 1)
      continue;
    switch (row->finding[b]) {
    case REPORT_FREEZE_COSTS:
      costly_rows[n_costly] = i;
      costly[n_costly++] = row->programs[0];
      break;
    case REPORT_FREEZE_NOTHING:
      n_nothing++;
      break;
    case REPORT_FREEZE_HELPS:
      n_helps++;
      break;
    case REPORT_FREEZE_NOT_DETERMINED:
      n_open++;
      break;
    }
  }
  if (n_costly + n_nothing + n_open + n_helps == 0)
    return;
  char names[1024], others[400];
  others_text(n_nothing, n_open, n_helps, n_costly > 0, margin, others, sizeof others);
  if (n_costly == 0) {
    snprintf(buf, len, "No program frozen alone was found to cost %s anything: %s.", r->benches[b],
             others);
    return;
  }
  names_sentence(costly, n_costly, names, sizeof names);
  /* What removing them buys: the condition that froze exactly them, or the one alone. */
  const report_cell *buys = n_costly == 1 ? &r->cells[b][f->rows[costly_rows[0]].condition] : NULL;
  for (int i = 0; n_costly > 1 && i < f->row_count; i++) {
    const report_freeze_row *row = &f->rows[i];
    int same = row->program_count == n_costly;
    for (int k = 0; same && k < n_costly; k++) {
      int found = 0;
      for (int j = 0; j < row->program_count; j++)
        found |= strcmp(row->programs[j], costly[k]) == 0;
      same = found;
    }
    if (same && r->cells[b][row->condition].compared)
      buys = &r->cells[b][row->condition];
  }
  const char *joint = others[0] ? "; " : "";
  if (buys && buys->cmp.status == BLOCKED_OK) {
    snprintf(buf, len,
             "Removing %s would buy about %.1f %% (%.3g %% CI %.1f to %.1f %%) on %s%s%s.", names,
             buys->cmp.percent, 100 * buys->cmp.confidence, buys->cmp.ci_low, buys->cmp.ci_high,
             r->benches[b], joint, others);
    return;
  }
  double sum = 0;
  for (int k = 0; k < n_costly; k++)
    sum += r->cells[b][f->rows[costly_rows[k]].condition].cmp.percent;
  snprintf(buf, len,
           "Removing %s would buy about %.1f %% on %s (the sum of their own costs: no condition "
           "froze them together)%s%s.",
           names, sum, r->benches[b], joint, others);
}

/* The counted wake-ups or threads of a row: "5012", or "not counted". */
static void counted_text(double v, char *buf, size_t len) {
  if (isfinite(v))
    snprintf(buf, len, "%.0f", v);
  else
    snprintf(buf, len, "not counted");
}

int report_freeze_model_text(int64_t cost_run, const report_cost *model, int b, char *buf,
                             size_t len) {
  report_cost_prediction one;
  const char *why;
  if (!report_cost_predict(model, b, 1000, 1000, &one, &why))
    return snprintf(buf, len, "predicted: none (%s)", why);
  const report_cost_bench *cb = &model->bench[b];
  char wake[160] = "", threads[160] = "";
  if (isfinite(one.wakeups))
    share_interval_text(one.wakeups, one.wakeups_low, one.wakeups_high, wake, sizeof wake);
  if (isfinite(one.threads))
    share_interval_text(one.threads, one.threads_low, one.threads_high, threads, sizeof threads);
  return snprintf(
      buf, len, "predicted by cost run %lld's model (%d conditions, %zu blocks): %s%s%s%s%s",
      (long long)cost_run, cb->points, cb->blocks_used, wake[0] ? "per 1,000 wake-ups/s " : "",
      wake, wake[0] && threads[0] ? "; " : "", threads[0] ? "per 1,000 threads " : "", threads);
}

/* The line that says where the predictions come from, for benchmark b. */
static void source_text(const report_freeze *f, int b, char *buf, size_t len) {
  if (f->no_prediction[b] || !f->model)
    snprintf(buf, len, "predicted: none (%s)",
             f->no_prediction[b] ? f->no_prediction[b] : "no cost run in this database");
  else
    report_freeze_model_text(f->cost_run, f->model, f->cost_bench[b], buf, len);
}

/* ---- text ----------------------------------------------------------------------------------- */

#define TITLE "Frozen programs: what each costs (how much faster the benchmark ran with it frozen)"

static void write_text(const report_data *r, const void *prepared, FILE *out) {
  const report_freeze *f = prepared;
  if (!f || f->row_count == 0)
    return;
  char programs[600], shown[1200], wake[32], threads[32], line[1600];
  fprintf(out, "\n%s\n", TITLE);
  fprintf(out, "  %-32s %12s %12s\n", "programs", "wake-ups/s", "threads");
  for (int i = 0; i < f->row_count; i++) {
    const report_freeze_row *row = &f->rows[i];
    programs_text(row, programs, sizeof programs);
    counted_text(row->wakeups_per_s, wake, sizeof wake);
    counted_text(row->threads, threads, sizeof threads);
    fprintf(out, "  %-32s %12s %12s\n", SHOWN(programs, shown), wake, threads);
  }
  for (int b = 0; b < r->bench_count; b++) {
    fprintf(out, "  %s:\n", SHOWN(r->benches[b], shown));
    source_text(f, b, line, sizeof line);
    fprintf(out, "    %s\n", SHOWN(line, shown));
    for (int i = 0; i < f->row_count; i++) {
      const report_freeze_row *row = &f->rows[i];
      programs_text(row, programs, sizeof programs);
      report_freeze_cost_text(&r->cells[b][row->condition], line, sizeof line);
      fprintf(out, "    %s: %s", SHOWN(programs, shown), line);
      if (row->predicted[b]) {
        report_freeze_prediction_text(&row->prediction[b], line, sizeof line);
        fprintf(out, "; predicted %s", line);
      }
      fputc('\n', out);
    }
    advice_text(r, f, b, line, sizeof line);
    if (line[0])
      fprintf(out, "    %s\n", SHOWN(line, shown));
  }
}

/* ---- CSV ------------------------------------------------------------------------------------ */

static const char *finding_name(report_freeze_finding f) {
  static const char *const names[] = {[REPORT_FREEZE_NOT_DETERMINED] = "not determined",
                                      [REPORT_FREEZE_COSTS] = "costs",
                                      [REPORT_FREEZE_NOTHING] = "costs nothing measurable",
                                      [REPORT_FREEZE_HELPS] = "frozen slower"};
  return names[f];
}

static void write_csv(const report_data *r, const void *prepared, FILE *out) {
  const report_freeze *f = prepared;
  if (!f || f->row_count == 0)
    return;
  static const char *const columns[] = {"freeze_bench",
                                        "condition",
                                        "programs",
                                        "wakeups_per_s",
                                        "threads",
                                        "predicted_percent",
                                        "predicted_ci_low",
                                        "predicted_ci_high",
                                        "predicted_threads_percent",
                                        "cost_percent",
                                        "cost_low",
                                        "cost_high",
                                        "cost_confidence",
                                        "p_holm",
                                        "finding"};
  char programs[600];
  fputc('\n', out);
  report_csv_names(out, columns, sizeof columns / sizeof columns[0]);
  fputc('\n', out);
  for (int b = 0; b < r->bench_count; b++)
    for (int i = 0; i < f->row_count; i++) {
      const report_freeze_row *row = &f->rows[i];
      const report_cell *cell = &r->cells[b][row->condition];
      const report_cost_prediction *p = &row->prediction[b];
      double cost, low, high;
      report_freeze_cost_of(cell, &cost, &low, &high);
      report_csv_field(out, r->benches[b]);
      fputc(',', out);
      report_csv_field(out, r->conditions[row->condition]);
      fputc(',', out);
      programs_text(row, programs, sizeof programs);
      report_csv_field(out, programs);
      double values[] = {row->wakeups_per_s,
                         row->threads,
                         row->predicted[b] ? p->wakeups : NAN,
                         row->predicted[b] ? p->wakeups_low : NAN,
                         row->predicted[b] ? p->wakeups_high : NAN,
                         row->predicted[b] ? p->threads : NAN,
                         cost,
                         low,
                         high,
                         cell->compared ? cell->cmp.confidence : NAN,
                         cell->compared ? cell->p_holm : NAN};
      for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
        fputc(',', out);
        report_csv_number(out, values[v]);
      }
      fprintf(out, ",%s\n", finding_name(row->finding[b]));
    }
}

/* ---- JSON ----------------------------------------------------------------------------------- */

static void json_range_member(FILE *out, const char *key, double value, double low, double high) {
  fprintf(out, ",\"%s\":", key);
  if (!isfinite(value)) {
    fputs("null", out);
    return;
  }
  fputs("{\"percent\":", out);
  ts_json_number(out, value, REPORT_JSON_DIGITS);
  fputs(",\"ci95\":", out);
  ts_json_range(out, 1, low, high, REPORT_JSON_DIGITS);
  fputc('}', out);
}

/* A program's cost on benchmark b, as predicted and as measured, with its finding. */
static void json_row_bench(const report_data *r, const void *prepared, int b, FILE *out) {
  const report_freeze_row *row = prepared;
  const report_cell *cell = &r->cells[b][row->condition];
  const report_cost_prediction *p = &row->prediction[b];
  double cost, low, high;
  char text[800];
  report_freeze_cost_of(cell, &cost, &low, &high);
  fputs("{\"bench\":", out);
  ts_json_string(out, r->benches[b]);
  json_range_member(out, "predicted_from_wakeups", row->predicted[b] ? p->wakeups : NAN,
                    p->wakeups_low, p->wakeups_high);
  json_range_member(out, "predicted_from_threads", row->predicted[b] ? p->threads : NAN,
                    p->threads_low, p->threads_high);
  fputs(",\"cost\":", out);
  if (isfinite(cost)) {
    fputs("{\"percent\":", out);
    ts_json_number(out, cost, REPORT_JSON_DIGITS);
    fputs(",\"interval\":", out);
    ts_json_range(out, 1, low, high, REPORT_JSON_DIGITS);
    ts_json_number_member(out, "confidence", cell->cmp.confidence, REPORT_JSON_DIGITS);
    ts_json_number_member(out, "p_holm", cell->p_holm, REPORT_JSON_DIGITS);
    fputc('}', out);
  } else {
    fputs("null", out);
  }
  ts_json_string_member(out, "finding", finding_name(row->finding[b]));
  report_freeze_cost_text(cell, text, sizeof text);
  ts_json_string_member(out, "text", text);
  fputc('}', out);
}

static void json_row(const report_data *r, const void *prepared, int i, FILE *out) {
  const report_freeze_row *row = &((const report_freeze *)prepared)->rows[i];
  fputs("{\"condition\":", out);
  ts_json_string(out, r->conditions[row->condition]);
  fputs(",\"programs\":[", out);
  for (int k = 0; k < row->program_count; k++) {
    fputs(k ? "," : "", out);
    ts_json_string(out, row->programs[k]);
  }
  fputc(']', out);
  ts_json_number_member(out, "wakeups_per_s", row->wakeups_per_s, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "threads", row->threads, REPORT_JSON_DIGITS);
  fputs(",\"benchmarks\":", out);
  report_json_array(out, REPORT_JSON_INLINE, r->bench_count, json_row_bench, r, row);
  fputc('}', out);
}

/* What predicts on benchmark b, and the advice. */
static void json_bench(const report_data *r, const void *prepared, int b, FILE *out) {
  const report_freeze *f = prepared;
  char text[1600];
  fputs("{\"bench\":", out);
  ts_json_string(out, r->benches[b]);
  source_text(f, b, text, sizeof text);
  ts_json_string_member(out, "predicted_by", text);
  advice_text(r, f, b, text, sizeof text);
  ts_json_string_member(out, "advice", text);
  fputc('}', out);
}

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  const report_freeze *f = prepared;
  if (!f || f->row_count == 0) {
    fputs(",\n\"frozen_programs\":null", out);
    return;
  }
  fputs(",\n\"frozen_programs\":{\"cost_run\":", out);
  if (f->cost_run)
    fprintf(out, "%lld", (long long)f->cost_run);
  else
    fputs("null", out);
  fputs(",\"programs\":", out);
  report_json_array(out, REPORT_JSON_LINES, f->row_count, json_row, r, f);
  fputs(",\"benchmarks\":", out);
  report_json_array(out, REPORT_JSON_INLINE, r->bench_count, json_bench, r, f);
  fputc('}', out);
}

/* ---- HTML ----------------------------------------------------------------------------------- */

/* A bar per freeze condition: its measured cost from 0 with the interval that decided it as a
   whisker; where the model predicts one, its prediction as an open diamond. */
static void write_chart(const report_data *r, const report_freeze *f, int b, FILE *out) {
  int rows = 0;
  double range = r->margin_pct > 0 ? r->margin_pct : STATS_DEFAULT_MARGIN_PERCENT;
  for (int i = 0; i < f->row_count; i++) {
    const report_freeze_row *row = &f->rows[i];
    double cost, low, high;
    report_freeze_cost_of(&r->cells[b][row->condition], &cost, &low, &high);
    if (!isfinite(cost))
      continue;
    rows++;
    double values[4] = {cost, low, high, row->predicted[b] ? row->prediction[b].wakeups : NAN};
    for (int k = 0; k < 4; k++)
      if (isfinite(values[k]))
        range = fmax(range, fmin(fabs(values[k]), REPORT_CHART_PERCENT_MAX));
  }
  if (rows == 0)
    return;
  double step = report_html_step(range, 2);
  range = ceil(range * 1.02 / step) * step;
  const double left = 200, right = 730, top = 14, row_h = 30, width = 760;
  double bottom = top + rows * row_h, height = bottom + 34;
#define X_OF(v) (left + (report_chart_clamp(v, range) + range) / (2 * range) * (right - left))
  fputs("<figure>\n<figcaption>What each costs: how much faster the benchmark ran with it frozen "
        "(the bar), with the interval that decided its verdict; the diamond is what the cost "
        "model predicts from its wake-ups</figcaption>\n",
        out);
  fprintf(out,
          "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"cost of each frozen "
          "program\" xmlns=\"http://www.w3.org/2000/svg\">\n",
          width, height);
  report_html_percent_axis(out, range, step, left, right, top, bottom);
  int k = 0;
  char programs[600], text[800];
  for (int i = 0; i < f->row_count; i++) {
    const report_freeze_row *row = &f->rows[i];
    const report_cell *cell = &r->cells[b][row->condition];
    double cost, low, high;
    report_freeze_cost_of(cell, &cost, &low, &high);
    if (!isfinite(cost))
      continue;
    double y = top + k * row_h + row_h / 2;
    const char *color = report_html_palette(k++);
    programs_text(row, programs, sizeof programs);
    report_freeze_cost_text(cell, text, sizeof text);
    fputs("<g><title>", out);
    report_html_text(out, programs);
    fputs(": ", out);
    report_html_text(out, text);
    fputs("</title>\n", out);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">",
            left - 8, y);
    report_html_short_label(out, programs);
    fputs("</text>\n", out);
    double x0 = X_OF(0), x1 = X_OF(cost);
    fprintf(out,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
            "fill-opacity=\"0.6\"/>\n",
            fmin(x0, x1), y - 8, fabs(x1 - x0), 16.0, color);
    if (isfinite(low) && isfinite(high)) {
      double a = X_OF(low), z = X_OF(high);
      fprintf(out,
              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" "
              "stroke-width=\"1.5\"/>\n",
              a, y, z, y);
      for (int e = 0; e < 2; e++)
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" "
                "stroke-width=\"1.5\"/>\n",
                e ? z : a, y - 5, e ? z : a, y + 5);
    }
    if (row->predicted[b] && isfinite(row->prediction[b].wakeups)) {
      double xp = X_OF(row->prediction[b].wakeups);
      fprintf(out,
              "<path d=\"M%.1f %.1fl6 6l-6 6l-6 -6z\" fill=\"none\" stroke=\"#222\" "
              "stroke-width=\"1.5\"/>\n",
              xp, y - 6);
    }
    fputs("</g>\n", out);
  }
#undef X_OF
  fputs("</svg>\n</figure>\n", out);
}

static void write_html(const report_data *r, const void *prepared, FILE *out) {
  const report_freeze *f = prepared;
  if (!f || f->row_count == 0)
    return;
  char programs[600], wake[32], threads[32], line[1600];
  fputs("<section class=\"freeze\">\n<h2>Frozen programs</h2>\n<p class=\"note\">What each "
        "program costs: how much faster the benchmark ran with it frozen than with it running "
        "(the baseline), with the run's verdicts; and what this machine's cost model predicts "
        "from its wake-ups.</p>\n",
        out);
  for (int b = 0; b < r->bench_count; b++) {
    fputs("<h3>", out);
    report_html_name(out, r->benches[b]);
    fputs("</h3>\n", out);
    advice_text(r, f, b, line, sizeof line);
    if (line[0]) {
      fputs("<p><b>", out);
      report_html_text(out, line);
      fputs("</b></p>\n", out);
    }
    fputs("<div class=\"wrap\"><table class=\"prose\">\n<thead><tr><th class=\"cond\">programs</th>"
          "<th>wake-ups/s</th><th>threads</th><th>predicted</th><th>measured</th></tr></thead>\n"
          "<tbody>\n",
          out);
    for (int i = 0; i < f->row_count; i++) {
      const report_freeze_row *row = &f->rows[i];
      programs_text(row, programs, sizeof programs);
      counted_text(row->wakeups_per_s, wake, sizeof wake);
      counted_text(row->threads, threads, sizeof threads);
      fputs("<tr><td class=\"cond\">", out);
      report_html_name(out, programs);
      fprintf(out, "</td><td>%s</td><td>%s</td><td>", wake, threads);
      if (row->predicted[b]) {
        report_freeze_prediction_text(&row->prediction[b], line, sizeof line);
        report_html_text(out, line);
      } else {
        fputs("-", out);
      }
      report_freeze_cost_text(&r->cells[b][row->condition], line, sizeof line);
      fputs("</td><td>", out);
      report_html_text(out, line);
      fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table></div>\n<p class=\"note\">", out);
    source_text(f, b, line, sizeof line);
    report_html_text(out, line);
    fputs(".</p>\n", out);
    write_chart(r, f, b, out);
  }
  fputs("</section>\n", out);
}

static int prepare(store *s, const report_data *r, void **prepared, ts_err *err) {
  report_freeze *f = NULL;
  *prepared = NULL;
  if (!report_freezes_programs(r))
    return TS_OK; /* the section is absent: nothing to keep */
  int rc = report_freeze_compute(s, r, &f, err);
  *prepared = f;
  return rc;
}

const report_section report_section_freeze = {
    "freeze", prepare, report_freeze_free, {write_text, write_csv, write_json, write_html}};

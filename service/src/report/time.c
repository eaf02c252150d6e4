/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* time.c - the report's time section: where a run's wall time went (benchmarking, settle and
   quiet gate, load start and stop, census), and the CPU use outside ThreadSoup during each
   condition's benchmarks with its difference from the baseline's; from the trials' time.* and
   outside.cpu_percent metrics, for runs that recorded them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../stats/stats.h"
#include "format.h"
#include "section.h"
#include "threadsoup/json_write.h"

/* The parts of a trial's time, each a metric the experiment records per trial (time.trial_s is
   the whole); what they leave is "other" (the timer probe, the commit, the benchmark's setup). */
static const struct {
  const char *metric;
  const char *key; /* CSV and JSON */
  const char *words;
} time_parts[] = {
    {"time.bench_s", "benchmarking", "benchmarking"},
    {"time.settle_s", "settle_and_gate", "settle and quiet gate"},
    {"time.load_start_s", "load_start", "load start"},
    {"time.load_stop_s", "load_stop", "load stop (waited for)"},
    {"time.census_s", "census", "census"},
};
#define PART_COUNT (sizeof time_parts / sizeof time_parts[0])

/* A trial, for the metrics' walk. */
typedef struct trial_slot {
  int64_t id;
  int condition; /* index; -1: a warm-up */
  int block;
  double outside; /* NaN: none recorded */
} trial_slot;

typedef struct time_breakdown {
  int trials;     /* trials with time.trial_s, warm-ups included: they take the run's time too */
  double total_s; /* their time.trial_s */
  double part_s[PART_COUNT];
  /* Per condition, the outside CPU during the benchmark over the trials that recorded it (the
     warm-ups left out, as in every per-condition figure). */
  double outside_sum[REPORT_MAX_CONDITIONS];
  int outside_n[REPORT_MAX_CONDITIONS];
  int any_outside;
  /* Per condition against the baseline, block by block (a block's trials of a condition
     averaged): the mean difference of the outside CPU in points and its 95 % t interval, over
     vs_blocks blocks; vs_blocks 0 where fewer than OUTSIDE_MIN_BLOCKS blocks have both. A load
     that other programs make room for costs them CPU that the benchmark's comparison does not
     show (docs/methodology.md, "A neighbour that yields to the load"). */
  double vs_points[REPORT_MAX_CONDITIONS], vs_low[REPORT_MAX_CONDITIONS],
      vs_high[REPORT_MAX_CONDITIONS];
  int vs_blocks[REPORT_MAX_CONDITIONS];
  const report_data *r;
  trial_slot *slots; /* the run's trials, for the metrics' walk */
  size_t count, cap, cursor;
  int out_of_memory;
} time_breakdown;

/* The blocks of a condition's comparison with the baseline's outside CPU: as a verdict's. */
#define OUTSIDE_MIN_BLOCKS 3

static int collect_trial(void *ctx, const store_trial_row *row) {
  time_breakdown *b = ctx;
  if (b->count == b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 64;
    trial_slot *more = realloc(b->slots, cap * sizeof *more);
    if (!more) {
      b->out_of_memory = 1;
      return 1;
    }
    b->slots = more;
    b->cap = cap;
  }
  int c = -1;
  for (int k = 0; row->block > 0 && k < b->r->condition_count; k++)
    if (strcmp(b->r->conditions[k], row->condition) == 0)
      c = k;
  b->slots[b->count++] = (trial_slot){row->id, c, row->block, NAN};
  return 0;
}

/* The trial's place in the list, or -1; both walks are in sequence order, so mostly the next. */
static long trial_at(time_breakdown *b, int64_t id) {
  for (size_t pass = 0; pass < 2; pass++)
    for (size_t i = pass ? 0 : b->cursor; i < b->count; i++)
      if (b->slots[i].id == id) {
        b->cursor = i;
        return (long)i;
      }
  return -1;
}

static int collect_metric(void *ctx, int64_t trial_id, const char *name, double value) {
  time_breakdown *b = ctx;
  if (!name || !isfinite(value))
    return 0;
  if (strcmp(name, "outside.cpu_percent") == 0) {
    long i = trial_at(b, trial_id);
    int c = i >= 0 ? b->slots[i].condition : -1;
    if (c >= 0) {
      b->outside_sum[c] += value;
      b->outside_n[c]++;
      b->slots[i].outside = value;
      b->any_outside = 1;
    }
    return 0;
  }
  if (strncmp(name, "time.", 5) != 0)
    return 0;
  if (strcmp(name, "time.trial_s") == 0) {
    b->trials++;
    b->total_s += value;
  }
  for (size_t p = 0; p < PART_COUNT; p++)
    if (strcmp(name, time_parts[p].metric) == 0)
      b->part_s[p] += value;
  return 0;
}

/* Trials with an outside CPU by block, then condition. */
static int by_block(const void *a, const void *b) {
  const trial_slot *x = a, *y = b;
  if (x->block != y->block)
    return (x->block > y->block) - (x->block < y->block);
  return (x->condition > y->condition) - (x->condition < y->condition);
}

/* vs_* of every condition but the baseline, from the trials' outside CPU block by block. The
   slots are sorted in place (the metrics' walk is over), so a stored block number of any size
   costs no more than the trials it has. */
static void compare_with_baseline(time_breakdown *b) {
  const report_data *r = b->r;
  size_t kept = 0;
  for (size_t i = 0; i < b->count; i++)
    if (b->slots[i].condition >= 0 && !isnan(b->slots[i].outside))
      b->slots[kept++] = b->slots[i];
  qsort(b->slots, kept, sizeof *b->slots, by_block);
  int pairs[REPORT_MAX_CONDITIONS] = {0};
  double mean[REPORT_MAX_CONDITIONS] = {0}, m2[REPORT_MAX_CONDITIONS] = {0}; /* Welford */
  for (size_t from = 0; from < kept;) {
    /* One block: each condition's mean, then each condition's difference from the baseline. */
    double sum[REPORT_MAX_CONDITIONS] = {0};
    int n[REPORT_MAX_CONDITIONS] = {0};
    size_t to = from;
    for (; to < kept && b->slots[to].block == b->slots[from].block; to++) {
      sum[b->slots[to].condition] += b->slots[to].outside;
      n[b->slots[to].condition]++;
    }
    from = to;
    if (!n[r->baseline])
      continue;
    for (int c = 0; c < r->condition_count; c++) {
      if (c == r->baseline || !n[c])
        continue;
      double d = sum[c] / n[c] - sum[r->baseline] / n[r->baseline], delta = d - mean[c];
      pairs[c]++;
      mean[c] += delta / pairs[c];
      m2[c] += delta * (d - mean[c]);
    }
  }
  for (int c = 0; c < r->condition_count; c++) {
    b->vs_blocks[c] = 0;
    b->vs_points[c] = b->vs_low[c] = b->vs_high[c] = NAN;
    if (pairs[c] < OUTSIDE_MIN_BLOCKS)
      continue;
    double half = stats_t_quantile(0.975, pairs[c] - 1) * sqrt(m2[c] / (pairs[c] - 1) / pairs[c]);
    b->vs_blocks[c] = pairs[c];
    b->vs_points[c] = mean[c];
    b->vs_low[c] = mean[c] - half;
    b->vs_high[c] = mean[c] + half;
  }
}

/* Nothing to show (NULL) for runs that recorded neither the times nor the outside CPU. */
static int prepare(store *s, const report_data *r, void **prepared, ts_err *err) {
  *prepared = NULL;
  time_breakdown *b = calloc(1, sizeof *b);
  if (!b)
    return ts_err_set(err, TS_ENOMEM, "no memory for the time section");
  b->r = r;
  int rc = report_each_trial(s, r, collect_trial, collect_metric, b, err);
  if (rc == TS_OK && b->out_of_memory)
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the time section");
  if (rc == TS_OK)
    compare_with_baseline(b);
  free(b->slots);
  b->slots = NULL;
  if (rc != TS_OK || (b->trials == 0 && !b->any_outside)) {
    free(b);
    return rc;
  }
  *prepared = b;
  return TS_OK;
}

static double percent_of(const time_breakdown *b, double part) {
  return b->total_s > 0 ? part / b->total_s * 100 : NAN;
}

static double other_s(const time_breakdown *b) {
  double other = b->total_s;
  for (size_t p = 0; p < PART_COUNT; p++)
    other -= b->part_s[p];
  return other > 0 ? other : 0;
}

static double outside_mean(const time_breakdown *b, int c) {
  return b->outside_n[c] ? b->outside_sum[c] / b->outside_n[c] : NAN;
}

static void write_text(const report_data *r, const void *prepared, FILE *out) {
  const time_breakdown *b = prepared;
  if (!b)
    return;
  if (b->trials) {
    fprintf(out, "\nwhere the time went: %d trial(s), %.1f s\n", b->trials, b->total_s);
    for (size_t p = 0; p < PART_COUNT; p++)
      fprintf(out, "  %-24s %8.1f s %6.1f%%\n", time_parts[p].words, b->part_s[p],
              percent_of(b, b->part_s[p]));
    fprintf(out, "  %-24s %8.1f s %6.1f%%\n", "other", other_s(b), percent_of(b, other_s(b)));
  }
  if (!b->any_outside)
    return;
  char cond[512];
  fprintf(out, "\nCPU use outside ThreadSoup during the benchmarks (mean of the trials; against "
               "the baseline's, block by block, in points with the 95 %% CI)\n");
  int made_room = 0;
  for (int c = 0; c < r->condition_count; c++) {
    if (!b->outside_n[c])
      continue;
    fprintf(out, "  %-30s %6.1f%%", SHOWN(r->conditions[c], cond), outside_mean(b, c));
    if (b->vs_blocks[c])
      fprintf(out, "  %+6.1f (%.1f to %.1f)", b->vs_points[c], b->vs_low[c], b->vs_high[c]);
    fputc('\n', out);
    made_room |= b->vs_blocks[c] && b->vs_high[c] < 0;
  }
  if (made_room)
    fputs("  where the interval lies below 0, other programs got less CPU beside the load than "
          "beside the baseline: part of the load's cost fell on them, which the benchmark's "
          "comparison does not show\n",
          out);
}

static void write_csv(const report_data *r, const void *prepared, FILE *out) {
  const time_breakdown *b = prepared;
  if (!b)
    return;
  fputs("\ntime_part,seconds,percent\n", out);
  for (size_t p = 0; p <= PART_COUNT; p++) {
    double seconds = p < PART_COUNT ? b->part_s[p] : other_s(b);
    fprintf(out, "%s,", p < PART_COUNT ? time_parts[p].key : "other");
    report_csv_number(out, seconds);
    fputc(',', out);
    report_csv_number(out, percent_of(b, seconds));
    fputc('\n', out);
  }
  fputs("\noutside_condition,trials,outside_cpu_percent,vs_baseline_points,vs_baseline_ci_low,"
        "vs_baseline_ci_high,vs_baseline_blocks\n",
        out);
  for (int c = 0; c < r->condition_count; c++) {
    report_csv_field(out, r->conditions[c]);
    fprintf(out, ",%d,", b->outside_n[c]);
    report_csv_number(out, outside_mean(b, c));
    double vs[] = {b->vs_points[c], b->vs_low[c], b->vs_high[c]};
    for (size_t k = 0; k < sizeof vs / sizeof vs[0]; k++) {
      fputc(',', out);
      report_csv_number(out, vs[k]);
    }
    fprintf(out, ",%d\n", b->vs_blocks[c]);
  }
}

/* A condition as the key of the next member of an open JSON object, a comma before all but the
   first. */
static void json_condition_key(FILE *out, int *first, const char *condition) {
  if (!*first)
    fputc(',', out);
  *first = 0;
  ts_json_string(out, condition);
  fputc(':', out);
}

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  const time_breakdown *b = prepared;
  if (!b)
    return;
  fprintf(out, ",\n\"time\":{\"trials\":%d", b->trials);
  ts_json_number_member(out, "seconds", b->total_s, REPORT_JSON_DIGITS);
  fputs(",\"parts\":{", out);
  for (size_t p = 0; p <= PART_COUNT; p++) {
    double seconds = p < PART_COUNT ? b->part_s[p] : other_s(b);
    fprintf(out, "%s\"%s\":{\"seconds\":", p ? "," : "",
            p < PART_COUNT ? time_parts[p].key : "other");
    ts_json_number(out, seconds, REPORT_JSON_DIGITS);
    ts_json_number_member(out, "percent", percent_of(b, seconds), REPORT_JSON_DIGITS);
    fputc('}', out);
  }
  fputs("},\"outside_cpu_percent\":{", out);
  int first = 1;
  for (int c = 0; c < r->condition_count; c++)
    if (b->outside_n[c]) {
      json_condition_key(out, &first, r->conditions[c]);
      ts_json_number(out, outside_mean(b, c), REPORT_JSON_DIGITS);
    }
  fputs("},\"outside_cpu_vs_baseline\":{", out);
  first = 1;
  for (int c = 0; c < r->condition_count; c++)
    if (b->vs_blocks[c]) {
      json_condition_key(out, &first, r->conditions[c]);
      fputc('{', out);
      ts_json_key(out, "points");
      ts_json_number(out, b->vs_points[c], REPORT_JSON_DIGITS);
      ts_json_number_member(out, "ci_low", b->vs_low[c], REPORT_JSON_DIGITS);
      ts_json_number_member(out, "ci_high", b->vs_high[c], REPORT_JSON_DIGITS);
      fprintf(out, ",\"blocks\":%d}", b->vs_blocks[c]);
    }
  fputs("}}", out);
}

static void write_html(const report_data *r, const void *prepared, FILE *out) {
  const time_breakdown *b = prepared;
  if (!b)
    return;
  fprintf(out, "<h2>Where the time went</h2>\n<p>%d trial(s), %.1f s.</p>\n", b->trials,
          b->total_s);
  fputs("<div class=\"wrap\"><table>\n<thead><tr><th class=\"cond\">part</th><th>seconds</th>"
        "<th>share</th></tr></thead>\n<tbody>\n",
        out);
  for (size_t p = 0; p <= PART_COUNT; p++) {
    double seconds = p < PART_COUNT ? b->part_s[p] : other_s(b);
    fprintf(out, "<tr><td class=\"cond\">%s</td><td>%.1f</td><td>%.1f&nbsp;%%</td></tr>\n",
            p < PART_COUNT ? time_parts[p].words : "other", seconds, percent_of(b, seconds));
  }
  fputs("</tbody></table></div>\n", out);
  if (!b->any_outside)
    return;
  fputs("<h3>CPU use outside ThreadSoup during the benchmarks</h3>\n<div class=\"wrap\"><table>\n"
        "<thead><tr><th class=\"cond\">condition</th><th>trials</th><th>outside CPU (mean)</th>"
        "<th>against the baseline (points, 95&nbsp;% CI)</th></tr></thead>\n<tbody>\n",
        out);
  for (int c = 0; c < r->condition_count; c++)
    if (b->outside_n[c]) {
      fputs("<tr><td class=\"cond\">", out);
      report_html_text(out, r->conditions[c]);
      fprintf(out, "</td><td>%d</td><td>%.1f&nbsp;%%</td><td>", b->outside_n[c],
              outside_mean(b, c));
      if (b->vs_blocks[c])
        fprintf(out, "%+.1f (%.1f to %.1f)", b->vs_points[c], b->vs_low[c], b->vs_high[c]);
      fputs("</td></tr>\n", out);
    }
  fputs("</tbody></table></div>\n", out);
}

const report_section report_section_time = {
    "time", prepare, NULL, {write_text, write_csv, write_json, write_html}};

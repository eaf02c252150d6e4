/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* calibration.c - the positive control's verdict in every report format: for each burn and
   benchmark the measured cost with its paired interval beside the expected one (from the CPU the
   burners took), the slope of measured on expected cost, and whether the run passed or why not. */
#include "calibration.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../stats/dist.h"
#include "../stats/gls.h"
#include "format.h"
#include "section.h"
#include "threadsoup/buf.h"
#include "threadsoup/json_write.h"
#include "threadsoup/utf8.h"

/* ---- the rules ------------------------------------------------------------------------------ */

/* Whether a benchmark's argument (after ':') is exactly "1". */
static int arg_is_one(const char *bench, const char *name) {
  size_t n = strlen(name);
  return strncmp(bench, name, n) == 0 && strcmp(bench + n, ":1") == 0;
}

static int named(const char *bench, const char *name) {
  size_t n = strlen(name);
  return strncmp(bench, name, n) == 0 && (bench[n] == '\0' || bench[n] == ':');
}

calibration_threads calibration_bench_threads(const char *bench) {
  if (strcmp(bench, "builtin-st") == 0 || strcmp(bench, "cpuz:single") == 0 ||
      arg_is_one(bench, "builtin-mt") || arg_is_one(bench, "7zip"))
    return CALIBRATION_SINGLE;
  if (named(bench, "builtin-mt") || named(bench, "7zip") || named(bench, "cpuz"))
    return CALIBRATION_MULTI;
  return CALIBRATION_UNKNOWN;
}

const char *calibration_threads_name(calibration_threads t) {
  return t == CALIBRATION_SINGLE  ? "single-thread"
         : t == CALIBRATION_MULTI ? "multi-thread"
                                  : "threads not known";
}

long calibration_bench_thread_count(const char *bench, int logical_cpus) {
  calibration_threads kind = calibration_bench_threads(bench);
  if (kind != CALIBRATION_MULTI)
    return kind == CALIBRATION_SINGLE ? 1 : 0;
  const char *arg = strchr(bench, ':');
  char *end;
  long n =
      arg && (named(bench, "builtin-mt") || named(bench, "7zip")) ? strtol(arg + 1, &end, 10) : 0;
  return n > 0 && *end == '\0' ? n : logical_cpus < 1 ? 1 : logical_cpus;
}

/* The cost, as a fraction of the benchmark's rate, of `burners` threads that each spin until
   they have had `duty` of every period in CPU time, all in step, beside a benchmark of
   `bench_threads` CPU-bound threads on `cpus` CPUs shared fairly: while the burners spin, every
   one of the burners + bench_threads runnable threads gets share = min(1, cpus / all) of a CPU,
   against min(1, cpus / bench_threads) without them, and the burners spin for duty / share of
   the period (all of it when that is more). */
static double fair_share_cost(double duty, double burners, double bench_threads, double cpus) {
  double share = fmin(1, cpus / (burners + bench_threads));
  double alone = fmin(1, cpus / bench_threads);
  return fmin(1, duty / share) * (1 - share / alone);
}

void calibration_expected(double duty_percent, long burners, double cpus, long bench_threads,
                          double *low, double *high) {
  double duty = duty_percent / 100;
  cpus = cpus > 0 ? cpus : 1;
  if (bench_threads > 0) {
    *low = *high = 100 * fair_share_cost(duty, (double)burners, (double)bench_threads, cpus);
    return;
  }
  /* Threads not known: from one thread to one per CPU, whichever loses more. */
  double one = 100 * fair_share_cost(duty, (double)burners, 1, cpus);
  double every = 100 * fair_share_cost(duty, (double)burners, cpus, cpus);
  *low = fmin(one, every);
  *high = fmax(one, every);
}

void calibration_duty_and_cpus(const calibration_control *c, int logical_cpus, double *duty,
                               double *cpus) {
  *duty = c->duty_percent;
  *cpus = logical_cpus < 1 ? 1 : logical_cpus;
  if (!isfinite(c->achieved_percent) || c->burners < 1)
    return;
  double idle = fmin(c->duty_percent, 100 * fmin(1, *cpus / (double)c->burners));
  if (c->achieved_percent < STARVED_SHARE * idle)
    *cpus = (double)c->burners * c->achieved_percent / 100;
  else
    *duty = c->achieved_percent;
}

/* A cost, or a range of them: "10.0 %" or "0 to 10.0 %". */
static void format_expected(const calibration_cost *k, char *buf, size_t len) {
  if (k->expected_near == k->expected_far)
    snprintf(buf, len, "%.2f %%", k->expected_far);
  else
    snprintf(buf, len, "%.2g to %.2f %%", k->expected_near, k->expected_far);
}

/* "a fifth" when the ratio is near one over 2 .. 10, else "0.62 times". */
static void ratio_words(double ratio, char *buf, size_t len) {
  static const char *const parts[] = {"",          "",        "a half",  "a third",
                                      "a quarter", "a fifth", "a sixth", "a seventh",
                                      "an eighth", "a ninth", "a tenth"};
  double inverse = ratio > 0 ? 1 / ratio : INFINITY;
  long n = lround(inverse);
  if (n >= 2 && n <= 10 && fabs(inverse - (double)n) < 0.1 * (double)n)
    snprintf(buf, len, "%s of", parts[n]);
  else
    snprintf(buf, len, "%.2f times", ratio);
}

int calibration_decide(const calibration_case *c, char *why, size_t len) {
  ts_buf b = ts_buf_on(why, len);
  double level = 100 * c->confidence;
  if (c->status != 0) {
    ts_buf_add(&b, "too few trials: the burns need at least 2 blocks in which the baseline and "
                   "every burn and A/A pair have a score");
    return 0;
  }
  if (c->fitted == 0 || !c->fit) {
    ts_buf_add(&b, "no burn of known cost: beside each burn the benchmark keeps the CPUs it needs "
                   "to itself, or its threads are not known, so no burn has a cost to check "
                   "(burn:N% without a count burns every CPU)");
    return 0;
  }
  const calib_result *f = c->fit;
  const calibration_cost *k = &c->cost;
  char expected[64], ratio[32];
  format_expected(k, expected, sizeof expected);
  int aa_differs = c->aa != NULL;
  if (f->verdict == CALIB_PASSED && !aa_differs) {
    ts_buf_addf(&b,
                "%s cost %.2f %% (%.4g %% CI %.2f to %.2f %%) where %s was expected; measured on "
                "expected cost over the burns %.2f (CI %.2f to %.2f)",
                c->control, k->measured, level, k->low, k->high, expected, f->slope, f->slope_low,
                f->slope_high);
    ts_buf_add(&b, c->aa_pairs > 0 ? ", and the A/A pair did not differ"
                                   : "; the run has no A/A pair (add baseline-b) to check the "
                                     "noise");
    return 1;
  }
  if (aa_differs)
    ts_buf_addf(&b,
                "the A/A pair differed: %s cost %+.2f %% against the baseline (%.4g %% CI %.2f to "
                "%.2f %%), so this run calls noise an effect",
                c->aa, c->aa_cost.measured, level, c->aa_cost.low, c->aa_cost.high);
  if (f->verdict == CALIB_PASSED)
    return 0;
  if (aa_differs)
    ts_buf_add(&b, "; ");
  if (f->verdict == CALIB_COSTS_LESS || f->verdict == CALIB_COSTS_MORE) {
    ratio_words(f->slope, ratio, sizeof ratio);
    ts_buf_addf(&b,
                "%s cost %.2f %% (%.4g %% CI %.2f to %.2f %%) where %s was expected: the control "
                "cost %s what it should (measured on expected %.2f, CI %.2f to %.2f): ",
                c->control, k->measured, level, k->low, k->high, expected, ratio, f->slope,
                f->slope_low, f->slope_high);
    ts_buf_add(&b, f->verdict == CALIB_COSTS_LESS
                       ? "the benchmark is shielded from other CPU use (another core, a "
                         "priority, power management)"
                       : "something besides the burners' CPU time slows the benchmark (shared "
                         "caches, memory, clock speed)");
  } else
    ts_buf_addf(&b,
                "too noisy: measured on expected cost over the burns is %.2f (%.4g %% CI %.2f to "
                "%.2f), which cannot tell the burns' cost from none; %s cost %.2f %% (CI %.2f to "
                "%.2f %%) where %s was expected. More blocks would tell",
                f->slope, level, f->slope_low, f->slope_high, c->control, k->measured, k->low,
                k->high, expected);
  return 0;
}

/* ---- a run's calibration -------------------------------------------------------------------- */

static int is_second_baseline(const char *condition) {
  return strncmp(condition, "baseline-", 9) == 0 && condition[9] != '\0';
}

/* The run's burn conditions, with the CPU their burners achieved, and its A/A pairs. */
static void find_controls(const report_data *r, const double *load_cpu_percent,
                          report_calibration *out) {
  for (int c = 0; c < r->condition_count; c++) {
    if (c == r->baseline) /* the reference (a run without "baseline" compares with its first) */
      continue;
    if (is_second_baseline(r->conditions[c])) {
      out->aa[out->aa_count++] = c;
      continue;
    }
    load_spec spec;
    ts_err ignored;
    if (load_spec_parse(r->conditions[c], &spec, &ignored) != TS_OK || spec.part_count != 1 ||
        load_part_cpu_share(&spec.parts[0]) <= 0)
      continue;
    calibration_control *k = &out->controls[out->control_count++];
    k->condition = c;
    k->duty_percent = load_part_cpu_share(&spec.parts[0]) * 100;
    k->burners = spec.parts[0].count_auto ? out->logical_cpus : spec.parts[0].count;
    double cpu = load_cpu_percent ? load_cpu_percent[c] : NAN;
    k->achieved_percent = cpu > 0 && k->burners > 0 ? fmin(cpu / (double)k->burners, 99) : NAN;
    out->nominal += !isfinite(k->achieved_percent);
    double duty, cpus;
    calibration_duty_and_cpus(k, out->logical_cpus, &duty, &cpus);
    out->starved += cpus < out->logical_cpus;
  }
}

/* A cost on the log scale (-mean log ratio) with its half-width, as a cost in %. */
static void cost_of(double log_cost, double half, calibration_cost *k) {
  k->measured = -100 * expm1(-log_cost);
  k->low = -100 * expm1(-(log_cost - half));
  k->high = -100 * expm1(-(log_cost + half));
}

/* One benchmark: the block model over the baseline, the burns and the A/A pairs, each burn's
   cost against its expected one, the slope over the burns of known cost, and the verdict. */
static void calibrate_bench(const report_data *r, int b, report_calibration *cal) {
  calibration_bench *out = &cal->benches[b];
  out->threads = calibration_bench_threads(r->benches[b]);
  long bench_threads = calibration_bench_thread_count(r->benches[b], cal->logical_cpus);
  out->largest = -1;
  int k = cal->control_count + cal->aa_count, rows[2 * REPORT_MAX_CONDITIONS];
  for (int i = 0; i < k; i++) {
    calibration_cost *cost =
        i < cal->control_count ? &out->burns[i] : &out->aa[i - cal->control_count];
    cost->measured = cost->low = cost->high = cost->check_low = cost->check_high = NAN;
    rows[i] = i < cal->control_count ? cal->controls[i].condition : cal->aa[i - cal->control_count];
  }
  for (int i = 0; i < cal->control_count; i++) {
    const calibration_control *c = &cal->controls[i];
    double duty, cpus;
    calibration_duty_and_cpus(c, cal->logical_cpus, &duty, &cpus);
    calibration_cost *cost = &out->burns[i];
    calibration_expected(duty, c->burners, cpus, bench_threads, &cost->expected_near,
                         &cost->expected_far);
    cost->fitted = cost->expected_near == cost->expected_far && cost->expected_far > 0;
    if (cost->fitted &&
        (out->largest < 0 || cost->expected_far > out->burns[out->largest].expected_far))
      out->largest = i;
  }
  size_t blocks = report_block_count(r, b);
  double *by_block = malloc(((size_t)(k + 1) * blocks + 1) * sizeof *by_block);
  double y[2 * REPORT_MAX_CONDITIONS], v[GLS_MAX_POINTS * GLS_MAX_POINTS], df = NAN;
  const double *conditions[2 * REPORT_MAX_CONDITIONS];
  out->status = by_block && k <= GLS_MAX_POINTS ? GLS_OK : GLS_EINVAL;
  if (out->status == GLS_OK) {
    report_scores_by_block(&r->lists[b][r->baseline], blocks, by_block);
    for (int i = 0; i < k; i++) {
      report_scores_by_block(&r->lists[b][rows[i]], blocks, by_block + (size_t)(i + 1) * blocks);
      conditions[i] = by_block + (size_t)(i + 1) * blocks;
    }
    out->status =
        gls_effects_from_blocks(by_block, conditions, k, blocks, y, v, &df, &out->blocks_used);
  }
  free(by_block);
  out->fit = (calib_result){GLS_EINVAL,        0, NAN, NAN, NAN, NAN, NAN, -1, NAN, NAN, NAN, NAN,
                            CALIB_INCONCLUSIVE};
  if (out->status == GLS_OK) {
    double q = dist_t_quantile(1 - (1 - cal->confidence) / 2, df);
    double q_check = dist_t_quantile(1 - (1 - cal->check_confidence) / 2, df);
    for (int i = 0; i < k; i++) /* a score is a rate: slower is a log ratio below 0 */
      cost_of(-y[i], q * sqrt(v[i * k + i]),
              i < cal->control_count ? &out->burns[i] : &out->aa[i - cal->control_count]);
    for (int i = 0; i < cal->control_count; i++) {
      calibration_cost check;
      cost_of(-y[i], q_check * sqrt(v[i * k + i]), &check);
      out->burns[i].check_low = check.low;
      out->burns[i].check_high = check.high;
    }
    /* The slope over the burns of known cost, on the log scale. */
    double x[GLS_MAX_POINTS], fy[GLS_MAX_POINTS], fv[GLS_MAX_POINTS * GLS_MAX_POINTS];
    int fitted[GLS_MAX_POINTS], n = 0;
    for (int i = 0; i < cal->control_count; i++)
      if (out->burns[i].fitted)
        fitted[n++] = i;
    for (int i = 0; i < n; i++) {
      x[i] = -log1p(-out->burns[fitted[i]].expected_far / 100);
      fy[i] = -y[fitted[i]];
      for (int j = 0; j < n; j++)
        fv[i * n + j] = v[fitted[i] * k + fitted[j]];
    }
    if (n > 0)
      calib_fit_run(x, fy, n, fv, df, cal->confidence, &out->fit);
  }
  calibration_case c = {
      .status = out->status,
      .fitted = out->largest >= 0 && out->fit.status == GLS_OK,
      .control = out->largest >= 0 ? r->conditions[cal->controls[out->largest].condition] : "",
      .fit = &out->fit,
      .confidence = cal->confidence,
      .aa_pairs = cal->aa_count,
  };
  if (out->largest >= 0)
    c.cost = out->burns[out->largest];
  for (int i = 0; i < cal->aa_count && !c.aa && out->status == GLS_OK; i++)
    if (out->aa[i].low > 0 || out->aa[i].high < 0) {
      c.aa = r->conditions[cal->aa[i]];
      c.aa_cost = out->aa[i];
    }
  out->passed = calibration_decide(&c, out->why, sizeof out->why);
}

int report_calibration_of(const report_data *r, const double *load_cpu_percent,
                          report_calibration *out) {
  memset(out, 0, sizeof *out);
  out->cpus_from_run = r->have_run && r->run.logical_cpus > 0;
  if (out->cpus_from_run) {
    out->logical_cpus = r->run.logical_cpus;
  } else {
    plat_sysinfo info;
    plat_sysinfo_read(&info);
    out->logical_cpus = info.logical_cpus > 0 ? info.logical_cpus : 1;
  }
  find_controls(r, load_cpu_percent, out);
  if (out->control_count == 0)
    return 0;
  /* The slope and each A/A pair are checks of one verdict: 5 % of false alarms split evenly. */
  out->confidence = 1 - 0.05 / (1 + out->aa_count);
  out->check_confidence = 1 - 0.05 / out->control_count;
  out->all_passed = r->bench_count > 0;
  for (int b = 0; b < r->bench_count; b++) {
    calibrate_bench(r, b, out);
    out->all_passed &= out->benches[b].passed;
  }
  return out->control_count;
}

/* One row of a benchmark's table: a burn (control) or an A/A pair (control NULL, expected 0). */
typedef struct calibration_row {
  int condition;
  const calibration_control *control;
  const calibration_cost *cost;
  int largest;
} calibration_row;

static int rows_of(const report_calibration *cal, int b, calibration_row *rows) {
  static const calibration_cost none = {0, 0, 0, NAN, NAN, NAN, NAN, NAN};
  const calibration_bench *k = &cal->benches[b];
  int n = 0;
  for (int i = 0; i < cal->control_count; i++)
    rows[n++] = (calibration_row){cal->controls[i].condition, &cal->controls[i], &k->burns[i],
                                  i == k->largest};
  for (int i = 0; i < cal->aa_count; i++)
    rows[n++] = (calibration_row){cal->aa[i], NULL, k->status == 0 ? &k->aa[i] : &none, 0};
  return n;
}

/* A row's numbers as the text and HTML tables show them ("-": not known). */
typedef struct row_text {
  char burners[24], cpu[24], expected[64], measured[24], interval[48];
} row_text;

static void format_row(const calibration_row *row, row_text *t) {
  snprintf(t->burners, sizeof t->burners, "-");
  snprintf(t->cpu, sizeof t->cpu, "-");
  snprintf(t->measured, sizeof t->measured, "-");
  snprintf(t->interval, sizeof t->interval, "-");
  format_expected(row->cost, t->expected, sizeof t->expected);
  if (row->control) {
    snprintf(t->burners, sizeof t->burners, "%ld", row->control->burners);
    if (isfinite(row->control->achieved_percent))
      snprintf(t->cpu, sizeof t->cpu, "%.2f %%", row->control->achieved_percent);
  }
  if (isfinite(row->cost->measured)) {
    snprintf(t->measured, sizeof t->measured, "%.2f %%", row->cost->measured);
    snprintf(t->interval, sizeof t->interval, "%.2f to %.2f %%", row->cost->low, row->cost->high);
  }
}

/* Where a burn's check interval lies against its expected cost: "less" or "more" when wholly
   below or above it, "within" when it covers it, "" for an A/A pair or what was not measured. The
   verdict is the slope's; this says which burn disagreed with the model on its own. */
static const char *against_expected(const calibration_row *row) {
  const calibration_cost *c = row->cost;
  if (!row->control || !isfinite(c->check_low) || !isfinite(c->check_high))
    return "";
  return c->check_high < c->expected_near ? "less"
         : c->check_low > c->expected_far ? "more"
                                          : "within";
}

/* The sentence under a benchmark's verdict for a burn whose interval lies off its expected cost;
   0 (and "") for the others. */
static int against_text(const report_data *r, const calibration_row *row, double confidence,
                        char *buf, size_t len) {
  const char *where = against_expected(row);
  int less = strcmp(where, "less") == 0;
  buf[0] = '\0';
  if (!less && strcmp(where, "more") != 0)
    return 0;
  char expected[64];
  format_expected(row->cost, expected, sizeof expected);
  snprintf(buf, len, "%s cost %s than expected: %.4g %% CI %.2f to %.2f %% against %s (%s)",
           r->conditions[row->condition], where, 100 * confidence, row->cost->check_low,
           row->cost->check_high, expected,
           less ? "its burners may have run on a CPU of their own, away from the benchmark's; the "
                  "expected cost assumes a fair share of every CPU"
                : "something besides the burners' CPU time slowed the benchmark: shared caches, "
                  "memory, clock speed");
  return 1;
}

static const char *row_role(const calibration_row *row) {
  return row->largest ? "largest burn" : row->control ? "burn" : "a/a";
}

static void cpus_text(const report_calibration *cal, char *buf, size_t len) {
  snprintf(buf, len, "%d logical CPU%s of %s", cal->logical_cpus, cal->logical_cpus == 1 ? "" : "s",
           cal->cpus_from_run ? "the run's machine" : "this machine");
}

/* The slope line under a benchmark's table ("" when there is none). */
static void slope_text(const report_calibration *cal, int b, char *buf, size_t len) {
  const calib_result *f = &cal->benches[b].fit;
  if (f->status == 0 && isfinite(f->slope))
    snprintf(buf, len, "measured on expected cost over the burns: %.2f (%.4g %% CI %.2f to %.2f)",
             f->slope, 100 * cal->confidence, f->slope_low, f->slope_high);
  else
    buf[0] = '\0';
}

#define NOMINAL_NOTE                                                                               \
  "the burners' CPU was not recorded for %d burn%s: the asked duty stands in for what they took"
#define STARVED_NOTE                                                                               \
  "the burners of %d burn%s took less than an idle machine gives them: their expected cost is "    \
  "worked on the CPUs the run had (burners x their CPU), not on the logical CPUs"

/* ---- text ---- */

static void write_text(const report_data *r, const void *prepared, FILE *out) {
  const report_calibration *cal = prepared;
  if (!cal)
    return;
  char cpus[96], bench[256], cond[160], shown[640], why[1024], slope[160];
  cpus_text(cal, cpus, sizeof cpus);
  fprintf(out, "\nCalibration: %s (the positive control: burners of known cost, on %s)\n",
          cal->all_passed ? "PASSED" : "FAILED", cpus);
  if (cal->nominal)
    fprintf(out, "  " NOMINAL_NOTE "\n", cal->nominal, cal->nominal == 1 ? "" : "s");
  if (cal->starved)
    fprintf(out, "  " STARVED_NOTE "\n", cal->starved, cal->starved == 1 ? "" : "s");
  calibration_row rows[2 * REPORT_MAX_CONDITIONS];
  for (int b = 0; b < r->bench_count; b++) {
    const calibration_bench *k = &cal->benches[b];
    fprintf(out, "  %s (%s; %zu complete blocks)\n", SHOWN(r->benches[b], bench),
            calibration_threads_name(k->threads), k->blocks_used);
    char level[32];
    snprintf(level, sizeof level, "%.4g %% CI", 100 * cal->confidence);
    fprintf(out, "    %-30s %7s %11s %15s %9s  %s\n", "condition", "burners", "burner CPU",
            "expected cost", "measured", level);
    int n = rows_of(cal, b, rows);
    for (int i = 0; i < n; i++) {
      row_text t;
      format_row(&rows[i], &t);
      snprintf(cond, sizeof cond, "%s%s", r->conditions[rows[i].condition],
               rows[i].largest   ? " (largest)"
               : rows[i].control ? ""
                                 : " (A/A)");
      fprintf(out, "    %-30s %7s %11s %15s %9s  %s\n", SHOWN(cond, shown), t.burners, t.cpu,
              t.expected, t.measured, t.interval);
    }
    slope_text(cal, b, slope, sizeof slope);
    if (slope[0])
      fprintf(out, "  %s\n", slope);
    fprintf(out, "  %s: %s\n", k->passed ? "PASSED" : "FAILED", SHOWN(k->why, why));
    for (int i = 0; i < n; i++)
      if (against_text(r, &rows[i], cal->check_confidence, why, sizeof why))
        fprintf(out, "  %s\n", SHOWN(why, shown));
  }
}

/* ---- CSV ---- */

static void write_csv(const report_data *r, const void *prepared, FILE *out) {
  const report_calibration *cal = prepared;
  if (!cal)
    return;
  static const char *const columns[] = {"calibration_bench",
                                        "condition",
                                        "role",
                                        "burners",
                                        "duty_percent",
                                        "burner_cpu_percent",
                                        "expected_cost_low_percent",
                                        "expected_cost_high_percent",
                                        "measured_cost_percent",
                                        "ci_low_percent",
                                        "ci_high_percent",
                                        "confidence",
                                        "slope",
                                        "slope_ci_low",
                                        "slope_ci_high",
                                        "verdict",
                                        "against_expected",
                                        "check_ci_low_percent",
                                        "check_ci_high_percent",
                                        "check_confidence"};
  fputc('\n', out);
  report_csv_names(out, columns, sizeof columns / sizeof columns[0]);
  fputc('\n', out);
  calibration_row rows[2 * REPORT_MAX_CONDITIONS];
  for (int b = 0; b < r->bench_count; b++) {
    const calibration_bench *k = &cal->benches[b];
    int n = rows_of(cal, b, rows);
    for (int i = 0; i < n; i++) {
      const calibration_control *c = rows[i].control;
      report_csv_field(out, r->benches[b]);
      fputc(',', out);
      report_csv_field(out, r->conditions[rows[i].condition]);
      fprintf(out, ",%s", row_role(&rows[i]));
      double values[] = {c ? (double)c->burners : NAN,
                         c ? c->duty_percent : NAN,
                         c ? c->achieved_percent : NAN,
                         rows[i].cost->expected_near,
                         rows[i].cost->expected_far,
                         rows[i].cost->measured,
                         rows[i].cost->low,
                         rows[i].cost->high,
                         cal->confidence,
                         k->fit.slope,
                         k->fit.slope_low,
                         k->fit.slope_high};
      for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
        fputc(',', out);
        report_csv_number(out, values[v]);
      }
      fprintf(out, ",%s,%s", k->passed ? "passed" : "failed", against_expected(&rows[i]));
      double check[] = {rows[i].cost->check_low, rows[i].cost->check_high,
                        c ? cal->check_confidence : NAN};
      for (size_t v = 0; v < sizeof check / sizeof check[0]; v++) {
        fputc(',', out);
        report_csv_number(out, check[v]);
      }
      fputc('\n', out);
    }
  }
}

/* ---- JSON ---- */

/* A condition of the calibration (prepared: its rows on one benchmark): its role, its burn and
   its expected and measured costs. */
static void json_row(const report_data *r, const void *prepared, int i, FILE *out) {
  const calibration_row *row = &((const calibration_row *)prepared)[i];
  const calibration_control *c = row->control;
  const calibration_cost *cost = row->cost;
  fputs("{\"condition\":", out);
  ts_json_string(out, r->conditions[row->condition]);
  fprintf(out, ",\"role\":\"%s\"", row_role(row));
  if (c) {
    fprintf(out, ",\"duty_percent\":%g,\"burners\":%ld", c->duty_percent, c->burners);
    ts_json_number_member(out, "burner_cpu_percent", c->achieved_percent, REPORT_JSON_DIGITS);
  }
  double numbers[] = {cost->expected_near, cost->expected_far, cost->measured, cost->low,
                      cost->high};
  fputs(",\"expected_cost_percent\":[", out);
  for (int v = 0; v < 5; v++) {
    ts_json_number(out, numbers[v], REPORT_JSON_DIGITS);
    fputs(v == 1 ? "],\"measured_cost_percent\":[" : v == 4 ? "]" : ",", out);
  }
  const char *where = against_expected(row);
  if (where[0]) {
    fprintf(out, ",\"against_expected\":\"%s\",\"check_ci\":[", where);
    ts_json_number(out, cost->check_low, REPORT_JSON_DIGITS);
    fputc(',', out);
    ts_json_number(out, cost->check_high, REPORT_JSON_DIGITS);
    fputc(']', out);
  }
  fputc('}', out);
}

/* Benchmark b's calibration: its verdict, the slope and each condition. */
static void json_bench(const report_data *r, const void *prepared, int b, FILE *out) {
  const report_calibration *cal = prepared;
  const calibration_bench *k = &cal->benches[b];
  calibration_row rows[2 * REPORT_MAX_CONDITIONS];
  fputs("{\"bench\":", out);
  ts_json_string(out, r->benches[b]);
  fprintf(out, ",\"threads\":\"%s\",\"blocks\":%zu,\"verdict\":\"%s\",\"why\":",
          calibration_threads_name(k->threads), k->blocks_used, k->passed ? "passed" : "failed");
  ts_json_string(out, k->why);
  fputs(",\"slope\":[", out);
  double slope[] = {k->fit.slope, k->fit.slope_low, k->fit.slope_high};
  for (int i = 0; i < 3; i++) {
    fputs(i ? "," : "", out);
    ts_json_number(out, slope[i], REPORT_JSON_DIGITS);
  }
  fputs("],\"conditions\":", out);
  report_json_array(out, REPORT_JSON_INLINE, rows_of(cal, b, rows), json_row, r, rows);
  fputc('}', out);
}

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  const report_calibration *cal = prepared;
  if (!cal)
    return;
  fprintf(out, ",\n\"calibration\":{\"logical_cpus\":%d,\"logical_cpus_from\":\"%s\",",
          cal->logical_cpus, cal->cpus_from_run ? "run" : "this machine");
  fprintf(out, "\"verdict\":\"%s\",\"confidence\":", cal->all_passed ? "passed" : "failed");
  ts_json_number(out, cal->confidence, REPORT_JSON_DIGITS);
  fputs(",\"check_confidence\":", out);
  ts_json_number(out, cal->check_confidence, REPORT_JSON_DIGITS);
  fprintf(out, ",\"burns_at_asked_duty\":%d,\"burns_starved\":%d,\"benchmarks\":", cal->nominal,
          cal->starved);
  report_json_array(out, REPORT_JSON_LINES, r->bench_count, json_bench, r, cal);
  fputc('}', out);
}

/* ---- HTML ---- */

static void write_html(const report_data *r, const void *prepared, FILE *out) {
  const report_calibration *cal = prepared;
  if (!cal)
    return;
  char cpus[96], slope[160];
  cpus_text(cal, cpus, sizeof cpus);
  fprintf(out,
          "<section class=\"calibration\">\n<h2>Calibration: <span class=\"verdict %s\">%s</span>"
          "</h2>\n<p class=\"note\">The positive control: burners that cost a known share of the "
          "CPU, and an A/A pair. Passed when the burns' measured cost over their expected cost "
          "has an interval covering 1 (or the largest burn's covers its expected cost) and the "
          "A/A pair's interval covers 0; on %s.",
          cal->all_passed ? "faster" : "slower", cal->all_passed ? "PASSED" : "FAILED", cpus);
  if (cal->nominal)
    fprintf(out, " " NOMINAL_NOTE ".", cal->nominal, cal->nominal == 1 ? "" : "s");
  if (cal->starved)
    fprintf(out, " " STARVED_NOTE ".", cal->starved, cal->starved == 1 ? "" : "s");
  fputs("</p>\n", out);
  calibration_row rows[2 * REPORT_MAX_CONDITIONS];
  for (int b = 0; b < r->bench_count; b++) {
    const calibration_bench *k = &cal->benches[b];
    fputs("<h3>", out);
    report_html_name(out, r->benches[b]);
    fprintf(out, " <span class=\"note\">(%s; %zu complete blocks)</span></h3>\n",
            calibration_threads_name(k->threads), k->blocks_used);
    fprintf(out,
            "<div class=\"wrap\"><table>\n<thead><tr><th class=\"cond\">condition</th>"
            "<th>burners</th><th>burner CPU</th><th>expected cost</th><th>measured cost</th>"
            "<th>%.4g %% CI</th></tr></thead>\n<tbody>\n",
            100 * cal->confidence);
    int n = rows_of(cal, b, rows);
    for (int i = 0; i < n; i++) {
      row_text t;
      format_row(&rows[i], &t);
      fputs("<tr><td class=\"cond\">", out);
      report_html_name(out, r->conditions[rows[i].condition]);
      fputs(rows[i].largest   ? " <span class=\"note\">(largest)</span>"
            : rows[i].control ? ""
                              : " <span class=\"note\">(A/A)</span>",
            out);
      fprintf(out, "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", t.burners,
              t.cpu, t.expected, t.measured, t.interval);
    }
    fputs("</tbody></table></div>\n", out);
    slope_text(cal, b, slope, sizeof slope);
    if (slope[0])
      fprintf(out, "<p class=\"note\">%s</p>\n", slope);
    fprintf(out, "<p><span class=\"verdict %s\">%s</span>: ", k->passed ? "faster" : "slower",
            k->passed ? "PASSED" : "FAILED");
    report_html_text(out, k->why);
    fputs("</p>\n", out);
    char against[640];
    for (int i = 0; i < n; i++)
      if (against_text(r, &rows[i], cal->check_confidence, against, sizeof against)) {
        fputs("<p class=\"note\">", out);
        report_html_text(out, against);
        fputs("</p>\n", out);
      }
  }
  fputs("</section>\n", out);
}

/* The calibration when the run has a burn condition; *prepared stays NULL (no section) when not.
   The burners' CPU is the model's (read with the statistics). */
static int prepare(store *s, const report_data *r, void **prepared, ts_err *err) {
  (void)s;
  report_calibration *cal = malloc(sizeof *cal);
  if (!cal)
    return ts_err_set(err, TS_ENOMEM, "no memory for the calibration");
  if (report_calibration_of(r, r->load_cpu_percent, cal) == 0) {
    free(cal);
    cal = NULL;
  }
  *prepared = cal;
  return TS_OK;
}

const report_section report_section_calibration = {
    "calibration", prepare, NULL, {write_text, write_csv, write_json, write_html}};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* calibration.c - the positive control's verdict in every report format: for each burn condition
   and benchmark the measured effect beside the expected one, and whether the run passed (it saw
   the largest burn, and its A/A pair no difference) or why it failed. */
#include "calibration.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
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

void calibration_expected(double duty_percent, long burners, int logical_cpus,
                          calibration_threads threads, double *near, double *far) {
  if (logical_cpus < 1)
    logical_cpus = 1;
  if (burners >= logical_cpus) {
    *near = *far = -duty_percent;
    return;
  }
  *near = 0;
  *far = threads == CALIBRATION_MULTI ? -duty_percent * (double)burners / (double)logical_cpus
                                      : -duty_percent;
}

/* "about -10 %" or "0 to -5 %". */
static void format_expected(double near, double far, char *buf, size_t len) {
  if (near == far)
    snprintf(buf, len, "about %.3g %%", far);
  else
    snprintf(buf, len, "%.3g to %.3g %%", near, far);
}

int calibration_decide(const calibration_case *c, char *why, size_t len) {
  ts_buf b = ts_buf_on(why, len);
  char expected[64];
  format_expected(c->expected_near, c->expected_far, expected, sizeof expected);
  int aa_differs = c->aa && (c->aa_verdict == STATS_SLOWER || c->aa_verdict == STATS_FASTER);
  int seen = c->control_verdict == STATS_SLOWER;
  if (seen && !aa_differs) {
    ts_buf_addf(&b, "%s came out slower by %.2f %% (%s expected)", c->control,
                fabs(c->control_percent), expected);
    ts_buf_add(&b, c->aa_pairs > 0 ? ", and the A/A pair did not differ"
                                   : "; the run has no A/A pair (add baseline-b) to check the "
                                     "noise");
    return 1;
  }
  if (aa_differs)
    ts_buf_addf(&b,
                "the A/A pair differed: %s came out %s than the baseline by %.2f %%, so this "
                "run calls noise an effect",
                c->aa, c->aa_verdict == STATS_SLOWER ? "slower" : "faster", fabs(c->aa_percent));
  if (seen)
    return 0;
  double magnitude = fabs(c->expected_far);
  double x = c->control_detectable;
  if (aa_differs)
    ts_buf_add(&b, "; ");
  if (c->control_too_few || !isfinite(c->control_percent))
    ts_buf_addf(&b, "too few trials: %s needs at least %d scores beside the baseline's", c->control,
                STATS_MIN_TRIALS);
  else if (!isfinite(x) || x > magnitude)
    ts_buf_addf(&b, "too noisy: this run could detect only ±%.2f %%, while %s should cost %s", x,
                c->control, expected);
  else
    ts_buf_addf(&b,
                "the control cost less than expected: %s measured %+.2f %% (%s) where %s was "
                "expected, and the run could detect ±%.2f %%",
                c->control, c->control_percent, stats_verdict_name(c->control_verdict), expected,
                x);
  return 0;
}

/* ---- a run's calibration -------------------------------------------------------------------- */

static int is_second_baseline(const char *condition) {
  return strncmp(condition, "baseline-", 9) == 0 && condition[9] != '\0';
}

int report_calibration_of(const report_data *r, report_calibration *out) {
  memset(out, 0, sizeof *out);
  out->cpus_from_run = r->have_run && r->run.logical_cpus > 0;
  if (out->cpus_from_run) {
    out->logical_cpus = r->run.logical_cpus;
  } else {
    plat_sysinfo info;
    plat_sysinfo_read(&info);
    out->logical_cpus = info.logical_cpus > 0 ? info.logical_cpus : 1;
  }
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
  }
  if (out->control_count == 0)
    return 0;
  out->all_passed = 1;
  for (int b = 0; b < r->bench_count; b++) {
    calibration_threads threads = calibration_bench_threads(r->benches[b]);
    out->threads[b] = threads;
    /* The largest burn: the largest expected cost (the first of equals). */
    double largest_cost = -1, near = 0, far = 0;
    for (int i = 0; i < out->control_count; i++) {
      double n, f;
      calibration_expected(out->controls[i].duty_percent, out->controls[i].burners,
                           out->logical_cpus, threads, &n, &f);
      if (fabs(f) > largest_cost) {
        largest_cost = fabs(f);
        out->largest[b] = i;
        near = n;
        far = f;
      }
    }
    int c = out->controls[out->largest[b]].condition;
    const report_cell *cell = &r->cells[b][c];
    calibration_case k = {
        .control = r->conditions[c],
        .control_verdict = cell->compared ? cell->cmp.verdict : STATS_INCONCLUSIVE,
        .control_too_few = !cell->compared || cell->cmp.status != BLOCKED_OK,
        .control_percent = cell->compared ? cell->cmp.percent : NAN,
        .control_detectable = cell->compared ? cell->sens.detectable_percent : NAN,
        .expected_near = near,
        .expected_far = far,
        .aa_pairs = out->aa_count,
    };
    for (int i = 0; i < out->aa_count && !k.aa; i++) {
      const report_cell *aa = &r->cells[b][out->aa[i]];
      if (aa->compared && (aa->cmp.verdict == STATS_SLOWER || aa->cmp.verdict == STATS_FASTER)) {
        k.aa = r->conditions[out->aa[i]];
        k.aa_verdict = aa->cmp.verdict;
        k.aa_percent = aa->cmp.percent;
      }
    }
    out->passed[b] = calibration_decide(&k, out->why[b], sizeof out->why[b]);
    out->all_passed &= out->passed[b];
  }
  if (r->bench_count == 0)
    out->all_passed = 0;
  return out->control_count;
}

/* One row of a benchmark's table: a burn control (k) or an A/A pair (aa). */
typedef struct calibration_row {
  int condition;
  const calibration_control *control; /* NULL: an A/A pair, expected 0 */
  double near, far;
  int largest;
} calibration_row;

static int rows_of(const report_calibration *cal, int b, calibration_row *rows) {
  int n = 0;
  for (int i = 0; i < cal->control_count; i++) {
    const calibration_control *k = &cal->controls[i];
    calibration_row *row = &rows[n++];
    row->condition = k->condition;
    row->control = k;
    row->largest = i == cal->largest[b];
    calibration_expected(k->duty_percent, k->burners, cal->logical_cpus, cal->threads[b],
                         &row->near, &row->far);
  }
  for (int i = 0; i < cal->aa_count; i++)
    rows[n++] = (calibration_row){cal->aa[i], NULL, 0, 0, 0};
  return n;
}

/* A row's numbers as the text and HTML tables show them ("-": not known). */
typedef struct row_text {
  char burners[24], expected[64], measured[24], detectable[24];
} row_text;

static void format_row(const calibration_row *row, const report_cell *cell, row_text *t) {
  snprintf(t->burners, sizeof t->burners, "-");
  snprintf(t->expected, sizeof t->expected, "0 %%");
  snprintf(t->measured, sizeof t->measured, "-");
  snprintf(t->detectable, sizeof t->detectable, "-");
  if (row->control) {
    snprintf(t->burners, sizeof t->burners, "%ld", row->control->burners);
    format_expected(row->near, row->far, t->expected, sizeof t->expected);
  }
  if (cell->compared)
    snprintf(t->measured, sizeof t->measured, "%+.2f %%", cell->cmp.percent);
  if (cell->compared && isfinite(cell->sens.detectable_percent))
    snprintf(t->detectable, sizeof t->detectable, "±%.2f %%", cell->sens.detectable_percent);
}

static const char *cell_verdict(const report_cell *cell) {
  return cell->compared ? stats_verdict_name(cell->cmp.verdict) : "no data";
}

static void cpus_text(const report_calibration *cal, char *buf, size_t len) {
  snprintf(buf, len, "%d logical CPU%s of %s", cal->logical_cpus, cal->logical_cpus == 1 ? "" : "s",
           cal->cpus_from_run ? "the run's machine" : "this machine");
}

/* ---- text ---- */

static void write_text(const report_data *r, const void *prepared, FILE *out) {
  const report_calibration *cal = prepared;
  if (!cal)
    return;
  char cpus[96], bench[256], cond[160], shown[640], why[1024];
  cpus_text(cal, cpus, sizeof cpus);
  fprintf(out, "\nCalibration: %s (the positive control: burners of known cost, on %s)\n",
          cal->all_passed ? "PASSED" : "FAILED", cpus);
  calibration_row rows[2 * REPORT_MAX_CONDITIONS];
  for (int b = 0; b < r->bench_count; b++) {
    fprintf(out, "  %s (%s)\n", SHOWN(r->benches[b], bench),
            calibration_threads_name(cal->threads[b]));
    fprintf(out, "    %-30s %7s %15s %10s  %-21s %s\n", "condition", "burners", "expected",
            "measured", "verdict", "could detect");
    int n = rows_of(cal, b, rows);
    for (int i = 0; i < n; i++) {
      const report_cell *cell = &r->cells[b][rows[i].condition];
      row_text t;
      format_row(&rows[i], cell, &t);
      snprintf(cond, sizeof cond, "%s%s", r->conditions[rows[i].condition],
               rows[i].largest   ? " (largest)"
               : rows[i].control ? ""
                                 : " (A/A)");
      fprintf(out, "    %-30s %7s %15s %10s  %-21s %s\n", SHOWN(cond, shown), t.burners, t.expected,
              t.measured, cell_verdict(cell), t.detectable);
    }
    fprintf(out, "  %s: %s\n", cal->passed[b] ? "PASSED" : "FAILED", SHOWN(cal->why[b], why));
  }
}

/* ---- JSON ---- */

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  const report_calibration *cal = prepared;
  if (!cal)
    return;
  fprintf(out, ",\n\"calibration\":{\"logical_cpus\":%d,\"logical_cpus_from\":\"%s\",",
          cal->logical_cpus, cal->cpus_from_run ? "run" : "this machine");
  fprintf(out, "\"verdict\":\"%s\",\"benchmarks\":[", cal->all_passed ? "passed" : "failed");
  calibration_row rows[2 * REPORT_MAX_CONDITIONS];
  for (int b = 0; b < r->bench_count; b++) {
    fputs(b ? ",\n {\"bench\":" : "\n {\"bench\":", out);
    ts_json_string(out, r->benches[b]);
    fprintf(out, ",\"threads\":\"%s\",\"verdict\":\"%s\",\"why\":",
            calibration_threads_name(cal->threads[b]), cal->passed[b] ? "passed" : "failed");
    ts_json_string(out, cal->why[b]);
    fputs(",\"conditions\":[", out);
    int n = rows_of(cal, b, rows);
    for (int i = 0; i < n; i++) {
      const report_cell *cell = &r->cells[b][rows[i].condition];
      fputs(i ? ",{\"condition\":" : "{\"condition\":", out);
      ts_json_string(out, r->conditions[rows[i].condition]);
      fprintf(out, ",\"role\":\"%s\"",
              rows[i].largest   ? "largest burn"
              : rows[i].control ? "burn"
                                : "a/a");
      if (rows[i].control)
        fprintf(out, ",\"duty_percent\":%g,\"burners\":%ld", rows[i].control->duty_percent,
                rows[i].control->burners);
      fputs(",\"expected_percent\":[", out);
      ts_json_number(out, rows[i].near, REPORT_JSON_DIGITS);
      fputc(',', out);
      ts_json_number(out, rows[i].far, REPORT_JSON_DIGITS);
      fputs("],\"measured_percent\":", out);
      ts_json_number(out, cell->compared ? cell->cmp.percent : NAN, REPORT_JSON_DIGITS);
      ts_json_string_member(out, "verdict", cell_verdict(cell));
      ts_json_number_member(out, "detectable_percent",
                            cell->compared ? cell->sens.detectable_percent : NAN,
                            REPORT_JSON_DIGITS);
      fputc('}', out);
    }
    fputs("]}", out);
  }
  fputs("]}", out);
}

/* ---- HTML ---- */

static void write_html(const report_data *r, const void *prepared, FILE *out) {
  const report_calibration *cal = prepared;
  if (!cal)
    return;
  char cpus[96];
  cpus_text(cal, cpus, sizeof cpus);
  fprintf(out,
          "<section class=\"calibration\">\n<h2>Calibration: <span class=\"verdict %s\">%s</span>"
          "</h2>\n<p class=\"note\">The positive control: burners that cost a known share of the "
          "CPU, and an A/A pair. Passed when the largest burn came out slower and the A/A pair "
          "did not differ; on %s.</p>\n",
          cal->all_passed ? "faster" : "slower", cal->all_passed ? "PASSED" : "FAILED", cpus);
  calibration_row rows[2 * REPORT_MAX_CONDITIONS];
  for (int b = 0; b < r->bench_count; b++) {
    fputs("<h3>", out);
    report_html_name(out, r->benches[b]);
    fprintf(out, " <span class=\"note\">(%s)</span></h3>\n",
            calibration_threads_name(cal->threads[b]));
    fputs("<div class=\"wrap\"><table>\n<thead><tr><th class=\"cond\">condition</th>"
          "<th>burners</th><th>expected</th><th>measured</th><th>verdict</th>"
          "<th>could detect</th></tr></thead>\n<tbody>\n",
          out);
    int n = rows_of(cal, b, rows);
    for (int i = 0; i < n; i++) {
      const report_cell *cell = &r->cells[b][rows[i].condition];
      row_text t;
      format_row(&rows[i], cell, &t);
      fputs("<tr><td class=\"cond\">", out);
      report_html_name(out, r->conditions[rows[i].condition]);
      fputs(rows[i].largest   ? " <span class=\"note\">(largest)</span>"
            : rows[i].control ? ""
                              : " <span class=\"note\">(A/A)</span>",
            out);
      fprintf(out, "</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n", t.burners,
              t.expected, t.measured, cell_verdict(cell), t.detectable);
    }
    fprintf(out, "</tbody></table></div>\n<p><span class=\"verdict %s\">%s</span>: ",
            cal->passed[b] ? "faster" : "slower", cal->passed[b] ? "PASSED" : "FAILED");
    report_html_text(out, cal->why[b]);
    fputs("</p>\n", out);
  }
  fputs("</section>\n", out);
}

/* The calibration when the run has a burn condition; *prepared stays NULL (no section) when not. */
static int prepare(store *s, const report_data *r, void **prepared, ts_err *err) {
  (void)s;
  report_calibration *cal = malloc(sizeof *cal);
  if (!cal)
    return ts_err_set(err, TS_ENOMEM, "no memory for the calibration");
  if (report_calibration_of(r, cal) == 0) {
    free(cal);
    cal = NULL;
  }
  *prepared = cal;
  return TS_OK;
}

const report_section report_section_calibration = {
    "calibration", prepare, NULL, {write_text, NULL, write_json, write_html}};

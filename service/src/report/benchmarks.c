/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* benchmarks.c - the report's benchmarks section: per benchmark a table of conditions with their
   statistics against the baseline, a verdict for each and the drift of the baseline; in HTML two
   inline SVG charts besides: each condition's difference from the baseline with its interval, and
   every trial's score in run order, to show drift and outliers. */
#include <math.h>
#include <string.h>

#include "format.h"
#include "section.h"
#include "threadsoup/json_write.h"

/* ---- each kernel's verdict, in every format ---------------------------------------------------
 */

/* Kernel k of benchmark b under condition c. */
static const report_cell *kernel_cell(const report_data *r, int b, int k, int c) {
  return &r->kernels[b].cells[(size_t)k * REPORT_MAX_CONDITIONS + c];
}

/* What a kernel's comparison found, short: "-3.10 % [-4.00, -2.20] slower", the interval the one
   that decided it, as in the verdict line (the CI at its Holm level; for "no measurable effect"
   the equivalence interval); "" when not compared. */
static void kernel_claim(const report_cell *cell, char *buf, size_t len) {
  const blocked_result *cmp = &cell->cmp;
  if (!cell->compared)
    snprintf(buf, len, "%s", "");
  else if (isnan(cmp->percent))
    snprintf(buf, len, "too few blocks to compare");
  else if (isnan(cmp->ci_low))
    snprintf(buf, len, "%+.2f %% %s", cmp->percent, stats_verdict_name(cmp->verdict));
  else if (cmp->verdict == STATS_NO_EFFECT) /* the equivalence interval decided it */
    snprintf(buf, len, "%+.2f %% [%+.2f, %+.2f] %s", cmp->percent, cmp->eq_low, cmp->eq_high,
             stats_verdict_name(cmp->verdict));
  else
    snprintf(buf, len, "%+.2f %% [%+.2f, %+.2f] %s", cmp->percent, cmp->ci_low, cmp->ci_high,
             stats_verdict_name(cmp->verdict));
}

/* Whether any kernel of benchmark b is compared under condition c. */
static int condition_has_kernels(const report_data *r, int b, int c) {
  for (int k = 0; k < r->kernels[b].count; k++)
    if (kernel_cell(r, b, k, c)->compared)
      return 1;
  return 0;
}

/* Whether benchmark b has kernels compared under any condition. */
static int has_kernel_verdicts(const report_data *r, int b) {
  for (int c = 0; c < r->condition_count; c++)
    if (condition_has_kernels(r, b, c))
      return 1;
  return 0;
}

static void write_kernels_text(const report_data *r, int b, FILE *out) {
  if (!has_kernel_verdicts(r, b))
    return;
  char cond[512], name[256], claim[160];
  const report_kernels *family = &r->kernels[b];
  fprintf(out,
          "  each kernel, compared as the score is (the score is the primary endpoint; Holm over "
          "%d kernel%s x %d condition%s):\n",
          family->family_kernels, family->family_kernels == 1 ? "" : "s", family->family_conditions,
          family->family_conditions == 1 ? "" : "s");
  for (int c = 0; c < r->condition_count; c++) {
    if (!condition_has_kernels(r, b, c))
      continue;
    fprintf(out, "    %s:\n", SHOWN(r->conditions[c], cond));
    for (int k = 0; k < r->kernels[b].count; k++) {
      const report_cell *cell = kernel_cell(r, b, k, c);
      kernel_claim(cell, claim, sizeof claim);
      fprintf(out, "      %-10s %s", SHOWN(r->kernels[b].names[k], name), claim);
      if (!isnan(cell->p_holm))
        fprintf(out, " (p Holm %.3g)", cell->p_holm);
      fputc('\n', out);
    }
  }
}

/* ---- text ----------------------------------------------------------------------------------- */

static void write_text(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  char bench[256], unit[128], cond[512], verdict[1024];
  for (int b = 0; b < r->bench_count; b++) {
    fprintf(out, "\n%s (%s, higher is faster)\n", SHOWN(r->benches[b], bench),
            r->units[b][0] ? SHOWN(r->units[b], unit) : "score");
    fprintf(out, "  %-30s %4s %10s %10s %6s %11s %9s %19s %6s %8s %8s %9s\n", "condition", "n",
            "mean", "median", "cv", "switches/s", "vs base", "CI (Holm level)", "level", "p",
            "p Holm", "var ratio");
    for (int c = 0; c < r->condition_count; c++) {
      const report_cell *cell = &r->cells[b][c];
      const stats_description *d = &cell->d;
      char wake_text[16] = "-";
      if (!isnan(r->switches_per_s[c]))
        snprintf(wake_text, sizeof wake_text, "%.0f", r->switches_per_s[c]);
      fprintf(out, "  %-30s %4zu %10.2f %10.2f %5.1f%% %11s", SHOWN(r->conditions[c], cond), d->n,
              d->mean, d->median, isnan(d->cv) ? 0 : d->cv * 100, wake_text);
      if (!cell->compared) {
        fprintf(out, " %9s\n", d->n == 0 ? "no data" : "reference");
        continue;
      }
      const blocked_result *cmp = &cell->cmp;
      char effect[16] = "-", ci[40] = "", level[16] = "", p[16] = "", holm[16] = "", ratio[16] = "";
      if (!isnan(cmp->percent)) /* NaN: too few scores to compare */
        snprintf(effect, sizeof effect, "%+8.2f%%", cmp->percent);
      if (!isnan(cmp->ci_low)) {
        snprintf(ci, sizeof ci, "[%+.2f, %+.2f]", cmp->ci_low, cmp->ci_high);
        snprintf(level, sizeof level, "%.3g%%", 100 * cmp->confidence);
      }
      if (!isnan(cmp->p))
        snprintf(p, sizeof p, "%.3g", cmp->p);
      if (!isnan(cell->p_holm))
        snprintf(holm, sizeof holm, "%.3g", cell->p_holm);
      if (!isnan(cell->variance_ratio))
        snprintf(ratio, sizeof ratio, "%.2f", cell->variance_ratio);
      fprintf(out, " %9s %19s %6s %8s %8s %9s\n", effect, ci, level, p, holm, ratio);
    }
    for (int c = 0; c < r->condition_count; c++) {
      const report_cell *cell = &r->cells[b][c];
      if (!cell->verdict[0])
        continue;
      fprintf(out, "  %s: %s\n", SHOWN(r->conditions[c], cond), SHOWN(cell->verdict, verdict));
      char sensitivity[400], limit[400];
      if (report_sensitivity_text(r, cell, sensitivity, sizeof sensitivity))
        fprintf(out, "    %s\n", sensitivity);
      if (report_precision_limit_text(r, b, cell, limit, sizeof limit))
        fprintf(out, "    %s\n", limit);
    }
    write_kernels_text(r, b, out);
    char drift[200];
    if (report_drift_text(r, b, drift, sizeof drift))
      fprintf(out, "  drift: %s\n", drift);
  }
}

/* ---- CSV: the kernels' comparisons, and the precision targets missed ------------------------- */

static void write_kernels_csv(const report_data *r, FILE *out) {
  static const char *const columns[] = {"kernel_bench", "kernel",  "condition",
                                        "verdict",      "percent", REPORT_CSV_COMPARISON};
  int any = 0;
  for (int b = 0; b < r->bench_count && !any; b++)
    any = has_kernel_verdicts(r, b);
  if (!any)
    return;
  fputc('\n', out);
  report_csv_names(out, columns, sizeof columns / sizeof columns[0]);
  fputc('\n', out);
  for (int b = 0; b < r->bench_count; b++)
    for (int k = 0; k < r->kernels[b].count; k++)
      for (int c = 0; c < r->condition_count; c++) {
        const report_cell *cell = kernel_cell(r, b, k, c);
        if (!cell->compared)
          continue;
        report_csv_field(out, r->benches[b]);
        fputc(',', out);
        report_csv_field(out, r->kernels[b].names[k]);
        fputc(',', out);
        report_csv_field(out, r->conditions[c]);
        fprintf(out, ",%s,", stats_verdict_name(cell->cmp.verdict));
        report_csv_number(out, cell->cmp.percent);
        report_csv_comparison(out, cell);
        fputc('\n', out);
      }
}

/* A blank line and one row per comparison that missed the run's precision target: what the text
   report's "precision … not reached" line says, as numbers. */
static void write_precision_csv(const report_data *r, FILE *out) {
  static const char *const columns[] = {"precision_bench",     "condition",     "target_percent",
                                        "half_width_percent",  "cause",         "variance_ratio",
                                        "baseline_cv_percent", "drift_percent", "blocks_to_reach",
                                        "outside_cpu_percent"};
  int header = 0;
  for (int b = 0; b < r->bench_count; b++)
    for (int c = 0; c < r->condition_count; c++) {
      report_precision_limit lim;
      if (!report_precision_limit_of(r, b, &r->cells[b][c], &lim))
        continue;
      if (!header) {
        fputc('\n', out);
        report_csv_names(out, columns, sizeof columns / sizeof columns[0]);
        fputc('\n', out);
        header = 1;
      }
      report_csv_field(out, r->benches[b]);
      fputc(',', out);
      report_csv_field(out, r->conditions[c]);
      double numbers[] = {lim.target_percent, lim.half_width_percent};
      for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        fputc(',', out);
        report_csv_number(out, numbers[i]);
      }
      fprintf(out, ",%s", report_precision_cause_name(lim.cause));
      double more[] = {lim.variance_ratio, lim.baseline_cv_percent, lim.drift_percent,
                       lim.blocks > 0 ? (double)lim.blocks : NAN, lim.outside_cpu_percent};
      for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
        fputc(',', out);
        report_csv_number(out, more[i]);
      }
      fputc('\n', out);
    }
}

static void write_csv(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  write_kernels_csv(r, out);
  write_precision_csv(r, out);
}

/* ---- JSON ----------------------------------------------------------------------------------- */

/* ,"precision_limit":{…} for a comparison that missed the run's precision target, else null. */
static void write_precision_json(const report_data *r, int b, const report_cell *cell, FILE *out) {
  report_precision_limit lim;
  fputs(",\"precision_limit\":", out);
  if (!report_precision_limit_of(r, b, cell, &lim)) {
    fputs("null", out);
    return;
  }
  fputs("{", out);
  ts_json_key(out, "target_percent");
  ts_json_number(out, lim.target_percent, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "half_width_percent", lim.half_width_percent, REPORT_JSON_DIGITS);
  ts_json_string_member(out, "cause", report_precision_cause_name(lim.cause));
  ts_json_number_member(out, "variance_ratio", lim.variance_ratio, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "baseline_cv_percent", lim.baseline_cv_percent, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "drift_percent", lim.drift_percent, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "blocks_to_reach", lim.blocks > 0 ? (double)lim.blocks : NAN,
                        REPORT_JSON_DIGITS);
  ts_json_number_member(out, "outside_cpu_percent", lim.outside_cpu_percent, REPORT_JSON_DIGITS);
  fputs("}", out);
}

static void write_condition(const report_data *r, int b, int c, FILE *out) {
  const report_cell *cell = &r->cells[b][c];
  fputs("{", out);
  ts_json_key(out, "condition");
  ts_json_string(out, r->conditions[c]);
  fprintf(out, ",\"baseline\":%s,\"n\":%zu,\"mean\":", c == r->baseline ? "true" : "false",
          cell->d.n);
  /* An empty group has no mean or spread, whatever stats_describe zeroed. */
  int has = cell->d.n > 0;
  ts_json_number(out, has ? cell->d.mean : NAN, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "median", has ? cell->d.median : NAN, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "sd", has ? cell->d.sd : NAN, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "cv", has ? cell->d.cv : NAN, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "switches_per_s", r->switches_per_s[c], REPORT_JSON_DIGITS);
  ts_json_string_member(out, "resolution_asked", r->resolution_asked[c]);
  ts_json_string_member(out, "resolution_obtained", r->resolution_obtained[c]);
  ts_json_number_member(out, "timer_resolution_us", r->timer_resolution_us[c], REPORT_JSON_DIGITS);
  ts_json_number_member(out, "timer_overshoot_us", r->timer_overshoot_us[c], REPORT_JSON_DIGITS);
  const blocked_result *cmp = &cell->cmp;
  ts_json_number_member(out, "percent",
                        cell->compared ? cmp->percent : (c == r->baseline && has ? 0 : NAN),
                        REPORT_JSON_DIGITS);
  report_json_comparison(out, cell);
  fputs(",\"verdict\":", out);
  if (cell->compared)
    ts_json_string(out, stats_verdict_name(cmp->verdict));
  else
    ts_json_string(out, has ? "reference" : "no data");
  ts_json_string_member(out, "verdict_text", cell->verdict);
  ts_json_number_member(out, "detectable_percent",
                        cell->compared ? cell->sens.detectable_percent : NAN, REPORT_JSON_DIGITS);
  ts_json_number_member(out, "more_blocks_for_margin",
                        cell->compared && cell->more_blocks_for_margin >= 0
                            ? (double)cell->more_blocks_for_margin
                            : NAN,
                        REPORT_JSON_DIGITS);
  ts_json_number_member(out, "more_minutes_for_margin", report_more_minutes(r, cell),
                        REPORT_JSON_DIGITS);
  write_precision_json(r, b, cell, out);
  fputs("}", out);
}

/* "kernels":[{"name":…,"conditions":[{"condition":…,"verdict":…,"percent":…, the comparison's
   members, "verdict_text":…}]}]: each kernel's comparisons, the compared conditions only. */
static void write_kernels_json(const report_data *r, int b, FILE *out) {
  fputs(",\"kernels\":[", out);
  for (int k = 0; k < r->kernels[b].count; k++) {
    fputs(k ? ",\n {\"name\":" : "\n {\"name\":", out);
    ts_json_string(out, r->kernels[b].names[k]);
    fputs(",\"conditions\":[", out);
    int written = 0;
    for (int c = 0; c < r->condition_count; c++) {
      const report_cell *cell = kernel_cell(r, b, k, c);
      if (!cell->compared)
        continue;
      fputs(written++ ? ",{" : "{", out);
      ts_json_key(out, "condition");
      ts_json_string(out, r->conditions[c]);
      ts_json_string_member(out, "verdict", stats_verdict_name(cell->cmp.verdict));
      ts_json_number_member(out, "percent", cell->cmp.percent, REPORT_JSON_DIGITS);
      report_json_comparison(out, cell);
      ts_json_string_member(out, "verdict_text", cell->verdict);
      fputs("}", out);
    }
    fputs("]}", out);
  }
  fputs("]", out);
}

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  fputs(",\n\"benchmarks\":[", out);
  for (int b = 0; b < r->bench_count; b++) {
    fprintf(out, "%s\n{\"name\":", b ? "," : "");
    ts_json_string(out, r->benches[b]);
    ts_json_string_member(out, "unit", r->units[b]);
    report_json_drift(out, &r->drift[b]);
    fputs(",\"conditions\":[", out);
    for (int c = 0; c < r->condition_count; c++) {
      fputs(c ? ",\n " : "\n ", out);
      write_condition(r, b, c, out);
    }
    fputs("]", out);
    write_kernels_json(r, b, out);
    fputs("}", out);
  }
  fputs("]", out);
}

/* ---- HTML ----------------------------------------------------------------------------------- */

/* Each condition's colour; the baseline is dark grey. */
static const char *condition_color(const report_data *r, int c) {
  if (c == r->baseline || c < 0)
    return "#404040";
  int k = c < r->baseline ? c : c - 1;
  return report_html_palette(k);
}

/* A table cell with `decimals` places (or 3 significant digits when negative) and a suffix. */
static void cell_number(FILE *out, int decimals, const char *suffix, int sign, double value) {
  fputs("<td>", out);
  if (!isfinite(value))
    fputs("-", out);
  else if (decimals < 0)
    fprintf(out, "%.3g", value);
  else
    fprintf(out, sign ? "%+.*f%s" : "%.*f%s", decimals, value, suffix);
  fputs("</td>", out);
}

static void write_table(const report_data *r, int b, FILE *out) {
  fputs("<div class=\"wrap\"><table>\n<thead><tr><th class=\"cond\">condition</th><th>n</th>"
        "<th>mean</th><th>median</th><th>sd</th><th>cv</th><th>switches/s</th><th>vs base</th>"
        "<th>CI (Holm level)</th><th>level</th><th>p</th><th>p Holm</th><th>var ratio</th><th "
        "class=\"cond\">verdict</th>"
        "</tr></thead>\n<tbody>\n",
        out);
  for (int c = 0; c < r->condition_count; c++) {
    const report_cell *cell = &r->cells[b][c];
    int has = cell->d.n > 0;
    fprintf(out, "<tr><td class=\"cond\"><span class=\"swatch\" style=\"background:%s\"></span>",
            condition_color(r, c));
    report_html_name(out, r->conditions[c]);
    fprintf(out, "</td><td>%zu</td>", cell->d.n);
    cell_number(out, 2, "", 0, has ? cell->d.mean : NAN);
    cell_number(out, 2, "", 0, has ? cell->d.median : NAN);
    cell_number(out, 2, "", 0, has ? cell->d.sd : NAN);
    cell_number(out, 1, "&nbsp;%", 0, has ? cell->d.cv * 100 : NAN);
    cell_number(out, 0, "", 0, r->switches_per_s[c]);
    const blocked_result *cmp = &cell->cmp;
    if (!cell->compared) {
      fprintf(out, "<td colspan=\"6\"></td><td class=\"cond verdict ref\">%s</td></tr>\n",
              has ? "reference" : "no data");
      continue;
    }
    cell_number(out, 2, "&nbsp;%", 1, cmp->percent);
    if (isfinite(cmp->ci_low))
      fprintf(out, "<td>[%+.2f, %+.2f]</td>", cmp->ci_low, cmp->ci_high);
    else
      fputs("<td>-</td>", out);
    cell_number(out, 1, "&nbsp;%", 0, isfinite(cmp->ci_low) ? 100 * cmp->confidence : NAN);
    cell_number(out, -1, "", 0, cmp->p);
    cell_number(out, -1, "", 0, cell->p_holm);
    cell_number(out, 2, "", 0, cell->variance_ratio);
    fprintf(out, "<td class=\"cond verdict %s\">",
            report_html_verdict_class(cell->compared, cell->cmp.verdict));
    report_html_text(out, stats_verdict_name(cmp->verdict));
    fputs("</td></tr>\n", out);
  }
  fputs("</tbody></table></div>\n<ul class=\"verdicts\">\n", out);
  for (int c = 0; c < r->condition_count; c++) {
    const report_cell *cell = &r->cells[b][c];
    if (!cell->verdict[0])
      continue;
    fputs("<li><b>", out);
    report_html_name(out, r->conditions[c]);
    fprintf(out, "</b>: <span class=\"verdict %s\">",
            report_html_verdict_class(cell->compared, cell->cmp.verdict));
    report_html_text(out, cell->verdict);
    fputs("</span>", out);
    char sensitivity[400], limit[400];
    if (report_sensitivity_text(r, cell, sensitivity, sizeof sensitivity)) {
      fputs("<br><span class=\"note\">", out);
      report_html_text(out, sensitivity);
      fputs("</span>", out);
    }
    if (report_precision_limit_text(r, b, cell, limit, sizeof limit)) {
      fputs("<br><span class=\"note\">", out);
      report_html_text(out, limit);
      fputs("</span>", out);
    }
    fputs("</li>\n", out);
  }
  fputs("</ul>\n", out);
  char drift[200];
  if (report_drift_text(r, b, drift, sizeof drift)) {
    fprintf(out, "<p class=\"note%s\">Drift: ", r->drift[b].flagged ? " warn" : "");
    report_html_text(out, drift);
    fputs("</p>\n", out);
  }
}

/* Chart 1: each condition's % difference from the baseline, a dot with its interval (at its Holm
   level, the one that decided) as a bar,
   around a zero line, with the equivalence margin shaded. */
static void write_difference_chart(const report_data *r, int b, FILE *out) {
  int rows = 0, off_chart = 0;
  double range = r->margin_pct > 0 ? fmin(r->margin_pct, REPORT_CHART_PERCENT_MAX) : 1.0;
  for (int c = 0; c < r->condition_count; c++) {
    const report_cell *cell = &r->cells[b][c];
    if (!cell->compared || !isfinite(cell->cmp.percent))
      continue;
    rows++;
    double values[3] = {cell->cmp.percent, cell->cmp.ci_low, cell->cmp.ci_high};
    for (int i = 0; i < 3; i++) {
      off_chart |= isfinite(values[i]) && fabs(values[i]) > REPORT_CHART_PERCENT_MAX;
      if (isfinite(values[i]) && fabs(values[i]) > range)
        range = fmin(fabs(values[i]), REPORT_CHART_PERCENT_MAX);
    }
  }
  if (rows == 0)
    return;
  double step = report_html_step(range, 2);
  range = ceil(range * 1.02 / step) * step;
  const double left = 200, right = 730, top = 14, row_h = 30, width = 760;
  double height = top + rows * row_h + 34;
  double bottom = top + rows * row_h;
#define X_OF(v) (left + (report_chart_clamp(v, range) + range) / (2 * range) * (right - left))
  fputs("<figure>\n<figcaption>Difference from the baseline (mean, with its interval at the Holm "
        "level; the shaded band is the equivalence margin)",
        out);
  fputs(off_chart ? REPORT_CHART_EDGE_NOTE "</figcaption>\n" : "</figcaption>\n", out);
  fprintf(out,
          "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"difference from the "
          "baseline per condition\" xmlns=\"http://www.w3.org/2000/svg\">\n",
          width, height);
  double margin = r->margin_pct > 0 ? r->margin_pct : 1.0;
  fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#eef3ea\"/>\n",
          X_OF(-margin), top, X_OF(margin) - X_OF(-margin), bottom - top);
  report_html_percent_axis(out, range, step, left, right, top, bottom);
  int row = 0;
  for (int c = 0; c < r->condition_count; c++) {
    const report_cell *cell = &r->cells[b][c];
    if (!cell->compared || !isfinite(cell->cmp.percent))
      continue;
    double y = top + row * row_h + row_h / 2;
    row++;
    const char *color = condition_color(r, c);
    fputs("<g><title>", out);
    report_html_text(out, r->conditions[c]);
    fputs(": ", out);
    report_html_text(out, cell->verdict);
    fputs("</title>\n", out);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">",
            left - 8, y);
    report_html_short_label(out, r->conditions[c]);
    fputs("</text>\n", out);
    if (isfinite(cell->cmp.ci_low) && isfinite(cell->cmp.ci_high)) {
      double x1 = X_OF(cell->cmp.ci_low), x2 = X_OF(cell->cmp.ci_high);
      fprintf(out,
              "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
              "stroke-width=\"2\"/>\n",
              x1, y, x2, y, color);
      for (int i = 0; i < 2; i++)
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                "stroke-width=\"2\"/>\n",
                i ? x2 : x1, y - 6, i ? x2 : x1, y + 6, color);
    }
    fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>\n</g>\n",
            X_OF(cell->cmp.percent), y, color);
  }
#undef X_OF
  fputs("</svg>\n</figure>\n", out);
}

/* Chart 2: every trial's score of the benchmark against its place in the run, coloured by
   condition (warm-ups hollow), so drift and outliers show. */
static void write_trial_chart(const report_data *r, int b, FILE *out) {
  double lo = INFINITY, hi = -INFINITY;
  int max_seq = 1, points = 0, off_chart = 0;
  for (size_t i = 0; i < r->trial_count; i++) {
    const store_trial_row *row = &r->trials[i].row;
    if (row->seq > max_seq)
      max_seq = row->seq;
    if (row->status != STORE_TRIAL_DONE || strcmp(row->bench, r->benches[b]) != 0 ||
        !isfinite(row->score))
      continue;
    points++;
    off_chart |= fabs(row->score) > REPORT_CHART_SCORE_MAX;
    lo = fmin(lo, report_chart_clamp(row->score, REPORT_CHART_SCORE_MAX));
    hi = fmax(hi, report_chart_clamp(row->score, REPORT_CHART_SCORE_MAX));
  }
  if (points == 0)
    return;
  if (hi - lo < fabs(hi) * 1e-6 + 1e-12) { /* one value: give the axis some height */
    lo -= fabs(lo) * 0.01 + 1;
    hi += fabs(hi) * 0.01 + 1;
  }
  double ystep = report_html_step(hi - lo, 4);
  lo = floor(lo / ystep) * ystep;
  hi = ceil(hi / ystep) * ystep;
  /* The height leaves room under the axis title's descenders (a font's box, not only its baseline).
   */
  const double left = 70, right = 740, top = 10, bottom = 230, width = 760, height = 268;
/* 10 px inside the axis, so the first and last trials are not cut off at its ends. */
#define X_OF(s)                                                                                    \
  (left + 10 + (max_seq > 1 ? ((s)-1) / (double)(max_seq - 1) : 0.5) * (right - left - 20))
#define Y_OF(v)                                                                                    \
  (bottom - (report_chart_clamp(v, REPORT_CHART_SCORE_MAX) - lo) / (hi - lo) * (bottom - top))
  fputs("<figure>\n<figcaption>Every trial's score in run order (hollow: warm-up)", out);
  fputs(off_chart ? " (a score beyond &#177;1e15 is off the chart: drawn at its edge)"
                    "</figcaption>\n"
                  : "</figcaption>\n",
        out);
  fprintf(out,
          "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"scores in run order\" "
          "xmlns=\"http://www.w3.org/2000/svg\">\n",
          width, height);
  for (int tick = 0; ystep > 0 && tick <= REPORT_CHART_TICKS_MAX; tick++) {
    double v = lo + tick * ystep;
    if (v > hi + ystep / 2)
      break;
    double y = Y_OF(v);
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n",
            left, y, right, y);
    fprintf(out,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">"
            "%.4g</text>\n",
            left - 6, y, v);
  }
  double xstep = max_seq > 1 ? report_html_step(max_seq - 1, 8) : 1;
  if (xstep < 1)
    xstep = 1;
  for (int tick = 0; tick <= REPORT_CHART_TICKS_MAX && 1 + tick * xstep <= max_seq + 0.5; tick++)
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n",
            X_OF(1 + tick * xstep), bottom + 16, 1 + tick * xstep);
  fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">trial (run order)</text>\n",
          (left + right) / 2, bottom + 30);
  fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n", left,
          bottom, right, bottom);
  for (size_t i = 0; i < r->trial_count; i++) {
    const store_trial_row *row = &r->trials[i].row;
    if (row->status != STORE_TRIAL_DONE || strcmp(row->bench, r->benches[b]) != 0 ||
        !isfinite(row->score))
      continue;
    const char *color = condition_color(r, report_condition_index(r, row->condition));
    if (row->block == 0)
      fprintf(out,
              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#fff\" stroke=\"%s\" "
              "stroke-width=\"1.5\">",
              X_OF(row->seq), Y_OF(row->score), color);
    else
      fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\">", X_OF(row->seq),
              Y_OF(row->score), color);
    fprintf(out, "<title>trial %d, ", row->seq);
    report_html_text(out, row->condition);
    fprintf(out, ": %.6g</title></circle>\n", row->score);
  }
#undef X_OF
#undef Y_OF
  fputs("</svg>\n<ul class=\"legend\">", out);
  for (int c = 0; c < r->condition_count; c++) {
    fprintf(out, "<li><span class=\"swatch\" style=\"background:%s\"></span>",
            condition_color(r, c));
    report_html_name(out, r->conditions[c]);
    fputs("</li>", out);
  }
  fputs("</ul>\n</figure>\n", out);
}

/* A kernel per row, a compared condition per column, each cell its claim. */
static void write_kernels_html(const report_data *r, int b, FILE *out) {
  if (!has_kernel_verdicts(r, b))
    return;
  fputs("<p class=\"note\">Each kernel, compared as the score is (the score is the primary "
        "endpoint):</p>\n<div class=\"wrap\"><table class=\"kernels\">\n<thead><tr><th "
        "class=\"cond\">kernel</th>",
        out);
  for (int c = 0; c < r->condition_count; c++)
    if (condition_has_kernels(r, b, c)) {
      fputs("<th>", out);
      report_html_text(out, r->conditions[c]);
      fputs("</th>", out);
    }
  fputs("</tr></thead>\n<tbody>\n", out);
  char claim[160];
  for (int k = 0; k < r->kernels[b].count; k++) {
    fputs("<tr><td class=\"cond\">", out);
    report_html_text(out, r->kernels[b].names[k]);
    fputs("</td>", out);
    for (int c = 0; c < r->condition_count; c++) {
      const report_cell *cell = kernel_cell(r, b, k, c);
      if (!condition_has_kernels(r, b, c))
        continue;
      kernel_claim(cell, claim, sizeof claim);
      fputs("<td title=\"", out);
      report_html_text(out, cell->verdict);
      fputs("\">", out);
      report_html_text(out, claim);
      fputs("</td>", out);
    }
    fputs("</tr>\n", out);
  }
  fputs("</tbody></table></div>\n", out);
}

static void write_html(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  if (r->bench_count == 0)
    fputs("<p class=\"note\">No finished trials yet.</p>\n", out);
  for (int b = 0; b < r->bench_count; b++) {
    fputs("<section class=\"bench\">\n<h2>", out);
    report_html_name(out, r->benches[b]);
    fputs(" <span class=\"note\">(", out);
    report_html_text(out, r->units[b][0] ? r->units[b] : "score");
    fputs(", higher is faster)</span></h2>\n", out);
    write_table(r, b, out);
    write_kernels_html(r, b, out);
    write_difference_chart(r, b, out);
    write_trial_chart(r, b, out);
    fputs("</section>\n", out);
  }
}

const report_section report_section_benchmarks = {
    "benchmarks", NULL, NULL, {write_text, write_csv, write_json, write_html}};

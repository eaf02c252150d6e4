/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* html.c - the HTML report of one run: one self-contained page (no scripts, no external files)
   with the run's header, per benchmark the table and verdicts of the text report, and two inline
   SVG charts drawn here: each condition's difference from the baseline with its 95 % CI, and
   every trial's score in run order, to show drift and outliers. */
#include <math.h>
#include <string.h>

#include "calibration.h"
#include "data.h"
#include "threadsoup/parse.h"
#include "threadsoup/utf8.h"

/* Condition names, plan names and host names come from users: every text is escaped. */
static void esc(FILE *out, const char *text) {
  const unsigned char *p = (const unsigned char *)text;
  size_t left = strlen(text);
  while (left > 0) {
    size_t len = ts_utf8_char(p, left);
    if (len == 0)
      fputs("&#xFFFD;", out); /* a byte that is not UTF-8, stored before names were checked */
    else if (len > 1)
      fwrite(p, 1, len, out);
    else if (*p == '&')
      fputs("&amp;", out);
    else if (*p == '<')
      fputs("&lt;", out);
    else if (*p == '>')
      fputs("&gt;", out);
    else if (*p == '"')
      fputs("&quot;", out);
    else if (*p == '\'')
      fputs("&#39;", out);
    else if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
      fputs("&#xFFFD;", out); /* not allowed in HTML text */
    else
      fputc(*p, out);
    len = len ? len : 1;
    p += len;
    left -= len;
  }
}

/* Okabe-Ito colours, told apart by colour-blind readers too; the baseline is dark grey. */
static const char *const palette[] = {"#0072b2", "#e69f00", "#009e73", "#cc79a7",
                                      "#d55e00", "#56b4e9", "#882255", "#999933"};

static const char *condition_color(const report_data *r, int c) {
  if (c == r->baseline || c < 0)
    return "#404040";
  int k = c < r->baseline ? c : c - 1;
  return palette[k % (int)(sizeof palette / sizeof palette[0])];
}

static const char *verdict_class(const report_cell *cell) {
  if (!cell->compared)
    return "ref";
  switch (cell->cmp.verdict) {
  case STATS_SLOWER:
    return "slower";
  case STATS_FASTER:
    return "faster";
  case STATS_NO_EFFECT:
    return "same";
  default:
    return "unsure";
  }
}

static const char style[] =
    "<style>\n"
    ":root{color-scheme:light}\n"
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1a1a1a;"
    "background:#fff;margin:0 auto;max-width:1100px;padding:16px 20px}\n"
    "h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin:1.6em 0 .4em;"
    "border-bottom:2px solid #ddd;padding-bottom:.2em}h3{font-size:1em;margin:1.2em 0 .3em}\n"
    "dl.run{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:.6em 0}\n"
    "dl.run dt{font-weight:600;color:#555}dl.run dd{margin:0;overflow-wrap:anywhere}\n"
    ".wrap{overflow-x:auto}\n"
    "table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.92em}\n"
    "th,td{padding:4px 8px;border-bottom:1px solid #e3e3e3;text-align:right;white-space:nowrap}\n"
    "th{background:#f4f4f4;font-weight:600}\n"
    "td.cond,th.cond{text-align:left;white-space:normal;overflow-wrap:anywhere;max-width:22em}\n"
    ".swatch{display:inline-block;width:.8em;height:.8em;border-radius:50%;margin-right:.4em;"
    "vertical-align:-.05em}\n"
    ".verdict{font-weight:600}.slower{color:#b00020}.faster{color:#1b7f3a}"
    ".same{color:#555}.unsure{color:#8a6100}.ref{color:#555;font-weight:400}\n"
    "ul.verdicts{padding-left:1.2em;margin:.5em 0}ul.verdicts li{margin:.15em 0}\n"
    ".note{color:#555;font-size:.92em}.warn{color:#b00020}\n"
    "figure{margin:1em 0}figcaption{font-size:.9em;color:#444;margin-bottom:.3em}\n"
    "svg{width:100%;height:auto;max-width:760px;display:block}\n"
    "svg text{font:12px system-ui,sans-serif;fill:#333}\n"
    ".legend{list-style:none;padding:0;margin:.3em 0;display:flex;flex-wrap:wrap;gap:4px 16px;"
    "font-size:.9em}\n"
    "@media (max-width:640px){body{padding:10px;font-size:14px}th,td{padding:3px 5px}}\n"
    "@media print{body{max-width:none;padding:0;font-size:10pt}section.bench{break-inside:avoid}"
    "figure{break-inside:avoid}.wrap{overflow:visible}a{color:inherit}}\n"
    "</style>\n";

static void write_header(const report_data *r, FILE *out) {
  const store_run_row *row = &r->run;
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        out);
  fprintf(out, "<title>ThreadSoup run %lld: ", (long long)row->id);
  esc(out, row->plan_name);
  fputs("</title>\n", out);
  fputs(style, out);
  fprintf(out, "</head>\n<body>\n<h1>ThreadSoup run %lld</h1>\n<dl class=\"run\">\n",
          (long long)row->id);
  fputs("<dt>plan</dt><dd>", out);
  esc(out, row->plan_name);
  fputs("</dd>\n<dt>status</dt><dd>", out);
  esc(out, store_run_status_name(row->status));
  fprintf(out, ", %d of %d trials done", row->trials_done, row->trials_total);
  if (row->trials_failed)
    fprintf(out, ", <span class=\"warn\">%d failed</span>", row->trials_failed);
  fputs("</dd>\n", out);
  if (row->status_detail[0]) {
    fputs("<dt>detail</dt><dd>", out);
    esc(out, row->status_detail);
    fputs("</dd>\n", out);
  }
  if (r->have_quiet) {
    fputs("<dt>quiet mode</dt><dd>", out);
    esc(out, r->quiet_line);
    fputs("</dd>\n", out);
  }
  fputs("<dt>started</dt><dd>", out);
  esc(out, row->started_at);
  fputs("</dd>\n<dt>ended</dt><dd>", out);
  esc(out, row->finished_at[0] ? row->finished_at : "-");
  fputs("</dd>\n<dt>machine</dt><dd>", out);
  esc(out, row->host);
  fputs(", ", out);
  esc(out, row->os);
  fputs(", ", out);
  esc(out, row->cpu);
  fputs("</dd>\n</dl>\n", out);
  if (r->pending || r->failed || r->warnings)
    fprintf(out,
            "<p class=\"note\">%d trial(s) pending, %d failed, %d with warnings (a skipped "
            "quiet gate).</p>\n",
            r->pending, r->failed, r->warnings);
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
        "<th>95&nbsp;% CI</th><th>p Welch</th><th>p MW</th><th class=\"cond\">verdict</th>"
        "</tr></thead>\n<tbody>\n",
        out);
  for (int c = 0; c < r->condition_count; c++) {
    const report_cell *cell = &r->cells[b][c];
    int has = cell->d.n > 0;
    fprintf(out, "<tr><td class=\"cond\"><span class=\"swatch\" style=\"background:%s\"></span>",
            condition_color(r, c));
    esc(out, r->conditions[c]);
    fprintf(out, "</td><td>%zu</td>", cell->d.n);
    cell_number(out, 2, "", 0, has ? cell->d.mean : NAN);
    cell_number(out, 2, "", 0, has ? cell->d.median : NAN);
    cell_number(out, 2, "", 0, has ? cell->d.sd : NAN);
    cell_number(out, 1, "&nbsp;%", 0, has ? cell->d.cv * 100 : NAN);
    cell_number(out, 0, "", 0, r->switches_per_s[c]);
    const stats_comparison *cmp = &cell->cmp;
    if (!cell->compared) {
      fprintf(out, "<td colspan=\"4\"></td><td class=\"cond verdict ref\">%s</td></tr>\n",
              has ? "reference" : "no data");
      continue;
    }
    cell_number(out, 2, "&nbsp;%", 1, cmp->percent);
    if (isfinite(cmp->ci95_low))
      fprintf(out, "<td>[%+.2f, %+.2f]</td>", cmp->ci95_low, cmp->ci95_high);
    else
      fputs("<td>-</td>", out);
    cell_number(out, -1, "", 0, cmp->welch.p);
    cell_number(out, -1, "", 0, cmp->mann_whitney.p);
    fprintf(out, "<td class=\"cond verdict %s\">", verdict_class(cell));
    esc(out, stats_verdict_name(cmp->verdict));
    fputs("</td></tr>\n", out);
  }
  fputs("</tbody></table></div>\n<ul class=\"verdicts\">\n", out);
  for (int c = 0; c < r->condition_count; c++) {
    const report_cell *cell = &r->cells[b][c];
    if (!cell->verdict[0])
      continue;
    fputs("<li><b>", out);
    esc(out, r->conditions[c]);
    fprintf(out, "</b>: <span class=\"verdict %s\">", verdict_class(cell));
    esc(out, cell->verdict);
    fputs("</span>", out);
    char sensitivity[200];
    if (report_sensitivity_text(r, cell, sensitivity, sizeof sensitivity)) {
      fputs("<br><span class=\"note\">", out);
      esc(out, sensitivity);
      fputs("</span>", out);
    }
    fputs("</li>\n", out);
  }
  fputs("</ul>\n", out);
  if (isfinite(r->drift[b])) {
    double margin = r->margin_pct > 0 ? r->margin_pct : 1.0;
    int big = fabs(r->drift[b]) > margin;
    fprintf(out,
            "<p class=\"note%s\">Drift: the baseline's later half scored %+.2f&nbsp;%% "
            "against its earlier half%s.</p>\n",
            big ? " warn" : "", r->drift[b],
            big ? " &mdash; more than the margin: the machine changed during the run" : "");
  }
}

/* A round step for about `count` ticks over `span`: 1, 2 or 5 times a power of ten. */
static double nice_step(double span, int count) {
  double raw = span / count;
  double power = pow(10, floor(log10(raw)));
  double f = raw / power;
  return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * power;
}

/* The condition's name, cut to fit the chart's label column (the full name is in the table). */
static void short_label(FILE *out, const char *name) {
  char buf[40];
  size_t len = strlen(name);
  if (len < 28) {
    esc(out, name);
    return;
  }
  /* Cut on a character boundary so the UTF-8 stays valid. */
  size_t cut = 25;
  while (cut > 0 && ((unsigned char)name[cut] & 0xC0) == 0x80)
    cut--;
  memcpy(buf, name, cut);
  buf[cut] = '\0';
  esc(out, buf);
  fputs("&#8230;", out);
}

/* The x axis of a chart of % differences from -range to +range between x = left and right: a
   grid line every step from top to bottom (the zero line darker) and its label under bottom. */
static void percent_axis(FILE *out, double range, double step, double left, double right,
                         double top, double bottom) {
#define X_OF(v) (left + ((v) + range) / (2 * range) * (right - left))
  for (double v = -range; v <= range + step / 2; v += step) {
    double x = X_OF(v);
    int zero = fabs(v) < step / 2;
    fprintf(out,
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
            "stroke-width=\"%s\"/>\n",
            x, top, x, bottom, zero ? "#222" : "#ddd", zero ? "1.5" : "1");
    if (zero)
      fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">0</text>\n", x, bottom + 18);
    else
      fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%+.*f %%</text>\n", x,
              bottom + 18, step < 1 ? (step < 0.1 ? 2 : 1) : 0, v);
  }
#undef X_OF
}

/* Chart 1: each condition's % difference from the baseline, a dot with its 95 % CI as a bar,
   around a zero line, with the equivalence margin shaded. */
static void write_difference_chart(const report_data *r, int b, FILE *out) {
  int rows = 0;
  double range = r->margin_pct > 0 ? r->margin_pct : 1.0;
  for (int c = 0; c < r->condition_count; c++) {
    const report_cell *cell = &r->cells[b][c];
    if (!cell->compared || !isfinite(cell->cmp.percent))
      continue;
    rows++;
    double values[3] = {cell->cmp.percent, cell->cmp.ci95_low, cell->cmp.ci95_high};
    for (int i = 0; i < 3; i++)
      if (isfinite(values[i]) && fabs(values[i]) > range)
        range = fabs(values[i]);
  }
  if (rows == 0)
    return;
  double step = nice_step(range, 2);
  range = ceil(range * 1.02 / step) * step;
  const double left = 200, right = 730, top = 14, row_h = 30, width = 760;
  double height = top + rows * row_h + 34;
  double bottom = top + rows * row_h;
#define X_OF(v) (left + ((v) + range) / (2 * range) * (right - left))
  fputs("<figure>\n<figcaption>Difference from the baseline (mean, with its 95&nbsp;% CI; the "
        "shaded band is the equivalence margin)</figcaption>\n",
        out);
  fprintf(out,
          "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"difference from the "
          "baseline per condition\" xmlns=\"http://www.w3.org/2000/svg\">\n",
          width, height);
  double margin = r->margin_pct > 0 ? r->margin_pct : 1.0;
  fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#eef3ea\"/>\n",
          X_OF(-margin), top, X_OF(margin) - X_OF(-margin), bottom - top);
  percent_axis(out, range, step, left, right, top, bottom);
  int row = 0;
  for (int c = 0; c < r->condition_count; c++) {
    const report_cell *cell = &r->cells[b][c];
    if (!cell->compared || !isfinite(cell->cmp.percent))
      continue;
    double y = top + row * row_h + row_h / 2;
    row++;
    const char *color = condition_color(r, c);
    fputs("<g><title>", out);
    esc(out, r->conditions[c]);
    fputs(": ", out);
    esc(out, cell->verdict);
    fputs("</title>\n", out);
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">",
            left - 8, y);
    short_label(out, r->conditions[c]);
    fputs("</text>\n", out);
    if (isfinite(cell->cmp.ci95_low) && isfinite(cell->cmp.ci95_high)) {
      double x1 = X_OF(cell->cmp.ci95_low), x2 = X_OF(cell->cmp.ci95_high);
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
  int max_seq = 1, points = 0;
  for (size_t i = 0; i < r->trial_count; i++) {
    const store_trial_row *row = &r->trials[i].row;
    if (row->seq > max_seq)
      max_seq = row->seq;
    if (row->status != STORE_TRIAL_DONE || strcmp(row->bench, r->benches[b]) != 0 ||
        !isfinite(row->score))
      continue;
    points++;
    lo = fmin(lo, row->score);
    hi = fmax(hi, row->score);
  }
  if (points == 0)
    return;
  if (hi - lo < fabs(hi) * 1e-6 + 1e-12) { /* one value: give the axis some height */
    lo -= fabs(lo) * 0.01 + 1;
    hi += fabs(hi) * 0.01 + 1;
  }
  double ystep = nice_step(hi - lo, 4);
  lo = floor(lo / ystep) * ystep;
  hi = ceil(hi / ystep) * ystep;
  const double left = 70, right = 740, top = 10, bottom = 230, width = 760, height = 262;
/* 10 px inside the axis, so the first and last trials are not cut off at its ends. */
#define X_OF(s)                                                                                    \
  (left + 10 + (max_seq > 1 ? ((s)-1) / (double)(max_seq - 1) : 0.5) * (right - left - 20))
#define Y_OF(v) (bottom - ((v)-lo) / (hi - lo) * (bottom - top))
  fputs("<figure>\n<figcaption>Every trial's score in run order (hollow: warm-up)</figcaption>\n",
        out);
  fprintf(out,
          "<svg viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"scores in run order\" "
          "xmlns=\"http://www.w3.org/2000/svg\">\n",
          width, height);
  for (double v = lo; v <= hi + ystep / 2; v += ystep) {
    double y = Y_OF(v);
    fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n",
            left, y, right, y);
    fprintf(out,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">"
            "%.4g</text>\n",
            left - 6, y, v);
  }
  double xstep = max_seq > 1 ? nice_step(max_seq - 1, 8) : 1;
  if (xstep < 1)
    xstep = 1;
  for (double s = 1; s <= max_seq + 0.5; s += xstep)
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0f</text>\n", X_OF(s),
            bottom + 16, s);
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
    esc(out, row->condition);
    fprintf(out, ": %.6g</title></circle>\n", row->score);
  }
#undef X_OF
#undef Y_OF
  fputs("</svg>\n<ul class=\"legend\">", out);
  for (int c = 0; c < r->condition_count; c++) {
    fprintf(out, "<li><span class=\"swatch\" style=\"background:%s\"></span>",
            condition_color(r, c));
    esc(out, r->conditions[c]);
    fputs("</li>", out);
  }
  fputs("</ul>\n</figure>\n", out);
}

/* Per condition, its sleepers' timers: only for runs that recorded them. */
static void write_timers(const report_data *r, FILE *out) {
  if (!report_has_timers(r))
    return;
  fputs("<h2>Timers</h2>\n<div class=\"wrap\"><table>\n<thead><tr><th class=\"cond\">condition"
        "</th><th>asked</th><th>obtained</th><th>timer resolution</th><th>1&nbsp;ms sleep late "
        "(median)</th></tr></thead>\n<tbody>\n",
        out);
  for (int c = 0; c < r->condition_count; c++) {
    char resolution[24], late[24];
    format_microseconds(r->timer_resolution_us[c], resolution, sizeof resolution);
    format_microseconds(r->timer_overshoot_us[c], late, sizeof late);
    fputs("<tr><td class=\"cond\">", out);
    esc(out, r->conditions[c]);
    fputs("</td><td>", out);
    esc(out, r->resolution_asked[c][0] ? r->resolution_asked[c] : "-");
    fputs("</td><td>", out);
    esc(out, r->resolution_obtained[c][0] ? r->resolution_obtained[c] : "-");
    fprintf(out, "</td><td>%s</td><td>%s</td></tr>\n", resolution, late);
  }
  fputs("</tbody></table></div>\n", out);
}

/* Where the benchmarks ran: each recorded combination of power source, power throttling and core
   classes with its trials, as the text report lists them. */
static void write_placement(const report_data *r, FILE *out) {
  int shown = 0;
  for (int i = 0; i < r->placement_count; i++) {
    const report_placement *p = &r->placements[i];
    if (!p->power_source[0] && !p->power_throttling[0] && !p->core_classes[0])
      continue;
    if (shown++ == 0)
      fputs("<h2>Where the benchmarks ran</h2>\n<div class=\"wrap\"><table>\n<thead><tr>"
            "<th>trials</th><th>power source</th><th>power throttling</th><th>cores</th></tr>"
            "</thead>\n<tbody>\n",
            out);
    fprintf(out, "<tr><td>%d</td><td>", p->trials);
    esc(out, p->power_source);
    fputs("</td><td>", out);
    esc(out, p->power_throttling);
    fputs("</td><td>", out);
    esc(out, p->core_classes);
    fputs("</td></tr>\n", out);
  }
  if (shown)
    fputs("</tbody></table></div>\n", out);
}

void report_write_html(const report_data *r, FILE *out) {
  write_header(r, out);
  if (r->bench_count == 0)
    fputs("<p class=\"note\">No finished trials yet.</p>\n", out);
  for (int b = 0; b < r->bench_count; b++) {
    fputs("<section class=\"bench\">\n<h2>", out);
    esc(out, r->benches[b]);
    fputs(" <span class=\"note\">(", out);
    esc(out, r->units[b][0] ? r->units[b] : "score");
    fputs(", higher is faster)</span></h2>\n", out);
    write_table(r, b, out);
    write_difference_chart(r, b, out);
    write_trial_chart(r, b, out);
    fputs("</section>\n", out);
  }
  report_write_census_html(r, out);
  report_write_cost_html(r, out);
  report_write_calibration_html(r, out);
  if (r->check_count > 0) {
    fputs("<section class=\"checks\">\n<h2>Machine checks</h2>\n<p class=\"note\">"
          "<code>threadsoup doctor</code>'s quick checks before the first trial, ",
          out);
    esc(out, r->checks[0].checked_at);
    fputs(".</p>\n<table>\n<tr><th>check</th><th>status</th><th>measured</th><th>what to "
          "do</th></tr>\n",
          out);
    for (int i = 0; i < r->check_count; i++) {
      const store_doctor_row *c = &r->checks[i];
      fputs("<tr><td>", out);
      esc(out, c->check);
      fprintf(out, "</td><td class=\"%s\">",
              strcmp(c->status, "fail") == 0 || strcmp(c->status, "warn") == 0 ? "warn" : "ok");
      esc(out, c->status);
      fputs("</td><td>", out);
      esc(out, c->measured);
      fputs("</td><td>", out);
      esc(out, c->advice);
      fputs("</td></tr>\n", out);
    }
    fputs("</table>\n</section>\n", out);
  }
  write_timers(r, out);
  write_placement(r, out);
  fputs("<h2>Plan</h2>\n<pre>", out);
  esc(out, r->run.plan_text);
  fputs("</pre>\n<p class=\"note\">Written by <code>threadsoup report --format html</code> from "
        "the database; scores are higher-is-faster.</p>\n</body>\n</html>\n",
        out);
}

void report_html_text(FILE *out, const char *text) { esc(out, text); }
double report_html_step(double span, int count) { return nice_step(span, count); }
void report_html_style(FILE *out) { fputs(style, out); }
const char *report_html_palette(int k) {
  return palette[k % (int)(sizeof palette / sizeof palette[0])];
}
const char *report_html_verdict_class(const report_cell *cell) { return verdict_class(cell); }
void report_html_short_label(FILE *out, const char *name) { short_label(out, name); }
void report_html_percent_axis(FILE *out, double range, double step, double left, double right,
                              double top, double bottom) {
  percent_axis(out, range, step, left, right, top, bottom);
}

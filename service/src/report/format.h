/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* format.h - the report's format primitives, which know no section: text made printable, CSV
   fields and numbers, HTML text and the HTML page's style, colours and SVG axes (JSON values are
   written by threadsoup/json_write.h). */
#ifndef THREADSOUP_REPORT_FORMAT_H
#define THREADSOUP_REPORT_FORMAT_H

#include <stdio.h>

#include "../stats/stats.h"
#include "data.h"
#include "threadsoup/utf8.h"

/* Names come from the database, which may hold any bytes (stored before every path checked
   them): printed with control characters and stray bytes escaped, so none reaches a terminal. */
#define SHOWN(text, buf) ts_utf8_printable((text), (buf), sizeof(buf))

/* The significant digits of every number in the JSON reports. */
#define REPORT_JSON_DIGITS 10

/* A comparison's facts (cell NULL or not compared: empty), the same in every section and format:
   the interval that decided slower/faster (ci_low, ci_high at ci_confidence), the one that
   decided "no measurable effect" (eq_low, eq_high), the per-comparison and Holm-adjusted p,
   paired or the unpaired fallback, complete blocks, the variance ratio. REPORT_CSV_COMPARISON is
   the CSV's column names in the order report_csv_comparison writes them, each after a comma. */
#define REPORT_CSV_COMPARISON                                                                      \
  "ci_low", "ci_high", "ci_confidence", "eq_low", "eq_high", "p", "p_holm", "paired", "pairs",     \
      "variance_ratio"
void report_csv_comparison(FILE *out, const report_cell *cell);
/* The same as JSON members, each after a comma: "ci":[lo,hi], "ci_confidence",
   "equivalence_interval":[lo,hi], "p", "p_holm", "paired" (true, false, null), "pairs",
   "variance_ratio". */
void report_json_comparison(FILE *out, const report_cell *cell);

/* How a JSON array's elements are laid out: on the array's own line, or each on a line of its
   own after one space (the arrays of rows a reader scans down). */
typedef enum report_json_layout { REPORT_JSON_INLINE, REPORT_JSON_LINES } report_json_layout;
/* Writes element i of a JSON array, from what a section's writers have: the model (NULL for
   report --compare, which has several) and what the section prepared. */
typedef void report_json_element(const report_data *r, const void *prepared, int i, FILE *out);
/* A JSON array of `count` elements, each written by `element`: [a,b], or with REPORT_JSON_LINES
   [\n a,\n b]; [] when empty. */
void report_json_array(FILE *out, report_json_layout layout, int count,
                       report_json_element *element, const report_data *r, const void *prepared);

/* The baseline's drift as JSON members, each after a comma: "baseline_drift_percent" (the change
   over the run), "baseline_drift_ci":[lo,hi], "baseline_drift_flagged" (true: its interval lies
   wholly outside the margin). */
void report_json_drift(FILE *out, const drift_trend *d);

/* A CSV field through the printable filter (line breaks kept), quoted only when it must be
   (RFC 4180), with a leading apostrophe where a spreadsheet would run it as a formula; a CSV
   number, empty when it was not measured. */
void report_csv_field(FILE *out, const char *text);
void report_csv_number(FILE *out, double value);
/* A header's column names (plain words, written as they are), joined by commas. */
void report_csv_names(FILE *out, const char *const *names, size_t count);

/* HTML text, escaped (names come from users): control characters and bytes that are not UTF-8
   become U+FFFD, hidden characters (bidi controls and the other format characters) <U+XXXX>.
   Usable in attributes too. */
void report_html_text(FILE *out, const char *text);
/* A name in element content: escaped as report_html_text and isolated in <bdi>, so a name in a
   right-to-left script cannot reorder the text around it. */
void report_html_name(FILE *out, const char *text);
/* The HTML pages' <style> element. */
void report_html_style(FILE *out);
/* The colour of series k (Okabe-Ito: told apart by colour-blind readers too). */
const char *report_html_palette(int k);
/* A verdict's class: "slower", "faster", "same", "unsure", or "ref" when not compared. */
const char *report_html_verdict_class(int compared, stats_verdict verdict);
/* A name cut to fit a chart's label column (escaped; the full name is in the table). */
void report_html_short_label(FILE *out, const char *name);
/* A chart draws at most this many grid lines along an axis, whatever the numbers. */
#define REPORT_CHART_TICKS_MAX 64
/* Differences beyond this many percent (either way) are drawn at a chart's edge, not to scale:
   a stored score near 0 or near the largest double would otherwise stretch the axis past what a
   double can step through. */
#define REPORT_CHART_PERCENT_MAX 1e6
/* Scores beyond this (either way) are drawn at the trial chart's edge; a score can be no larger
   where it enters (record, import), so only an older database holds one. */
#define REPORT_CHART_SCORE_MAX 1e15
/* A round step for about `count` ticks over `span`: 1, 2 or 5 times a power of ten; 0 when span
   is not a finite number above 0 (the caller then draws no grid). */
double report_html_step(double span, int count);
/* v held to [-limit, limit]; NaN stays NaN. */
double report_chart_clamp(double v, double limit);
/* The note a chart's caption carries when a value was drawn at its edge. */
#define REPORT_CHART_EDGE_NOTE                                                                     \
  " (a difference beyond &#177;1,000,000&nbsp;% is off the chart: drawn at its edge)"
/* The x axis of a chart of % differences, -range to +range drawn from x = left to right: grid
   lines every step from top to bottom, labels under it. */
void report_html_percent_axis(FILE *out, double range, double step, double left, double right,
                              double top, double bottom);

#endif

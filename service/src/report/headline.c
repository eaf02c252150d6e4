/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* headline.c - a run's one-line headline (its most informative compared cell), for the tray's
   notification, the history, and the headline section of the text and HTML reports. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "data.h"
#include "format.h"
#include "headline.h"
#include "section.h"
#include "threadsoup/utf8.h"

/* "15,000 sleepers" when the condition is sleepers alone; else the condition's own text. */
static void condition_label(const char *text, char *buf, size_t len) {
  load_spec spec;
  ts_err err;
  long sleepers = 0;
  int only_sleepers = load_spec_parse(text, &spec, &err) == TS_OK && spec.part_count > 0;
  for (int i = 0; only_sleepers && i < spec.part_count; i++) {
    const load_part *part = &spec.parts[i];
    if (load_part_wakeups_per_s(part) <= 0 || part->scenario->creates_processes ||
        strcmp(part->scenario->name, "sleep") != 0)
      only_sleepers = 0;
    else
      sleepers += part->count;
  }
  if (!only_sleepers) {
    snprintf(buf, len, "%s", text);
    return;
  }
  /* Thousands separated by commas, as the reports write counts. */
  char digits[32], out[48];
  int n = snprintf(digits, sizeof digits, "%ld", sleepers), k = 0;
  for (int i = 0; i < n; i++) {
    if (i > 0 && (n - i) % 3 == 0)
      out[k++] = ',';
    out[k++] = digits[i];
  }
  out[k] = '\0';
  snprintf(buf, len, "%s sleeper%s", out, sleepers == 1 ? "" : "s");
}

static long condition_threads(const char *text) {
  load_spec spec;
  ts_err err;
  return load_spec_parse(text, &spec, &err) == TS_OK ? load_spec_threads(&spec) : 0;
}

int report_headline_pick(const report_data *r, int *bench, int *condition) {
  int best_b = -1, best_c = -1, any_b = -1, any_c = -1;
  double best = -1;
  long any_threads = -1;
  for (int b = 0; b < r->bench_count; b++)
    for (int c = 0; c < r->condition_count; c++) {
      const report_cell *cell = &r->cells[b][c];
      if (!cell->compared || !isfinite(cell->cmp.percent))
        continue;
      stats_verdict v = cell->cmp.verdict;
      if ((v == STATS_SLOWER || v == STATS_FASTER) && fabs(cell->cmp.percent) > best) {
        best = fabs(cell->cmp.percent);
        best_b = b, best_c = c;
      }
      long threads = condition_threads(r->conditions[c]);
      if (threads > any_threads)
        any_threads = threads, any_b = b, any_c = c;
    }
  if (best_b < 0)
    best_b = any_b, best_c = any_c;
  if (best_b < 0)
    return 0;
  *bench = best_b;
  *condition = best_c;
  return 1;
}

/* The headline as written, names as stored (any bytes); report_headline filters it. */
static void headline_raw(const report_data *r, char *buf, size_t len) {
  int b, c;
  if (!report_headline_pick(r, &b, &c)) {
    snprintf(buf, len, "no condition compared with %s",
             r->condition_count > 0 ? r->conditions[r->baseline] : "the baseline");
    return;
  }
  const report_cell *cell = &r->cells[b][c];
  char label[160], spread[96] = "", facts[128] = "";
  condition_label(r->conditions[c], label, sizeof label);
  const blocked_result *cmp = &cell->cmp;
  /* The interval that decided, at its Holm level; real minus signs (U+2212), as the example in
     the user guide reads. */
  if (isfinite(cmp->ci_low))
    snprintf(spread, sizeof spread, " (%.3g %% CI %s%.1f to %s%.1f %%)", 100 * cmp->confidence,
             cmp->ci_low < 0 ? "\xe2\x88\x92" : "", fabs(cmp->ci_low),
             cmp->ci_high < 0 ? "\xe2\x88\x92" : "", fabs(cmp->ci_high));
  if (isfinite(cmp->p))
    snprintf(facts, sizeof facts, "; p %.2g, Holm %.2g, %s", cmp->p, cell->p_holm,
             cmp->paired ? "paired" : "unpaired");
  if (isfinite(cell->variance_ratio)) {
    size_t used = strlen(facts);
    snprintf(facts + used, sizeof facts - used, "%svariance ratio %.2f", used ? ", " : "; ",
             cell->variance_ratio);
  }
  double p = cmp->percent;
  snprintf(buf, len, "%s: %s %s%.1f %%%s, %s%s", label, r->benches[b], p < 0 ? "\xe2\x88\x92" : "+",
           fabs(p), spread, stats_verdict_name(cmp->verdict), facts);
}

/* Its readers print it as it comes (the tray's balloon, history, the text report), so the one
   line goes through the printable filter here: no control or bidi character of a stored name. */
void report_headline(const report_data *r, char *buf, size_t len) {
  char raw[512];
  headline_raw(r, raw, sizeof raw);
  ts_utf8_printable(raw, buf, len);
}

int report_headline_load(store *s, int64_t run_id, char *buf, size_t len, ts_err *err) {
  report_data *r = NULL;
  int rc = report_data_load(s, run_id, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &r, err);
  if (rc != TS_OK)
    return rc;
  report_headline(r, buf, len);
  report_data_free(r);
  return TS_OK;
}

/* "Headline: …" at the top of the text report, under the run's header (none without it). */
static void write_text(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  if (!r->have_run)
    return;
  char line[512];
  report_headline(r, line, sizeof line);
  fprintf(out, "Headline: %s\n", line);
}

/* The same line under the HTML page's header, as a section of its own. */
static void write_html(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  if (!r->have_run)
    return;
  char line[512];
  report_headline(r, line, sizeof line);
  fputs("<section class=\"headline\">\n<h2>Headline</h2>\n<p class=\"headline\">", out);
  report_html_text(out, line);
  fputs("</p>\n</section>\n", out);
}

const report_section report_section_headline = {
    "headline", NULL, NULL, {write_text, NULL, NULL, write_html}};

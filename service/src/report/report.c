/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* text.c - the plain-text report of one run: per benchmark a table of conditions with their
   statistics against the baseline, a verdict for each, and the drift of the baseline; and the
   entry points that pick a format (the statistics themselves are computed once, in data.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibration.h"
#include "data.h"
#include "headline.h"
#include "report.h"
#include "threadsoup/parse.h"
#include "threadsoup/utf8.h"

/* Names come from the database, which may hold any bytes (stored before every path checked
   them): printed with control characters and stray bytes escaped, so none reaches a terminal. */
#define SHOWN(text, buf) ts_utf8_printable((text), (buf), sizeof(buf))

void report_write_text_header(const report_data *r, FILE *out) {
  const store_run_row *row = &r->run;
  char plan_name[256], host[512], os[512], cpu[512], detail[2560];
  fprintf(out, "run %lld: plan %s, %s; started %s%s%s; %d of %d trials done\n", (long long)row->id,
          SHOWN(row->plan_name, plan_name), store_run_status_name(row->status), row->started_at,
          row->finished_at[0] ? ", ended " : "", row->finished_at, row->trials_done,
          row->trials_total);
  fprintf(out, "machine: %s, %s, %s\n", SHOWN(row->host, host), SHOWN(row->os, os),
          SHOWN(row->cpu, cpu));
  if (row->status_detail[0])
    fprintf(out, "detail: %s\n", SHOWN(row->status_detail, detail));
  if (r->have_quiet)
    fprintf(out, "Quiet mode: %s\n", SHOWN(r->quiet_line, detail));
}

/* Per condition, what its sleepers' timers asked for and got: only for runs that recorded it. */
static void write_timers(const report_data *r, FILE *out) {
  if (!report_has_timers(r))
    return;
  char cond[512];
  fprintf(out, "\ntimers: resolution asked and obtained, the OS's timer resolution, how late 1 ms "
               "sleeps end (median)\n");
  fprintf(out, "  %-30s %-13s %-13s %12s %12s\n", "condition", "asked", "obtained", "resolution",
          "1ms late");
  for (int c = 0; c < r->condition_count; c++) {
    char resolution[24], late[24];
    format_microseconds(r->timer_resolution_us[c], resolution, sizeof resolution);
    format_microseconds(r->timer_overshoot_us[c], late, sizeof late);
    fprintf(out, "  %-30s %-13s %-13s %12s %12s\n", SHOWN(r->conditions[c], cond),
            r->resolution_asked[c][0] ? r->resolution_asked[c] : "-",
            r->resolution_obtained[c][0] ? r->resolution_obtained[c] : "-", resolution, late);
  }
}

void report_write_text_body(const report_data *r, FILE *out) {
  char bench[256], unit[128], cond[512], verdict[1024];
  for (int b = 0; b < r->bench_count; b++) {
    fprintf(out, "\n%s (%s, higher is faster)\n", SHOWN(r->benches[b], bench),
            r->units[b][0] ? SHOWN(r->units[b], unit) : "score");
    fprintf(out, "  %-30s %4s %10s %10s %6s %11s %9s %19s %8s %8s\n", "condition", "n", "mean",
            "median", "cv", "switches/s", "vs base", "95% CI", "p Welch", "p MW");
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
      const stats_comparison *cmp = &cell->cmp;
      char ci[40] = "", welch[16] = "", mw[16] = "";
      if (!isnan(cmp->ci95_low))
        snprintf(ci, sizeof ci, "[%+.2f, %+.2f]", cmp->ci95_low, cmp->ci95_high);
      if (!isnan(cmp->welch.p))
        snprintf(welch, sizeof welch, "%.3g", cmp->welch.p);
      if (!isnan(cmp->mann_whitney.p))
        snprintf(mw, sizeof mw, "%.3g", cmp->mann_whitney.p);
      fprintf(out, " %+8.2f%% %19s %8s %8s\n", cmp->percent, ci, welch, mw);
    }
    for (int c = 0; c < r->condition_count; c++) {
      const report_cell *cell = &r->cells[b][c];
      if (!cell->verdict[0])
        continue;
      fprintf(out, "  %s: %s\n", SHOWN(r->conditions[c], cond), SHOWN(cell->verdict, verdict));
      char sensitivity[200];
      if (report_sensitivity_text(r, cell, sensitivity, sizeof sensitivity))
        fprintf(out, "    %s\n", sensitivity);
    }
    double drift = r->drift[b];
    if (!isnan(drift)) {
      double margin = r->margin_pct > 0 ? r->margin_pct : 1.0;
      fprintf(out,
              "  drift: the baseline's later half scored %+.2f %% against its earlier half%s\n",
              drift,
              fabs(drift) > margin ? " - more than the margin: the machine changed during the run"
                                   : "");
    }
  }
  report_write_census_text(r, out);
  report_write_cost_text(r, out);
  report_write_calibration_text(r, out);
  write_timers(r, out);
  if (r->pending || r->failed || r->warnings)
    fprintf(out, "\n%d trial(s) pending, %d failed, %d with warnings (a skipped quiet gate).\n",
            r->pending, r->failed, r->warnings);
  if (r->check_count > 0) {
    char at[64], check[64], measured[1600], advice[1600];
    fprintf(out, "\nMachine checks (threadsoup doctor's quick checks, %s):\n",
            SHOWN(r->checks[0].checked_at, at));
    for (int i = 0; i < r->check_count; i++) {
      const store_doctor_row *c = &r->checks[i];
      fprintf(out, "  %-4s  %-12s %s\n", c->status, SHOWN(c->check, check),
              SHOWN(c->measured, measured));
      if (c->advice[0])
        fprintf(out, "  %-4s  %-12s %s %s\n", "", "",
                strcmp(c->status, "skip") ? "do:" : "why:", SHOWN(c->advice, advice));
    }
  }
}

/* Where the benchmarks ran: power source, power throttling (EcoQoS) and the core classes of the
   CPUs their threads ended on, one line per distinct combination. */
static void write_placement(const report_data *r, FILE *out) {
  fprintf(out, "\nwhere the benchmarks ran:\n");
  for (int i = 0; i < r->placement_count; i++) {
    const report_placement *p = &r->placements[i];
    char source[96], throttling[300], cores[300];
    if (!p->power_source[0] && !p->power_throttling[0] && !p->core_classes[0])
      fprintf(out, "  %d trial(s): not recorded (stored before version 11, or typed in)\n",
              p->trials);
    else
      fprintf(out, "  %d trial(s): power %s, power throttling %s, cores %s\n", p->trials,
              SHOWN(p->power_source, source), SHOWN(p->power_throttling, throttling),
              SHOWN(p->core_classes, cores));
  }
}

int report_text(store *s, int64_t run_id, const plan *p, FILE *out, ts_err *err) {
  report_data *r;
  int rc = report_data_load(s, run_id, p, REPORT_WITH_STATS, &r, err);
  if (rc != TS_OK)
    return rc;
  report_write_text_body(r, out);
  write_placement(r, out);
  report_data_free(r);
  return TS_OK;
}

int report_run(store *s, int64_t run_id, FILE *out, ts_err *err) {
  return report_run_format(s, run_id, REPORT_FORMAT_TEXT, out, err);
}

static const char *const format_names[] = {"text", "csv", "json", "html"};

int report_format_parse(const char *name, report_format *out, ts_err *err) {
  for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
    if (strcmp(name, format_names[i]) == 0) {
      *out = (report_format)i;
      return TS_OK;
    }
  return ts_err_set(err, TS_EUSAGE, "unknown report format '%s' (accepted: text, csv, json, html)",
                    name);
}

int report_run_format(store *s, int64_t run_id, report_format format, FILE *out, ts_err *err) {
  report_data *r;
  /* Only the other formats list every trial; the text report stays as cheap as it was. */
  int flags =
      REPORT_WITH_RUN | REPORT_WITH_STATS | (format == REPORT_FORMAT_TEXT ? 0 : REPORT_WITH_TRIALS);
  int rc = report_data_load(s, run_id, NULL, flags, &r, err);
  if (rc != TS_OK)
    return rc;
  switch (format) {
  case REPORT_FORMAT_TEXT:
    report_write_text_header(r, out);
    report_write_headline_text(r, out);
    report_write_text_body(r, out);
    write_placement(r, out);
    break;
  case REPORT_FORMAT_CSV:
    report_write_csv(r, out);
    break;
  case REPORT_FORMAT_JSON:
    report_write_json(r, out);
    break;
  case REPORT_FORMAT_HTML:
    report_write_html(r, out);
    break;
  }
  report_data_free(r);
  return TS_OK;
}

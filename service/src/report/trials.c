/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* csv.c - the CSV report of one run: one row per trial with a column per metric name that occurs
   in the run, quoted as RFC 4180 says (rows end with "\n": the C library writes CRLF where the
   platform's text files want it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data.h"

/* Whether text is a plain number ("-4.8", "+1e3"): a spreadsheet reads it as one, no formula. */
static int plain_number(const char *text) {
  char *end;
  if (strspn(text, "+-.0123456789eE") != strlen(text))
    return 0;
  strtod(text, &end);
  return end != text && *end == '\0';
}

/* A field is quoted only when it must be: a comma, a quote or a line break inside. Text that a
   spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return before
   one) gets a leading apostrophe, which spreadsheets show as text; plain numbers stay numbers. */
static void csv_field(FILE *out, const char *text) {
  int formula = strchr("=+-@\t\r", text[0]) != NULL && text[0] != '\0' && !plain_number(text);
  if (strpbrk(text, ",\"\r\n") == NULL) {
    if (formula)
      fputc('\'', out);
    fputs(text, out);
    return;
  }
  fputc('"', out);
  if (formula)
    fputc('\'', out);
  for (const char *p = text; *p; p++) {
    if (*p == '"')
      fputc('"', out);
    fputc(*p, out);
  }
  fputc('"', out);
}

/* Numbers that were not measured stay empty, not "nan", so spreadsheets read the column. */
static void csv_number(FILE *out, double value) {
  if (isfinite(value))
    fprintf(out, "%.10g", value);
}

void report_write_csv(const report_data *r, FILE *out) {
  static const char *const columns[] = {"run",
                                        "seq",
                                        "block",
                                        "condition",
                                        "bench",
                                        "status",
                                        "score",
                                        "unit",
                                        "seconds",
                                        "started_at",
                                        "finished_at",
                                        "process_threads",
                                        "warnings",
                                        "resolution_asked",
                                        "resolution_obtained",
                                        "timer_resolution_us",
                                        "power_source",
                                        "power_throttling",
                                        "core_classes"};
  for (size_t i = 0; i < sizeof columns / sizeof columns[0]; i++)
    fprintf(out, "%s%s", i ? "," : "", columns[i]);
  for (size_t k = 0; k < r->metric_name_count; k++) {
    fputc(',', out);
    csv_field(out, r->metric_names[k]);
  }
  fputc('\n', out);
  for (size_t i = 0; i < r->trial_count; i++) {
    const report_trial *t = &r->trials[i];
    const store_trial_row *row = &t->row;
    int done = row->status == STORE_TRIAL_DONE;
    fprintf(out, "%lld,%d,%d,", (long long)r->run_id, row->seq, row->block);
    csv_field(out, row->condition);
    fputc(',', out);
    csv_field(out, row->bench);
    fputc(',', out);
    csv_field(out, store_trial_status_name(row->status));
    fputc(',', out);
    csv_number(out, done ? row->score : NAN);
    fputc(',', out);
    csv_field(out, row->unit);
    fputc(',', out);
    csv_number(out, row->seconds);
    fputc(',', out);
    csv_field(out, row->started_at);
    fputc(',', out);
    csv_field(out, row->finished_at);
    fputc(',', out);
    if (row->process_threads >= 0)
      fprintf(out, "%ld", row->process_threads);
    fputc(',', out);
    csv_field(out, row->warnings);
    fputc(',', out);
    csv_field(out, row->resolution_asked);
    fputc(',', out);
    csv_field(out, row->resolution_obtained);
    fputc(',', out);
    csv_number(out, row->timer_resolution_us);
    fputc(',', out);
    csv_field(out, row->power_source);
    fputc(',', out);
    csv_field(out, row->power_throttling);
    fputc(',', out);
    csv_field(out, row->core_classes);
    for (size_t k = 0; k < r->metric_name_count; k++) {
      fputc(',', out);
      csv_number(out, report_trial_metric(r, t, r->metric_names[k]));
    }
    fputc('\n', out);
  }
  report_write_census_csv(r, out);
}

void report_csv_field(FILE *out, const char *text) { csv_field(out, text); }

void report_csv_number(FILE *out, double value) { csv_number(out, value); }

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* trials.c - the report's trials section: every trial with its metrics, as the CSV report's table
   (a row per trial, a column per metric name in the run; rows end with "\n": the C library writes
   CRLF where the platform's text files want it) and the JSON report's "trials" member. A trial's
   columns are listed once per format here. */
#include <math.h>

#include "format.h"
#include "section.h"
#include "threadsoup/json_write.h"

static void write_csv(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
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
  report_csv_names(out, columns, sizeof columns / sizeof columns[0]);
  for (size_t k = 0; k < r->metric_name_count; k++) {
    fputc(',', out);
    report_csv_field(out, r->metric_names[k]);
  }
  fputc('\n', out);
  for (size_t i = 0; i < r->trial_count; i++) {
    const report_trial *t = &r->trials[i];
    const store_trial_row *row = &t->row;
    int done = row->status == STORE_TRIAL_DONE;
    fprintf(out, "%lld,%d,%d,", (long long)r->run_id, row->seq, row->block);
    report_csv_field(out, row->condition);
    fputc(',', out);
    report_csv_field(out, row->bench);
    fputc(',', out);
    report_csv_field(out, store_trial_status_name(row->status));
    fputc(',', out);
    report_csv_number(out, done ? row->score : NAN);
    fputc(',', out);
    report_csv_field(out, row->unit);
    fputc(',', out);
    report_csv_number(out, row->seconds);
    fputc(',', out);
    report_csv_field(out, row->started_at);
    fputc(',', out);
    report_csv_field(out, row->finished_at);
    fputc(',', out);
    if (row->process_threads >= 0)
      fprintf(out, "%ld", row->process_threads);
    fputc(',', out);
    report_csv_field(out, row->warnings);
    fputc(',', out);
    report_csv_field(out, row->resolution_asked);
    fputc(',', out);
    report_csv_field(out, row->resolution_obtained);
    fputc(',', out);
    report_csv_number(out, row->timer_resolution_us);
    fputc(',', out);
    report_csv_field(out, row->power_source);
    fputc(',', out);
    report_csv_field(out, row->power_throttling);
    fputc(',', out);
    report_csv_field(out, row->core_classes);
    for (size_t k = 0; k < r->metric_name_count; k++) {
      fputc(',', out);
      report_csv_number(out, report_trial_metric(r, t, r->metric_names[k]));
    }
    fputc('\n', out);
  }
}

static void write_trial(const report_data *r, const report_trial *t, FILE *out) {
  const store_trial_row *row = &t->row;
  fprintf(out, "{\"seq\":%d,\"block\":%d,\"condition\":", row->seq, row->block);
  ts_json_string(out, row->condition);
  ts_json_string_member(out, "bench", row->bench);
  ts_json_string_member(out, "status", store_trial_status_name(row->status));
  ts_json_number_member(out, "score", row->status == STORE_TRIAL_DONE ? row->score : NAN,
                        REPORT_JSON_DIGITS);
  ts_json_string_member(out, "unit", row->unit);
  ts_json_number_member(out, "seconds", row->seconds, REPORT_JSON_DIGITS);
  ts_json_string_member(out, "started_at", row->started_at);
  ts_json_string_member(out, "finished_at", row->finished_at);
  ts_json_number_member(out, "process_threads",
                        row->process_threads >= 0 ? (double)row->process_threads : NAN,
                        REPORT_JSON_DIGITS);
  ts_json_string_member(out, "warnings", row->warnings);
  ts_json_string_member(out, "resolution_asked", row->resolution_asked);
  ts_json_string_member(out, "resolution_obtained", row->resolution_obtained);
  ts_json_number_member(out, "timer_resolution_us", row->timer_resolution_us, REPORT_JSON_DIGITS);
  ts_json_string_member(out, "power_source", row->power_source);
  ts_json_string_member(out, "power_throttling", row->power_throttling);
  ts_json_string_member(out, "core_classes", row->core_classes);
  fputs(",\"metrics\":{", out);
  for (size_t i = 0; i < t->metric_count; i++) {
    const report_metric *m = &r->metrics[t->metric_first + i];
    if (i)
      fputc(',', out);
    ts_json_key(out, m->name);
    ts_json_number(out, m->value, REPORT_JSON_DIGITS);
  }
  fputs("}}", out);
}

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  fputs(",\n\"trials\":[", out);
  for (size_t i = 0; i < r->trial_count; i++) {
    fputs(i ? ",\n " : "\n ", out);
    write_trial(r, &r->trials[i], out);
  }
  fputs("]", out);
}

const report_section report_section_trials = {
    "trials", NULL, NULL, {NULL, write_csv, write_json, NULL}};

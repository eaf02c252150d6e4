/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* trials.c - the report's trials section: every trial with its metrics, as the CSV report's table
   (a row per trial, a column per metric name in the run; rows end with "\n": the C library writes
   CRLF where the platform's text files want it) and the JSON report's "trials" member. A trial's
   columns are the store's (store_trial_columns, in their report order), walked by both writers. */
#include "format.h"
#include "section.h"
#include "threadsoup/json_write.h"

/* The shown columns in the reports' order (store_trial_column.report: 1, 2, …); returns how many.
 */
static int shown_columns(const store_trial_column **shown, int max) {
  int n = 0;
  for (int place = 1; n < max; place++) {
    const store_trial_column *found = NULL;
    for (int c = 0; c < store_trial_column_count && !found; c++)
      if (store_trial_columns[c].report == place)
        found = &store_trial_columns[c];
    if (!found)
      break;
    shown[n++] = found;
  }
  return n;
}

static void write_csv_value(FILE *out, store_value v) {
  if (v.type == STORE_VALUE_INT)
    fprintf(out, "%lld", (long long)v.i);
  else if (v.type == STORE_VALUE_REAL)
    report_csv_number(out, v.d);
  else if (v.type == STORE_VALUE_TEXT)
    report_csv_field(out, v.text);
}

static void write_csv(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  const store_trial_column *shown[64];
  int count = shown_columns(shown, 64);
  fputs("run", out);
  for (int c = 0; c < count; c++)
    fprintf(out, ",%s", shown[c]->name);
  for (size_t k = 0; k < r->metric_name_count; k++) {
    fputc(',', out);
    report_csv_field(out, r->metric_names[k]);
  }
  fputc('\n', out);
  for (size_t i = 0; i < r->trial_count && !report_stopped(r, out); i++) {
    const report_trial *t = &r->trials[i];
    fprintf(out, "%lld", (long long)r->run_id);
    for (int c = 0; c < count; c++) {
      fputc(',', out);
      write_csv_value(out, store_trial_value(&t->row, shown[c]));
    }
    for (size_t k = 0; k < r->metric_name_count; k++) {
      fputc(',', out);
      report_csv_number(out, report_trial_metric(r, t, r->metric_names[k]));
    }
    fputc('\n', out);
  }
}

/* A trial as a JSON object: its shown columns in order (the first opens the object), then its
   metrics; a value not recorded is null. */
static void write_trial(const report_data *r, const report_trial *t, FILE *out) {
  const store_trial_column *shown[64];
  int count = shown_columns(shown, 64);
  for (int c = 0; c < count; c++) {
    store_value v = store_trial_value(&t->row, shown[c]);
    fputs(c ? "," : "{", out);
    ts_json_key(out, shown[c]->name);
    if (v.type == STORE_VALUE_INT)
      fprintf(out, "%lld", (long long)v.i);
    else if (v.type == STORE_VALUE_REAL)
      ts_json_number(out, v.d, REPORT_JSON_DIGITS);
    else if (v.type == STORE_VALUE_TEXT)
      ts_json_string(out, v.text);
    else
      fputs("null", out);
  }
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
  for (size_t i = 0; i < r->trial_count && !report_stopped(r, out); i++) {
    fputs(i ? ",\n " : "\n ", out);
    write_trial(r, &r->trials[i], out);
  }
  fputs("]", out);
}

const report_section report_section_trials = {
    "trials", NULL, NULL, {NULL, write_csv, write_json, NULL}};

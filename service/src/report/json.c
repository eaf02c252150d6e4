/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* json.c - the JSON report of one run: the run, its plan, the statistics and verdict of every
   condition of every benchmark, and every trial with its metrics. */
#include <math.h>
#include <string.h>

#include "calibration.h"
#include "data.h"
#include "threadsoup/json_write.h"

/* The escaper is shared with the run export files (threadsoup/json.h). */
static void json_string(FILE *out, const char *text) { ts_json_string(out, text); }

/* JSON has no NaN or infinity: what was not measured is null. */
static void json_number(FILE *out, double value) {
  if (isfinite(value))
    fprintf(out, "%.10g", value);
  else
    fputs("null", out);
}

static void json_key(FILE *out, const char *key) {
  json_string(out, key);
  fputc(':', out);
}

static void write_run(const report_data *r, FILE *out) {
  const store_run_row *row = &r->run;
  fprintf(out, "{\"id\":%lld,", (long long)row->id);
  const char *keys[] = {"plan_name", "status", "status_detail", "started_at", "finished_at", "host",
                        "os",        "cpu"};
  const char *values[] = {row->plan_name,
                          store_run_status_name(row->status),
                          row->status_detail,
                          row->started_at,
                          row->finished_at,
                          row->host,
                          row->os,
                          row->cpu};
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
    json_key(out, keys[i]);
    json_string(out, values[i]);
    fputc(',', out);
  }
  fprintf(out, "\"trials_total\":%d,\"trials_done\":%d,\"trials_failed\":%d,", row->trials_total,
          row->trials_done, row->trials_failed);
  fprintf(out, "\"trials_pending\":%d,\"trials_with_warnings\":%d", r->pending, r->warnings);
  if (r->have_quiet) {
    const store_quiet_entry *q = &r->quiet;
    fprintf(out, ",\"quiet\":{\"defender_asked_off\":%s,\"defender_confirmed\":",
            q->defender_asked ? "true" : "false");
    json_string(out, !q->defender_asked           ? "not asked"
                     : q->defender_confirmed == 1 ? "off (read back)"
                     : q->defender_confirmed == 0 ? "still on"
                                                  : "unknown");
    fputs(",\"update_asked_until\":", out);
    if (q->update_asked_until)
      fprintf(out, "%lld", (long long)q->update_asked_until);
    else
      fputs("null", out);
    report_json_string_member(out, "update_state",
                              q->update_state[0] ? q->update_state : "not-asked");
    report_json_string_member(out, "update_how", q->update_how);
    report_json_string_member(out, "text", r->quiet_line);
    fputc('}', out);
  }
  fputc('}', out);
}

static void write_condition(const report_data *r, int b, int c, FILE *out) {
  const report_cell *cell = &r->cells[b][c];
  fputs("{", out);
  json_key(out, "condition");
  json_string(out, r->conditions[c]);
  fprintf(out, ",\"baseline\":%s,\"n\":%zu,\"mean\":", c == r->baseline ? "true" : "false",
          cell->d.n);
  /* An empty group has no mean or spread, whatever stats_describe zeroed. */
  int has = cell->d.n > 0;
  json_number(out, has ? cell->d.mean : NAN);
  report_json_number_member(out, "median", has ? cell->d.median : NAN);
  report_json_number_member(out, "sd", has ? cell->d.sd : NAN);
  report_json_number_member(out, "cv", has ? cell->d.cv : NAN);
  report_json_number_member(out, "switches_per_s", r->switches_per_s[c]);
  report_json_string_member(out, "resolution_asked", r->resolution_asked[c]);
  report_json_string_member(out, "resolution_obtained", r->resolution_obtained[c]);
  report_json_number_member(out, "timer_resolution_us", r->timer_resolution_us[c]);
  report_json_number_member(out, "timer_overshoot_us", r->timer_overshoot_us[c]);
  const stats_comparison *cmp = &cell->cmp;
  report_json_number_member(out, "percent",
                            cell->compared ? cmp->percent : (c == r->baseline && has ? 0 : NAN));
  fputs(",\"ci95\":", out);
  report_json_range(out, cell->compared && isfinite(cmp->ci95_low), cmp->ci95_low, cmp->ci95_high);
  report_json_number_member(out, "p_welch", cell->compared ? cmp->welch.p : NAN);
  report_json_number_member(out, "p_mw", cell->compared ? cmp->mann_whitney.p : NAN);
  fputs(",\"verdict\":", out);
  if (cell->compared)
    json_string(out, stats_verdict_name(cmp->verdict));
  else
    json_string(out, has ? "reference" : "no data");
  report_json_string_member(out, "verdict_text", cell->verdict);
  report_json_number_member(out, "detectable_percent",
                            cell->compared ? cell->sens.detectable_percent : NAN);
  report_json_number_member(out, "more_blocks_for_margin",
                            cell->compared && cell->more_blocks_for_margin >= 0
                                ? (double)cell->more_blocks_for_margin
                                : NAN);
  report_json_number_member(out, "more_minutes_for_margin", report_more_minutes(r, cell));
  fputs("}", out);
}

static void write_trial(const report_data *r, const report_trial *t, FILE *out) {
  const store_trial_row *row = &t->row;
  fprintf(out, "{\"seq\":%d,\"block\":%d,\"condition\":", row->seq, row->block);
  json_string(out, row->condition);
  report_json_string_member(out, "bench", row->bench);
  report_json_string_member(out, "status", store_trial_status_name(row->status));
  report_json_number_member(out, "score", row->status == STORE_TRIAL_DONE ? row->score : NAN);
  report_json_string_member(out, "unit", row->unit);
  report_json_number_member(out, "seconds", row->seconds);
  report_json_string_member(out, "started_at", row->started_at);
  report_json_string_member(out, "finished_at", row->finished_at);
  report_json_number_member(out, "process_threads",
                            row->process_threads >= 0 ? (double)row->process_threads : NAN);
  report_json_string_member(out, "warnings", row->warnings);
  report_json_string_member(out, "resolution_asked", row->resolution_asked);
  report_json_string_member(out, "resolution_obtained", row->resolution_obtained);
  report_json_number_member(out, "timer_resolution_us", row->timer_resolution_us);
  report_json_string_member(out, "power_source", row->power_source);
  report_json_string_member(out, "power_throttling", row->power_throttling);
  report_json_string_member(out, "core_classes", row->core_classes);
  fputs(",\"metrics\":{", out);
  for (size_t i = 0; i < t->metric_count; i++) {
    const report_metric *m = &r->metrics[t->metric_first + i];
    if (i)
      fputc(',', out);
    json_key(out, m->name);
    json_number(out, m->value);
  }
  fputs("}}", out);
}

void report_write_json(const report_data *r, FILE *out) {
  fputs("{\"run\":", out);
  write_run(r, out);
  report_write_cost_json(r, out);
  fputs(",\n\"plan\":", out);
  json_string(out, r->run.plan_text);
  report_write_census_json(r, out);
  fputs(",\n\"benchmarks\":[", out);
  for (int b = 0; b < r->bench_count; b++) {
    fprintf(out, "%s\n{\"name\":", b ? "," : "");
    json_string(out, r->benches[b]);
    report_json_string_member(out, "unit", r->units[b]);
    report_json_number_member(out, "baseline_drift_percent", r->drift[b]);
    fputs(",\"conditions\":[", out);
    for (int c = 0; c < r->condition_count; c++) {
      fputs(c ? ",\n " : "\n ", out);
      write_condition(r, b, c, out);
    }
    fputs("]}", out);
  }
  fputs("]", out);
  report_write_calibration_json(r, out);
  fputs(",\n\"machine_checks\":[", out);
  for (int i = 0; i < r->check_count; i++) {
    const store_doctor_row *c = &r->checks[i];
    fputs(i ? ",\n " : "\n ", out);
    report_json_check(out, c->check, c->status, c->measured, c->value, c->advice, c->checked_at);
  }
  fputs("],\n\"trials\":[", out);
  for (size_t i = 0; i < r->trial_count; i++) {
    fputs(i ? ",\n " : "\n ", out);
    write_trial(r, &r->trials[i], out);
  }
  fputs("]}\n", out);
}

void report_json_check(FILE *out, const char *check, const char *status, const char *measured,
                       double value, const char *advice, const char *checked_at) {
  const char *keys[] = {"check", "status", "measured"}, *values[] = {check, status, measured};
  fputc('{', out);
  for (int i = 0; i < 3; i++) {
    json_key(out, keys[i]);
    json_string(out, values[i]);
    fputc(',', out);
  }
  json_key(out, "value");
  json_number(out, value);
  fputc(',', out);
  json_key(out, "advice");
  json_string(out, advice);
  if (checked_at) {
    fputc(',', out);
    json_key(out, "checked_at");
    json_string(out, checked_at);
  }
  fputc('}', out);
}

void report_json_string(FILE *out, const char *text) { json_string(out, text); }

void report_json_number(FILE *out, double value) { json_number(out, value); }

void report_json_number_member(FILE *out, const char *key, double value) {
  fprintf(out, ",\"%s\":", key);
  json_number(out, value);
}

void report_json_string_member(FILE *out, const char *key, const char *text) {
  fprintf(out, ",\"%s\":", key);
  json_string(out, text);
}

void report_json_range(FILE *out, int have, double low, double high) {
  if (!have) {
    fputs("null", out);
    return;
  }
  fputc('[', out);
  json_number(out, low);
  fputc(',', out);
  json_number(out, high);
  fputc(']', out);
}

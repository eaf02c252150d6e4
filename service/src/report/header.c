/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* header.c - the report's header section: the run (its plan, status, times, machine and quiet
   mode); in HTML the page's head, in JSON the "run" member, which comes first. */
#include <string.h>

#include "format.h"
#include "section.h"
#include "threadsoup/json_write.h"

static void write_text(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  if (!r->have_run)
    return;
  const store_run_row *row = &r->run;
  char plan_name[256], host[512], os[512], cpu[512], detail[2560], started[160], ended[160];
  fprintf(out, "run %lld: plan %s, %s; started %s%s%s; %d of %d trials done\n", (long long)row->id,
          SHOWN(row->plan_name, plan_name), store_run_status_name(row->status),
          SHOWN(row->started_at, started), row->finished_at[0] ? ", ended " : "",
          SHOWN(row->finished_at, ended), row->trials_done, row->trials_total);
  fprintf(out, "machine: %s, %s, %s\n", SHOWN(row->host, host), SHOWN(row->os, os),
          SHOWN(row->cpu, cpu));
  /* The trial order is replayable: the seed as `run --seed` takes it back. */
  if (strcmp(row->plan_name, "manual") != 0)
    fprintf(out, "seed: %llu (threadsoup run with --seed %llu repeats this trial order)\n",
            (unsigned long long)row->seed, (unsigned long long)row->seed);
  if (row->status_detail[0])
    fprintf(out, "detail: %s\n", SHOWN(row->status_detail, detail));
  if (row->imported_from[0]) {
    char from[2560];
    fprintf(out, "imported from %s on %s: measured on that machine, read here as data only\n",
            SHOWN(row->imported_from, from), SHOWN(row->imported_at, detail));
  }
  if (r->have_quiet)
    fprintf(out, "Quiet mode: %s\n", SHOWN(r->quiet_line, detail));
}

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  const store_run_row *row = &r->run;
  fprintf(out, "\"run\":{\"id\":%lld,", (long long)row->id);
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
    ts_json_key(out, keys[i]);
    ts_json_string(out, values[i]);
    fputc(',', out);
  }
  /* The seed as a string: a 64-bit value is past what a JSON number holds exactly (2^53). */
  fprintf(out, "\"seed\":\"%llu\"", (unsigned long long)row->seed);
  ts_json_string_member(out, "uid", row->uid);
  ts_json_string_member(out, "version", row->version);
  fprintf(out, ",\"logical_cpus\":%d,", row->logical_cpus);
  fprintf(out, "\"trials_total\":%d,\"trials_done\":%d,\"trials_failed\":%d,", row->trials_total,
          row->trials_done, row->trials_failed);
  fprintf(out, "\"trials_pending\":%d,\"trials_with_warnings\":%d", r->pending, r->warnings);
  if (r->have_quiet) {
    const store_quiet_entry *q = &r->quiet;
    fprintf(out, ",\"quiet\":{\"defender_asked_off\":%s,\"defender_confirmed\":",
            q->defender_asked ? "true" : "false");
    ts_json_string(out, !q->defender_asked           ? "not asked"
                        : q->defender_confirmed == 1 ? "off (read back)"
                        : q->defender_confirmed == 0 ? "still on"
                                                     : "unknown");
    fputs(",\"update_asked_until\":", out);
    if (q->update_asked_until)
      fprintf(out, "%lld", (long long)q->update_asked_until);
    else
      fputs("null", out);
    ts_json_string_member(out, "update_state", q->update_state[0] ? q->update_state : "not-asked");
    ts_json_string_member(out, "update_how", q->update_how);
    ts_json_string_member(out, "text", r->quiet_line);
    fputc('}', out);
  }
  fputc('}', out);
}

static void write_html(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  const store_run_row *row = &r->run;
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        out);
  fprintf(out, "<title>ThreadSoup run %lld: ", (long long)row->id);
  report_html_text(out, row->plan_name);
  fputs("</title>\n", out);
  report_html_style(out);
  fprintf(out, "</head>\n<body>\n<h1>ThreadSoup run %lld</h1>\n<dl class=\"run\">\n",
          (long long)row->id);
  fputs("<dt>plan</dt><dd>", out);
  report_html_name(out, row->plan_name);
  fputs("</dd>\n<dt>status</dt><dd>", out);
  report_html_text(out, store_run_status_name(row->status));
  fprintf(out, ", %d of %d trials done", row->trials_done, row->trials_total);
  if (row->trials_failed)
    fprintf(out, ", <span class=\"warn\">%d failed</span>", row->trials_failed);
  fputs("</dd>\n", out);
  if (row->status_detail[0]) {
    fputs("<dt>detail</dt><dd>", out);
    report_html_text(out, row->status_detail);
    fputs("</dd>\n", out);
  }
  if (row->imported_from[0]) {
    fputs("<dt>imported</dt><dd>from ", out);
    report_html_text(out, row->imported_from);
    fputs(" on ", out);
    report_html_text(out, row->imported_at);
    fputs("</dd>\n", out);
  }
  if (r->have_quiet) {
    fputs("<dt>quiet mode</dt><dd>", out);
    report_html_text(out, r->quiet_line);
    fputs("</dd>\n", out);
  }
  fputs("<dt>started</dt><dd>", out);
  report_html_text(out, row->started_at);
  fputs("</dd>\n<dt>ended</dt><dd>", out);
  report_html_text(out, row->finished_at[0] ? row->finished_at : "-");
  fputs("</dd>\n<dt>machine</dt><dd>", out);
  report_html_name(out, row->host);
  fputs(", ", out);
  report_html_name(out, row->os);
  fputs(", ", out);
  report_html_name(out, row->cpu);
  fputs("</dd>\n</dl>\n", out);
}

const report_section report_section_header = {
    "header", NULL, NULL, {write_text, NULL, write_json, write_html}};

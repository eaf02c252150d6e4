/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* timers.c - the report's timers section: per condition, the timer resolution its sleepers asked
   for and obtained, the OS's timer resolution and how late a 1 ms sleep ends; only for runs that
   recorded them. */
#include "format.h"
#include "section.h"
#include "threadsoup/parse.h"

/* Per condition, what its sleepers' timers asked for and got: only for runs that recorded it. */
static void write_text(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  if (!report_has_timers(r))
    return;
  char cond[512];
  fprintf(out, "\ntimers: resolution asked and obtained, the OS's timer resolution, how late 1 ms "
               "sleeps end (median)\n");
  fprintf(out, "  %-30s %-13s %-13s %12s %12s\n", "condition", "asked", "obtained", "resolution",
          "1ms late");
  for (int c = 0; c < r->condition_count; c++) {
    char resolution[24], late[24];
    ts_format_microseconds(r->timer_resolution_us[c], resolution, sizeof resolution);
    ts_format_microseconds(r->timer_overshoot_us[c], late, sizeof late);
    fprintf(out, "  %-30s %-13s %-13s %12s %12s\n", SHOWN(r->conditions[c], cond),
            r->resolution_asked[c][0] ? r->resolution_asked[c] : "-",
            r->resolution_obtained[c][0] ? r->resolution_obtained[c] : "-", resolution, late);
  }
}

/* Per condition, its sleepers' timers: only for runs that recorded them. */
static void write_html(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  if (!report_has_timers(r))
    return;
  fputs("<h2>Timers</h2>\n<div class=\"wrap\"><table>\n<thead><tr><th class=\"cond\">condition"
        "</th><th>asked</th><th>obtained</th><th>timer resolution</th><th>1&nbsp;ms sleep late "
        "(median)</th></tr></thead>\n<tbody>\n",
        out);
  for (int c = 0; c < r->condition_count; c++) {
    char resolution[24], late[24];
    ts_format_microseconds(r->timer_resolution_us[c], resolution, sizeof resolution);
    ts_format_microseconds(r->timer_overshoot_us[c], late, sizeof late);
    fputs("<tr><td class=\"cond\">", out);
    report_html_text(out, r->conditions[c]);
    fputs("</td><td>", out);
    report_html_text(out, r->resolution_asked[c][0] ? r->resolution_asked[c] : "-");
    fputs("</td><td>", out);
    report_html_text(out, r->resolution_obtained[c][0] ? r->resolution_obtained[c] : "-");
    fprintf(out, "</td><td>%s</td><td>%s</td></tr>\n", resolution, late);
  }
  fputs("</tbody></table></div>\n", out);
}

const report_section report_section_timers = {
    "timers", NULL, NULL, {write_text, NULL, NULL, write_html}};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* placement.c - the report's placement section: where the benchmarks ran (power source, power
   throttling, the core classes of the CPUs their threads ended on), one line per distinct
   combination with its trials. */
#include "format.h"
#include "section.h"

/* Where the benchmarks ran: power source, power throttling (EcoQoS) and the core classes of the
   CPUs their threads ended on, one line per distinct combination. */
static void write_text(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
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

/* Where the benchmarks ran: each recorded combination of power source, power throttling and core
   classes with its trials, as the text report lists them. */
static void write_html(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
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
    report_html_text(out, p->power_source);
    fputs("</td><td>", out);
    report_html_text(out, p->power_throttling);
    fputs("</td><td>", out);
    report_html_text(out, p->core_classes);
    fputs("</td></tr>\n", out);
  }
  if (shown)
    fputs("</tbody></table></div>\n", out);
}

const report_section report_section_placement = {
    "placement", NULL, NULL, {write_text, NULL, NULL, write_html}};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* checks.c - the report's machine checks section: threadsoup doctor's quick checks stored with
   the run before its first trial, each with what it measured and what to do. */
#include <string.h>

#include "../doctor/doctor.h"
#include "format.h"
#include "section.h"

static void write_text(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  if (r->check_count > 0) {
    char at[64], status[64], check[64], measured[1600], advice[1600];
    fprintf(out, "\nMachine checks (threadsoup doctor's quick checks, %s):\n",
            SHOWN(r->checks[0].checked_at, at));
    for (int i = 0; i < r->check_count; i++) {
      const store_doctor_row *c = &r->checks[i];
      fprintf(out, "  %-4s  %-12s %s\n", SHOWN(c->status, status), SHOWN(c->check, check),
              SHOWN(c->measured, measured));
      if (c->advice[0])
        fprintf(out, "  %-4s  %-12s %s %s\n", "", "",
                strcmp(c->status, "skip") ? "do:" : "why:", SHOWN(c->advice, advice));
    }
  }
}

static void json_check(const report_data *r, const void *prepared, int i, FILE *out) {
  (void)prepared;
  const store_doctor_row *c = &r->checks[i];
  doctor_json_check(out, c->check, c->status, c->measured, c->value, c->advice, c->checked_at);
}

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  fputs(",\n\"machine_checks\":", out);
  report_json_array(out, REPORT_JSON_LINES, r->check_count, json_check, r, prepared);
}

static void write_html(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  if (r->check_count > 0) {
    fputs("<section class=\"checks\">\n<h2>Machine checks</h2>\n<p class=\"note\">"
          "<code>threadsoup doctor</code>'s quick checks before the first trial, ",
          out);
    report_html_text(out, r->checks[0].checked_at);
    /* Sentences, not numbers: the columns wrap within the page (the numbers' tables stay on one
       line a cell). */
    fputs(".</p>\n<table "
          "class=\"prose\">\n<tr><th>check</th><th>status</th><th>measured</th><th>what to "
          "do</th></tr>\n",
          out);
    for (int i = 0; i < r->check_count; i++) {
      const store_doctor_row *c = &r->checks[i];
      fputs("<tr><td>", out);
      report_html_name(out, c->check);
      fprintf(out, "</td><td class=\"%s\">",
              strcmp(c->status, "fail") == 0 || strcmp(c->status, "warn") == 0 ? "warn" : "ok");
      report_html_text(out, c->status);
      fputs("</td><td>", out);
      report_html_name(out, c->measured);
      fputs("</td><td>", out);
      report_html_name(out, c->advice);
      fputs("</td></tr>\n", out);
    }
    fputs("</table>\n</section>\n", out);
  }
}

const report_section report_section_checks = {
    "checks", NULL, NULL, {write_text, NULL, write_json, write_html}};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* plan.c - the report's plan section: the run's plan as it was stored, in JSON and HTML. */
#include "format.h"
#include "section.h"
#include "threadsoup/json_write.h"

static void write_json(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  fputs(",\n\"plan\":", out);
  ts_json_string(out, r->run.plan_text);
}

static void write_html(const report_data *r, const void *prepared, FILE *out) {
  (void)prepared;
  fputs("<h2>Plan</h2>\n<pre>", out);
  report_html_text(out, r->run.plan_text);
  fputs("</pre>\n", out);
}

const report_section report_section_plan = {
    "plan", NULL, NULL, {NULL, NULL, write_json, write_html}};

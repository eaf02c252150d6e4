/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* report.c - the report's one door (report.h): loads a run's model once, has each section of the
   chosen format prepare what it computes, and writes the sections in that format's order
   (report/sections.c). */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "data.h"
#include "section.h"

/* What a format reads besides the statistics, and what frames its sections. */
typedef struct report_format_info {
  const char *name;
  int flags;         /* report_data_load's REPORT_WITH_* besides the run and its statistics */
  const char *open;  /* before the first section */
  const char *close; /* after the last */
} report_format_info;

/* By report_format. Only the other formats list every trial: the text report stays cheap. */
static const report_format_info formats[REPORT_FORMAT_COUNT] = {
    {"text", 0, "", ""},
    {"csv", REPORT_WITH_TRIALS, "", ""},
    {"json", REPORT_WITH_TRIALS, "{", "}\n"},
    {"html", REPORT_WITH_TRIALS, "",
     "<p class=\"note\">Written by <code>threadsoup report --format html</code> from the database; "
     "scores are higher-is-faster.</p>\n</body>\n</html>\n"},
};

/* The sections of `format` in r, in its order. A section that cannot prepare (no memory, a
   failed read) fails the report before anything is written. */
static int write_sections(store *s, const report_data *r, report_format format, FILE *out,
                          ts_err *err) {
  void **prepared = calloc((size_t)report_section_count, sizeof *prepared);
  if (!prepared)
    return ts_err_set(err, TS_ENOMEM, "no memory for the report");
  int rc = TS_OK;
  for (int i = 0; i < report_section_count && rc == TS_OK; i++) {
    const report_section *section = report_sections[i].section;
    if (section->write[format] && section->prepare)
      rc = section->prepare(s, r, &prepared[i], err);
  }
  if (rc == TS_OK) {
    fputs(formats[format].open, out);
    for (int position = 1; position <= report_section_count; position++)
      for (int i = 0; i < report_section_count; i++) {
        const report_section *section = report_sections[i].section;
        if (report_sections[i].position[format] == position && section->write[format])
          section->write[format](r, prepared[i], out);
      }
    fputs(formats[format].close, out);
  }
  for (int i = 0; i < report_section_count; i++) {
    const report_section *section = report_sections[i].section;
    if (section->release)
      section->release(prepared[i]);
    else
      free(prepared[i]);
  }
  free(prepared);
  return rc;
}

int report_text(store *s, int64_t run_id, const plan *p, FILE *out, ts_err *err) {
  report_data *r;
  /* Without the run's row: its header and headline are left out (the run is still running). */
  int rc = report_data_load(s, run_id, p, REPORT_WITH_STATS, &r, err);
  if (rc != TS_OK)
    return rc;
  rc = write_sections(s, r, REPORT_FORMAT_TEXT, out, err);
  report_data_free(r);
  return rc;
}

int report_run(store *s, int64_t run_id, FILE *out, ts_err *err) {
  return report_run_format(s, run_id, REPORT_FORMAT_TEXT, out, err);
}

int report_format_parse(const char *name, report_format *out, ts_err *err) {
  for (int i = 0; i < REPORT_FORMAT_COUNT; i++)
    if (strcmp(name, formats[i].name) == 0) {
      *out = (report_format)i;
      return TS_OK;
    }
  return ts_err_set(err, TS_EUSAGE, "unknown report format '%s' (accepted: text, csv, json, html)",
                    name);
}

int report_run_format(store *s, int64_t run_id, report_format format, FILE *out, ts_err *err) {
  report_data *r;
  int rc = report_data_load(s, run_id, NULL,
                            REPORT_WITH_RUN | REPORT_WITH_STATS | formats[format].flags, &r, err);
  if (rc != TS_OK)
    return rc;
  rc = write_sections(s, r, format, out, err);
  report_data_free(r);
  return rc;
}

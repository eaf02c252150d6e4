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

/* By report_format. Every format reads every trial, as the census and the time sections of
   each count them (so that, read once, they need no database after report_read); only the other
   formats list them. */
static const report_format_info formats[REPORT_FORMAT_COUNT] = {
    {"text", REPORT_WITH_TRIALS, "", ""},
    {"csv", REPORT_WITH_TRIALS, "", ""},
    {"json", REPORT_WITH_TRIALS, "{", "}\n"},
    {"html", REPORT_WITH_TRIALS, "",
     "<p class=\"note\">Written by <code>threadsoup report --format html</code> from the database; "
     "scores are higher-is-faster.</p>\n</body>\n</html>\n"},
};

struct report_prepared {
  report_data *r;
  report_format format;
  void **prepared; /* by section: what its prepare left */
};

void report_prepared_free(report_prepared *p) {
  if (!p)
    return;
  for (int i = 0; p->prepared && i < report_section_count; i++) {
    const report_section *section = report_sections[i].section;
    if (section->release)
      section->release(p->prepared[i]);
    else
      free(p->prepared[i]);
  }
  free(p->prepared);
  report_data_free(p->r);
  free(p);
}

/* A prepared report holding the model r (its own then) and room for each section's part. */
static int prepared_new(report_data *r, report_format format, report_prepared **out, ts_err *err) {
  report_prepared *p = calloc(1, sizeof *p);
  void **prepared = p ? calloc((size_t)report_section_count, sizeof *prepared) : NULL;
  if (!prepared) {
    free(p);
    report_data_free(r);
    return ts_err_set(err, TS_ENOMEM, "no memory for the report");
  }
  p->r = r;
  p->format = format;
  p->prepared = prepared;
  *out = p;
  return TS_OK;
}

/* Has each section of p's format prepare from its model (and the store s, which may be NULL when
   the model holds every trial). A section that cannot prepare (no memory, a failed read) fails
   the report before anything is written. */
static int prepare_sections(store *s, report_prepared *p, ts_err *err) {
  int rc = TS_OK;
  for (int i = 0; i < report_section_count && rc == TS_OK; i++) {
    const report_section *section = report_sections[i].section;
    if (section->write[p->format] && section->prepare)
      rc = section->prepare(s, p->r, &p->prepared[i], err);
  }
  return rc;
}

int report_write(report_prepared *p, FILE *out, long long max_bytes, int (*stop)(void *ctx),
                 void *stop_ctx, ts_err *err) {
  report_guard guard = {max_bytes, stop, stop_ctx, 0};
  report_data *r = p->r;
  r->guard = &guard;
  report_format format = p->format;
  fputs(formats[format].open, out);
  for (int position = 1; position <= report_section_count && !report_stopped(r, out); position++)
    for (int i = 0; i < report_section_count; i++) {
      const report_section *section = report_sections[i].section;
      if (report_sections[i].position[format] == position && section->write[format])
        section->write[format](r, p->prepared[i], out);
    }
  fputs(formats[format].close, out);
  r->guard = NULL;
  if (!guard.tripped && max_bytes > 0 && ftell(out) > max_bytes) /* the last section's end */
    guard.tripped = REPORT_GUARD_TOO_LARGE;
  if (guard.tripped == REPORT_GUARD_TOO_LARGE) {
    char limit[48];
    snprintf(limit, sizeof limit, max_bytes % (1 << 20) ? "%lld bytes" : "%lld MiB",
             max_bytes % (1 << 20) ? max_bytes : max_bytes >> 20);
    return ts_err_set(err, TS_EFAILED,
                      "the %s report of run %lld is larger than %s, the most written here "
                      "(accepted: a report up to %s; threadsoup report --db writes it whole)",
                      formats[format].name, (long long)r->run_id, limit, limit);
  }
  if (guard.tripped == REPORT_GUARD_STOPPED)
    return ts_err_set(err, TS_EINTERRUPTED, "the report of run %lld was stopped while written",
                      (long long)r->run_id);
  return ferror(out)
             ? ts_err_set(err, TS_EOS, "cannot write the report of run %lld", (long long)r->run_id)
             : TS_OK;
}

/* Prepares and writes the sections of `format` from r, whole. */
static int write_sections(store *s, report_data *r, report_format format, FILE *out, ts_err *err) {
  report_prepared *p;
  int rc = prepared_new(r, format, &p, err);
  if (rc != TS_OK)
    return rc;
  rc = prepare_sections(s, p, err);
  if (rc == TS_OK)
    rc = report_write(p, out, 0, NULL, NULL, err);
  report_prepared_free(p);
  return rc;
}

int report_text(store *s, int64_t run_id, const plan *p, FILE *out, ts_err *err) {
  report_data *r;
  /* Without the run's row: its header and headline are left out (the run is still running). */
  int rc = report_data_load(s, run_id, p, REPORT_WITH_STATS, &r, err);
  return rc == TS_OK ? write_sections(s, r, REPORT_FORMAT_TEXT, out, err) : rc;
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

int report_read(store *s, int64_t run_id, report_format format, report_prepared **out,
                ts_err *err) {
  report_data *r;
  int rc = report_data_read(s, run_id, NULL,
                            REPORT_WITH_RUN | REPORT_WITH_STATS | formats[format].flags, &r, err);
  return rc == TS_OK ? prepared_new(r, format, out, err) : rc;
}

int report_compute(report_prepared *p, ts_err *err) {
  int rc = report_data_compute(p->r, err);
  return rc == TS_OK ? prepare_sections(NULL, p, err) : rc;
}

int report_prepare(store *s, int64_t run_id, report_format format, report_prepared **out,
                   ts_err *err) {
  int rc = report_read(s, run_id, format, out, err);
  if (rc == TS_OK && (rc = report_compute(*out, err)) != TS_OK) {
    report_prepared_free(*out);
    *out = NULL;
  }
  return rc;
}

int report_run_format(store *s, int64_t run_id, report_format format, FILE *out, ts_err *err) {
  report_prepared *p;
  int rc = report_prepare(s, run_id, format, &p, err);
  if (rc != TS_OK)
    return rc;
  rc = report_write(p, out, 0, NULL, NULL, err);
  report_prepared_free(p);
  return rc;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* section.h - one part of a report (the run's header, the benchmarks' tables, the census, the
   cost model, ...): what it computes once, and its writer in each format; report/sections.c
   lists every section with its place in each format. */
#ifndef THREADSOUP_REPORT_SECTION_H
#define THREADSOUP_REPORT_SECTION_H

#include <stdio.h>

#include "data.h"
#include "report.h"

/* Computes once per report what the section's writers share (e.g. the cost fit) and leaves it in
   *prepared, or NULL there when the section has nothing to show (no burn condition: no
   calibration). */
typedef int (*report_prepare_fn)(store *s, const report_data *r, void **prepared, ts_err *err);
/* Writes the section in one format; prepared is what prepare left (NULL without prepare). */
typedef void (*report_write_fn)(const report_data *r, const void *prepared, FILE *out);

typedef struct report_section {
  const char *name;
  report_prepare_fn prepare;                  /* NULL: the writers need only the model */
  void (*release)(void *prepared);            /* frees what prepare left; NULL: free() */
  report_write_fn write[REPORT_FORMAT_COUNT]; /* by report_format; NULL: absent in that format */
} report_section;

/* Each section's file defines one of these, `const report_section report_section_NAME`, which
   the table in sections.c declares and lists in one line. */

/* A section and where it is printed in each format: 1 first, 2 next, ...; 0 where it has no
   writer. The formats print the same sections in orders of their own (JSON keeps the run first
   and the trials last, CSV starts with its table of trials). */
typedef struct report_section_place {
  const report_section *section;
  int position[REPORT_FORMAT_COUNT];
} report_section_place;

/* Every section (report/sections.c), in the text report's order. */
extern const report_section_place report_sections[];
extern const int report_section_count;

#endif

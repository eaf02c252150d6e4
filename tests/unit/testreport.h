/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* testreport.h - renders a stored run's whole report in one format into a string, for the report
   tests to search. */
#ifndef THREADSOUP_TESTREPORT_H
#define THREADSOUP_TESTREPORT_H

#include <stdio.h>
#include <stdlib.h>

#include "../../service/src/report/report.h"
#include "check.h"

/* The report as a string the caller frees; NULL (and a failed check) when it cannot be made. */
static inline char *report_render(store *db, int64_t run_id, report_format format) {
  FILE *f = tmpfile();
  ts_err err;
  CHECK(f != NULL);
  if (!f)
    return NULL;
  CHECK_INT(report_run_format(db, run_id, format, f, &err), TS_OK);
  long size = ftell(f);
  rewind(f);
  char *text = calloc(1, (size_t)size + 1);
  if (text)
    CHECK_INT(fread(text, 1, (size_t)size, f), size);
  fclose(f);
  return text;
}

#endif

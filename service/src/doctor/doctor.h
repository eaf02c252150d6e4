/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* doctor.h - `threadsoup doctor`: checks, on the machine it runs on, each assumption a result
   rests on. Findings (findings.c) < what several checks share (probe.c) < the checks, one file
   each that measures and judges (checks/NAME.c) < their table (checks.c) < the runner, the
   verdict and the text and JSON output (doctor.c). A run stores the quick checks' findings. */
#ifndef THREADSOUP_DOCTOR_H
#define THREADSOUP_DOCTOR_H

#include <stdint.h>
#include <stdio.h>

#include "checks.h"
#include "findings.h"
#include "threadsoup/err.h"

#define DOCTOR_MAX_FINDINGS 24

typedef struct doctor_report {
  int count;
  doctor_finding findings[DOCTOR_MAX_FINDINGS];
  int ok, warned, failed, skipped;
  uint64_t elapsed_ns;
} doctor_report;

/* Runs the checks whose kind shares a bit with `kinds` and none with `exclude`, in table order. */
void doctor_run(const doctor_context *ctx, int kinds, int exclude, doctor_report *out);
/* Runs the one check called `name` (as `threadsoup doctor` prints it); 0 when there is none. */
int doctor_run_one(const doctor_context *ctx, const char *name, doctor_finding *out);
/* Adds a finding to the report's counts (doctor_run does it for each check). */
void doctor_count(doctor_report *r);
/* 1 when every finding holds (none failed). */
int doctor_holds(const doctor_report *r);

/* The report for people: one block per check, then the verdict line. */
void doctor_write_text(const doctor_report *r, FILE *out);
/* The same as one JSON object: {"verdict", "elapsed_ms", "checks": [...]}. */
void doctor_write_json(const doctor_report *r, FILE *out);
/* One machine check as a JSON object (check, status, measured, value, advice, and checked_at
   unless NULL): `threadsoup doctor --json` and the checks stored with a run in its reports. */
void doctor_json_check(FILE *out, const char *check, const char *status, const char *measured,
                       double value, const char *advice, const char *checked_at);
/* One line: "machine checks: 9 hold (2 with a warning), 1 fails (pids-max), 2 skipped; 140 ms". */
void doctor_summary(const doctor_report *r, char *buf, size_t len);

/* Before a run's first trial: runs the quick checks as the running process sees them (its own
   limits; no client checks), stores the findings with the run (replacing an earlier sitting's)
   and writes a note for the run's output: the summary line and one line per check that warns or
   fails. The limits leave room for `load_tasks` (doctor_context's). TS_OK unless storing failed;
   the checks never stop a run. */
struct store;
int doctor_check_run(struct store *s, int64_t run_id, long load_tasks, char *note, size_t len,
                     ts_err *err);

#endif

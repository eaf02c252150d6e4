/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* findings.h - what one machine check found: its status (ok, warn, fail, skip), what it measured
   and what to do; the bottom of the doctor, used by the checks and the runner alike. */
#ifndef THREADSOUP_DOCTOR_FINDINGS_H
#define THREADSOUP_DOCTOR_FINDINGS_H

/* ok and warn hold (warn is printed: the result holds, but read it knowing this); fail does
   not hold and makes the verdict 1; skip is a check that cannot be made here, with why. */
typedef enum doctor_status { DOCTOR_OK, DOCTOR_WARN, DOCTOR_FAIL, DOCTOR_SKIP } doctor_status;

#define DOCTOR_NAME_MAX 32
#define DOCTOR_TEXT_MAX 384

typedef struct doctor_finding {
  char check[DOCTOR_NAME_MAX];
  doctor_status status;
  char measured[DOCTOR_TEXT_MAX]; /* what was measured, in words with the numbers */
  double value;                   /* the main number; NaN when none */
  char advice[DOCTOR_TEXT_MAX];   /* what to do (warn, fail), or why it was skipped; "" when ok */
} doctor_finding;

const char *doctor_status_name(doctor_status s);
/* "ok", "warn", "fail", "skip" back to a status; -1 for anything else. */
int doctor_status_parse(const char *name);

/* Fills a finding (printf-style measured text). */
void doctor_set(doctor_finding *out, doctor_status status, double value, const char *advice,
                const char *measured_format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif

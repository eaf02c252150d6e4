/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* findings.c - a finding's status words and the one way a check fills its finding. */
#include "findings.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const status_names[] = {"ok", "warn", "fail", "skip"};

const char *doctor_status_name(doctor_status s) { return (unsigned)s < 4 ? status_names[s] : "?"; }

int doctor_status_parse(const char *name) {
  for (int i = 0; i < 4; i++)
    if (strcmp(name, status_names[i]) == 0)
      return i;
  return -1;
}

void doctor_set(doctor_finding *out, doctor_status status, double value, const char *advice,
                const char *measured_format, ...) {
  out->status = status;
  out->value = value;
  snprintf(out->advice, sizeof out->advice, "%s", advice ? advice : "");
  va_list ap;
  va_start(ap, measured_format);
  vsnprintf(out->measured, sizeof out->measured, measured_format, ap);
  va_end(ap);
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* probe.c - what several machine checks share, written once: Wine, one more sentence of a
   finding, the order of doubles, the task limits and the tasks the largest load needs. */
#include "probe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The service's own threads beside its load (connections, runner, scheduler), with room. */
#define DOCTOR_SERVICE_TASKS 64

/* The Wine version when under Wine, else NULL (tests set ctx->wine; "" means not Wine). */
const char *doctor_wine(const doctor_context *ctx) {
  const char *wine = ctx->wine ? ctx->wine : plat_wine_version();
  return wine && *wine ? wine : NULL;
}

/* Appends a sentence to a finding's measured text. */
void doctor_add_measured(doctor_finding *out, const char *sentence) {
  size_t n = strlen(out->measured);
  snprintf(out->measured + n, sizeof out->measured - n, "%s", sentence);
}

int doctor_compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The limits, or a skip saying why there are none; 0 when out was filled. */
int doctor_limits_of(const doctor_context *ctx, const char *what, plat_task_limits *own,
                     const plat_task_limits **l, doctor_finding *out) {
  ts_err err;
  *l = ctx->limits;
  if (*l)
    return 1;
  if (plat_task_limits_read(ctx->root, !ctx->in_run, own, &err) != TS_OK) {
    doctor_set(out, DOCTOR_SKIP, NAN, err.text, "%s: Linux only", what);
    return 0;
  }
  *l = own;
  return 1;
}

long doctor_machine_tasks(const doctor_context *ctx) {
  plat_census m;
  ts_err err;
  if (ctx->machine_tasks >= 0)
    return ctx->machine_tasks;
  return plat_census_machine(&m, &err) == TS_OK ? m.threads : 0;
}

void doctor_judge_machine_limit(const char *what, long limit, long need, long running,
                                const char *raise, doctor_finding *out) {
  if (limit == PLAT_LIMIT_UNKNOWN) {
    doctor_set(out, DOCTOR_SKIP, NAN, "/proc/sys/kernel is not readable here", "%s unknown", what);
    return;
  }
  long want = need + running;
  if (limit == PLAT_LIMIT_NONE || limit >= want)
    doctor_set(out, DOCTOR_OK, (double)limit, "",
               "%s %ld: room for the largest preset's %ld tasks beside the %ld running now", what,
               limit, need, running);
  else
    doctor_set(out, DOCTOR_FAIL, (double)limit, raise,
               "%s %ld: the largest preset needs %ld tasks beside the %ld running now (%ld)", what,
               limit, need, running, want);
}

long doctor_need_tasks(const doctor_context *ctx) { return ctx->load_tasks + DOCTOR_SERVICE_TASKS; }

const plat_sleep_facts *doctor_sleep_facts(const doctor_context *ctx, plat_sleep_facts *own) {
  if (ctx->sleep_facts)
    return ctx->sleep_facts;
  plat_sleep_facts_read(own);
  return own;
}

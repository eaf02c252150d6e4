/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* probe.h - what several machine checks share (checks/): Wine, one more sentence of a
   finding, the task limits and the tasks the largest load needs; written once, not per check. */
#ifndef THREADSOUP_DOCTOR_PROBE_H
#define THREADSOUP_DOCTOR_PROBE_H

#include "checks.h"
#include "findings.h"
#include "threadsoup/plat_doctor.h"

/* The Wine version when under Wine, else NULL (tests set ctx->wine; "" means not Wine). */
const char *doctor_wine(const doctor_context *ctx);
/* Appends a sentence to a finding's measured text. */
void doctor_add_measured(doctor_finding *out, const char *sentence);
/* qsort's order of doubles, smallest first (medians and percentiles). */
int doctor_compare_doubles(const void *a, const void *b);

/* The limits (ctx's, else read into `own`), or a skip saying why there are none ("WHAT: Linux
   only"); 0 when out was filled. */
int doctor_limits_of(const doctor_context *ctx, const char *what, plat_task_limits *own,
                     const plat_task_limits **l, doctor_finding *out);
/* Tasks running on the machine now (ctx's, else counted). */
/* The power plan's facts the context gives, or else this machine's, read into *own. */
const plat_sleep_facts *doctor_sleep_facts(const doctor_context *ctx, plat_sleep_facts *own);
long doctor_machine_tasks(const doctor_context *ctx);
/* Tasks the largest load needs, the service's own threads included. */
long doctor_need_tasks(const doctor_context *ctx);
/* A machine-wide limit (`what`, such as kernel.pid_max) against `need` tasks of the load beside
   the `running` ones; `raise` says how to raise it. */
void doctor_judge_machine_limit(const char *what, long limit, long need, long running,
                                const char *raise, doctor_finding *out);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* threads_max.c - the threads-max check: kernel.threads-max against the largest load and the tasks
   running now. */
#include <math.h>

#include "../checks.h"
#include "../probe.h"

void doctor_judge_threads_max(const plat_task_limits *l, long need, long running,
                              doctor_finding *out) {
  doctor_judge_machine_limit("kernel.threads-max", l->threads_max, need, running,
                             "raise it: sudo sysctl -w kernel.threads-max=1000000, and keep it in "
                             "/etc/sysctl.d/90-threadsoup.conf",
                             out);
}

static void check_threads_max(const doctor_context *ctx, doctor_finding *out) {
  plat_task_limits own;
  const plat_task_limits *l;
  if (doctor_limits_of(ctx, "kernel.threads-max", &own, &l, out))
    doctor_judge_threads_max(l, doctor_need_tasks(ctx), doctor_machine_tasks(ctx), out);
}

const doctor_check doctor_check_threads_max = {
    "threads-max", "kernel.threads-max leaves room for the largest load", DOCTOR_CHEAP,
    check_threads_max};

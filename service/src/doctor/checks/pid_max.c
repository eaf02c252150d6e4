/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* pid_max.c - the pid-max check: kernel.pid_max against the largest load and the tasks
   running now. */
#include <math.h>

#include "../checks.h"
#include "../probe.h"

void doctor_judge_pid_max(const plat_task_limits *l, long need, long running, doctor_finding *out) {
  doctor_judge_machine_limit("kernel.pid_max", l->pid_max, need, running,
                             "raise it: sudo sysctl -w kernel.pid_max=4194304, and keep it in "
                             "/etc/sysctl.d/90-threadsoup.conf",
                             out);
}

static void check_pid_max(const doctor_context *ctx, doctor_finding *out) {
  plat_task_limits own;
  const plat_task_limits *l;
  if (doctor_limits_of(ctx, "kernel.pid_max", &own, &l, out))
    doctor_judge_pid_max(l, doctor_need_tasks(ctx), doctor_machine_tasks(ctx), out);
}

const doctor_check doctor_check_pid_max = {
    "pid-max", "kernel.pid_max leaves room for the largest load", DOCTOR_CHEAP, check_pid_max};

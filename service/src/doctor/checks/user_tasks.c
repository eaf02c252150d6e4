/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* user_tasks.c - the user-tasks check: the per-user task limit (RLIMIT_NPROC) against the
   largest load. */
#include <math.h>

#include "../checks.h"
#include "../probe.h"

void doctor_judge_user_tasks(const plat_task_limits *l, long need, doctor_finding *out) {
  if (l->uid == 0)
    doctor_set(out, DOCTOR_OK, NAN, "", "%s runs as root: the per-user task limit does not bind",
               l->whose);
  else if (l->nproc_soft == PLAT_LIMIT_UNKNOWN)
    doctor_set(out, DOCTOR_SKIP, NAN, "/proc/PID/limits is not readable here",
               "per-user task limit of %s unknown", l->whose);
  else if (l->nproc_soft == PLAT_LIMIT_NONE || l->nproc_soft >= need)
    doctor_set(out, DOCTOR_OK, (double)l->nproc_soft, "",
               "per-user task limit of %s (uid %ld): %ld; the largest preset needs %ld", l->whose,
               l->uid, l->nproc_soft, need);
  else
    doctor_set(out, DOCTOR_FAIL, (double)l->nproc_soft,
               "run as root (the service does), or raise it: ulimit -u / LimitNPROC=",
               "per-user task limit of %s (uid %ld): %ld, under the largest preset's %ld tasks",
               l->whose, l->uid, l->nproc_soft, need);
}

static void check_user_tasks(const doctor_context *ctx, doctor_finding *out) {
  plat_task_limits own;
  const plat_task_limits *l;
  if (doctor_limits_of(ctx, "RLIMIT_NPROC", &own, &l, out))
    doctor_judge_user_tasks(l, doctor_need_tasks(ctx), out);
}

const doctor_check doctor_check_user_tasks = {
    "user-tasks", "the per-user task limit (RLIMIT_NPROC) allows the largest load", DOCTOR_CHEAP,
    check_user_tasks};

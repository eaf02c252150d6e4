/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* pids_max.c - the pids-max check: the task limit of the service's cgroup (pids.max, TasksMax)
   against the largest load. */
#include <math.h>
#include <string.h>

#include "../checks.h"
#include "../probe.h"

void doctor_judge_pids_max(const plat_task_limits *l, long need, doctor_finding *out) {
  if (l->pids_max == PLAT_LIMIT_NONE || l->pids_max == PLAT_LIMIT_UNKNOWN)
    doctor_set(out, DOCTOR_OK, NAN, "", "no cgroup task limit (pids.max) over %s", l->whose);
  else if (l->pids_max >= need)
    doctor_set(out, DOCTOR_OK, (double)l->pids_max, "",
               "pids.max %ld at %s, over %s: room for the largest preset's %ld tasks", l->pids_max,
               l->pids_max_at, l->whose, need);
  else
    doctor_set(out, DOCTOR_FAIL, (double)l->pids_max,
               strstr(l->whose, "unit")
                   ? "set TasksMax=infinity in the unit (installer/threadsoup.service has it): "
                     "sudo systemctl edit threadsoup, then restart it"
                   : "run from a cgroup without this limit: for the service, TasksMax=infinity "
                     "in its unit (installer/threadsoup.service has it); for a login, "
                     "UserTasksMax/TasksMax of the user slice",
               "pids.max %ld at %s, over %s: the largest preset needs %ld tasks (systemd's "
               "default TasksMax is 15 %% of pid_max)",
               l->pids_max, l->pids_max_at, l->whose, need);
}

static void check_pids_max(const doctor_context *ctx, doctor_finding *out) {
  plat_task_limits own;
  const plat_task_limits *l;
  if (doctor_limits_of(ctx, "a cgroup's pids.max (TasksMax)", &own, &l, out))
    doctor_judge_pids_max(l, doctor_need_tasks(ctx), out);
}

const doctor_check doctor_check_pids_max = {
    "pids-max", "the service's cgroup (TasksMax) allows the largest load", DOCTOR_CHEAP,
    check_pids_max};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* open_files.c - the open-files check: the open-file limit against what the service needs. */
#include <math.h>

#include "../checks.h"
#include "../probe.h"

/* Open files the service needs: its sockets, the database and the one lifeline pipe. */
#define DOCTOR_NEED_FILES 256

void doctor_judge_open_files(const plat_task_limits *l, doctor_finding *out) {
  if (l->nofile_soft == PLAT_LIMIT_UNKNOWN)
    doctor_set(out, DOCTOR_SKIP, NAN, "/proc/PID/limits is not readable here",
               "open-file limit of %s unknown", l->whose);
  else if (l->nofile_soft == PLAT_LIMIT_NONE || l->nofile_soft >= DOCTOR_NEED_FILES)
    doctor_set(out, DOCTOR_OK, (double)l->nofile_soft, "",
               "open files of %s: %ld (hard %ld); the service needs about %d (all idle "
               "children share one pipe)",
               l->whose, l->nofile_soft, l->nofile_hard, DOCTOR_NEED_FILES);
  else
    doctor_set(out, DOCTOR_WARN, (double)l->nofile_soft,
               "raise it: LimitNOFILE=65536 in the unit, or ulimit -n 65536",
               "open files of %s: %ld (hard %ld), under the %d the service may need", l->whose,
               l->nofile_soft, l->nofile_hard, DOCTOR_NEED_FILES);
}

static void check_open_files(const doctor_context *ctx, doctor_finding *out) {
  plat_task_limits own;
  const plat_task_limits *l;
  if (doctor_limits_of(ctx, "RLIMIT_NOFILE", &own, &l, out))
    doctor_judge_open_files(l, out);
}

const doctor_check doctor_check_open_files = {"open-files",
                                              "the open-file limit leaves room for the service",
                                              DOCTOR_CHEAP, check_open_files};

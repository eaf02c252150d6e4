/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* rights.c - the rights check: what the caller's rights let it do with the service. */
#include <math.h>

#include "../checks.h"
#include "../probe.h"

void doctor_judge_rights(const plat_rights *r, doctor_finding *out) {
  if (!r->windows) {
    if (r->root)
      doctor_set(out, DOCTOR_OK, 2, "",
                 "%s runs as root: may control load, experiments, schedules "
                 "and quiet mode, and run command benchmarks",
                 r->user);
    else if (r->group_member)
      doctor_set(out, DOCTOR_OK, 1, "",
                 "%s is in group threadsoup: may start and stop load and experiments of presets "
                 "and stored plans (command benchmarks stay with root)",
                 r->user);
    else
      doctor_set(out, DOCTOR_WARN, 0,
                 r->group_exists ? "join the group (sudo usermod -aG threadsoup USER, then log in "
                                   "again) or run as root"
                                 : "group threadsoup does not exist: `sudo threadsoup service "
                                   "install` creates it; or run as root",
                 "%s is neither root nor in group threadsoup: the service's socket (mode 0660, "
                 "group threadsoup) is closed to it, status and reports included",
                 r->user);
    return;
  }
  if (r->system == 1 || (r->admin_enabled == 1 && r->elevated != 0))
    doctor_set(out, DOCTOR_OK, 2, "",
               "%s is %s: may control everything, command benchmarks included", r->user,
               r->system == 1 ? "LocalSystem" : "an elevated administrator");
  else if (r->users_group_member == 1)
    doctor_set(out, DOCTOR_OK, 1, "",
               "%s is in ThreadSoup Users: may start and stop load and experiments of presets and "
               "stored plans (command benchmarks stay with elevated administrators)",
               r->user);
  else if (r->admin_filtered == 1)
    doctor_set(out, DOCTOR_WARN, 0, "join ThreadSoup Users or run elevated (Run as administrator)",
               "%s is an administrator whose rights are not elevated (UAC): the service refuses "
               "control to this token",
               r->user);
  else
    doctor_set(out, DOCTOR_WARN, 0, "join ThreadSoup Users, or run elevated as an administrator",
               "%s is neither an elevated administrator nor in ThreadSoup Users: the service "
               "answers status and reports only",
               r->user);
}

static void check_rights(const doctor_context *ctx, doctor_finding *out) {
  plat_rights own;
  ts_err err;
  const plat_rights *r = ctx->rights;
  if (!r) {
    if (plat_rights_read(&own, &err) != TS_OK) {
      doctor_set(out, DOCTOR_FAIL, NAN, "run the doctor again as the user who controls the service",
                 "cannot read this process's rights: %s", err.text);
      return;
    }
    r = &own;
  }
  doctor_judge_rights(r, out);
  if (r->windows && doctor_wine(ctx))
    doctor_add_measured(out,
                        "; Wine has no UAC: its user is always an elevated administrator, so the "
                        "case of a default Windows install (rights not elevated) shows only there");
}

const doctor_check doctor_check_rights = {"rights", "this user may control the service",
                                          DOCTOR_CHEAP | DOCTOR_CLIENT, check_rights};

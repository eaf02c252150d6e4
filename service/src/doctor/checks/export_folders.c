/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* export_folders.c - the export-folders check: the folders this machine's schedules export runs
   to sit below no folder others can write, so no one else can replace the files read later. */
#include <math.h>
#include <stdio.h>

#include "../checks.h"

void doctor_judge_export_folders(int count, int exposed, const char *first, doctor_finding *out) {
  if (count == 0)
    doctor_set(out, DOCTOR_SKIP, 0, "no schedule here exports its runs (export-to)",
               "no export folder to look at");
  else if (exposed)
    doctor_set(out, DOCTOR_FAIL, exposed,
               "move the export folder, or take others' write away from it and the folders above "
               "it (chmod go-w, or the sticky bit); whoever can write there can replace the files "
               "other machines import",
               "%d of %d export folder%s exposed: %s", exposed, count, count == 1 ? "" : "s",
               first);
  else
    doctor_set(out, DOCTOR_OK, count, "",
               "%d export folder%s, and every folder above %s, writable only by their owners and "
               "root (or with the sticky bit)",
               count, count == 1 ? "" : "s", count == 1 ? "it" : "them");
}

static void check_export_folders(const doctor_context *ctx, doctor_finding *out) {
  char reason[600], first[600] = "";
  int exposed = 0;
  ts_err err;
  if (!ctx->export_folders) {
    doctor_set(
        out, DOCTOR_SKIP, NAN,
        "the schedules were not read (the service's database is not there, or not yours to read)",
        "export folders not known");
    return;
  }
  for (int i = 0; i < ctx->export_folder_count; i++) {
    int open = 0;
    if (plat_folder_tree_exposed(ctx->export_folders[i], &open, reason, sizeof reason, &err) !=
        TS_OK) {
      open = 1;
      snprintf(reason, sizeof reason, "%s", err.text);
    }
    if (open && !exposed++)
      snprintf(first, sizeof first, "%s", reason);
  }
  doctor_judge_export_folders(ctx->export_folder_count, exposed, first, out);
}

const doctor_check doctor_check_export_folders = {
    "export-folders",
    "the export folders of this machine's schedules sit below no folder others can write",
    DOCTOR_CHEAP | DOCTOR_CLIENT, check_export_folders};

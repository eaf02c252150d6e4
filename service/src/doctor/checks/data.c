/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* data.c - the data check: the data folder and database files writable only by administrators
   and the service. */
#include <math.h>
#include <stdio.h>

#include "../checks.h"
#include "../probe.h"

static void check_data(const doctor_context *ctx, doctor_finding *out) {
  char folder[PLAT_PATH_MAX], path[PLAT_PATH_MAX + 64], reason[512];
  ts_err err;
  if (ctx->data_dir)
    snprintf(folder, sizeof folder, "%s", ctx->data_dir);
  else if (plat_service_data_dir(folder, sizeof folder, &err) != TS_OK) {
    doctor_set(out, DOCTOR_SKIP, NAN, err.text, "no service data folder");
    return;
  }
  /* "Does not exist" only when the OS says so: a folder this user may not look into (permission
     denied) exists, and its rights are what this check is for. */
  int exists = 0;
  if (plat_path_exists(folder, &exists, &err) != TS_OK) {
    doctor_set(out, DOCTOR_SKIP, NAN,
               "run the doctor as root (an administrator) to check the data folder's rights", "%s",
               err.text);
    return;
  }
  if (!exists) {
    doctor_set(out, DOCTOR_SKIP, NAN,
               "the service has not run here yet (`threadsoup service install` sets it up)",
               "%s does not exist", folder);
    return;
  }
  static const char *const files[] = {"", "threadsoup.db", "threadsoup.db-wal", "threadsoup.db-shm",
                                      "threadsoup.db-journal"};
  int checked = 0;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(path, sizeof path, "%s%s%s", folder, i ? (char[]){plat_path_separator(), 0} : "",
             files[i]);
    if (i && !plat_file_exists(path))
      continue;
    int admin_only = 0;
    if (plat_check_own_file(path, &err) != TS_OK ||
        plat_folder_is_admin_only(path, &admin_only, reason, sizeof reason, &err) != TS_OK) {
      doctor_set(out, DOCTOR_FAIL, 0, "give it to root (Administrators) and remove others' write",
                 "%s", err.text);
      return;
    }
    if (!admin_only) {
      doctor_set(out, DOCTOR_FAIL, 0,
                 "only administrators and the service may write there: anyone else could change "
                 "stored results; fix the owner and permissions",
                 "%s", reason);
      return;
    }
    checked++;
  }
  doctor_set(out, DOCTOR_OK, checked, "",
             "%s and its %d database file%s: owned and writable only by administrators and the "
             "service",
             folder, checked - 1, checked == 2 ? "" : "s");
}

const doctor_check doctor_check_data = {
    "data", "the data folder and database are writable only by administrators and the service",
    DOCTOR_CHEAP | DOCTOR_CLIENT, check_data};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* image_folder.c - the image folder check: whether only the system and administrators may change
   the programs ThreadSoup's service runs as LocalSystem (the folder it was installed from). */
#include <math.h>

#include "../checks.h"
#include "../probe.h"

/* The service's name, as host.h gives it to the service manager. */
#define IMAGE_FOLDER_SERVICE_NAME "ThreadSoup"

void doctor_judge_image_folder(const plat_service_image *image, doctor_finding *out) {
  if (!image->installed) {
    doctor_set(out, DOCTOR_SKIP, NAN, "install it with the MSI, or: threadsoup service install",
               "the service is not installed");
    return;
  }
  if (!image->safe) {
    doctor_set(out, DOCTOR_FAIL, NAN,
               "whoever may change these programs may run anything as SYSTEM: uninstall the "
               "service (threadsoup service uninstall), copy threadsoup.exe and "
               "threadsoup-idle.exe under Program Files and install from there, or use the MSI",
               "the service runs from %s, which others may change: %s", image->folder,
               image->reason);
    return;
  }
  doctor_set(out, DOCTOR_OK, NAN, "",
             "the service runs from %s, which only the system and administrators may change",
             image->folder);
}

static void check_image_folder(const doctor_context *ctx, doctor_finding *out) {
  (void)ctx;
  plat_service_image image;
  ts_err err;
  int rc = plat_service_image_read(IMAGE_FOLDER_SERVICE_NAME, &image, &err);
  if (rc == TS_EUNSUPPORTED) {
    doctor_set(out, DOCTOR_SKIP, NAN, "", "%s", err.text);
    return;
  }
  if (rc != TS_OK) {
    doctor_set(out, DOCTOR_WARN, NAN, "run the doctor again as an administrator",
               "who may change the service's programs is unknown: %s", err.text);
    return;
  }
  doctor_judge_image_folder(&image, out);
}

const doctor_check doctor_check_image_folder = {
    "image-folder", "only administrators may change the programs the service runs as SYSTEM",
    DOCTOR_CHEAP, check_image_folder};

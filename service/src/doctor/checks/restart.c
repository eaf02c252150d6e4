/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* restart.c - the restart check: whether the service manager restarts ThreadSoup's service after
   it fails, as the service asks at every start. */
#include <math.h>

#include "../checks.h"
#include "../probe.h"

/* The service's name, as host.h gives it to the service manager. */
#define RESTART_SERVICE_NAME "ThreadSoup"

void doctor_judge_restart(const plat_service_restart *r, doctor_finding *out) {
  if (!r->installed) {
    doctor_set(out, DOCTOR_SKIP, NAN,
               "install it: threadsoup service install (as an administrator)",
               "the service is not installed");
    return;
  }
  if (!r->readable) {
    doctor_set(out, DOCTOR_WARN, NAN,
               "the service sets it at every start; if this stays, set it with: sc failure "
               "ThreadSoup reset= 86400 actions= restart/5000/restart/10000/restart/60000",
               "restart on failure unknown: the service manager does not answer the failure "
               "actions (%s)",
               r->why);
    return;
  }
  if (r->restarts == 0) {
    doctor_set(out, DOCTOR_WARN, 0,
               "start the service once (it sets them as it starts), or: sc failure ThreadSoup "
               "reset= 86400 actions= restart/5000/restart/10000/restart/60000",
               "restart on failure not set: %d failure action%s, none restarts the service",
               r->actions, r->actions == 1 ? "" : "s");
    return;
  }
  doctor_set(out, DOCTOR_OK, r->restarts, "",
             "restart on failure set: %d of %d failure actions restart the service, the first "
             "after %.0f s; the count of failures starts over after %ld h%s",
             r->restarts, r->actions, (double)r->first_delay_ms / 1000.0, r->reset_s / 3600,
             r->non_crash == 1   ? "; also after a stop with an error"
             : r->non_crash == 0 ? "; only after a crash, not after a stop with an error"
                                 : "");
}

static void check_restart(const doctor_context *ctx, doctor_finding *out) {
  plat_service_restart r;
  ts_err err;
  const plat_service_restart *given = ctx->service_restart;
  if (!given) {
    int rc = plat_service_restart_read(RESTART_SERVICE_NAME, &r, &err);
    if (rc == TS_EUNSUPPORTED) {
      doctor_set(out, DOCTOR_SKIP, NAN, "", "%s", err.text);
      return;
    }
    if (rc != TS_OK) {
      doctor_set(out, DOCTOR_WARN, NAN, "run the doctor again; see the event log",
                 "restart on failure unknown: %s", err.text);
      return;
    }
    given = &r;
  }
  doctor_judge_restart(given, out);
}

const doctor_check doctor_check_restart = {
    "restart", "the service manager restarts ThreadSoup's service after a failure", DOCTOR_CHEAP,
    check_restart};

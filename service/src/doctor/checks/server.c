/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* server.c - the server check: whether ThreadSoup's service answers at the control address. */
#include <math.h>

#include "../checks.h"
#include "../probe.h"

static void check_server(const doctor_context *ctx, doctor_finding *out) {
  const char *address = ctx->address ? ctx->address : plat_ipc_default_address();
  if (!ctx->ask_status) {
    doctor_set(out, DOCTOR_SKIP, NAN, "checked by `threadsoup doctor` as a client",
               "not checked from inside a run");
    return;
  }
  char answer[256] = "";
  ts_err err;
  int rc = ctx->ask_status(address, answer, sizeof answer, &err);
  if (rc == TS_OK)
    doctor_set(out, DOCTOR_OK, 1, "", "%s is served by ThreadSoup's service (verified): %s",
               address, answer);
  else if (rc == TS_EUNSUPPORTED)
    doctor_set(out, DOCTOR_WARN, 0,
               "start it: `sudo systemctl start threadsoup` (Linux), `threadsoup service start` "
               "as an administrator (Windows)",
               "no service answers at %s: %s", address, err.text);
  else
    doctor_set(out, DOCTOR_FAIL, 0,
               rc == TS_EDENIED ? "something else holds the service's address: stop that program "
                                  "and start ThreadSoup's service"
                                : "see the error; `threadsoup status` shows the same",
               "%s: %s", address, err.text);
}

const doctor_check doctor_check_server = {"server",
                                          "the control address is served by ThreadSoup's service",
                                          DOCTOR_CHEAP | DOCTOR_CLIENT, check_server};

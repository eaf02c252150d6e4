/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* testservice.h - a request to the service as a client a test makes up (a member, root, an
   unelevated administrator), handed to server_dispatch as a client's thread hands it, with no
   connection. */
#ifndef THREADSOUP_TESTSERVICE_H
#define THREADSOUP_TESTSERVICE_H

#include <string.h>

#include "server/internal.h"

/* Asks `verb` with fields `kv` (key, value, ..., NULL; a NULL value leaves its key out) as
   `peer`; the reply in *out. 0 when a field did not fit. */
static inline int test_ask_as(server *svc, const plat_peer *peer, const char *verb,
                              const char *const *kv, proto_message *out) {
  static client from;
  static proto_message in;
  ts_err err;
  int fitted = 1;
  memset(&from, 0, sizeof from);
  from.svc = svc;
  from.peer = *peer;
  proto_init(&in, PROTO_REQUEST, verb);
  for (int i = 0; kv && kv[i]; i += 2)
    if (kv[i + 1])
      fitted &= proto_add(&in, kv[i], kv[i + 1], &err) == TS_OK;
  request r = {svc, &from, &in, out, {0, ""}};
  server_dispatch(&r);
  return fitted;
}

#endif

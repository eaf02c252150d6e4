/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* call.h - the one way a client talks to the service: connect, say hello, send requests, read
   the replies (the CLI and every part of the tray use it; docs/protocol.md). */
#ifndef THREADSOUP_CALL_H
#define THREADSOUP_CALL_H

#include <stdio.h>

#include "threadsoup/err.h"
#include "threadsoup/plat.h"
#include "threadsoup/proto.h"

/* One connection to the service and its buffers (about 330 KiB: allocate it, never put it on a
   thread's stack). `conn` is NULL while closed; a caller that must wake a blocked read from
   another thread publishes it and calls plat_ipc_shutdown on it. */
typedef struct call_link {
  plat_ipc_conn *conn;
  int hello_sent;    /* hello went out with the first request on this connection */
  int hello_pending; /* its reply is still to be read (before any other) */
  size_t used;       /* bytes of `in` received but not yet decoded */
  char in[PROTO_MAX_MESSAGE * 2];
  char wire[PROTO_MAX_MESSAGE * 2];
  proto_message hello; /* hello as sent, then its reply */
} call_link;

/* A closed link on the heap, or NULL when there is no memory. */
call_link *call_link_new(void);
/* Closes the link if open and frees it; NULL is allowed. */
void call_link_free(call_link *l);

/* Connects to `address` (NULL: plat_ipc_default_address()). The platform layer checks who serves
   (shared/src/plat/server_check.c) and words the failure: TS_EUNSUPPORTED when nothing serves. */
int call_link_connect(call_link *l, const char *address, ts_err *err);
/* Sends a request; the first one on a connection goes in one write after hello, so that the
   service answers both in order. */
int call_link_send(call_link *l, const proto_message *request, ts_err *err);
/* Reads the next whole message (a reply or an event) into *out. hello's reply is read first and
   taken here: a service that refuses it (another protocol version) is TS_EVERSION "the service
   does not speak with this client: ...". A closed connection is TS_EUNSUPPORTED "the
   service closed the connection without answering"; bytes that do not decode are TS_EINVAL
   "the service sent something unreadable: ...". */
int call_link_read(call_link *l, proto_message *out, ts_err *err);
/* call_link_send then call_link_read. */
int call_link_request(call_link *l, const proto_message *request, proto_message *reply,
                      ts_err *err);
void call_link_close(call_link *l);

/* The whole call on a connection of its own: connect, hello, the request, its reply, close.
   TS_OK means a reply arrived; it may be an error reply (reply->kind == PROTO_ERROR). */
int call_service(const char *address, const proto_message *request, proto_message *reply,
                 ts_err *err);

/* Reads run `run`'s report in `format` (text, csv, json, html) page by page (the `report`
   request's offset and next) over a connected link and writes it to `out`; `request` and `reply`
   are the caller's buffers (large: never on a small stack). A refusal is TS_EFAILED with its own
   words. */
int call_report_pages(call_link *l, long long run, const char *format, FILE *out,
                      proto_message *request, proto_message *reply, ts_err *err);

/* Reads run `run`'s export (the JSON lines of threadsoup export) page by page (the `export`
   request's offset and next) and writes it to `out`, as call_report_pages does. */
int call_export_pages(call_link *l, long long run, FILE *out, proto_message *request,
                      proto_message *reply, ts_err *err);

/* A refusal's own words: its `message` field, or "no reason given". */
const char *call_refusal_text(const proto_message *reply);

#endif

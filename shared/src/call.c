/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* call.c - the one service call of every client: connect, hello, requests, replies read whole
   from the stream, with the same error sentences for the CLI and the tray. */
#include "threadsoup/call.h"

#include <stdlib.h>
#include <string.h>

call_link *call_link_new(void) { return calloc(1, sizeof(call_link)); }

void call_link_free(call_link *l) {
  if (!l)
    return;
  call_link_close(l);
  free(l);
}

int call_link_connect(call_link *l, const char *address, ts_err *err) {
  call_link_close(l);
  return plat_ipc_connect(&l->conn, address ? address : plat_ipc_default_address(), err);
}

void call_link_close(call_link *l) {
  if (l->conn)
    plat_ipc_close(l->conn);
  l->conn = NULL;
  l->hello_sent = l->hello_pending = 0;
  l->used = 0;
}

int call_link_send(call_link *l, const proto_message *request, ts_err *err) {
  size_t n = 0, m = 0;
  int rc = TS_OK;
  if (!l->conn)
    return ts_err_set(err, TS_EINVAL, "not connected to the service");
  if (!l->hello_sent) {
    /* hello first: a service speaking another protocol version says so before anything else. */
    proto_init(&l->hello, PROTO_REQUEST, "hello");
    rc = proto_addf(&l->hello, err, "version", "%d", PROTO_VERSION);
    if (rc == TS_OK)
      rc = proto_encode(&l->hello, l->wire, sizeof l->wire, &n, err);
  }
  if (rc == TS_OK)
    rc = proto_encode(request, l->wire + n, sizeof l->wire - n, &m, err);
  if (rc == TS_OK)
    rc = plat_ipc_send(l->conn, l->wire, n + m, err);
  if (rc == TS_OK && !l->hello_sent)
    l->hello_sent = l->hello_pending = 1;
  return rc;
}

/* Reads one whole message into *out, keeping what follows it in l->in for the next call. */
static int read_message(call_link *l, proto_message *out, ts_err *err) {
  for (;;) {
    size_t consumed = 0;
    if (proto_decode(l->in, l->used, &consumed, out, err) != TS_OK)
      return ts_err_prefix(err, "the service sent something unreadable");
    if (consumed) {
      memmove(l->in, l->in + consumed, l->used - consumed);
      l->used -= consumed;
      return TS_OK;
    }
    size_t got = 0;
    int rc = plat_ipc_recv(l->conn, l->in + l->used, sizeof l->in - l->used, &got, err);
    if (rc != TS_OK)
      return rc;
    if (got == 0)
      /* "Not running" to the tray, which follows the service until it stops. */
      return ts_err_set(err, TS_EUNSUPPORTED,
                        "the service closed the connection without answering");
    l->used += got;
  }
}

int call_link_read(call_link *l, proto_message *out, ts_err *err) {
  if (!l->conn)
    return ts_err_set(err, TS_EINVAL, "not connected to the service");
  if (l->hello_pending) {
    int rc = read_message(l, &l->hello, err);
    if (rc != TS_OK)
      return rc;
    l->hello_pending = 0;
    if (l->hello.kind == PROTO_ERROR) {
      const char *message = proto_get(&l->hello, "message");
      return ts_err_set(err, TS_EVERSION, "the service does not speak with this client: %s",
                        message ? message : l->hello.verb);
    }
  }
  return read_message(l, out, err);
}

int call_link_request(call_link *l, const proto_message *request, proto_message *reply,
                      ts_err *err) {
  int rc = call_link_send(l, request, err);
  return rc == TS_OK ? call_link_read(l, reply, err) : rc;
}

int call_service(const char *address, const proto_message *request, proto_message *reply,
                 ts_err *err) {
  call_link *l = call_link_new();
  if (!l)
    return ts_err_set(err, TS_ENOMEM, "no memory for a request");
  int rc = call_link_connect(l, address, err);
  if (rc == TS_OK)
    rc = call_link_request(l, request, reply, err);
  call_link_free(l);
  return rc;
}

const char *call_refusal_text(const proto_message *reply) {
  const char *message = proto_get(reply, "message");
  return message ? message : "no reason given";
}

/* Reads the document of paged request `verb` for `run` (with `format` when not NULL) from
   offset 0 until `next` reaches `total`, writing each page to `out`. */
static int read_pages(call_link *l, const char *verb, long long run, const char *format, FILE *out,
                      proto_message *request, proto_message *reply, ts_err *err) {
  long long offset = 0, total = -1;
  while (total < 0 || offset < total) {
    proto_init(request, PROTO_REQUEST, verb);
    int rc = proto_addf(request, err, "run", "%lld", run);
    if (rc == TS_OK && format)
      rc = proto_add(request, "format", format, err);
    if (rc == TS_OK)
      rc = proto_addf(request, err, "offset", "%lld", offset);
    if (rc == TS_OK)
      rc = call_link_request(l, request, reply, err);
    if (rc != TS_OK)
      return rc;
    if (reply->kind == PROTO_ERROR)
      return ts_err_set(err, TS_EFAILED, "%s", call_refusal_text(reply));
    const char *text = proto_get(reply, "text");
    const char *t = proto_get(reply, "total"), *next = proto_get(reply, "next");
    /* Each page must move on: a reply without pages or going backwards would loop forever. */
    if (!text || !t || !next || atoll(next) <= offset || atoll(t) < atoll(next))
      return ts_err_set(err, TS_EFAILED, "the service's %s has no pages (an older service?)", verb);
    if (fputs(text, out) == EOF)
      return ts_err_set(err, TS_EOS, "cannot write the %s", verb);
    total = atoll(t);
    offset = atoll(next);
  }
  return TS_OK;
}

int call_report_pages(call_link *l, long long run, const char *format, FILE *out,
                      proto_message *request, proto_message *reply, ts_err *err) {
  return read_pages(l, "report", run, format, out, request, reply, err);
}

int call_export_pages(call_link *l, long long run, FILE *out, proto_message *request,
                      proto_message *reply, ts_err *err) {
  return read_pages(l, "export", run, NULL, out, request, reply, err);
}

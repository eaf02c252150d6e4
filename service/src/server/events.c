/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* events.c - events pushed to subscribed clients (trays): each subscriber has its own bounded
   queue, filled under the server's lock without ever waiting, and its own sender thread that
   empties it; one that falls behind is dropped with a reason, so a client that does not read
   holds up nothing but itself. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void server_clear_queue_locked(client *c) {
  for (int i = 0; i < c->queue_count; i++)
    free(c->queue[(c->queue_head + i) % SERVER_CLIENT_EVENTS]);
  c->queue_head = c->queue_count = 0;
  c->queue_bytes = 0;
}

static void append_locked(client *c, char *wire, size_t n) {
  c->queue[(c->queue_head + c->queue_count) % SERVER_CLIENT_EVENTS] = wire;
  c->queue_count++;
  c->queue_bytes += n;
  plat_cond_broadcast(&c->queue_changed);
}

/* The client has fallen behind: what it has not read is dropped, the reason is the last thing
   queued, and the watcher closes the connection if even that is not read within a moment. */
static void drop_locked(server *svc, client *c) {
  server_clear_queue_locked(c);
  c->dropped = 1;
  c->close_at_ns = plat_clock_ns() + SERVER_DROP_GRACE_NS;
  char *wire = malloc(256);
  if (wire) {
    int n = snprintf(wire, 256,
                     "TS1 event dropped\nmessage: this client fell %d events or %d KiB behind (it "
                     "does not read its events); its connection is closed\n\n",
                     SERVER_CLIENT_EVENTS, SERVER_CLIENT_EVENT_BYTES / 1024);
    append_locked(c, wire, (size_t)n);
  }
  ts_log(TS_LOG_WARNING,
         "dropping subscriber %s (pid %ld): it fell %d events or %d KiB behind (it does not read "
         "its events)",
         c->peer.name, c->peer.pid, SERVER_CLIENT_EVENTS, SERVER_CLIENT_EVENT_BYTES / 1024);
  plat_cond_broadcast(&svc->changed);
}

/* Copies an event into the queue of every subscribed client that is still connected. Caller
   holds svc->lock. */
static void push_event_locked(server *svc, const proto_message *m) {
  char *wire = malloc(PROTO_MAX_MESSAGE);
  size_t n = 0;
  ts_err err;
  if (!wire || proto_encode(m, wire, PROTO_MAX_MESSAGE, &n, &err) != TS_OK) {
    free(wire);
    return;
  }
  for (int i = 0; i < SERVER_MAX_CLIENTS; i++) {
    client *c = &svc->clients[i];
    if (!c->in_use || c->finished || !c->subscribed || c->dropped)
      continue;
    if (c->queue_count == SERVER_CLIENT_EVENTS || c->queue_bytes + n > SERVER_CLIENT_EVENT_BYTES) {
      drop_locked(svc, c);
      continue;
    }
    char *copy = malloc(n + 1);
    if (!copy)
      continue;
    memcpy(copy, wire, n);
    copy[n] = '\0';
    append_locked(c, copy, n);
  }
  free(wire);
}

void server_emit_message(server *svc, const proto_message *m) {
  plat_mutex_lock(&svc->lock);
  push_event_locked(svc, m);
  plat_mutex_unlock(&svc->lock);
}

void server_emit(server *svc, const char *name, const char *key, const char *fmt, ...) {
  static proto_message m; /* only under svc->lock */
  char value[1024];
  ts_err err;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(value, sizeof value, fmt, ap);
  va_end(ap);
  plat_mutex_lock(&svc->lock);
  proto_init(&m, PROTO_EVENT, name);
  proto_add(&m, key, value, &err);
  push_event_locked(svc, &m);
  plat_mutex_unlock(&svc->lock);
}

void server_sender_main(void *arg) {
  client *c = arg;
  server *svc = c->svc;
  plat_mutex_lock(&svc->lock);
  for (;;) {
    while (c->queue_count == 0 && !c->sender_stop)
      plat_cond_wait(&c->queue_changed, &svc->lock, UINT64_MAX);
    if (c->sender_stop)
      break;
    char *wire = c->queue[c->queue_head];
    size_t n = strlen(wire);
    c->queue_head = (c->queue_head + 1) % SERVER_CLIENT_EVENTS;
    c->queue_count--;
    c->queue_bytes -= n;
    int last = c->dropped && c->queue_count == 0;
    /* The connection stays open while this thread runs: the client's thread closes it only
       after joining this one. Sending waits on this client alone. */
    plat_mutex_unlock(&svc->lock);
    ts_err err;
    plat_mutex_lock(&c->send_lock);
    int rc = plat_ipc_send(c->conn, wire, n, &err);
    plat_mutex_unlock(&c->send_lock);
    free(wire);
    plat_mutex_lock(&svc->lock);
    if (rc != TS_OK || last) {
      plat_ipc_shutdown(c->conn); /* its client thread's read ends, and with it the client */
      break;
    }
  }
  plat_mutex_unlock(&svc->lock);
}

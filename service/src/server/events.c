/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* events.c - events pushed to subscribed clients (trays): queued under the server's lock and sent
   by one notifier thread, so a slow client never holds up the runner or another client. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Queues an event for subscribed clients; the notifier sends it, so no one else ever waits on a
   slow client. Drops the oldest when the queue is full. Caller holds svc->lock. */
static void push_event_locked(server *svc, const proto_message *m) {
  char *wire = malloc(PROTO_MAX_MESSAGE);
  size_t n = 0;
  ts_err err;
  if (!wire || proto_encode(m, wire, PROTO_MAX_MESSAGE, &n, &err) != TS_OK) {
    free(wire);
    return;
  }
  wire[n] = '\0';
  if (svc->event_count == SERVER_MAX_EVENTS) {
    free(svc->events[svc->event_head]);
    svc->event_head = (svc->event_head + 1) % SERVER_MAX_EVENTS;
    svc->event_count--;
  }
  svc->events[(svc->event_head + svc->event_count) % SERVER_MAX_EVENTS] = wire;
  svc->event_count++;
  plat_cond_broadcast(&svc->changed);
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

void server_notifier_main(void *arg) {
  server *svc = arg;
  plat_mutex_lock(&svc->lock);
  for (;;) {
    while (svc->event_count == 0 && !svc->stopping)
      plat_cond_wait(&svc->changed, &svc->lock, UINT64_MAX);
    if (svc->event_count == 0 && svc->stopping)
      break;
    char *wire = svc->events[svc->event_head];
    svc->event_head = (svc->event_head + 1) % SERVER_MAX_EVENTS;
    svc->event_count--;
    client *targets[SERVER_MAX_CLIENTS];
    int n = 0;
    for (int i = 0; i < SERVER_MAX_CLIENTS; i++)
      if (svc->clients[i].in_use && !svc->clients[i].finished && svc->clients[i].subscribed)
        targets[n++] = &svc->clients[i];
    /* Sending happens under each client's send lock, not the server's: a stuck client delays
       only events. Client slots are reaped only by server_serve, which this thread outlives. */
    plat_mutex_unlock(&svc->lock);
    for (int i = 0; i < n; i++) {
      ts_err err;
      plat_mutex_lock(&targets[i]->send_lock);
      if (plat_ipc_send(targets[i]->conn, wire, strlen(wire), &err) != TS_OK)
        plat_ipc_shutdown(targets[i]->conn);
      plat_mutex_unlock(&targets[i]->send_lock);
    }
    free(wire);
    plat_mutex_lock(&svc->lock);
  }
  plat_mutex_unlock(&svc->lock);
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* server.c - the service's core: one thread per client on the control connection (and, for a
   subscriber, one that sends its events: events.c), the watcher that closes idle connections,
   and the lifecycle (create, serve, stop, destroy). The runner and the scheduler are threads of
   their own (runner.c, scheduler.c); requests are answered by handlers.c. With no client
   connected, the service waits on its connection and its next due time only: no timer. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../experiment/experiment.h"
#include "threadsoup/units.h"
#include "threadsoup/version.h"

/* ---- clients ---- */

typedef struct client_buffers {
  char in[PROTO_MAX_MESSAGE * 2];
  char out[PROTO_MAX_MESSAGE];
  proto_message request;
  proto_message reply;
} client_buffers;

static int send_reply(client *c, client_buffers *b) {
  size_t n = 0;
  ts_err err;
  if (proto_encode(&b->reply, b->out, sizeof b->out, &n, &err) != TS_OK) {
    ts_err ignored;
    proto_init(&b->reply, PROTO_ERROR, "failed");
    proto_add(&b->reply, "message", err.text, &ignored);
    if (proto_encode(&b->reply, b->out, sizeof b->out, &n, &ignored) != TS_OK)
      return 0;
  }
  plat_mutex_lock(&c->send_lock);
  int rc = plat_ipc_send(c->conn, b->out, n, &err);
  plat_mutex_unlock(&c->send_lock);
  return rc == TS_OK;
}

static uint64_t idle_timeout_ns(const server *svc) {
  return svc->config.idle_timeout_ns ? svc->config.idle_timeout_ns : SERVER_IDLE_TIMEOUT_NS;
}

/* When the watcher is to close this connection; 0: never. A dropped subscriber keeps its own. */
static void set_close_at(client *c, uint64_t at) {
  server *svc = c->svc;
  plat_mutex_lock(&svc->lock);
  if (!c->dropped) {
    c->close_at_ns = at;
    plat_cond_broadcast(&svc->changed);
  }
  plat_mutex_unlock(&svc->lock);
}

/* After `subscribe`: the events go out through a thread of the client's own. */
static void start_sender(client *c) {
  ts_err err;
  if (plat_thread_start(&c->sender, SERVER_THREAD_STACK, server_sender_main, c, &err) == TS_OK)
    c->has_sender = 1;
  else
    ts_log(TS_LOG_WARNING, "cannot send events to %s: %s", c->peer.name, err.text);
}

static int same_user(const plat_peer *a, const plat_peer *b) {
  if (a->uid >= 0 || b->uid >= 0)
    return a->uid == b->uid;            /* POSIX */
  return strcmp(a->name, b->name) == 0; /* Windows: the account's name, looked up from its SID */
}

/* A user who is not an administrator may hold at most config.clients_per_user connections, so
   no one user can take every slot; the next is told so at once. 0 when `c` is admitted; 1 when
   it is over its user's limit, with the refusal in `refusal`. Caller holds svc->lock. */
static int over_user_limit_locked(server *svc, client *c, char *refusal, size_t len) {
  int cap = svc->config.clients_per_user ? svc->config.clients_per_user : SERVER_CLIENTS_PER_USER;
  int held = 0;
  for (int i = 0; i < SERVER_MAX_CLIENTS; i++) {
    const client *o = &svc->clients[i];
    held += o != c && o->in_use && !o->finished && o->admitted && same_user(&o->peer, &c->peer);
  }
  if (c->peer.privileged || held < cap) {
    c->admitted = 1;
    return 0;
  }
  snprintf(refusal, len,
           "TS1 error busy\nmessage: %s already holds %d connections to the service (at most %d "
           "per user who is not an administrator); close one and try again\n\n",
           c->peer.name, held, cap);
  uint64_t now = plat_clock_ns();
  if (now - svc->refusal_logged_at >= TS_NS_PER_S || !svc->refusal_logged_at) {
    svc->refusal_logged_at = now;
    ts_log(TS_LOG_WARNING, "refused a connection of %s (pid %ld): %d held, at most %d per user",
           c->peer.name, c->peer.pid, held, cap);
  }
  return 1;
}

static void client_main(void *arg) {
  client *c = arg;
  server *svc = c->svc;
  client_buffers *b = malloc(sizeof *b);
  ts_err err;
  size_t used = 0, scanned = 0;
  if (b && plat_ipc_peer(c->conn, &c->peer, &err) != TS_OK) {
    memset(&c->peer, 0, sizeof c->peer); /* unknown: an ordinary user, sharing one limit */
    c->peer.pid = c->peer.uid = -1;
    snprintf(c->peer.name, sizeof c->peer.name, "unknown");
  }
  if (b) {
    char refusal[256];
    plat_mutex_lock(&svc->lock);
    int over = over_user_limit_locked(svc, c, refusal, sizeof refusal);
    plat_mutex_unlock(&svc->lock);
    if (over) {
      plat_ipc_send(c->conn, refusal, strlen(refusal), &err); /* a fresh connection: no wait */
      goto done;
    }
  }
  while (b) {
    size_t got = 0;
    if (used == sizeof b->in)
      break; /* cannot happen: decode refuses a message before the buffer fills */
    if (plat_ipc_recv(c->conn, b->in + used, sizeof b->in - used, &got, &err) != TS_OK || got == 0)
      break;
    used += got;
    size_t start = 0; /* the messages before it are answered */
    for (;;) {
      size_t consumed = 0;
      /* Searched from where the last read's search stopped: a sender dribbling one byte at a
         time costs one look at each byte, not the whole buffer again each time. */
      int rc =
          proto_decode_resume(b->in + start, used - start, &scanned, &consumed, &b->request, &err);
      if (rc != TS_OK) {
        /* Framing is lost: say why, then end this connection only. */
        ts_err ignored;
        proto_init(&b->reply, PROTO_ERROR, "malformed");
        proto_add(&b->reply, "message", err.text, &ignored);
        send_reply(c, b);
        goto done;
      }
      if (consumed == 0)
        break;
      set_close_at(c, 0); /* a request being answered is not idle, however long it takes */
      request r = {svc, c, &b->request, &b->reply, {0, ""}};
      server_dispatch(&r);
      if (!send_reply(c, b))
        goto done;
      if (c->subscribed && !c->has_sender)
        start_sender(c);
      /* A subscriber that only listens is not idle; anyone else has until the next message. */
      set_close_at(c, c->subscribed ? 0 : plat_clock_ns() + idle_timeout_ns(svc));
      start += consumed;
    }
    memmove(b->in, b->in + start, used - start);
    used -= start;
  }
done:
  free(b);
  /* The connection is closed here, as the client's thread ends, not when the next client
     comes: first no one may use it (finished), then the sender is woken and joined. */
  plat_mutex_lock(&svc->lock);
  c->finished = 1;
  c->sender_stop = 1;
  plat_cond_broadcast(&c->queue_changed);
  plat_mutex_unlock(&svc->lock);
  if (c->has_sender) {
    plat_ipc_shutdown(c->conn); /* wakes a send blocked on a client that does not read */
    plat_thread_join(c->sender);
  }
  plat_ipc_close(c->conn);
  plat_mutex_lock(&svc->lock);
  c->conn = NULL;
  server_clear_queue_locked(c);
  plat_cond_broadcast(&svc->changed);
  plat_mutex_unlock(&svc->lock);
}

/* The watcher: shuts down connections whose time is up (idle ones, dropped subscribers), until
   the service stops. */
static void watcher_main(void *arg) {
  server *svc = arg;
  plat_mutex_lock(&svc->lock);
  while (!svc->stopping) {
    uint64_t now = plat_clock_ns(), next = UINT64_MAX;
    for (int i = 0; i < SERVER_MAX_CLIENTS; i++) {
      client *c = &svc->clients[i];
      if (!c->in_use || c->finished || !c->close_at_ns)
        continue;
      if (c->close_at_ns > now) {
        next = c->close_at_ns < next ? c->close_at_ns : next;
        continue;
      }
      if (!c->dropped)
        ts_log(TS_LOG_INFO, "closing the connection of %s (pid %ld): no complete message in %.0f s",
               c->peer.name, c->peer.pid, (double)idle_timeout_ns(svc) / TS_NS_PER_S);
      c->close_at_ns = 0;
      plat_ipc_shutdown(c->conn); /* its thread's read ends, and the thread closes it */
    }
    plat_cond_wait(&svc->changed, &svc->lock, next == UINT64_MAX ? UINT64_MAX : next - now);
  }
  plat_mutex_unlock(&svc->lock);
}

/* An unused client slot, or NULL when all are taken. Caller holds svc->lock. */
static client *free_client_locked(server *svc) {
  for (int i = 0; i < SERVER_MAX_CLIENTS; i++)
    if (!svc->clients[i].in_use)
      return &svc->clients[i];
  return NULL;
}

/* Joins the threads of clients that have gone. Caller holds svc->lock. */
static void reap_clients_locked(server *svc) {
  for (int i = 0; i < SERVER_MAX_CLIENTS; i++) {
    client *c = &svc->clients[i];
    if (!c->in_use || !c->finished)
      continue;
    plat_mutex_unlock(&svc->lock);
    plat_thread_join(c->thread);
    plat_mutex_lock(&svc->lock);
    plat_mutex_destroy(&c->send_lock);
    plat_cond_destroy(&c->queue_changed);
    memset(c, 0, sizeof *c);
  }
}

/* ---- lifecycle ---- */

/* Programs a freeze left frozen when ThreadSoup and its guardian both died are thawed before the
   service takes requests. */
static void thaw_left(store *db) {
  char said[1024];
  ts_err err;
  if (experiment_thaw_left(db, said, sizeof said, &err) != TS_OK)
    ts_log(TS_LOG_ERROR, "programs left frozen by the last stop: %s", err.text);
  else if (said[0])
    ts_log(TS_LOG_WARNING, "programs left frozen by the last stop: %s", said);
}

int server_create(server **out, const server_config *config, ts_err *err) {
  *out = NULL;
  server *svc = calloc(1, sizeof *svc);
  if (!svc)
    return ts_err_set(err, TS_ENOMEM, "no memory for the service");
  svc->config = *config;
  svc->idle_report_s = -1;
  svc->started_at = (int64_t)time(NULL);
  plat_mutex_init(&svc->lock);
  plat_mutex_init(&svc->db_lock);
  plat_cond_init(&svc->changed);

  char folder[PLAT_PATH_MAX];
  int rc = TS_OK;
  if (config->db_path[0]) {
    snprintf(svc->db_path, sizeof svc->db_path, "%s", config->db_path);
  } else {
    rc = plat_service_data_dir(folder, sizeof folder, err);
    char note[PLAT_PATH_MAX * 2 + 256];
    if (rc == TS_OK)
      rc = plat_mkdir_service_data(folder, note, sizeof note, err);
    if (rc == TS_OK && note[0])
      ts_log(TS_LOG_WARNING, "%s", note);
    snprintf(svc->db_path, sizeof svc->db_path, "%s%cthreadsoup.db", folder, plat_path_separator());
  }
  /* A plan in the database can run a command as the service: only an admin-only data folder may
     hold such plans. */
  plat_path_dirname(svc->db_path, folder, sizeof folder);
  if (rc == TS_OK) {
    ts_err check_err;
    if (plat_folder_is_admin_only(folder[0] ? folder : ".", &svc->commands_allowed,
                                  svc->commands_reason, sizeof svc->commands_reason,
                                  &check_err) != TS_OK) {
      svc->commands_allowed = 0;
      snprintf(svc->commands_reason, sizeof svc->commands_reason, "%s", check_err.text);
    }
    if (!svc->commands_allowed)
      ts_log(TS_LOG_WARNING, "command benchmarks are refused: %s", svc->commands_reason);
  }
  /* One service per database: a second would fire its boot schedules and resume its runs again.
     The claim is the OS's lock, gone with the process however it ends. */
  if (rc == TS_OK) {
    char claim[PLAT_PATH_MAX + 16];
    snprintf(claim, sizeof claim, "%s-service.lock", svc->db_path);
    rc = plat_claim_take(claim, &svc->db_claim, err);
    if (rc == TS_EBUSY)
      ts_err_prefix(err, "the database %s is served already", svc->db_path);
  }
  if (rc == TS_OK)
    rc = store_open(&svc->db, svc->db_path, err);
  /* Quiet mode left on by a crash or a power cut is restored before anything else, and before
     the pipe or socket listens: whoever holds the address cannot keep it from happening. */
  if (rc == TS_OK)
    rc = server_quiet_open(svc, err);
  if (rc == TS_OK)
    thaw_left(svc->db);
  if (rc == TS_OK)
    rc = plat_interrupt_install(err);
  if (rc == TS_OK)
    rc = plat_ipc_listen(&svc->listener,
                         config->address[0] ? config->address : plat_ipc_default_address(), err);
  if (rc == TS_OK) {
    ts_err ignored;
    runner_queue_unfinished(svc);
    store_schedules(svc->db, server_arm_boot_schedule, svc, &ignored);
  }
  if (rc != TS_OK) {
    server_destroy(svc);
    return rc;
  }
  *out = svc;
  return TS_OK;
}

void server_request_stop(server *svc, const char *reason) {
  plat_mutex_lock(&svc->lock);
  if (!svc->stopping) {
    svc->stopping = 1;
    snprintf(svc->stop_reason, sizeof svc->stop_reason, "%s", reason ? reason : "stop requested");
    plat_interrupt_raise(); /* a running experiment or ramp stops at its next check */
    plat_ipc_server_close(svc->listener);
    for (int i = 0; i < SERVER_MAX_CLIENTS; i++)
      if (svc->clients[i].in_use && !svc->clients[i].finished)
        plat_ipc_shutdown(svc->clients[i].conn);
    plat_cond_broadcast(&svc->changed);
  }
  plat_mutex_unlock(&svc->lock);
}

int server_serve(server *svc) {
  ts_err err;
  const char *address = svc->config.address[0] ? svc->config.address : plat_ipc_default_address();
  ts_log(TS_LOG_INFO, "ThreadSoup %s serving on %s, database %s", TS_VERSION, address,
         svc->db_path);
  runner_resume_queued(svc);
  int have_watcher =
      plat_thread_start(&svc->watcher, SERVER_THREAD_STACK, watcher_main, svc, &err) == TS_OK;
  int have_scheduler = plat_thread_start(&svc->scheduler, SERVER_THREAD_STACK,
                                         server_scheduler_main, svc, &err) == TS_OK;

  for (;;) {
    plat_ipc_conn *conn = NULL;
    int rc = plat_ipc_accept(svc->listener, &conn, &err);
    plat_mutex_lock(&svc->lock);
    reap_clients_locked(svc);
    if (rc != TS_OK || svc->stopping) {
      plat_mutex_unlock(&svc->lock);
      plat_ipc_close(conn);
      if (rc != TS_OK && rc != TS_EINTERRUPTED)
        ts_log(TS_LOG_ERROR, "%s", err.text);
      break;
    }
    /* In a burst of short connections, slots of clients that have gone free only when their
       threads notice: wait up to a second for one before turning a client away. */
    client *c = free_client_locked(svc);
    for (uint64_t began = plat_clock_ns();
         !c && !svc->stopping && plat_clock_ns() - began < TS_NS_PER_S;) {
      plat_cond_wait(&svc->changed, &svc->lock, 20 * TS_NS_PER_MS);
      reap_clients_locked(svc);
      c = free_client_locked(svc);
    }
    if (!c) {
      plat_mutex_unlock(&svc->lock);
      static const char full[] = "TS1 error busy\nmessage: too many clients at once\n\n";
      plat_ipc_send(conn, full, sizeof full - 1, &err);
      plat_ipc_close(conn);
      continue;
    }
    memset(c, 0, sizeof *c);
    c->svc = svc;
    c->conn = conn;
    c->in_use = 1;
    c->close_at_ns = plat_clock_ns() + idle_timeout_ns(svc);
    plat_mutex_init(&c->send_lock);
    plat_cond_init(&c->queue_changed);
    plat_cond_broadcast(&svc->changed); /* the watcher learns the new deadline */
    if (plat_thread_start(&c->thread, SERVER_THREAD_STACK, client_main, c, &err) != TS_OK) {
      plat_ipc_close(conn);
      plat_mutex_destroy(&c->send_lock);
      plat_cond_destroy(&c->queue_changed);
      memset(c, 0, sizeof *c);
      ts_log(TS_LOG_WARNING, "cannot serve a client: %s", err.text);
    }
    plat_mutex_unlock(&svc->lock);
  }

  /* Stopping: the runner checkpoints, the client's load goes, the clients are let go. */
  server_request_stop(svc, NULL);
  runner_shutdown(svc);
  plat_mutex_lock(&svc->lock);
  for (;;) {
    int live = 0;
    for (int i = 0; i < SERVER_MAX_CLIENTS; i++)
      live += svc->clients[i].in_use && !svc->clients[i].finished;
    if (!live)
      break;
    plat_cond_wait(&svc->changed, &svc->lock, 100 * TS_NS_PER_MS);
  }
  reap_clients_locked(svc);
  plat_cond_broadcast(&svc->changed);
  plat_mutex_unlock(&svc->lock);
  if (have_watcher)
    plat_thread_join(svc->watcher);
  if (have_scheduler)
    plat_thread_join(svc->scheduler);
  ts_log(TS_LOG_INFO, "stopped (%s)", svc->stop_reason);
  return 0;
}

void server_destroy(server *svc) {
  if (!svc)
    return;
  if (svc->listener)
    plat_ipc_server_free(svc->listener);
  store_close(svc->db);
  plat_claim_release(svc->db_claim);
  server_quiet_close(svc);
  plat_cond_destroy(&svc->changed);
  plat_mutex_destroy(&svc->lock);
  plat_mutex_destroy(&svc->db_lock);
  free(svc);
}

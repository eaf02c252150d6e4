/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* server.h - the ThreadSoup service: owns the load engine, the experiment runner, the scheduler
   and the database, and answers clients (tray, CLI) over the control connection. Portable: the
   operating system's service manager is driven by host/{posix,win32}/host.c, which also sets
   where its log lines go (threadsoup/log.h). */
#ifndef THREADSOUP_SERVER_H
#define THREADSOUP_SERVER_H

#include "threadsoup/err.h"
#include "threadsoup/plat.h"

typedef struct server_config {
  char address[PLAT_PATH_MAX];     /* control socket or pipe; "" = plat_ipc_default_address() */
  char db_path[PLAT_PATH_MAX];     /* "" = the service data folder's threadsoup.db */
  const plat_quiet_ops *quiet_ops; /* NULL = plat_quiet_system(); tests give a fake machine */
  uint64_t idle_timeout_ns;        /* a connection without a complete message this long is closed;
                                      0 = 30 s */
  int clients_per_user;            /* connections one user who is not an administrator may hold;
                                      0 = 16 */
} server_config;

typedef struct server server;

/* Opens the database, resumes or closes interrupted runs, and starts listening. */
int server_create(server **out, const server_config *config, ts_err *err);
/* Serves until server_request_stop; returns 0 after a clean stop. */
int server_serve(server *svc);
/* Asks the server to stop: checkpoints a running experiment (its finished trials are already
   kept; the run is marked interrupted with `reason` and resumes at the next start), stops the
   load, closes connections. Never blocks: safe from a service control handler or a signal
   watcher. */
void server_request_stop(server *svc, const char *reason);
void server_destroy(server *svc);
/* The machine woke from sleep or its clock was set (`why` says which, for the log): the
   scheduler reads the wall clock again, so a schedule that fell due while the machine slept runs
   now (within its grace window) and quiet mode past its deadline is restored now, instead of
   when a wait that did not count the time asleep ends. Never blocks: safe from a service control
   handler. */
void server_clock_changed(server *svc, const char *why);

#endif

/* internal.h - the service's shared state and the calls between its parts: server.c (clients
   and lifecycle), events.c (pushed to subscribers), runner.c (one experiment at a time),
   handlers.c (the protocol's requests) and scheduler.c (scheduled experiments). */
#ifndef THREADSOUP_SERVER_INTERNAL_H
#define THREADSOUP_SERVER_INTERNAL_H

#include "server.h"

#include "../engine/engine.h"
#include "../experiment/plan.h"
#include "../store/store.h"
#include "threadsoup/proto.h"

#define SERVER_MAX_CLIENTS 128
#define SERVER_MAX_EVENTS 256
#define SERVER_THREAD_STACK (512 * 1024)
#define RUNNER_THREAD_STACK (2 * 1024 * 1024)
#define SERVER_MAX_RESUMES 16

typedef struct client {
  struct server *svc;
  plat_ipc_conn *conn;
  plat_thread thread;
  plat_peer peer;
  plat_mutex send_lock; /* the client's thread and the notifier both send */
  int in_use;
  int finished; /* its thread has returned: the slot can be reaped */
  int subscribed;
} client;

typedef struct runner_job {
  int64_t run_id;
  int resume; /* 1: experiment_resume; 0: experiment_continue of a run just started */
  plan p;
  uint64_t seed;
} runner_job;

struct server {
  server_config config;
  char db_path[PLAT_PATH_MAX];
  store *db; /* for client requests and the scheduler; under db_lock */
  plat_mutex db_lock;
  plat_ipc_server *listener;
  int64_t started_at; /* Unix seconds: boot schedules count from here */

  plat_mutex lock; /* everything below */
  plat_cond changed;
  int stopping;
  char stop_reason[128];

  load *client_load; /* load started by a client */
  load_spec client_spec;
  int load_busy; /* a load is being started or stopped */

  int run_active;
  int64_t run_id;
  int run_done, run_total;
  int run_stop_requested;
  runner_job job;
  plat_thread runner;
  int runner_joinable;
  int64_t resume_queue[SERVER_MAX_RESUMES];
  int resume_count;

  client clients[SERVER_MAX_CLIENTS];

  char *events[SERVER_MAX_EVENTS]; /* encoded, waiting for the notifier */
  int event_head, event_count;
  plat_thread notifier, scheduler;

  long idle_report_s; /* last user-idle report from a tray; -1 = none */
  int64_t idle_report_at;
  int commands_allowed;
  char commands_reason[256];
};

/* One request being answered: the handler fills `out` (already an ok reply for the verb). */
typedef struct request {
  server *svc;
  client *from;
  const proto_message *in;
  proto_message *out;
  ts_err err;
} request;

/* events.c: queues an event for subscribed clients (the notifier thread sends it). */
void server_emit(server *svc, const char *name, const char *key, const char *fmt, ...)
    TS_PRINTF(4, 5);
void server_notifier_main(void *arg);

/* runner.c: starts the runner on svc->job (caller holds svc->lock, no run active). */
int server_start_runner_locked(server *svc, ts_err *err);
/* runner.c: stores a new run of `p` and starts it; refused while anything else runs. */
int server_start_run(server *svc, const plan *p, uint64_t seed, int64_t schedule_id,
                     int64_t *run_id, ts_err *err);

/* handlers.c: answers one request into r->out. */
void server_dispatch(request *r);
/* handlers.c: takes a client's load out of the state and stops it; 0 when none ran. */
int server_stop_client_load(server *svc, char *text, size_t len);

/* scheduler.c: the thread that starts scheduled experiments when due. */
void server_scheduler_main(void *arg);
/* scheduler.c: store_schedules callback arming boot schedules from this start. */
int server_arm_boot_schedule(void *ctx, const store_schedule *sc);

#endif

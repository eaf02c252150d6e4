/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* internal.h - the service's shared state and the calls between its parts. Calls go one way:
   server.c (clients, lifecycle) -> handlers.c (requests: parse, call, reply) -> runner.c (the one
   owner of what runs: a client's load or one experiment) -> events.c (pushed to subscribers);
   scheduler.c -> runner.c. Logging is the leaf threadsoup/log.h. */
#ifndef THREADSOUP_SERVER_INTERNAL_H
#define THREADSOUP_SERVER_INTERNAL_H

#include "server.h"

#include "../engine/engine.h"
#include "../plan/plan.h"
#include "../quiet/quiet.h"
#include "../store/store.h"
#include "threadsoup/log.h"
#include "threadsoup/proto.h"

#define SERVER_MAX_CLIENTS 128
/* Each subscriber's own queue of events not yet sent: one that falls this far behind is dropped
   with a reason (events.c). */
#define SERVER_CLIENT_EVENTS 64
#define SERVER_CLIENT_EVENT_BYTES (256 * 1024)
/* How long a dropped subscriber has to read the reason before its connection is closed. */
#define SERVER_DROP_GRACE_NS (1000 * 1000 * 1000ull)
/* Defaults of server_config: a connection that sends no complete message for this long is
   closed (a subscriber that only listens is not idle), and how many connections one user who is
   not an administrator may hold at once. */
#define SERVER_IDLE_TIMEOUT_NS (30 * 1000 * 1000 * 1000ull)
#define SERVER_CLIENTS_PER_USER 16
#define SERVER_THREAD_STACK (512 * 1024)
#define RUNNER_THREAD_STACK (2 * 1024 * 1024)
#define SERVER_MAX_RESUMES 16

typedef struct client {
  struct server *svc;
  plat_ipc_conn *conn; /* closed by the client's own thread as it ends */
  plat_thread thread;
  plat_peer peer;
  plat_mutex send_lock; /* the client's thread and its event sender both send */
  int in_use;
  int finished; /* its thread has ended (connection closed): the slot can be reaped */
  int subscribed;
  int admitted; /* counted against its user's limit of connections */

  /* Under server.lock: */
  uint64_t close_at_ns; /* the watcher shuts the connection down then (plat_clock_ns); 0: never */
  char *queue[SERVER_CLIENT_EVENTS]; /* encoded events for this subscriber, oldest first */
  int queue_head, queue_count;
  size_t queue_bytes;
  int dropped;     /* fell behind: the queue holds only the reason, then the connection ends */
  int sender_stop; /* the client's thread is ending: its sender stops */
  plat_cond queue_changed;
  plat_thread sender; /* a subscriber's thread that sends its queued events */
  int has_sender;
} client;

/* What runs, changed only by runner.c (under server.lock). At most one of a client's load and
   an experiment at a time. */
typedef struct runner_state {
  load *client_load;             /* load started by a client */
  plat_stay_awake *client_awake; /* the machine kept awake while it runs (NULL: not possible) */
  load_spec client_spec;
  int load_busy; /* a client's load is being started or stopped */

  int run_active;
  int64_t run_id;
  int run_done, run_total;
  uint64_t run_sitting_ns; /* plat_clock_ns when this sitting of the run started (for its eta) */
  plat_cancel *run_cancel; /* the active run's own stop request */
  int run_resume;          /* 1: the active run resumes; 0: it was just stored */
  plan run_plan;
  uint64_t run_seed;
  plat_thread thread;
  int joinable;
  int64_t resume_queue[SERVER_MAX_RESUMES]; /* runs an earlier stop left unfinished */
  int resume_count;
  int run_programs_allowed; /* who asked for the active job may make the service run programs;
                               -1: the run's stored right (a resume at the service's start) */
  char run_asker[64];       /* who asked, for refusals */
  store_owner run_owner;    /* who asked, as a client's resume stores it with the run */
  plat_peer run_for;        /* whom the active run freezes programs for (runner.c's run_for_peer) */
} runner_state;

struct server {
  server_config config;
  char db_path[PLAT_PATH_MAX];
  store *db;            /* for client requests and the scheduler; under db_lock */
  plat_claim *db_claim; /* this service's claim on db_path (DB-service.lock): one service each */
  plat_mutex db_lock;
  plat_ipc_server *listener;
  int64_t started_at; /* Unix seconds: boot schedules count from here */

  plat_mutex lock; /* everything below */
  plat_cond changed;
  int stopping;
  char stop_reason[128];

  runner_state runner;

  client clients[SERVER_MAX_CLIENTS];

  plat_thread watcher, scheduler;
  uint64_t refusal_logged_at; /* connections refused for their user are logged once a second */

  char wake_state[200]; /* the scheduler's wake timer in words (schedule-list's `wake`) */

  long idle_report_s; /* last user-idle report from a tray; -1 = none */
  int64_t idle_report_at;
  int commands_allowed;
  char commands_reason[256];

  /* Quiet mode (quiet_guard.c), under quiet_lock with a connection of its own. Lock order:
     quiet_lock is never held together with db_lock (either way round); `lock` may be taken
     after quiet_lock is released, never under it. */
  plat_mutex quiet_lock;
  int quiet_lock_ready;
  store *quiet_db;
  const plat_quiet_ops *quiet_ops;
  quiet_machine quiet_machine; /* the last reading of Defender and Windows Update */
  int quiet_cached;            /* quiet_machine is valid (cleared by every change) */
  uint64_t quiet_cached_at;    /* plat_clock_ns of the reading */
};

/* One request being answered: the handler fills `out` (already an ok reply for the verb). */
typedef struct request {
  server *svc;
  client *from;
  const proto_message *in;
  proto_message *out;
  ts_err err;
} request;

/* ---- events.c ---- */

/* Queues an event of one field in each subscribed client's own queue (never blocks: its sender
   thread sends it). */
void server_emit(server *svc, const char *name, const char *key, const char *fmt, ...)
    TS_PRINTF(4, 5);
/* Queues an event built by the caller (kind PROTO_EVENT). */
void server_emit_message(server *svc, const proto_message *m);
/* A subscriber's sender thread (arg: its client), started by the client's thread after
   `subscribe`; ends when client.sender_stop is set, or its connection fails or is dropped. */
void server_sender_main(void *arg);
/* Empties a client's queue. Caller holds svc->lock. */
void server_clear_queue_locked(client *c);

/* ---- runner.c: every change of what runs --------------------------------------------------------
   Each takes server.lock itself; none is called with it held. Refusals are TS_EBUSY (something
   else runs; the message says what) or TS_EUSAGE (nothing to stop). */

/* Who asks for a run: a client (plat_peer_may_run_programs) or a schedule (the right of the client
   that added it). A plan that runs programs (plan_runs_programs) runs only for an asker allowed to
   and from an admin-only data folder; otherwise the run is marked refused with the reason,
   nothing of it runs, and the call fails with TS_EDENIED. */
typedef struct runner_asker {
  const char *name;
  int programs_allowed;
  int not_elevated; /* Windows: an administrator whose token is not elevated (refusals say so) */
  const plat_peer *peer;    /* the client who asks: a freeze freezes only what the rules let it;
                               NULL for a schedule (then only the stored right counts) */
  const store_owner *owner; /* who that is, stored with the run (schema 18) so that a resume at
                               the service's start freezes as that client; NULL: nobody known */
} runner_asker;

/* Client `peer` as the store keeps an owner (a schedule's, a run's): its uid or SID, its name,
   and whether it is a member of ThreadSoup Users (group threadsoup) and no more. */
void runner_owner_of(const plat_peer *peer, store_owner *out);
/* The client a run is for when that client is not there (a schedule due, a resume at the
   service's start): `name` with the stored right; where the store knows the owner (who added
   the schedule, schema 17; NULL or not known: none), that user's uid or SID too, so the freeze
   rules judge its freezes as that client's own (a member's: its own programs only). Without
   one, the peer owns no program and a member's freezes are refused (own-programs-only); root's
   freeze as root does. */
void runner_absent_peer(const char *name, int programs_allowed, const store_owner *owner,
                        plat_peer *out);
/* Stores a new run of `p` (from schedule `schedule_id`, 0 = none) and starts it; a
   freeze:background condition is first resolved into the programs it stands for now
   (plan_expand_background: a census of a few seconds, outside every lock). */
int runner_start_run(server *svc, const plan *p, uint64_t seed, int64_t schedule_id,
                     const runner_asker *asker, int64_t *run_id, ts_err *err);
/* Continues a stored run where it stopped; the service runs it from then on. */
int runner_resume_run(server *svc, int64_t run_id, const runner_asker *asker, ts_err *err);
/* Asks the running experiment to stop at its next check (its finished trials are kept); *run_id
   gets its id. */
int runner_stop_run(server *svc, int64_t *run_id, ts_err *err);
/* Starts a client's load for `peer` (whose programs a freeze may freeze); returns when it runs
   (creating 15,000 threads takes a moment, and other requests are answered meanwhile). */
int runner_start_load(server *svc, const load_spec *spec, const plat_peer *peer, ts_err *err);
/* Stops the client's load; its text goes to `text`. */
int runner_stop_load(server *svc, char *text, size_t len, ts_err *err);
/* TS_OK when nothing runs (nor is being started or stopped), else TS_EBUSY saying what does. */
int runner_check_free(server *svc, ts_err *err);

/* What status reports. */
typedef struct runner_status {
  char load[LOAD_TEXT_MAX]; /* "none" when no client's load runs */
  int run_active;
  int64_t run_id;
  int run_done, run_total;
  long run_eta_s; /* seconds left at this sitting's pace so far; -1 before its first trial */
  /* What the client's load asked for (0 when none runs): threads, processes, and the wake-ups
     per second its sleepers ask for (count / interval), so a front end can show numbers. */
  long load_threads, load_processes;
  double load_wakeups;
} runner_status;
void runner_get_status(server *svc, runner_status *out);

/* At start: queues the runs the service was running when it last stopped, crashed or lost
   power (server_create), then starts the first of them (server_serve). A foreground run that
   died stays as it is until someone asks for it (run --resume). */
void runner_queue_unfinished(server *svc);
void runner_resume_queued(server *svc);
/* At the end of serving (after server_request_stop): waits for the runner, which checkpoints
   its run, and stops the client's load. */
void runner_shutdown(server *svc);

/* ---- quiet_guard.c: quiet mode in the service ---- */

/* At start, right after the database opens and before anything listens: opens quiet mode's own
   connection and restores an entry a crash or power cut left open. */
int server_quiet_open(server *svc, ts_err *err);
void server_quiet_close(server *svc);
/* Restores an open entry left by the last stop (logged). */
void server_quiet_recover(server *svc);
/* The scheduler's part: restores the open entry once its deadline has come; returns the next
   deadline to wake for, 0 when no entry is open (no timer when idle). */
int64_t server_quiet_tick(server *svc, int64_t now);
/* quiet-on of `parts` (quiet.h: QUIET_DEFENDER, QUIET_UPDATES, QUIET_BOTH) for `seconds`, or
   quiet-off with parts 0; wakes the scheduler for the new deadline. */
int server_quiet_change(server *svc, int parts, int64_t seconds, const char *who,
                        quiet_outcome *out, ts_err *err);
/* quiet-status: the journal now, the machine as read at most QUIET_CACHE_NS ago. */
int server_quiet_status(server *svc, quiet_state *out, ts_err *err);

/* ---- handlers.c: the request table, and scheduler.c ---- */

/* Who may send a request (docs/protocol.md, "Who may do what"; peer_rights.c decides). */
typedef enum request_right {
  REQUEST_READ,    /* everyone who can connect: Windows' local users, Linux's root and group */
  REQUEST_CONTROL, /* root or group threadsoup; SYSTEM, elevated administrators, ThreadSoup Users */
} request_right;

typedef struct request_field {
  const char *name;
  int required;     /* missing or empty is refused: "VERB needs field 'NAME' (HELP)" */
  const char *help; /* what is accepted, in a few plain words */
} request_field;

#define REQUEST_MAX_FIELDS 6

/* One line of the request table. */
typedef struct request_def {
  const char *verb;
  request_right right;
  /* 1: a plan that runs programs also needs the programs right, which is checked where the plan
     runs (runner.c, scheduler.c) and, for schedule-add, as it arrives. */
  int programs;
  int (*handle)(request *r);
  request_field fields[REQUEST_MAX_FIELDS]; /* up to the first without a name */
} request_def;

extern const request_def server_requests[];
extern const size_t server_request_count;
/* "read" or "control", as docs/protocol.md names them. */
const char *request_right_name(request_right right);

/* Answers one request into r->out: the table's right and required fields, then its handler. */
void server_dispatch(request *r);

/* catalog.c: the `catalog` request (presets, scenarios and benchmarks of this service). */
int handle_catalog(request *r);

/* The thread that starts scheduled experiments when due. */
void server_scheduler_main(void *arg);
/* store_schedules callback arming boot schedules from this start. */
int server_arm_boot_schedule(void *ctx, const store_schedule *sc);

#endif

/* server.c - the service: accepts clients on the control connection (one thread each), runs the
   load they ask for and one experiment at a time (the runner thread), pushes events to subscribed
   clients (the notifier thread) and starts scheduled experiments (the scheduler thread). Idle, it
   waits on its connection and its next due time only: no timer. */
#include "server.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/engine.h"
#include "../experiment/experiment.h"
#include "../quiet/quiet.h"
#include "../report/report.h"
#include "../store/store.h"
#include "schedule.h"
#include "threadsoup/parse.h"
#include "threadsoup/proto.h"
#include "threadsoup/version.h"

#define SERVER_MAX_CLIENTS 128
#define SERVER_MAX_EVENTS 256
#define SERVER_THREAD_STACK (512 * 1024)
#define RUNNER_THREAD_STACK (2 * 1024 * 1024)
#define SERVER_MAX_RESUMES 16

/* ---- logging ------------------------------------------------------------------------------------ */

static void stderr_sink(server_log_level level, const char *message) {
  static const char *const names[] = {"info", "warning", "error"};
  char at[32];
  plat_utc_timestamp(at, sizeof at);
  fprintf(stderr, "%s threadsoup %s: %s\n", at, names[level], message);
  fflush(stderr);
}

/* Set once by the host before any server thread starts. */
static server_log_sink log_sink = stderr_sink;

void server_set_log_sink(server_log_sink sink) { log_sink = sink ? sink : stderr_sink; }

void server_log(server_log_level level, const char *fmt, ...) {
  char message[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  log_sink(level, message);
}

/* ---- state -------------------------------------------------------------------------------------- */

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
  store *db;          /* for client requests and the scheduler; under db_lock */
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

/* ---- events ------------------------------------------------------------------------------------- */

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

static void emit(server *svc, const char *name, const char *key, const char *fmt, ...)
    TS_PRINTF(4, 5);
static void emit(server *svc, const char *name, const char *key, const char *fmt, ...) {
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

static void notifier_main(void *arg) {
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

/* ---- the runner: one experiment at a time -------------------------------------------------------- */

static void on_trial(void *ctx, const experiment_progress *pr) {
  server *svc = ctx;
  plat_mutex_lock(&svc->lock);
  svc->run_done = pr->done;
  svc->run_total = pr->total;
  plat_mutex_unlock(&svc->lock);
  emit(svc, "trial-done", "progress", "run %lld trial %d of %d: %s %s %.2f %s",
       (long long)pr->run_id, pr->done, pr->total, pr->condition, pr->bench, pr->score, pr->unit);
}

static void on_started(void *ctx, int64_t run_id, int pending, int total) {
  server *svc = ctx;
  plat_mutex_lock(&svc->lock);
  svc->run_done = 0;
  svc->run_total = pending;
  plat_mutex_unlock(&svc->lock);
  emit(svc, "run-started", "run", "%lld: %d of %d trials to run", (long long)run_id, pending,
       total);
}

static void on_note(void *ctx, const char *text) {
  server *svc = ctx;
  emit(svc, "run-note", "text", "%s", text);
}

static void runner_main(void *arg) {
  server *svc = arg;
  store *db = NULL;
  ts_err err;
  int rc = store_open(&db, svc->db_path, &err);
  runner_job *job = &svc->job;
  experiment_observer observer = {on_started, on_trial, on_note, svc};
  for (;;) {
    if (rc == TS_OK) {
      server_log(SERVER_LOG_INFO, "run %lld %s", (long long)job->run_id,
                 job->resume ? "resumes" : "starts");
      rc = job->resume ? experiment_resume(db, job->run_id, &observer, &job->p, &err)
                       : experiment_continue(db, job->run_id, &job->p, job->seed, &observer, &err);
    }
    plat_mutex_lock(&svc->lock);
    int stopping = svc->stopping;
    plat_mutex_unlock(&svc->lock);
    if (rc == TS_EINTERRUPTED && stopping && db) {
      /* Checkpoint: finished trials are already committed; say why it stopped, so the next
         start resumes it. */
      char at[32], detail[256];
      ts_err ignored;
      plat_utc_timestamp(at, sizeof at);
      snprintf(detail, sizeof detail, "service stopped (%s); resumes at the next start",
               svc->stop_reason);
      store_run_end(db, job->run_id, "interrupted", detail, at, &ignored);
    }
    if (rc == TS_OK)
      server_log(SERVER_LOG_INFO, "run %lld finished", (long long)job->run_id);
    else
      server_log(rc == TS_EINTERRUPTED ? SERVER_LOG_INFO : SERVER_LOG_WARNING, "run %lld: %s",
                 (long long)job->run_id, err.text);
    emit(svc, "run-finished", "run", "%lld %s%s%s", (long long)job->run_id,
         rc == TS_OK ? "finished" : rc == TS_EINTERRUPTED ? "interrupted" : "failed",
         rc == TS_OK ? "" : ": ", rc == TS_OK ? "" : err.text);

    plat_mutex_lock(&svc->lock);
    if (svc->run_stop_requested && !svc->stopping)
      plat_interrupt_reset(); /* that stop was for this run only */
    svc->run_stop_requested = 0;
    /* Runs left unfinished by an earlier stop or crash go next, one after another. */
    if (!svc->stopping && svc->resume_count > 0 && db) {
      job->run_id = svc->resume_queue[0];
      job->resume = 1;
      memmove(svc->resume_queue, svc->resume_queue + 1,
              (size_t)--svc->resume_count * sizeof svc->resume_queue[0]);
      svc->run_id = job->run_id;
      svc->run_done = svc->run_total = 0;
      plat_mutex_unlock(&svc->lock);
      rc = TS_OK;
      continue;
    }
    svc->run_active = 0;
    plat_cond_broadcast(&svc->changed);
    plat_mutex_unlock(&svc->lock);
    break;
  }
  store_close(db);
}

/* Starts the runner on svc->job. Caller holds svc->lock and has checked no run is active. */
static int start_runner_locked(server *svc, ts_err *err) {
  if (svc->runner_joinable) {
    /* The previous runner has finished (run_active is 0); collect it before starting anew. */
    plat_thread_join(svc->runner);
    svc->runner_joinable = 0;
  }
  svc->run_active = 1;
  svc->run_id = svc->job.run_id;
  svc->run_done = svc->run_total = 0;
  svc->run_stop_requested = 0;
  int rc = plat_thread_start(&svc->runner, RUNNER_THREAD_STACK, runner_main, svc, err);
  if (rc != TS_OK) {
    svc->run_active = 0;
    return rc;
  }
  svc->runner_joinable = 1;
  return TS_OK;
}

/* Stores a new run of `p` and starts it. */
static int start_run(server *svc, const plan *p, uint64_t seed, int64_t schedule_id,
                     int64_t *run_id, ts_err *err) {
  plat_mutex_lock(&svc->lock);
  if (svc->stopping || svc->run_active || svc->client_load || svc->load_busy) {
    int rc = ts_err_set(err, TS_EUSAGE, "busy: %s",
                        svc->stopping      ? "the service is stopping"
                        : svc->run_active ? "an experiment is running (stop it first)"
                                          : "load started by a client is running (stop it first)");
    plat_mutex_unlock(&svc->lock);
    return rc;
  }
  plat_mutex_lock(&svc->db_lock);
  int rc = experiment_start(svc->db, p, seed, run_id, err);
  if (rc == TS_OK && schedule_id)
    store_run_set_schedule(svc->db, *run_id, schedule_id, err);
  plat_mutex_unlock(&svc->db_lock);
  if (rc == TS_OK) {
    svc->job.run_id = *run_id;
    svc->job.resume = 0;
    svc->job.p = *p;
    svc->job.seed = seed;
    rc = start_runner_locked(svc, err);
  }
  plat_mutex_unlock(&svc->lock);
  return rc;
}

/* ---- requests ------------------------------------------------------------------------------------ */

typedef struct request {
  server *svc;
  client *from;
  const proto_message *in;
  proto_message *out;
  ts_err err;
} request;

typedef int (*handler_fn)(request *r);

static int reply_error(request *r, const char *code, const char *fmt, ...) TS_PRINTF(3, 4);
static int reply_error(request *r, const char *code, const char *fmt, ...) {
  char text[1024];
  ts_err ignored;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  proto_init(r->out, PROTO_ERROR, code);
  proto_add(r->out, "message", text, &ignored);
  return TS_OK;
}

/* A required field, or an error reply naming it. */
static const char *need(request *r, const char *key, const char *accepted) {
  const char *v = proto_get(r->in, key);
  if (!v || !*v)
    reply_error(r, "usage", "%s needs field '%s' (%s)", r->in->verb, key, accepted);
  return v && *v ? v : NULL;
}

static int long_field(request *r, const char *key, long min, long max, long *out) {
  const char *v = need(r, key, "a whole number");
  ts_err err;
  if (!v)
    return 0;
  if (parse_long(v, min, max, key, out, &err) != TS_OK) {
    reply_error(r, "usage", "%s", err.text);
    return 0;
  }
  return 1;
}

static int handle_hello(request *r) {
  const char *v = proto_get(r->in, "version");
  if (v && atoi(v) != PROTO_VERSION)
    return reply_error(r, "version", "protocol version %s is not spoken here (accepted: %d)", v,
                       PROTO_VERSION);
  proto_addf(r->out, &r->err, "version", "%d", PROTO_VERSION);
  proto_addf(r->out, &r->err, "server", "threadsoup %s", TS_VERSION);
  proto_addf(r->out, &r->err, "privileged", "%s", r->from->peer.privileged ? "yes" : "no");
  return TS_OK;
}

static int handle_status(request *r) {
  server *svc = r->svc;
  ts_err err;
  long threads = plat_process_thread_count(plat_self_pid(), &err);
  plat_mutex_lock(&svc->lock);
  proto_addf(r->out, &r->err, "server", "threadsoup %s", TS_VERSION);
  proto_addf(r->out, &r->err, "pid", "%ld", plat_self_pid());
  proto_addf(r->out, &r->err, "db", "%s", svc->db_path);
  proto_addf(r->out, &r->err, "load", "%s", svc->client_load ? svc->client_spec.text : "none");
  proto_addf(r->out, &r->err, "threads", "%ld", threads);
  if (svc->run_active) {
    proto_addf(r->out, &r->err, "run", "%lld", (long long)svc->run_id);
    proto_addf(r->out, &r->err, "run-progress", "%d/%d", svc->run_done, svc->run_total);
  } else {
    proto_add(r->out, "run", "none", &r->err);
  }
  proto_addf(r->out, &r->err, "command-benchmarks", "%s",
             svc->commands_allowed ? "allowed" : svc->commands_reason);
  plat_mutex_unlock(&svc->lock);
  return TS_OK;
}

static int handle_census(request *r) {
  plat_census m;
  ts_err err;
  if (plat_census_machine(&m, &err) != TS_OK)
    return reply_error(r, "failed", "%s", err.text);
  proto_addf(r->out, &r->err, "processes", "%ld", m.processes);
  proto_addf(r->out, &r->err, "threads", "%ld", m.threads);
  proto_addf(r->out, &r->err, "handles", "%ld", m.handles);
  proto_addf(r->out, &r->err, "run-queue", "%ld", m.run_queue);
  plat_process_census self;
  if (plat_census_process(plat_self_pid(), &self, &err) == TS_OK) {
    proto_addf(r->out, &r->err, "service-threads", "%ld", self.threads);
    for (int i = 0; i < self.state_count; i++)
      proto_addf(r->out, &r->err, "service-state", "%ld %s", self.states[i].threads,
                 self.states[i].name);
  }
  return TS_OK;
}

static int add_history_row(void *ctx, const store_run_row *row) {
  request *r = ctx;
  return proto_addf(r->out, &r->err, "run", "%lld|%s|%s|%s|%d/%d|%s", (long long)row->id,
                    row->started_at, row->plan_name, row->status, row->trials_done,
                    row->trials_total, row->status_detail) != TS_OK;
}

static int handle_history(request *r) {
  long limit = 20;
  if (proto_get(r->in, "limit") && !long_field(r, "limit", 1, 200, &limit))
    return TS_OK;
  ts_err err;
  plat_mutex_lock(&r->svc->db_lock);
  int rc = store_runs(r->svc->db, (int)limit, add_history_row, r, &err);
  plat_mutex_unlock(&r->svc->db_lock);
  return rc == TS_OK ? TS_OK : reply_error(r, "failed", "%s", err.text);
}

static int handle_report(request *r) {
  long run_id;
  if (!long_field(r, "run", 1, 2147483647L, &run_id))
    return TS_OK;
  report_format format = REPORT_FORMAT_TEXT;
  const char *format_text = proto_get(r->in, "format");
  ts_err err;
  if (format_text && report_format_parse(format_text, &format, &err) != TS_OK)
    return reply_error(r, "usage", "%s", err.text);
  /* The report writes to a FILE; a temporary file keeps this portable. */
  FILE *f = tmpfile();
  if (!f)
    return reply_error(r, "failed", "cannot create a temporary file for the report");
  plat_mutex_lock(&r->svc->db_lock);
  int rc = report_run_format(r->svc->db, run_id, format, f, &err);
  plat_mutex_unlock(&r->svc->db_lock);
  if (rc != TS_OK) {
    fclose(f);
    return reply_error(r, rc == TS_EINVAL ? "usage" : "failed", "%s", err.text);
  }
  /* Read one byte more than a message holds: a report that long cannot be sent whole, and a
     cut-off CSV, JSON or HTML document would mislead, so it is refused instead. */
  char *text = malloc(PROTO_MAX_MESSAGE + 1);
  size_t n = 0;
  if (text) {
    rewind(f);
    n = fread(text, 1, PROTO_MAX_MESSAGE, f);
    text[n] = '\0';
  }
  fclose(f);
  if (!text)
    return reply_error(r, "failed", "no memory for the report");
  if (n == PROTO_MAX_MESSAGE || proto_add(r->out, "text", text, &r->err) != TS_OK)
    reply_error(r, "failed", "too large for one message; read the database with threadsoup "
                             "report --db");
  free(text);
  return TS_OK;
}

static int handle_load_start(request *r) {
  server *svc = r->svc;
  const char *text = need(r, "spec", "a condition such as sleep:500 or wait:100:event+procs:10");
  if (!text)
    return TS_OK;
  load_spec spec;
  ts_err err;
  if (load_spec_parse(text, &spec, &err) != TS_OK)
    return reply_error(r, "usage", "%s", err.text);
  if (spec.part_count == 0)
    return reply_error(r, "usage", "'%s' creates no load", text);
  plat_mutex_lock(&svc->lock);
  if (svc->stopping || svc->run_active || svc->client_load || svc->load_busy) {
    const char *why = svc->stopping     ? "the service is stopping"
                      : svc->run_active ? "an experiment is running"
                      : svc->load_busy  ? "a load is being started or stopped"
                                        : "a load already runs (stop it first)";
    plat_mutex_unlock(&svc->lock);
    return reply_error(r, "busy", "%s", why);
  }
  svc->load_busy = 1;
  plat_mutex_unlock(&svc->lock);
  /* Creating 15,000 threads takes a moment: status requests keep being answered meanwhile. */
  load *l = NULL;
  int rc = load_start(&spec, &l, &err);
  plat_mutex_lock(&svc->lock);
  svc->load_busy = 0;
  if (rc == TS_OK) {
    svc->client_load = l;
    svc->client_spec = spec;
  }
  plat_mutex_unlock(&svc->lock);
  if (rc != TS_OK) {
    if (rc == TS_EINTERRUPTED)
      plat_interrupt_reset();
    return reply_error(r, "failed", "%s", err.text);
  }
  server_log(SERVER_LOG_INFO, "load %s started for %s", spec.text, r->from->peer.name);
  proto_add(r->out, "load", spec.text, &r->err);
  proto_addf(r->out, &r->err, "threads", "%ld", load_spec_threads(&spec));
  proto_addf(r->out, &r->err, "processes", "%ld", load_spec_processes(&spec));
  emit(svc, "load-started", "load", "%s", spec.text);
  return TS_OK;
}

/* Takes the client's load out of the state and stops it. */
static int stop_client_load(server *svc, char *text, size_t len) {
  plat_mutex_lock(&svc->lock);
  load *l = svc->client_load;
  snprintf(text, len, "%s", svc->client_spec.text);
  svc->client_load = NULL;
  if (l)
    svc->load_busy = 1;
  plat_mutex_unlock(&svc->lock);
  if (!l)
    return 0;
  load_stop(l);
  plat_mutex_lock(&svc->lock);
  svc->load_busy = 0;
  plat_mutex_unlock(&svc->lock);
  emit(svc, "load-stopped", "load", "%s", text);
  return 1;
}

static int handle_load_stop(request *r) {
  char text[LOAD_TEXT_MAX];
  if (!stop_client_load(r->svc, text, sizeof text))
    return reply_error(r, "usage", "no load started by a client is running");
  server_log(SERVER_LOG_INFO, "load %s stopped for %s", text, r->from->peer.name);
  proto_add(r->out, "load", text, &r->err);
  return TS_OK;
}

/* A plan from a request: "plan" is a preset name or plan text; "set" fields are KEY=VALUE. */
static int request_plan(request *r, plan *p) {
  const char *text = need(r, "plan", "a preset name or plan text");
  ts_err err;
  if (!text)
    return 0;
  int rc = strchr(text, '=') ? plan_parse(text, "plan", p, &err) : plan_preset(text, p, &err);
  for (int i = 0; rc == TS_OK && i < r->in->field_count; i++) {
    if (strcmp(r->in->fields[i].key, "set") != 0)
      continue;
    char setting[PLAN_TEXT_MAX + 64];
    snprintf(setting, sizeof setting, "%s", proto_value(r->in, i));
    char *eq = strchr(setting, '=');
    if (!eq) {
      reply_error(r, "usage", "set: '%s' is not KEY=VALUE", setting);
      return 0;
    }
    *eq = '\0';
    rc = plan_set(p, setting, eq + 1, &err);
  }
  if (rc == TS_OK)
    rc = plan_check(p, &err);
  if (rc != TS_OK) {
    reply_error(r, "usage", "%s", err.text);
    return 0;
  }
  for (int i = 0; i < p->bench_count; i++)
    if (strncmp(p->benches[i], "command", 7) == 0 && !r->svc->commands_allowed) {
      reply_error(r, "denied", "command benchmarks are refused: %s", r->svc->commands_reason);
      return 0;
    }
  return 1;
}

static int handle_run_start(request *r) {
  plan *p = malloc(sizeof *p);
  if (!p)
    return reply_error(r, "failed", "no memory for a plan");
  if (!request_plan(r, p)) {
    free(p);
    return TS_OK;
  }
  uint64_t seed = plat_clock_ns() ^ ((uint64_t)plat_self_pid() << 32);
  const char *seed_text = proto_get(r->in, "seed");
  if (seed_text)
    seed = strtoull(seed_text, NULL, 10);
  int64_t run_id = 0;
  ts_err err;
  int rc = start_run(r->svc, p, seed, 0, &run_id, &err);
  free(p);
  if (rc != TS_OK)
    return reply_error(r, strncmp(err.text, "busy", 4) == 0 ? "busy" : "failed", "%s", err.text);
  server_log(SERVER_LOG_INFO, "run %lld started for %s", (long long)run_id, r->from->peer.name);
  proto_addf(r->out, &r->err, "run", "%lld", (long long)run_id);
  return TS_OK;
}

static int handle_run_stop(request *r) {
  server *svc = r->svc;
  plat_mutex_lock(&svc->lock);
  int active = svc->run_active;
  int64_t id = svc->run_id;
  if (active) {
    svc->run_stop_requested = 1;
    plat_interrupt_raise(); /* the runner stops at its next check; reset when it has */
  }
  plat_mutex_unlock(&svc->lock);
  if (!active)
    return reply_error(r, "usage", "no experiment is running");
  proto_addf(r->out, &r->err, "run", "%lld", (long long)id);
  return TS_OK;
}

static int handle_run_resume(request *r) {
  long run_id;
  if (!long_field(r, "run", 1, 2147483647L, &run_id))
    return TS_OK;
  server *svc = r->svc;
  ts_err err;
  static store_run_row row; /* under db_lock */
  plat_mutex_lock(&svc->db_lock);
  int rc = store_run_get(svc->db, run_id, &row, &err);
  plat_mutex_unlock(&svc->db_lock);
  if (rc != TS_OK)
    return reply_error(r, "usage", "%s", err.text);
  plat_mutex_lock(&svc->lock);
  if (svc->stopping || svc->run_active || svc->client_load || svc->load_busy) {
    plat_mutex_unlock(&svc->lock);
    return reply_error(r, "busy", "an experiment or a client's load is running");
  }
  svc->job.run_id = run_id;
  svc->job.resume = 1;
  rc = start_runner_locked(svc, &err);
  plat_mutex_unlock(&svc->lock);
  if (rc != TS_OK)
    return reply_error(r, "failed", "%s", err.text);
  proto_addf(r->out, &r->err, "run", "%ld", run_id);
  return TS_OK;
}

static int handle_record(request *r) {
  long run_id;
  double score;
  load_spec spec;
  ts_err err;
  const char *bench = need(r, "bench", "a benchmark name");
  const char *condition = bench ? need(r, "condition", "a condition") : NULL;
  const char *score_text = condition ? need(r, "score", "a number") : NULL;
  if (!score_text || !long_field(r, "run", 1, 2147483647L, &run_id))
    return TS_OK;
  if (parse_double(score_text, 0, 1e15, "score", &score, &err) != TS_OK ||
      load_spec_parse(condition, &spec, &err) != TS_OK)
    return reply_error(r, "usage", "%s", err.text);
  char at[32];
  int64_t trial_id = 0;
  plat_utc_timestamp(at, sizeof at);
  plat_mutex_lock(&r->svc->db_lock);
  int rc = store_trial_record(r->svc->db, run_id, spec.text, bench, score, proto_get(r->in, "unit"),
                              at, &trial_id, &err);
  plat_mutex_unlock(&r->svc->db_lock);
  if (rc != TS_OK)
    return reply_error(r, rc == TS_EINVAL ? "usage" : "failed", "%s", err.text);
  proto_addf(r->out, &r->err, "trial", "%lld", (long long)trial_id);
  return TS_OK;
}

static void wake_scheduler(server *svc) {
  plat_mutex_lock(&svc->lock);
  plat_cond_broadcast(&svc->changed);
  plat_mutex_unlock(&svc->lock);
}

static int handle_schedule_add(request *r) {
  const char *when_text = need(r, "when", "daily HH:MM, weekly DAY HH:MM, once DATE HH:MM, boot D");
  if (!when_text)
    return TS_OK;
  schedule_when when;
  ts_err err;
  if (schedule_parse(when_text, &when, &err) != TS_OK)
    return reply_error(r, "usage", "%s", err.text);
  store_schedule *sc = calloc(1, sizeof *sc);
  plan *p = malloc(sizeof *p);
  if (!sc || !p) {
    free(sc);
    free(p);
    return reply_error(r, "failed", "no memory for a schedule");
  }
  if (request_plan(r, p)) {
    snprintf(sc->spec, sizeof sc->spec, "%s", when.text);
    plan_format(p, sc->plan_text, sizeof sc->plan_text);
    sc->enabled = 1;
    sc->grace_s = 3600;
    const char *require = proto_get(r->in, "require");
    const char *grace = proto_get(r->in, "grace");
    uint64_t grace_ns = 0;
    int ok = 1;
    if (grace && parse_duration(grace, 0, 7ull * 86400 * 1000000000ull, "grace", &grace_ns, &err) != TS_OK) {
      reply_error(r, "usage", "%s", err.text);
      ok = 0;
    } else if (grace) {
      sc->grace_s = (long)(grace_ns / 1000000000u);
    }
    /* require: "ac", "idle:MINUTES", or both joined with ','. */
    for (const char *q = require; ok && q && *q;) {
      long minutes;
      if (strncmp(q, "ac", 2) == 0 && (q[2] == ',' || q[2] == '\0')) {
        sc->require_ac = 1;
        q += 2;
      } else if (strncmp(q, "idle:", 5) == 0 && sscanf(q + 5, "%ld", &minutes) == 1 &&
                 minutes >= 1 && minutes <= 1440) {
        sc->require_idle_s = minutes * 60;
        q = strchr(q, ',') ? strchr(q, ',') : q + strlen(q);
      } else {
        reply_error(r, "usage", "require: '%s' is not accepted (accepted: ac, idle:MINUTES with "
                                "1 to 1440 minutes, joined with ',')", require);
        ok = 0;
      }
      if (ok && *q == ',')
        q++;
    }
    if (ok) {
      sc->next_due = schedule_next(&when, (int64_t)time(NULL), r->svc->started_at);
      char at[32];
      int64_t id = 0;
      plat_utc_timestamp(at, sizeof at);
      plat_mutex_lock(&r->svc->db_lock);
      int rc = store_schedule_add(r->svc->db, sc, at, &id, &err);
      plat_mutex_unlock(&r->svc->db_lock);
      if (rc != TS_OK) {
        reply_error(r, "failed", "%s", err.text);
      } else {
        char due[32];
        schedule_format_local(sc->next_due, due, sizeof due);
        proto_addf(r->out, &r->err, "schedule", "%lld", (long long)id);
        proto_add(r->out, "when", when.text, &r->err);
        proto_add(r->out, "next", due, &r->err);
        server_log(SERVER_LOG_INFO, "schedule %lld added (%s, next %s) by %s", (long long)id,
                   when.text, due, r->from->peer.name);
        wake_scheduler(r->svc);
      }
    }
  }
  free(sc);
  free(p);
  return TS_OK;
}

static int add_schedule_row(void *ctx, const store_schedule *sc) {
  request *r = ctx;
  char due[32], name[PLAN_NAME_MAX] = "?";
  schedule_format_local(sc->next_due, due, sizeof due);
  const char *n = strstr(sc->plan_text, "name = ");
  if (n)
    sscanf(n + 7, "%63[^\n]", name);
  return proto_addf(r->out, &r->err, "schedule", "%lld|%s|%s|%s|%s%s%s|%s", (long long)sc->id,
                    sc->spec, due, name, sc->enabled ? "enabled" : "done",
                    sc->require_ac ? ",ac" : "", sc->require_idle_s ? ",idle" : "",
                    sc->last_event) != TS_OK;
}

static int handle_schedule_list(request *r) {
  ts_err err;
  plat_mutex_lock(&r->svc->db_lock);
  int rc = store_schedules(r->svc->db, add_schedule_row, r, &err);
  plat_mutex_unlock(&r->svc->db_lock);
  return rc == TS_OK ? TS_OK : reply_error(r, "failed", "%s", err.text);
}

static int handle_schedule_remove(request *r) {
  long id;
  if (!long_field(r, "schedule", 1, 2147483647L, &id))
    return TS_OK;
  ts_err err;
  plat_mutex_lock(&r->svc->db_lock);
  int rc = store_schedule_remove(r->svc->db, id, &err);
  plat_mutex_unlock(&r->svc->db_lock);
  if (rc != TS_OK)
    return reply_error(r, rc == TS_EINVAL ? "usage" : "failed", "%s", err.text);
  wake_scheduler(r->svc);
  proto_addf(r->out, &r->err, "schedule", "%ld", id);
  return TS_OK;
}

static int handle_quiet_status(request *r) {
  quiet_state *q = malloc(sizeof *q);
  ts_err err;
  if (!q)
    return reply_error(r, "failed", "no memory");
  plat_mutex_lock(&r->svc->db_lock);
  int rc = quiet_status(r->svc->db, plat_quiet_system(), q, &err);
  plat_mutex_unlock(&r->svc->db_lock);
  if (rc == TS_OK) {
    proto_add(r->out, "quiet", q->on ? "on" : "off", &r->err);
    proto_add(r->out, "available", q->unavailable[0] ? "no" : "yes", &r->err);
    if (q->unavailable[0])
      proto_add(r->out, "reason", q->unavailable, &r->err);
    proto_add(r->out, "text", q->text, &r->err);
  }
  free(q);
  return rc == TS_OK ? TS_OK : reply_error(r, "failed", "%s", err.text);
}

/* quiet-on / quiet-off by hand (a plan's "quiet = on" does it around its run by itself). */
static int handle_quiet_change(request *r, int on) {
  long hours = 4;
  if (on && proto_get(r->in, "hours") && !long_field(r, "hours", 1, 24 * 35 - 2, &hours))
    return TS_OK;
  quiet_outcome outcome;
  ts_err err;
  plat_mutex_lock(&r->svc->db_lock);
  int rc = on ? quiet_enter(r->svc->db, plat_quiet_system(), hours * 3600, r->from->peer.name,
                            &outcome, &err)
              : quiet_leave(r->svc->db, plat_quiet_system(), &outcome, &err);
  plat_mutex_unlock(&r->svc->db_lock);
  if (rc != TS_OK)
    return reply_error(r, "failed", "%s", err.text);
  server_log(SERVER_LOG_INFO, "quiet mode %s for %s: %s", on ? "on" : "off", r->from->peer.name,
             outcome.text);
  proto_add(r->out, "text", outcome.text, &r->err);
  return TS_OK;
}
static int handle_quiet_on(request *r) { return handle_quiet_change(r, 1); }
static int handle_quiet_off(request *r) { return handle_quiet_change(r, 0); }

static int handle_subscribe(request *r) {
  plat_mutex_lock(&r->svc->lock);
  r->from->subscribed = 1;
  plat_mutex_unlock(&r->svc->lock);
  return TS_OK;
}

static int handle_user_idle(request *r) {
  long seconds;
  if (!long_field(r, "seconds", 0, 31L * 86400, &seconds))
    return TS_OK;
  plat_mutex_lock(&r->svc->lock);
  r->svc->idle_report_s = seconds;
  r->svc->idle_report_at = (int64_t)time(NULL);
  plat_cond_broadcast(&r->svc->changed);
  plat_mutex_unlock(&r->svc->lock);
  return TS_OK;
}

typedef struct handler_def {
  const char *verb;
  int privileged; /* needs an administrator (root or group threadsoup) */
  handler_fn fn;
} handler_def;

/* The protocol's requests (docs/protocol.md): one line each. */
static const handler_def handlers[] = {
    {"hello", 0, handle_hello},
    {"status", 0, handle_status},
    {"census", 0, handle_census},
    {"history", 0, handle_history},
    {"report", 0, handle_report},
    {"schedule-list", 0, handle_schedule_list},
    {"quiet-status", 0, handle_quiet_status},
    {"subscribe", 0, handle_subscribe},
    {"user-idle", 0, handle_user_idle},
    {"load-start", 1, handle_load_start},
    {"load-stop", 1, handle_load_stop},
    {"run-start", 1, handle_run_start},
    {"run-stop", 1, handle_run_stop},
    {"run-resume", 1, handle_run_resume},
    {"record", 1, handle_record},
    {"schedule-add", 1, handle_schedule_add},
    {"schedule-remove", 1, handle_schedule_remove},
    {"quiet-on", 1, handle_quiet_on},
    {"quiet-off", 1, handle_quiet_off},
};

static void dispatch(request *r) {
  if (r->in->kind != PROTO_REQUEST) {
    reply_error(r, "usage", "expected a request, got '%s %s'", proto_kind_name(r->in->kind),
                r->in->verb);
    return;
  }
  for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++) {
    if (strcmp(handlers[i].verb, r->in->verb) != 0)
      continue;
    if (handlers[i].privileged && !r->from->peer.privileged) {
      reply_error(r, "denied",
                  "%s needs an administrator: %s is not %s", r->in->verb, r->from->peer.name,
                  r->from->peer.uid >= 0 ? "root or in group threadsoup"
                                         : "a member of Administrators");
      return;
    }
    proto_init(r->out, PROTO_OK, r->in->verb);
    handlers[i].fn(r);
    return;
  }
  char verbs[1024];
  size_t used = 0;
  for (size_t i = 0; i < sizeof handlers / sizeof handlers[0] && used < sizeof verbs; i++)
    used += (size_t)snprintf(verbs + used, sizeof verbs - used, "%s%s", i ? ", " : "",
                             handlers[i].verb);
  reply_error(r, "usage", "unknown request '%s' (known: %s)", r->in->verb, verbs);
}

/* ---- clients ------------------------------------------------------------------------------------- */

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

static void client_main(void *arg) {
  client *c = arg;
  server *svc = c->svc;
  client_buffers *b = malloc(sizeof *b);
  ts_err err;
  size_t used = 0;
  if (b && plat_ipc_peer(c->conn, &c->peer, &err) != TS_OK) {
    c->peer.privileged = 0;
    snprintf(c->peer.name, sizeof c->peer.name, "unknown");
  }
  while (b) {
    size_t got = 0;
    if (used == sizeof b->in)
      break; /* cannot happen: decode refuses a message before the buffer fills */
    if (plat_ipc_recv(c->conn, b->in + used, sizeof b->in - used, &got, &err) != TS_OK || got == 0)
      break;
    used += got;
    for (;;) {
      size_t consumed = 0;
      int rc = proto_decode(b->in, used, &consumed, &b->request, &err);
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
      request r = {svc, c, &b->request, &b->reply, {0, ""}};
      dispatch(&r);
      if (!send_reply(c, b))
        goto done;
      memmove(b->in, b->in + consumed, used - consumed);
      used -= consumed;
    }
  }
done:
  free(b);
  plat_mutex_lock(&svc->lock);
  c->finished = 1;
  plat_cond_broadcast(&svc->changed);
  plat_mutex_unlock(&svc->lock);
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
    plat_ipc_close(c->conn);
    plat_mutex_destroy(&c->send_lock);
    memset(c, 0, sizeof *c);
  }
}

/* ---- the scheduler ------------------------------------------------------------------------------- */

typedef struct due_list {
  int count;
  store_schedule *items;
  int64_t earliest;
} due_list;

static int collect_schedule(void *ctx, const store_schedule *sc) {
  due_list *d = ctx;
  if (!sc->enabled || sc->next_due == 0)
    return 0;
  if (d->earliest == 0 || sc->next_due < d->earliest)
    d->earliest = sc->next_due;
  if (sc->next_due <= (int64_t)time(NULL) && d->count < 8)
    d->items[d->count++] = *sc;
  return 0;
}

/* Starts, skips or marks missed one due schedule, and sets its next due time. */
static void fire_schedule(server *svc, store_schedule *sc, int64_t now) {
  schedule_when when;
  ts_err err;
  char at[32], detail[256] = "";
  plat_utc_timestamp(at, sizeof at);
  if (schedule_parse(sc->spec, &when, &err) != TS_OK) {
    plat_mutex_lock(&svc->db_lock);
    store_schedule_update(svc->db, sc->id, 0, 0, &err);
    plat_mutex_unlock(&svc->db_lock);
    return;
  }
  const char *what = "started";
  int64_t run_id = 0;
  if (now - sc->next_due > sc->grace_s) {
    what = "missed";
    char due[32];
    schedule_format_local(sc->next_due, due, sizeof due);
    snprintf(detail, sizeof detail, "due %s, more than the %lds grace window ago (the machine or "
                                    "the service was off)", due, sc->grace_s);
  } else if (sc->require_ac && plat_power_on_ac() == 0) {
    what = "skipped";
    snprintf(detail, sizeof detail, "on battery power");
  } else {
    if (sc->require_idle_s) {
      /* Only a tray sees the user's session: ask the subscribed trays, and give them a moment to
         answer (no tray keeps reporting on a timer). */
      emit(svc, "idle-query", "schedule", "%lld", (long long)sc->id);
      plat_mutex_lock(&svc->lock);
      for (int i = 0; i < 30 && svc->idle_report_at < now && !svc->stopping; i++)
        plat_cond_wait(&svc->changed, &svc->lock, 100000000ull);
      plat_mutex_unlock(&svc->lock);
    }
    plat_mutex_lock(&svc->lock);
    long idle = svc->idle_report_at >= now ? svc->idle_report_s : -1;
    int64_t idle_at = svc->idle_report_at;
    int busy = svc->run_active || svc->client_load || svc->load_busy;
    plat_mutex_unlock(&svc->lock);
    if (busy)
      return; /* try again when the running experiment or load ends */
    if (sc->require_idle_s) {
      if (idle < 0)
        snprintf(detail, sizeof detail, "user idle: unknown (no tray reports it)");
      else if (idle + (now - idle_at) < sc->require_idle_s) {
        what = "skipped";
        snprintf(detail, sizeof detail, "the user was active %lds ago", idle + (long)(now - idle_at));
      }
    }
    if (strcmp(what, "started") == 0) {
      plan *p = malloc(sizeof *p);
      int rc = p ? plan_parse(sc->plan_text, "schedule", p, &err) : TS_ENOMEM;
      if (rc == TS_OK)
        rc = start_run(svc, p, plat_clock_ns() ^ (uint64_t)sc->id, sc->id, &run_id, &err);
      free(p);
      if (rc != TS_OK) {
        what = "skipped";
        snprintf(detail, sizeof detail, "%s", err.text);
      }
    }
  }
  int64_t next = schedule_next(&when, now, svc->started_at);
  plat_mutex_lock(&svc->db_lock);
  store_schedule_event(svc->db, sc->id, what, run_id, detail[0] ? detail : NULL, at, &err);
  store_schedule_update(svc->db, sc->id, next, next != 0, &err);
  plat_mutex_unlock(&svc->db_lock);
  server_log(strcmp(what, "started") == 0 ? SERVER_LOG_INFO : SERVER_LOG_WARNING,
             "schedule %lld (%s): %s%s%s", (long long)sc->id, sc->spec, what,
             detail[0] ? ": " : "", detail);
}

static void scheduler_main(void *arg) {
  server *svc = arg;
  store_schedule *items = malloc(8 * sizeof *items);
  while (items) {
    due_list due = {0, items, 0};
    ts_err err;
    plat_mutex_lock(&svc->db_lock);
    store_schedules(svc->db, collect_schedule, &due, &err);
    plat_mutex_unlock(&svc->db_lock);
    int64_t now = (int64_t)time(NULL);
    for (int i = 0; i < due.count; i++)
      fire_schedule(svc, &due.items[i], now);
    plat_mutex_lock(&svc->lock);
    if (svc->stopping) {
      plat_mutex_unlock(&svc->lock);
      break;
    }
    /* Sleep until the next due time, or until something changes (a schedule added, a run or a
       client's load ended): the only timer the idle service has. */
    uint64_t wait = UINT64_MAX;
    if (due.earliest)
      wait = due.earliest > now ? (uint64_t)(due.earliest - now) * 1000000000ull : 1000000000ull;
    plat_cond_wait(&svc->changed, &svc->lock, wait);
    int stop = svc->stopping;
    plat_mutex_unlock(&svc->lock);
    if (stop)
      break;
  }
  free(items);
}

/* Boot schedules count from this start. */
static int arm_boot_schedule(void *ctx, const store_schedule *sc) {
  server *svc = ctx;
  schedule_when when;
  ts_err err;
  if (schedule_parse(sc->spec, &when, &err) == TS_OK && when.kind == SCHEDULE_BOOT)
    store_schedule_update(svc->db, sc->id, schedule_next(&when, svc->started_at - 1, svc->started_at),
                          1, &err);
  return 0;
}

/* ---- lifecycle ----------------------------------------------------------------------------------- */

static int queue_unfinished(void *ctx, const store_run_row *row) {
  server *svc = ctx;
  /* A run the service was running when it stopped, crashed or lost power resumes; one a user
     stopped does not. */
  int resumable = strcmp(row->status, "running") == 0 ||
                  strncmp(row->status_detail, "service stopped", 15) == 0;
  if (resumable && svc->resume_count < SERVER_MAX_RESUMES)
    svc->resume_queue[svc->resume_count++] = row->id;
  return 0;
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
    if (rc == TS_OK)
      rc = plat_mkdir_p(folder, err);
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
      server_log(SERVER_LOG_WARNING, "command benchmarks are refused: %s", svc->commands_reason);
  }
  if (rc == TS_OK)
    rc = store_open(&svc->db, svc->db_path, err);
  if (rc == TS_OK)
    rc = plat_interrupt_install(err);
  if (rc == TS_OK)
    rc = plat_ipc_listen(&svc->listener,
                         config->address[0] ? config->address : plat_ipc_default_address(), err);
  if (rc == TS_OK) {
    ts_err ignored;
    store_unfinished_runs(svc->db, queue_unfinished, svc, &ignored);
    /* Quiet mode left on by a crash or a power cut is restored before anything else runs. */
    quiet_outcome outcome;
    if (quiet_recover(svc->db, plat_quiet_system(), &outcome, &ignored) == TS_OK &&
        (outcome.defender_changed || outcome.update_changed))
      server_log(SERVER_LOG_WARNING, "quiet mode was still on after the last stop: %s",
                 outcome.text);
    store_schedules(svc->db, arm_boot_schedule, svc, &ignored);
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
  server_log(SERVER_LOG_INFO, "ThreadSoup %s serving on %s, database %s", TS_VERSION, address,
             svc->db_path);
  plat_mutex_lock(&svc->lock);
  if (svc->resume_count > 0) {
    svc->job.run_id = svc->resume_queue[0];
    svc->job.resume = 1;
    memmove(svc->resume_queue, svc->resume_queue + 1,
            (size_t)--svc->resume_count * sizeof svc->resume_queue[0]);
    server_log(SERVER_LOG_INFO, "resuming run %lld, left unfinished by the last stop",
               (long long)svc->job.run_id);
    if (start_runner_locked(svc, &err) != TS_OK)
      server_log(SERVER_LOG_ERROR, "cannot resume: %s", err.text);
  }
  plat_mutex_unlock(&svc->lock);
  int have_notifier =
      plat_thread_start(&svc->notifier, SERVER_THREAD_STACK, notifier_main, svc, &err) == TS_OK;
  int have_scheduler =
      plat_thread_start(&svc->scheduler, SERVER_THREAD_STACK, scheduler_main, svc, &err) == TS_OK;

  for (;;) {
    plat_ipc_conn *conn = NULL;
    int rc = plat_ipc_accept(svc->listener, &conn, &err);
    plat_mutex_lock(&svc->lock);
    reap_clients_locked(svc);
    if (rc != TS_OK || svc->stopping) {
      plat_mutex_unlock(&svc->lock);
      plat_ipc_close(conn);
      if (rc != TS_OK && rc != TS_EINTERRUPTED)
        server_log(SERVER_LOG_ERROR, "%s", err.text);
      break;
    }
    client *c = NULL;
    for (int i = 0; i < SERVER_MAX_CLIENTS && !c; i++)
      if (!svc->clients[i].in_use)
        c = &svc->clients[i];
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
    plat_mutex_init(&c->send_lock);
    if (plat_thread_start(&c->thread, SERVER_THREAD_STACK, client_main, c, &err) != TS_OK) {
      plat_ipc_close(conn);
      memset(c, 0, sizeof *c);
      server_log(SERVER_LOG_WARNING, "cannot serve a client: %s", err.text);
    }
    plat_mutex_unlock(&svc->lock);
  }

  /* Stopping: the runner checkpoints, the client's load goes, the clients are let go. */
  server_request_stop(svc, NULL);
  plat_mutex_lock(&svc->lock);
  int joinable = svc->runner_joinable;
  svc->runner_joinable = 0;
  plat_mutex_unlock(&svc->lock);
  if (joinable)
    plat_thread_join(svc->runner);
  char text[LOAD_TEXT_MAX];
  stop_client_load(svc, text, sizeof text);
  plat_mutex_lock(&svc->lock);
  for (;;) {
    int live = 0;
    for (int i = 0; i < SERVER_MAX_CLIENTS; i++)
      live += svc->clients[i].in_use && !svc->clients[i].finished;
    if (!live)
      break;
    plat_cond_wait(&svc->changed, &svc->lock, 100000000ull);
  }
  reap_clients_locked(svc);
  plat_cond_broadcast(&svc->changed);
  plat_mutex_unlock(&svc->lock);
  if (have_notifier)
    plat_thread_join(svc->notifier);
  if (have_scheduler)
    plat_thread_join(svc->scheduler);
  server_log(SERVER_LOG_INFO, "stopped (%s)", svc->stop_reason);
  return 0;
}

void server_destroy(server *svc) {
  if (!svc)
    return;
  if (svc->listener)
    plat_ipc_server_free(svc->listener);
  store_close(svc->db);
  for (int i = 0; i < svc->event_count; i++)
    free(svc->events[(svc->event_head + i) % SERVER_MAX_EVENTS]);
  plat_cond_destroy(&svc->changed);
  plat_mutex_destroy(&svc->lock);
  plat_mutex_destroy(&svc->db_lock);
  free(svc);
}

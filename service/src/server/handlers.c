/* handlers.c - the protocol's requests (docs/protocol.md), one function each and one table line
   each; the table says which need an administrator. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../experiment/experiment.h"
#include "../quiet/quiet.h"
#include "../report/report.h"
#include "schedule.h"
#include "threadsoup/parse.h"
#include "threadsoup/version.h"

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
    reply_error(r, "failed",
                "too large for one message; read the database with threadsoup "
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
  server_emit(svc, "load-started", "load", "%s", spec.text);
  return TS_OK;
}

/* Takes the client's load out of the state and stops it. */
int server_stop_client_load(server *svc, char *text, size_t len) {
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
  server_emit(svc, "load-stopped", "load", "%s", text);
  return 1;
}

static int handle_load_stop(request *r) {
  char text[LOAD_TEXT_MAX];
  if (!server_stop_client_load(r->svc, text, sizeof text))
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
  int rc = server_start_run(r->svc, p, seed, 0, &run_id, &err);
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
  rc = server_start_runner_locked(svc, &err);
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
    if (grace &&
        parse_duration(grace, 0, 7ull * 86400 * 1000000000ull, "grace", &grace_ns, &err) != TS_OK) {
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
        reply_error(r, "usage",
                    "require: '%s' is not accepted (accepted: ac, idle:MINUTES with "
                    "1 to 1440 minutes, joined with ',')",
                    require);
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

void server_dispatch(request *r) {
  if (r->in->kind != PROTO_REQUEST) {
    reply_error(r, "usage", "expected a request, got '%s %s'", proto_kind_name(r->in->kind),
                r->in->verb);
    return;
  }
  for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++) {
    if (strcmp(handlers[i].verb, r->in->verb) != 0)
      continue;
    if (handlers[i].privileged && !r->from->peer.privileged) {
      reply_error(
          r, "denied", "%s needs an administrator: %s is not %s", r->in->verb, r->from->peer.name,
          r->from->peer.uid >= 0 ? "root or in group threadsoup" : "a member of Administrators");
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

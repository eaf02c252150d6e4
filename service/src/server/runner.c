/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* runner.c - the one owner of what the service runs: a client's load, or one experiment at a time
   on the runner thread followed by the runs an earlier stop left unfinished. Every change of that
   state (start, resume, stop, busy) is a function here; a service stop checkpoints the run so
   the next start resumes it. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../experiment/experiment.h"
#include "../report/headline.h"
#include "threadsoup/units.h"

/* ---- the one busy rule ---- */

/* TS_OK when nothing runs, else TS_EBUSY saying what does. Caller holds svc->lock. */
static int check_free_locked(const server *svc, ts_err *err) {
  const runner_state *st = &svc->runner;
  if (svc->stopping)
    return ts_err_set(err, TS_EBUSY, "the service is stopping");
  if (st->run_active)
    return ts_err_set(err, TS_EBUSY, "experiment run %lld is running (stop it first)",
                      (long long)st->run_id);
  if (st->load_busy)
    return ts_err_set(err, TS_EBUSY, "a load is being started or stopped");
  if (st->client_load)
    return ts_err_set(err, TS_EBUSY, "load %s started by a client is running (stop it first)",
                      st->client_spec.text);
  return TS_OK;
}

int runner_check_free(server *svc, ts_err *err) {
  plat_mutex_lock(&svc->lock);
  int rc = check_free_locked(svc, err);
  plat_mutex_unlock(&svc->lock);
  return rc;
}

void runner_get_status(server *svc, runner_status *out) {
  plat_mutex_lock(&svc->lock);
  const runner_state *st = &svc->runner;
  snprintf(out->load, sizeof out->load, "%s", st->client_load ? st->client_spec.text : "none");
  out->run_active = st->run_active;
  out->run_id = st->run_id;
  out->run_done = st->run_done;
  out->run_total = st->run_total;
  out->run_eta_s = -1;
  if (st->run_active && st->run_done > 0 && st->run_total >= st->run_done) {
    double per_trial = (double)(plat_clock_ns() - st->run_sitting_ns) / st->run_done;
    out->run_eta_s = (long)(per_trial * (st->run_total - st->run_done) / TS_NS_PER_S + 0.5);
  }
  out->load_threads = out->load_processes = 0;
  out->load_wakeups = 0;
  for (int i = 0; st->client_load && i < st->client_spec.part_count; i++) {
    const load_part *part = &st->client_spec.parts[i];
    if (part->scenario->creates_processes)
      out->load_processes += part->count;
    else
      out->load_threads += part->count;
    out->load_wakeups += load_part_wakeups_per_s(part);
  }
  plat_mutex_unlock(&svc->lock);
}

/* ---- the runner thread ---- */

static void on_trial(void *ctx, const experiment_progress *pr) {
  server *svc = ctx;
  plat_mutex_lock(&svc->lock);
  svc->runner.run_done = pr->done;
  svc->runner.run_total = pr->total;
  plat_mutex_unlock(&svc->lock);
  server_emit(svc, "trial-done", "progress", "run %lld trial %d of %d: %s %s %.2f %s",
              (long long)pr->run_id, pr->done, pr->total, pr->condition, pr->bench, pr->score,
              pr->unit);
}

static void on_started(void *ctx, int64_t run_id, int pending, int total) {
  server *svc = ctx;
  plat_mutex_lock(&svc->lock);
  svc->runner.run_done = 0;
  svc->runner.run_total = pending;
  svc->runner.run_sitting_ns = plat_clock_ns();
  plat_mutex_unlock(&svc->lock);
  server_emit(svc, "run-started", "run", "%lld: %d of %d trials to run", (long long)run_id, pending,
              total);
}

static void on_note(void *ctx, const char *text) {
  server *svc = ctx;
  server_emit(svc, "run-note", "text", "%s", text);
}

/* Logs and announces how a run ended; a run the service's stop interrupted is checkpointed to
   resume at the next start. */
static void finish_run(server *svc, store *db, int64_t run_id, int rc, const ts_err *err) {
  plat_mutex_lock(&svc->lock);
  int stopping = svc->stopping;
  char reason[sizeof svc->stop_reason];
  snprintf(reason, sizeof reason, "%s", svc->stop_reason);
  plat_mutex_unlock(&svc->lock);
  if (rc == TS_EINTERRUPTED && stopping && db) {
    /* Finished trials are already committed; say why it stopped, so the next start resumes it. */
    char at[32], detail[256];
    ts_err ignored;
    plat_utc_timestamp(at, sizeof at);
    snprintf(detail, sizeof detail, "service stopped (%s); resumes at the next start", reason);
    store_run_checkpoint(db, run_id, detail, at, &ignored);
  }
  store_run_status outcome = rc == TS_OK             ? STORE_RUN_FINISHED
                             : rc == TS_EINTERRUPTED ? STORE_RUN_INTERRUPTED
                                                     : STORE_RUN_FAILED;
  if (rc == TS_OK)
    ts_log(TS_LOG_INFO, "run %lld finished", (long long)run_id);
  else
    ts_log(rc == TS_EINTERRUPTED ? TS_LOG_INFO : TS_LOG_WARNING, "run %lld: %s", (long long)run_id,
           err->text);
  proto_message *m = malloc(sizeof *m);
  if (!m)
    return;
  ts_err ignored;
  proto_init(m, PROTO_EVENT, "run-finished");
  proto_addf(m, &ignored, "run", "%lld %s%s%s", (long long)run_id, store_run_status_name(outcome),
             rc == TS_OK ? "" : ": ", rc == TS_OK ? "" : err->text);
  proto_add(m, "outcome", store_run_status_name(outcome), &ignored);
  /* The run's headline, for the tray's notification; left out when there is nothing to compare. */
  char headline[512];
  if (db && report_headline_load(db, run_id, headline, sizeof headline, &ignored) == TS_OK)
    proto_add(m, "headline", headline, &ignored);
  server_emit_message(svc, m);
  free(m);
}

/* ---- whom a run freezes programs for ---- */

void runner_owner_of(const plat_peer *peer, store_owner *out) {
  memset(out, 0, sizeof *out);
  out->known = 1;
  out->uid = peer->uid;
  snprintf(out->sid, sizeof out->sid, "%s", peer->user_sid);
  snprintf(out->name, sizeof out->name, "%s", peer->name);
  out->member = !peer->may_run_programs; /* as the freeze rules judge it */
}

void runner_absent_peer(const char *name, int programs_allowed, const store_owner *owner,
                        plat_peer *out) {
  memset(out, 0, sizeof *out);
  out->pid = out->uid = out->gid = out->session = -1;
  out->privileged = 1;
  out->may_run_programs = programs_allowed > 0;
  snprintf(out->name, sizeof out->name, "%s", name);
  if (!owner || !owner->known)
    return;
  /* A member's schedule or run freezes what that member may: its own programs. An
     administrator's has the right it was added or started with. */
  out->uid = owner->uid;
  snprintf(out->user_sid, sizeof out->user_sid, "%s", owner->sid);
  out->may_run_programs = programs_allowed > 0 && !owner->member;
  snprintf(out->name, sizeof out->name, "%s (for %s)", name, owner->name);
}

/* The schedule `ctx` names by id (its id on the way in), copied into it when found. */
static int find_schedule(void *ctx, const store_schedule *sc) {
  store_schedule *wanted = ctx;
  if (sc->id != wanted->id)
    return 0;
  *wanted = *sc;
  return 1;
}

/* What a stored run says of whoever started it: read by the resume's checks, for the resume
   at the service's start. */
typedef struct resume_origin {
  int programs_allowed;    /* the stored right */
  int64_t schedule_id;     /* the schedule that started it; 0: none */
  store_owner started_for; /* the client it was started (or last resumed) for; schema 18 */
} resume_origin;

/* Whom run `run_id` resumed at the service's start freezes for: the client the service started
   it for (or a client last resumed it for), exactly as that client's own freezes were judged; a
   run stored before that was kept (schema 18) and started by a schedule, as that schedule's
   owner, as when it fired (scheduler.c); any other run (a foreground one, one whose schedule was
   removed since) with its stored right alone. */
static void resume_peer(store *db, int64_t run_id, const resume_origin *origin, plat_peer *out) {
  char name[64];
  if (origin->started_for.known) {
    snprintf(name, sizeof name, "run %lld", (long long)run_id);
    runner_absent_peer(name, origin->programs_allowed, &origin->started_for, out);
    return;
  }
  store_schedule *sc = origin->schedule_id ? calloc(1, sizeof *sc) : NULL;
  ts_err err;
  int found = 0;
  if (sc) {
    sc->id = origin->schedule_id;
    found = store_schedules(db, find_schedule, sc, &err) == TS_OK && sc->spec[0];
  }
  if (found)
    snprintf(name, sizeof name, "schedule %lld", (long long)origin->schedule_id);
  else
    snprintf(name, sizeof name, "the service");
  runner_absent_peer(name, origin->programs_allowed, found ? &sc->owner : NULL, out);
  free(sc);
}

/* The client who asks; with none, a peer with the stored right alone (runner_absent_peer). */
static void run_for_peer(const plat_peer *peer, const char *name, int programs_allowed,
                         plat_peer *out) {
  if (peer)
    *out = *peer;
  else
    runner_absent_peer(name, programs_allowed, NULL, out);
}

/* ---- who may make the service run programs ---- */

/* TS_OK when `p` may run for `asker`; else TS_EDENIED saying why. Writes nothing: a refused
   request leaves the run as it was. */
static int programs_refusal(const server *svc, const plan *p, const runner_asker *asker,
                            ts_err *err) {
  char what[PLAN_TEXT_MAX + 32];
  if (!plan_runs_programs(p, what, sizeof what))
    return TS_OK;
  if (asker->programs_allowed && svc->commands_allowed)
    return TS_OK;
  if (!svc->commands_allowed)
    return ts_err_set(err, TS_EDENIED, "refused: the plan runs programs (%s), refused here: %s",
                      what, svc->commands_reason);
  if (asker->not_elevated)
    return ts_err_set(err, TS_EDENIED,
                      "refused: the plan runs programs (%s), which only elevated administrators "
                      "and SYSTEM may make the service run: the administrator rights of %s are "
                      "not elevated: run it elevated",
                      what, asker->name);
  return ts_err_set(err, TS_EDENIED,
                    "refused: the plan runs programs (%s) and %s may not make the service run "
                    "them (only root may; on Windows SYSTEM or an elevated administrator, not "
                    "members of ThreadSoup Users)",
                    what, asker->name);
}

/* Marks run `run_id`, which was about to run, refused with the reason in `err` (nothing of it
   runs). Caller holds whatever guards `db`. */
static void mark_refused(store *db, int64_t run_id, const ts_err *err) {
  char at[32];
  ts_err ignored;
  plat_utc_timestamp(at, sizeof at);
  store_run_refuse(db, run_id, err->text, at, &ignored);
  ts_log(TS_LOG_WARNING, "run %lld %s", (long long)run_id, err->text);
}

/* The checks of a resume, on the stored run, for the client who asks, or (at the service's
   start: asker->programs_allowed < 0) for whoever started the run, as stored: first the run's
   state (finished, typed in by hand, imported: refused as it is), then its programs. With
   `runs_now` (the runner, about to run it) a refusal of its programs marks the run failed, and a
   client's resume makes the run the service's, with that client's right and as that client's
   (asker->owner); without it (a client's request being answered) nothing is written. `origin`
   (may be NULL) gets what the stored run says of whoever started it. */
static int gate_resume(const server *svc, store *db, int64_t run_id, const runner_asker *asker,
                       int runs_now, resume_origin *origin, ts_err *err) {
  store_run_row *row = malloc(sizeof *row);
  plan *p = malloc(sizeof *p);
  int rc = row && p ? store_run_get(db, run_id, row, err)
                    : ts_err_set(err, TS_ENOMEM, "no memory to read run %lld", (long long)run_id);
  if (rc == TS_OK)
    rc = experiment_resumable(row, err);
  if (rc == TS_OK && origin) {
    origin->programs_allowed = row->programs_allowed;
    origin->schedule_id = row->schedule_id;
    origin->started_for = row->started_for;
  }
  if (rc == TS_OK && plan_parse(row->plan_text, "the stored plan", p, err) == TS_OK) {
    int at_start = asker->programs_allowed < 0;
    runner_asker judged = {at_start ? "whoever started it" : asker->name,
                           at_start ? row->programs_allowed : asker->programs_allowed,
                           at_start ? 0 : asker->not_elevated, NULL, NULL};
    rc = programs_refusal(svc, p, &judged, err);
    if (rc != TS_OK && runs_now)
      mark_refused(db, run_id, err);
    if (rc == TS_OK && runs_now && !at_start)
      rc = store_run_set_origin(db, run_id, asker->programs_allowed, asker->owner, err);
  }
  free(row);
  free(p);
  return rc; /* a plan that does not parse fails in experiment_resume, saying why */
}

/* Takes the next queued resume as the active run. Caller holds svc->lock. */
static int pop_resume_locked(server *svc) {
  runner_state *st = &svc->runner;
  if (svc->stopping || st->resume_count == 0)
    return 0;
  st->run_id = st->resume_queue[0];
  st->run_resume = 1;
  st->run_programs_allowed = -1;
  snprintf(st->run_asker, sizeof st->run_asker, "the service");
  memset(&st->run_owner, 0, sizeof st->run_owner); /* the stored owner stays */
  st->run_done = st->run_total = 0;
  memmove(st->resume_queue, st->resume_queue + 1,
          (size_t)--st->resume_count * sizeof st->resume_queue[0]);
  return 1;
}

static void runner_main(void *arg) {
  server *svc = arg;
  runner_state *st = &svc->runner;
  store *db = NULL;
  ts_err err;
  int rc = store_open(&db, svc->db_path, &err);
  experiment_observer observer = {on_started, on_trial, on_note, svc, NULL};
  for (;;) {
    /* The job's fields change only on this thread while run_active is set. */
    int64_t run_id = st->run_id;
    resume_origin origin;
    memset(&origin, 0, sizeof origin);
    runner_asker asker = {st->run_asker, st->run_programs_allowed, 0, NULL, &st->run_owner};
    if (rc == TS_OK && st->run_resume) /* the one gate every resume passes, where it runs */
      rc = gate_resume(svc, db, run_id, &asker, 1, &origin, &err);
    if (st->run_resume && st->run_programs_allowed < 0) /* a resume at the service's start */
      resume_peer(db, run_id, &origin, &st->run_for);
    observer.asker = &st->run_for;
    if (rc == TS_OK) {
      ts_log(TS_LOG_INFO, "run %lld %s", (long long)run_id, st->run_resume ? "resumes" : "starts");
      rc = st->run_resume
               ? experiment_resume(db, run_id, &observer, st->run_cancel, &st->run_plan, &err)
               : experiment_continue(db, run_id, &st->run_plan, st->run_seed, &observer,
                                     st->run_cancel, &err);
    }
    finish_run(svc, db, run_id, rc, &err);

    plat_mutex_lock(&svc->lock);
    plat_cancel_destroy(st->run_cancel);
    st->run_cancel = NULL;
    if (db && pop_resume_locked(svc) && plat_cancel_create(&st->run_cancel, &err) == TS_OK) {
      plat_mutex_unlock(&svc->lock);
      rc = TS_OK;
      continue;
    }
    st->run_active = 0;
    plat_cond_broadcast(&svc->changed);
    plat_mutex_unlock(&svc->lock);
    break;
  }
  store_close(db);
}

/* Starts the runner thread on the job in svc->runner. Caller holds svc->lock, has checked that
   nothing runs, and has set run_id, run_resume (and run_plan, run_seed for a new run). */
static int start_runner_locked(server *svc, ts_err *err) {
  runner_state *st = &svc->runner;
  if (st->joinable) {
    /* The previous runner has finished (run_active is 0); collect it before starting anew. */
    plat_thread_join(st->thread);
    st->joinable = 0;
  }
  int rc = plat_cancel_create(&st->run_cancel, err);
  if (rc != TS_OK)
    return rc;
  st->run_active = 1;
  st->run_done = st->run_total = 0;
  rc = plat_thread_start(&st->thread, RUNNER_THREAD_STACK, runner_main, svc, err);
  if (rc != TS_OK) {
    st->run_active = 0;
    plat_cancel_destroy(st->run_cancel);
    st->run_cancel = NULL;
    return rc;
  }
  st->joinable = 1;
  return TS_OK;
}

/* ---- experiments ---- */

int runner_start_run(server *svc, const plan *given, uint64_t seed, int64_t schedule_id,
                     const runner_asker *asker, int64_t *run_id, ts_err *err) {
  plat_peer run_for;
  run_for_peer(asker->peer, asker->name, asker->programs_allowed, &run_for);
  /* freeze:background becomes the programs it stands for now, before anything is stored: the
     real names are the run's conditions. The census takes seconds, so no lock is held. */
  plan *p = malloc(sizeof *p);
  char said[1024] = "";
  int rc = p ? runner_check_free(svc, err) : ts_err_set(err, TS_ENOMEM, "no memory for a plan");
  if (rc == TS_OK) {
    *p = *given;
    rc = plan_expand_background(p, &run_for, said, sizeof said, err);
  }
  if (rc != TS_OK) {
    free(p);
    return rc;
  }
  plat_mutex_lock(&svc->lock);
  rc = check_free_locked(svc, err);
  if (rc == TS_OK) {
    plat_mutex_lock(&svc->db_lock);
    rc = experiment_start(svc->db, p, seed, run_id, err);
    if (rc == TS_OK)
      rc = store_run_set_origin(svc->db, *run_id, asker->programs_allowed, asker->owner, err);
    if (rc == TS_OK && schedule_id)
      rc = store_run_set_schedule(svc->db, *run_id, schedule_id, err);
    if (rc == TS_OK && programs_refusal(svc, p, asker, err) != TS_OK) {
      mark_refused(svc->db, *run_id, err); /* the new run exists: it says why it never ran */
      rc = TS_EDENIED;
    }
    plat_mutex_unlock(&svc->db_lock);
  }
  if (rc == TS_OK) {
    runner_state *st = &svc->runner;
    st->run_id = *run_id;
    st->run_resume = 0;
    st->run_programs_allowed = asker->programs_allowed;
    snprintf(st->run_asker, sizeof st->run_asker, "%s", asker->name);
    st->run_plan = *p;
    st->run_seed = seed;
    st->run_for = run_for;
    rc = start_runner_locked(svc, err);
  }
  plat_mutex_unlock(&svc->lock);
  free(p);
  if (rc == TS_OK && said[0]) {
    said[strcspn(said, "\n")] = '\0'; /* one line each; the first is the note */
    ts_log(TS_LOG_INFO, "run %lld: %s", (long long)*run_id, said);
    server_emit(svc, "run-note", "text", "run %lld: %s", (long long)*run_id, said);
  }
  return rc;
}

int runner_resume_run(server *svc, int64_t run_id, const runner_asker *asker, ts_err *err) {
  store_run_row *row = malloc(sizeof *row);
  if (!row)
    return ts_err_set(err, TS_ENOMEM, "no memory to read run %lld", (long long)run_id);
  plat_mutex_lock(&svc->db_lock);
  int rc = store_run_get(svc->db, run_id, row, err); /* refuses a run that does not exist */
  plat_mutex_unlock(&svc->db_lock);
  if (rc == TS_OK) /* the run's state first: a finished or imported run is refused as it is */
    rc = experiment_resumable(row, err);
  free(row);
  if (rc != TS_OK)
    return rc;
  plat_mutex_lock(&svc->lock);
  rc = check_free_locked(svc, err);
  if (rc == TS_OK) {
    /* Refused here, to answer the client, without a write; the runner checks again where it
       runs. */
    plat_mutex_lock(&svc->db_lock);
    rc = gate_resume(svc, svc->db, run_id, asker, 0, NULL, err);
    plat_mutex_unlock(&svc->db_lock);
  }
  if (rc == TS_OK) {
    svc->runner.run_id = run_id;
    svc->runner.run_resume = 1;
    svc->runner.run_programs_allowed = asker->programs_allowed;
    snprintf(svc->runner.run_asker, sizeof svc->runner.run_asker, "%s", asker->name);
    if (asker->owner)
      svc->runner.run_owner = *asker->owner;
    else
      memset(&svc->runner.run_owner, 0, sizeof svc->runner.run_owner);
    run_for_peer(asker->peer, asker->name, asker->programs_allowed, &svc->runner.run_for);
    rc = start_runner_locked(svc, err);
  }
  plat_mutex_unlock(&svc->lock);
  return rc;
}

int runner_stop_run(server *svc, int64_t *run_id, ts_err *err) {
  plat_mutex_lock(&svc->lock);
  runner_state *st = &svc->runner;
  int rc = TS_OK;
  if (!st->run_active) {
    rc = ts_err_set(err, TS_EUSAGE, "no experiment is running");
  } else {
    *run_id = st->run_id;
    plat_cancel_raise(st->run_cancel); /* the runner stops at its next check */
  }
  plat_mutex_unlock(&svc->lock);
  return rc;
}

static int queue_unfinished(void *ctx, const store_run_row *row) {
  runner_state *st = ctx;
  /* A run the service was running when it stopped, crashed or lost power resumes; one a user
     stopped does not, nor a foreground run that died (it waits for run --resume). */
  int resumable = row->by_service && (row->status == STORE_RUN_RUNNING || row->resume_at_start);
  if (resumable && st->resume_count < SERVER_MAX_RESUMES)
    st->resume_queue[st->resume_count++] = row->id;
  return 0;
}

void runner_queue_unfinished(server *svc) {
  ts_err err;
  plat_mutex_lock(&svc->lock);
  plat_mutex_lock(&svc->db_lock);
  if (store_unfinished_runs(svc->db, queue_unfinished, &svc->runner, &err) != TS_OK)
    ts_log(TS_LOG_ERROR, "cannot list unfinished runs: %s", err.text);
  plat_mutex_unlock(&svc->db_lock);
  plat_mutex_unlock(&svc->lock);
}

void runner_resume_queued(server *svc) {
  ts_err err;
  plat_mutex_lock(&svc->lock);
  if (!svc->runner.run_active && pop_resume_locked(svc)) {
    ts_log(TS_LOG_INFO, "resuming run %lld, left unfinished by the last stop",
           (long long)svc->runner.run_id);
    if (start_runner_locked(svc, &err) != TS_OK)
      ts_log(TS_LOG_ERROR, "cannot resume run %lld: %s", (long long)svc->runner.run_id, err.text);
  }
  plat_mutex_unlock(&svc->lock);
}

/* ---- a client's load ---- */

int runner_start_load(server *svc, const load_spec *spec, const plat_peer *peer, ts_err *err) {
  plat_mutex_lock(&svc->lock);
  int rc = check_free_locked(svc, err);
  if (rc == TS_OK)
    svc->runner.load_busy = 1;
  plat_mutex_unlock(&svc->lock);
  if (rc != TS_OK)
    return rc;
  /* Outside the lock: status requests keep being answered while 15,000 threads start. A service
     stop (the process interrupt) ends the ramp. */
  load *l = NULL;
  rc = load_start_for(spec, peer, NULL, &l, err);
  char state[300];
  plat_stay_awake *awake =
      rc == TS_OK ? plat_stay_awake_begin("ThreadSoup runs a load", state, sizeof state) : NULL;
  if (rc == TS_OK && !awake)
    ts_log(TS_LOG_WARNING, "the machine may sleep during the load: %s", state);
  plat_mutex_lock(&svc->lock);
  svc->runner.load_busy = 0;
  if (rc == TS_OK) {
    svc->runner.client_load = l;
    svc->runner.client_awake = awake;
    svc->runner.client_spec = *spec;
  }
  plat_cond_broadcast(&svc->changed);
  plat_mutex_unlock(&svc->lock);
  if (rc == TS_OK)
    server_emit(svc, "load-started", "load", "%s", spec->text);
  return rc;
}

int runner_stop_load(server *svc, char *text, size_t len, ts_err *err) {
  plat_mutex_lock(&svc->lock);
  runner_state *st = &svc->runner;
  load *l = st->client_load;
  plat_stay_awake *awake = st->client_awake;
  snprintf(text, len, "%s", st->client_spec.text);
  st->client_load = NULL;
  st->client_awake = NULL;
  if (l)
    st->load_busy = 1;
  plat_mutex_unlock(&svc->lock);
  if (!l)
    return ts_err_set(err, TS_EUSAGE, "no load started by a client is running");
  load_stop(l);
  plat_stay_awake_end(awake);
  plat_mutex_lock(&svc->lock);
  st->load_busy = 0;
  plat_cond_broadcast(&svc->changed); /* a schedule waiting for the load to end may start */
  plat_mutex_unlock(&svc->lock);
  server_emit(svc, "load-stopped", "load", "%s", text);
  return TS_OK;
}

void runner_shutdown(server *svc) {
  plat_mutex_lock(&svc->lock);
  int joinable = svc->runner.joinable;
  svc->runner.joinable = 0;
  plat_mutex_unlock(&svc->lock);
  if (joinable)
    plat_thread_join(svc->runner.thread);
  char text[LOAD_TEXT_MAX];
  ts_err ignored;
  runner_stop_load(svc, text, sizeof text, &ignored);
}

/* runner.c - the runner thread: one experiment at a time, then the runs an earlier stop left
   unfinished; a service stop checkpoints the run so the next start resumes it. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

#include "../experiment/experiment.h"

static void on_trial(void *ctx, const experiment_progress *pr) {
  server *svc = ctx;
  plat_mutex_lock(&svc->lock);
  svc->run_done = pr->done;
  svc->run_total = pr->total;
  plat_mutex_unlock(&svc->lock);
  server_emit(svc, "trial-done", "progress", "run %lld trial %d of %d: %s %s %.2f %s",
              (long long)pr->run_id, pr->done, pr->total, pr->condition, pr->bench, pr->score,
              pr->unit);
}

static void on_started(void *ctx, int64_t run_id, int pending, int total) {
  server *svc = ctx;
  plat_mutex_lock(&svc->lock);
  svc->run_done = 0;
  svc->run_total = pending;
  plat_mutex_unlock(&svc->lock);
  server_emit(svc, "run-started", "run", "%lld: %d of %d trials to run", (long long)run_id, pending,
              total);
}

static void on_note(void *ctx, const char *text) {
  server *svc = ctx;
  server_emit(svc, "run-note", "text", "%s", text);
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
    server_emit(svc, "run-finished", "run", "%lld %s%s%s", (long long)job->run_id,
                rc == TS_OK             ? "finished"
                : rc == TS_EINTERRUPTED ? "interrupted"
                                        : "failed",
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
int server_start_runner_locked(server *svc, ts_err *err) {
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
int server_start_run(server *svc, const plan *p, uint64_t seed, int64_t schedule_id,
                     int64_t *run_id, ts_err *err) {
  plat_mutex_lock(&svc->lock);
  if (svc->stopping || svc->run_active || svc->client_load || svc->load_busy) {
    int rc = ts_err_set(err, TS_EUSAGE, "busy: %s",
                        svc->stopping     ? "the service is stopping"
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
    rc = server_start_runner_locked(svc, err);
  }
  plat_mutex_unlock(&svc->lock);
  return rc;
}

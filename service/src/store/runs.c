/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* runs.c - runs: begun with their planned trials, ended, checkpointed, resumed, and read back with
   their trial counts.
   Map: writing (begin, end, stop, reopen, who started it and for whom), then reading (one row per
   run, the lists of runs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_kit.h"
#include "threadsoup/version.h"

/* ---- writing ------------------------------------------------------------------------------- */

/* store_run_begin, with the run's owner (NULL: none). */
static int run_begin(store *s, const store_run_info *info, const char *owner,
                     store_trial_plan *trials, int count, int64_t *run_id, ts_err *err) {
  int rc = kit_begin(s, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_stmt *st;
  rc =
      kit_prepare(s,
                  "INSERT INTO run (plan_name, plan_text, seed, status, started_at, host, os, cpu, "
                  "logical_cpus, version, uid, machine_id, memory_bytes, owner) "
                  "VALUES (?,?,?,'running',?,?,?,?,?,?,lower(hex(randomblob(16))),?,?,?)",
                  &st, err);
  if (rc != TS_OK)
    return kit_rollback(s, rc);
  sqlite3_bind_text(st, 1, info->plan_name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, info->plan_text, -1, SQLITE_TRANSIENT);
  /* SQLite integers are signed: the seed is stored as its two's-complement bit pattern. */
  sqlite3_bind_int64(st, 3, (sqlite3_int64)info->seed);
  sqlite3_bind_text(st, 4, info->started_at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 5, info->host, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 6, info->os, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 7, info->cpu, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st, 8, info->logical_cpus);
  sqlite3_bind_text(st, 9, info->version, -1, SQLITE_TRANSIENT);
  kit_bind_text_or_null(st, 10, info->machine_id && info->machine_id[0] ? info->machine_id : NULL);
  if (info->memory_bytes)
    sqlite3_bind_int64(st, 11, (sqlite3_int64)info->memory_bytes);
  kit_bind_text_or_null(st, 12, owner && owner[0] ? owner : NULL);
  rc = kit_step_done(s, st, "cannot store the run", err);
  if (rc != TS_OK)
    return kit_rollback(s, rc);
  *run_id = sqlite3_last_insert_rowid(s->db);

  rc = trials_insert(s, *run_id, trials, count, err);
  if (rc != TS_OK)
    return kit_rollback(s, rc);
  return kit_commit(s, "cannot commit the planned run", err);
}

int store_run_begin(store *s, const store_run_info *info, store_trial_plan *trials, int count,
                    int64_t *run_id, ts_err *err) {
  return run_begin(s, info, NULL, trials, count, run_id, err);
}

int store_run_end(store *s, int64_t run_id, store_run_status status, const char *detail,
                  const char *finished_at, ts_err *err) {
  const char *text = status_text(&status_runs, (int)status);
  if (!text)
    return ts_err_set(err, TS_EINVAL, "run %lld: %d is not a run status", (long long)run_id,
                      (int)status);
  sqlite3_stmt *st;
  int rc = kit_prepare(s, "UPDATE run SET status=?, status_detail=?, finished_at=? WHERE id=?", &st,
                       err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
  kit_bind_text_or_null(st, 2, detail);
  kit_bind_text_or_null(st, 3, finished_at);
  sqlite3_bind_int64(st, 4, run_id);
  return kit_step_done(s, st, "cannot store the run's end", err);
}

/* Ends a run as `status` (interrupted or failed) with its detail and end, and says whether the
   service's next start resumes it. */
static int run_stop(store *s, int64_t run_id, store_run_status status, int resume_at_start,
                    const char *detail, const char *at, const char *doing, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s,
                       "UPDATE run SET status=?, status_detail=?, finished_at=?, resume_at_start=? "
                       "WHERE id=?",
                       &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_text(st, 1, status_text(&status_runs, (int)status), -1, SQLITE_STATIC);
  kit_bind_text_or_null(st, 2, detail);
  kit_bind_text_or_null(st, 3, at);
  sqlite3_bind_int(st, 4, resume_at_start);
  sqlite3_bind_int64(st, 5, run_id);
  return kit_step_done(s, st, doing, err);
}

int store_run_checkpoint(store *s, int64_t run_id, const char *detail, const char *at,
                         ts_err *err) {
  return run_stop(s, run_id, STORE_RUN_INTERRUPTED, 1, detail, at, "cannot checkpoint the run",
                  err);
}

int store_run_refuse(store *s, int64_t run_id, const char *detail, const char *at, ts_err *err) {
  return run_stop(s, run_id, STORE_RUN_FAILED, 0, detail, at, "cannot mark the run refused", err);
}

int store_run_reopen(store *s, int64_t run_id, ts_err *err) {
  sqlite3_stmt *st;
  int rc =
      kit_prepare(s,
                  "UPDATE run SET status='running', finished_at=NULL, status_detail='resumed', "
                  "resume_at_start=0 WHERE id=?",
                  &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  return kit_step_done(s, st, "cannot reopen the run", err);
}

store_run_info store_run_info_here(const plat_sysinfo *sys, const char *plan_name,
                                   const char *plan_text, uint64_t seed, const char *started_at) {
  store_run_info info = {
      plan_name, plan_text,         seed,       started_at,      sys->host,        sys->os,
      sys->cpu,  sys->logical_cpus, TS_VERSION, sys->machine_id, sys->memory_bytes};
  return info;
}

int store_run_create_manual(store *s, const store_run_info *info, int64_t *run_id, ts_err *err) {
  return run_begin(s, info, NULL, NULL, 0, run_id, err);
}

int store_run_create_owned(store *s, const store_run_info *info, const char *owner, int64_t *run_id,
                           ts_err *err) {
  return run_begin(s, info, owner, NULL, 0, run_id, err);
}

int store_run_set_schedule(store *s, int64_t run_id, int64_t schedule_id, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s, "UPDATE run SET schedule_id=? WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, schedule_id);
  sqlite3_bind_int64(st, 2, run_id);
  return kit_step_done(s, st, "cannot link the run to its schedule", err);
}

int store_run_set_origin(store *s, int64_t run_id, int programs_allowed, const store_owner *owner,
                         ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s,
                       "UPDATE run SET runner='service', programs_allowed=?, (" KIT_OWNER_COLUMNS
                       ") = (?,?,?,?) WHERE id=?",
                       &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int(st, 1, programs_allowed != 0);
  kit_bind_owner(st, 2, owner);
  sqlite3_bind_int64(st, 6, run_id);
  return kit_step_done(s, st, "cannot record who started the run", err);
}

/* ---- reading ------------------------------------------------------------------------------- */

/* The columns read_run_row reads, in its order. */
#define RUN_COLUMNS                                                                                \
  "SELECT r.id, r.plan_name, r.plan_text, r.seed, r.status, r.status_detail, r.started_at, "       \
  "r.finished_at, r.host, r.os, r.cpu, count(t.id), coalesce(sum(t.status='done'),0), "            \
  "coalesce(sum(t.status='failed'),0), r.resume_at_start, r.runner='service', "                    \
  "r.programs_allowed, r.logical_cpus, r.uid, r.machine_id, r.memory_bytes, r.imported_from, "     \
  "r.imported_at, r.owner, r.version, coalesce(r.schedule_id,0), " KIT_OWNER_SELECT(               \
      "r.") " FROM run r "                                                                         \
            "LEFT JOIN trial t ON t.run_id=r.id"

static int read_run_row(store *s, sqlite3_stmt *st, store_run_row *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  out->id = sqlite3_column_int64(st, 0);
  char what[32];
  int status = 0;
  snprintf(what, sizeof what, "run %lld", (long long)out->id);
  int rc = status_parse(s, &status_runs, what, sqlite3_column_text(st, 4), &status, err);
  if (rc != TS_OK)
    return rc;
  out->status = (store_run_status)status;
  kit_copy_column(st, 1, out->plan_name, sizeof out->plan_name);
  kit_copy_column(st, 2, out->plan_text, sizeof out->plan_text);
  out->seed = (uint64_t)sqlite3_column_int64(st, 3);
  kit_copy_column(st, 5, out->status_detail, sizeof out->status_detail);
  kit_copy_column(st, 6, out->started_at, sizeof out->started_at);
  kit_copy_column(st, 7, out->finished_at, sizeof out->finished_at);
  kit_copy_column(st, 8, out->host, sizeof out->host);
  kit_copy_column(st, 9, out->os, sizeof out->os);
  kit_copy_column(st, 10, out->cpu, sizeof out->cpu);
  out->trials_total = sqlite3_column_int(st, 11);
  out->trials_done = sqlite3_column_int(st, 12);
  out->trials_failed = sqlite3_column_int(st, 13);
  out->resume_at_start = sqlite3_column_int(st, 14);
  out->by_service = sqlite3_column_int(st, 15);
  out->programs_allowed = sqlite3_column_int(st, 16);
  /* An imported file may carry any integer: one out of what a machine can have (a count of 0 or
     less, or one past an int such as 2^63-1, which sqlite3_column_int would cut to -1) and a
     negative memory size (-1 would read as 16 EiB) are not known, not shown as numbers. */
  sqlite3_int64 cpus = sqlite3_column_int64(st, 17), memory = sqlite3_column_int64(st, 20);
  out->logical_cpus = cpus >= 1 && cpus <= STORE_LOGICAL_CPUS_MAX ? (int)cpus : 0;
  kit_copy_column(st, 18, out->uid, sizeof out->uid);
  kit_copy_column(st, 19, out->machine_id, sizeof out->machine_id);
  out->memory_bytes = memory > 0 ? (uint64_t)memory : 0;
  kit_copy_column(st, 21, out->imported_from, sizeof out->imported_from);
  kit_copy_column(st, 22, out->imported_at, sizeof out->imported_at);
  kit_copy_column(st, 23, out->owner, sizeof out->owner);
  kit_copy_column(st, 24, out->version, sizeof out->version);
  out->schedule_id = sqlite3_column_int64(st, 25);
  kit_read_owner(st, 26, &out->started_for);
  return TS_OK;
}

/* Calls fn for each run a prepared RUN_COLUMNS query returns; finalizes it. */
static int each_run(store *s, sqlite3_stmt *st, int (*fn)(void *ctx, const store_run_row *row),
                    void *ctx, ts_err *err) {
  store_run_row *row = malloc(sizeof *row);
  if (!row) {
    sqlite3_finalize(st);
    return ts_err_set(err, TS_ENOMEM, "no memory to list runs");
  }
  int rc, result = TS_OK;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    result = read_run_row(s, st, row, err);
    if (result != TS_OK)
      break;
    if (fn(ctx, row) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  }
  free(row);
  if (result == TS_OK && rc != SQLITE_DONE)
    result = kit_fail(s, err, "cannot list the runs");
  sqlite3_finalize(st);
  return result;
}

int store_runs(store *s, int limit, int (*fn)(void *ctx, const store_run_row *row), void *ctx,
               ts_err *err) {
  sqlite3_stmt *st;
  /* Newest by when it started, not by id: an imported run gets the next id whenever it was
     measured. */
  int rc = kit_prepare(
      s, RUN_COLUMNS " GROUP BY r.id ORDER BY r.started_at DESC, r.id DESC LIMIT ?", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int(st, 1, limit);
  return each_run(s, st, fn, ctx, err);
}

int store_run_get(store *s, int64_t run_id, store_run_row *out, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s, RUN_COLUMNS " WHERE r.id=? GROUP BY r.id", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    rc = read_run_row(s, st, out, err);
  } else if (rc == SQLITE_DONE) {
    rc = ts_err_set(err, TS_EINVAL, "there is no run %lld in %s", (long long)run_id, s->path);
  } else {
    rc = kit_fail(s, err, "cannot read the run");
  }
  sqlite3_finalize(st);
  return rc;
}

int store_latest_run(store *s, int64_t *run_id, ts_err *err) {
  long long id = 0;
  int rc = kit_query_int(s, "SELECT coalesce(max(id), 0) FROM run", &id, err);
  *run_id = rc == TS_OK ? id : 0;
  return rc;
}

int store_unfinished_runs(store *s, int (*fn)(void *ctx, const store_run_row *row), void *ctx,
                          ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s,
                       RUN_COLUMNS " WHERE r.status IN ('running','interrupted') AND "
                                   "r.plan_name <> 'manual' AND r.imported_from IS NULL "
                                   "GROUP BY r.id ORDER BY r.id",
                       &st, err);
  return rc == TS_OK ? each_run(s, st, fn, ctx, err) : rc;
}

/* ---- scores typed in ---- */

/* The unit the run's typed-in scores of `bench` carry: 1 and the unit ("" for none) in `unit`
   when the run holds some, 0 when it holds none. */
static int bench_unit(store *s, int64_t run_id, const char *bench, char *unit, size_t len,
                      int *found, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s,
                       "SELECT coalesce(unit,'') FROM trial WHERE run_id=? AND bench=? "
                       "ORDER BY seq LIMIT 1",
                       &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  sqlite3_bind_text(st, 2, bench, -1, SQLITE_TRANSIENT);
  *found = 0;
  rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *found = 1;
    snprintf(unit, len, "%s", (const char *)sqlite3_column_text(st, 0));
    rc = TS_OK;
  } else {
    rc = rc == SQLITE_DONE ? TS_OK : kit_fail(s, err, "cannot read the benchmark's unit");
  }
  sqlite3_finalize(st);
  return rc;
}

int store_score_record(store *s, int64_t run_id, const char *condition, const char *bench,
                       double score, const char *unit, const char *at, int64_t *trial_id,
                       ts_err *err) {
  char sql[200];
  long long measured = 0;
  /* A run ThreadSoup measured (its plan is not "manual", or it holds measured trials): a score
     typed in beside its trials would read as one of its measurements. */
  snprintf(sql, sizeof sql,
           "SELECT count(*) FROM run WHERE id=%lld AND imported_from IS NULL AND "
           "(plan_name<>'manual' OR EXISTS (SELECT 1 FROM trial WHERE run_id=%lld AND "
           "source<>'manual'))",
           (long long)run_id, (long long)run_id);
  int rc = kit_query_int(s, sql, &measured, err);
  if (rc == TS_OK && measured)
    return ts_err_set(err, TS_EDENIED,
                      "run %lld is a run ThreadSoup measured: a score typed in does not belong "
                      "among its measurements (accepted: --run new, or a run that record made)",
                      (long long)run_id);
  char held[256];
  int found = 0;
  if (rc == TS_OK)
    rc = bench_unit(s, run_id, bench, held, sizeof held, &found, err);
  if (rc == TS_OK && found && strcmp(held, unit ? unit : "") != 0)
    return ts_err_set(err, TS_EINVAL,
                      "run %lld holds %s scores %s%s: a score %s%s would mix units in one table "
                      "(accepted: %s%s, or another --bench name)",
                      (long long)run_id, bench, held[0] ? "in " : "without a unit", held,
                      unit ? "in " : "without a unit", unit ? unit : "",
                      held[0] ? "--unit " : "no --unit", held);
  if (rc == TS_OK)
    rc = store_trial_record(s, run_id, condition, bench, score, unit, at, trial_id, err);
  /* The run ends with the command that typed the score in: nothing is left running. */
  if (rc == TS_OK)
    rc = store_run_end(s, run_id, STORE_RUN_FINISHED, "scores typed in", at, err);
  return rc;
}

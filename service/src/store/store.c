/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* store.c - opens, checks and migrates the SQLite database, and reads and writes runs and trials;
   all SQL of ThreadSoup is here and in schema.c. */
#include "store.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "threadsoup/buf.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"
#include "threadsoup/version.h"

struct store {
  sqlite3 *db;
  char path[PLAT_PATH_MAX];
};

static int store_fail(store *s, ts_err *err, const char *doing) {
  return ts_err_set(err, TS_ESTORE, "%s: %s (database %s)", doing, sqlite3_errmsg(s->db), s->path);
}

/* ---- statuses: the enums of store.h and their texts in the database ------------------------- */

#define STORE_STATUS_TEXT(name, text) text,
static const char *const run_status_names[] = {STORE_RUN_STATUS_MAP(STORE_STATUS_TEXT)};
static const char *const trial_status_names[] = {STORE_TRIAL_STATUS_MAP(STORE_STATUS_TEXT)};
static const char *const schedule_outcome_names[] = {STORE_SCHEDULE_OUTCOME_MAP(STORE_STATUS_TEXT)};
#undef STORE_STATUS_TEXT

#define NAME_COUNT(names) ((int)(sizeof names / sizeof names[0]))

/* The text of value in names; NULL outside the list. */
static const char *status_text(const char *const *names, int count, int value) {
  return value >= 0 && value < count ? names[value] : NULL;
}

const char *store_run_status_name(store_run_status st) {
  const char *text = status_text(run_status_names, NAME_COUNT(run_status_names), (int)st);
  return text ? text : "unknown";
}

const char *store_trial_status_name(store_trial_status st) {
  const char *text = status_text(trial_status_names, NAME_COUNT(trial_status_names), (int)st);
  return text ? text : "unknown";
}

const char *store_schedule_outcome_name(store_schedule_outcome o) {
  const char *text =
      status_text(schedule_outcome_names, NAME_COUNT(schedule_outcome_names), (int)o);
  return text ? text : "unknown";
}

/* Turns a status text read from the database into its enum value: TS_ESTORE naming `what` (e.g.
   "run 7"), the text and the texts this build accepts when it is not one of them. */
static int status_parse(store *s, const char *const *names, int count, const char *what,
                        const unsigned char *text, int *out, ts_err *err) {
  for (int i = 0; i < count; i++)
    if (text && strcmp((const char *)text, names[i]) == 0) {
      *out = i;
      return TS_OK;
    }
  char accepted[128];
  ts_buf list = ts_buf_on(accepted, sizeof accepted);
  for (int i = 0; i < count; i++)
    ts_buf_item(&list, ", ", names[i]);
  return ts_err_set(err, TS_ESTORE,
                    "%s in database %s has the status '%s', which this ThreadSoup does not know "
                    "(accepted: %s)",
                    what, s->path, text ? (const char *)text : "(none)", accepted);
}

/* How long a connection waits for another that holds the file (SQLite's busy timeout). */
#define STORE_BUSY_TIMEOUT_MS 5000

static int exec_sql(store *s, const char *sql, const char *doing, ts_err *err) {
  char *msg = NULL;
  if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    ts_err_set(err, TS_ESTORE, "%s: %s (database %s)", doing, msg ? msg : "unknown error", s->path);
    sqlite3_free(msg);
    return TS_ESTORE;
  }
  return TS_OK;
}

/* Runs a query returning one integer; -1 and an error when it fails. */
static int query_int(store *s, const char *sql, long long *out, ts_err *err) {
  sqlite3_stmt *st;
  int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      *out = sqlite3_column_int64(st, 0);
      rc = SQLITE_OK;
    }
  }
  int ext = sqlite3_extended_errcode(s->db);
  sqlite3_finalize(st);
  if (rc == SQLITE_OK)
    return TS_OK;
  if ((ext & 0xff) == SQLITE_NOTADB)
    return ts_err_set(err, TS_EFOREIGN_DB,
                      "%s is not a ThreadSoup database (not a SQLite file at all); it was left "
                      "as is: give --db a new file or an existing ThreadSoup database",
                      s->path);
  return store_fail(s, err, "cannot read the database header");
}

/* Decides whether the file is ours before anything is written to it. */
static int check_identity(store *s, long long *version, ts_err *err) {
  long long app_id = 0, objects = 0;
  /* One read transaction: the three must come from the same state of a file that another
     connection may be building at this moment. */
  int rc = exec_sql(s, "BEGIN", "cannot read the database header", err);
  if (rc == TS_OK)
    rc = query_int(s, "PRAGMA application_id", &app_id, err);
  if (rc == TS_OK)
    rc = query_int(s, "PRAGMA user_version", version, err);
  if (rc == TS_OK)
    rc = query_int(s, "SELECT count(*) FROM sqlite_master", &objects, err);
  sqlite3_exec(s->db, rc == TS_OK ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL);
  if (rc != TS_OK)
    return rc;
  if (app_id == 0 && *version == 0 && objects == 0)
    return TS_OK; /* a new, empty file: ours to build */
  if (app_id != STORE_APPLICATION_ID)
    return ts_err_set(err, TS_EFOREIGN_DB,
                      "%s is a SQLite database of another program (application_id %lld, %lld "
                      "schema objects), not a ThreadSoup database; it was left as is: give --db "
                      "a new file or an existing ThreadSoup database",
                      s->path, app_id, objects);
  if (*version > STORE_SCHEMA_VERSION)
    return ts_err_set(err, TS_ENEWER_DB,
                      "%s was written by a newer ThreadSoup (schema version %lld; ThreadSoup %s "
                      "reads up to %d); it was left as is: upgrade ThreadSoup to use it",
                      s->path, *version, TS_VERSION, STORE_SCHEMA_VERSION);
  return TS_OK;
}

/* Applies the migrations after `from`, one transaction each. The version is read again inside
   each transaction: another connection may have built the file since check_identity looked (two
   programs opening one new file at once), and then nothing is applied twice. */
static int migrate(store *s, long long from, ts_err *err) {
  for (long long v = from + 1; v <= STORE_SCHEMA_VERSION; v++) {
    char pragmas[128];
    long long now = 0;
    int rc = exec_sql(s, "BEGIN IMMEDIATE", "cannot start the migration", err);
    if (rc != TS_OK)
      return rc;
    rc = query_int(s, "PRAGMA user_version", &now, err);
    if (rc == TS_OK && now >= v) {
      v = now; /* already there: go on from where the other connection left it */
      rc = exec_sql(s, "COMMIT", "cannot end the migration", err);
      if (rc == TS_OK)
        continue;
    } else if (rc == TS_OK) {
      rc = exec_sql(s, schema_migration((int)v), "cannot migrate the schema", err);
    }
    if (rc == TS_OK) {
      /* Both pragmas are written in the same transaction as the tables they describe. */
      snprintf(pragmas, sizeof pragmas, "PRAGMA application_id=%d; PRAGMA user_version=%lld;",
               STORE_APPLICATION_ID, v);
      rc = exec_sql(s, pragmas, "cannot record the schema version", err);
    }
    if (rc == TS_OK)
      rc = exec_sql(s, "COMMIT", "cannot commit the migration", err);
    if (rc != TS_OK) {
      sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
      return rc;
    }
  }
  return TS_OK;
}

/* WAL lets readers (the tray, `history`) look while a run writes; FULL makes every committed
   trial survive a power cut, not only a crash: trials are few, the cost is nothing. Turning a
   new file to WAL takes it whole for a moment, and when two connections both try at once SQLite
   refuses one at once rather than wait (waiting could deadlock): that one tries again, for as
   long as the busy timeout would have waited. */
static int configure(store *s, ts_err *err) {
  int rc = TS_OK;
  for (int attempt = 0; attempt < STORE_BUSY_TIMEOUT_MS / 10; attempt++) {
    rc = exec_sql(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
                  "cannot configure the database", err);
    if (rc == TS_OK || (sqlite3_errcode(s->db) & 0xff) != SQLITE_BUSY)
      break;
    plat_sleep_ns(10 * TS_NS_PER_MS);
  }
  return rc;
}

/* Whoever can write the database decides what the service runs: the folder, the file and its
   sidecars must be ours or root's, not links, not writable by others (plat_check_own_file), at
   every open. */
static int check_files(const char *path, ts_err *err) {
  char folder[PLAT_PATH_MAX], file[PLAT_PATH_MAX + 16];
  plat_path_dirname(path, folder, sizeof folder);
  int rc = plat_check_own_file(folder[0] ? folder : ".", err);
  /* The database itself first, then its sidecars where the platform lets them be looked at. */
  static const char *const suffixes[] = {"", "-wal", "-shm", "-journal"};
  size_t count =
      plat_database_sidecars_inspectable(path) ? sizeof suffixes / sizeof suffixes[0] : 1;
  for (size_t i = 0; rc == TS_OK && i < count; i++) {
    snprintf(file, sizeof file, "%s%s", path, suffixes[i]);
    rc = plat_check_own_file(file, err);
  }
  return rc;
}

int store_open(store **out, const char *path, ts_err *err) {
  *out = NULL;
  store *s = calloc(1, sizeof *s);
  if (!s)
    return ts_err_set(err, TS_ENOMEM, "no memory to open the database");
  snprintf(s->path, sizeof s->path, "%s", path);
  int rc = check_files(path, err);
  if (rc != TS_OK) {
    free(s);
    return rc;
  }
  rc = sqlite3_open_v2(path, &s->db,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, NULL);
  if (rc != SQLITE_OK) {
    ts_err_set(err, TS_ESTORE, "cannot open database %s: %s", path,
               s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
    store_close(s);
    return TS_ESTORE;
  }
  sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
  sqlite3_extended_result_codes(s->db, 1);

  long long version = 0;
  rc = check_identity(s, &version, err);
  if (rc == TS_OK)
    rc = configure(s, err);
  if (rc == TS_OK)
    rc = migrate(s, version, err);
  if (rc != TS_OK) {
    store_close(s);
    return rc;
  }
  *out = s;
  return TS_OK;
}

void store_close(store *s) {
  if (!s)
    return;
  sqlite3_close(s->db);
  free(s);
}

int store_schema_version(store *s) {
  long long v = -1;
  ts_err e;
  if (query_int(s, "PRAGMA user_version", &v, &e) != TS_OK)
    return -1;
  return (int)v;
}

/* ---- writing --------------------------------------------------------------------------------- */

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *text) {
  if (text)
    sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null(st, i);
}

/* Steps a statement expected to finish with SQLITE_DONE, then finalizes it. */
static int step_done(store *s, sqlite3_stmt *st, const char *doing, ts_err *err) {
  int rc = sqlite3_step(st);
  int result = rc == SQLITE_DONE ? TS_OK : store_fail(s, err, doing);
  sqlite3_finalize(st);
  return result;
}

static int prepare(store *s, const char *sql, sqlite3_stmt **st, ts_err *err) {
  if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
    return store_fail(s, err, "cannot prepare a statement");
  return TS_OK;
}

static int rollback_with(store *s, int rc) {
  sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
  return rc;
}

/* Inserts planned trials (pending) inside the caller's transaction and fills their ids. */
static int insert_trials(store *s, int64_t run_id, store_trial_plan *trials, int count,
                         ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s, "INSERT INTO trial (run_id, seq, block, condition, bench) VALUES (?,?,?,?,?)",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  for (int i = 0; i < count; i++) {
    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int(st, 2, trials[i].seq);
    sqlite3_bind_int(st, 3, trials[i].block);
    sqlite3_bind_text(st, 4, trials[i].condition, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, trials[i].bench, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) != SQLITE_DONE) {
      rc = store_fail(s, err, "cannot store the planned trials");
      sqlite3_finalize(st);
      return rc;
    }
    trials[i].id = sqlite3_last_insert_rowid(s->db);
  }
  sqlite3_finalize(st);
  return TS_OK;
}

int store_run_begin(store *s, const store_run_info *info, store_trial_plan *trials, int count,
                    int64_t *run_id, ts_err *err) {
  int rc = exec_sql(s, "BEGIN IMMEDIATE", "cannot start a transaction", err);
  if (rc != TS_OK)
    return rc;
  sqlite3_stmt *st;
  rc = prepare(s,
               "INSERT INTO run (plan_name, plan_text, seed, status, started_at, host, os, cpu, "
               "logical_cpus, version, uid, machine_id, memory_bytes) "
               "VALUES (?,?,?,'running',?,?,?,?,?,?,lower(hex(randomblob(16))),?,?)",
               &st, err);
  if (rc != TS_OK)
    return rollback_with(s, rc);
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
  bind_text_or_null(st, 10, info->machine_id && info->machine_id[0] ? info->machine_id : NULL);
  if (info->memory_bytes)
    sqlite3_bind_int64(st, 11, (sqlite3_int64)info->memory_bytes);
  rc = step_done(s, st, "cannot store the run", err);
  if (rc != TS_OK)
    return rollback_with(s, rc);
  *run_id = sqlite3_last_insert_rowid(s->db);

  rc = insert_trials(s, *run_id, trials, count, err);
  if (rc != TS_OK)
    return rollback_with(s, rc);
  rc = exec_sql(s, "COMMIT", "cannot commit the planned run", err);
  return rc == TS_OK ? TS_OK : rollback_with(s, rc);
}

int store_trial_finish(store *s, int64_t trial_id, const store_trial_result *r, ts_err *err) {
  int rc = exec_sql(s, "BEGIN IMMEDIATE", "cannot start a transaction", err);
  if (rc != TS_OK)
    return rc;
  sqlite3_stmt *st;
  rc = prepare(s,
               "UPDATE trial SET status='done', started_at=?, finished_at=?, score=?, unit=?, "
               "seconds=?, process_threads=?, machine_processes=?, machine_threads=?, error=NULL, "
               "warnings=?, power_source=?, power_throttling=?, core_classes=? "
               "WHERE id=? AND status='pending'",
               &st, err);
  if (rc != TS_OK)
    return rollback_with(s, rc);
  sqlite3_bind_text(st, 1, r->started_at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, r->finished_at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(st, 3, r->score);
  sqlite3_bind_text(st, 4, r->unit, -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(st, 5, r->seconds);
  sqlite3_bind_int64(st, 6, r->process_threads);
  sqlite3_bind_int64(st, 7, r->machine_processes);
  sqlite3_bind_int64(st, 8, r->machine_threads);
  bind_text_or_null(st, 9, r->warnings);
  bind_text_or_null(st, 10, r->power_source);
  bind_text_or_null(st, 11, r->power_throttling);
  bind_text_or_null(st, 12, r->core_classes);
  sqlite3_bind_int64(st, 13, trial_id);
  rc = step_done(s, st, "cannot store the trial's result", err);
  if (rc != TS_OK)
    return rollback_with(s, rc);
  if (sqlite3_changes(s->db) != 1)
    return rollback_with(s, ts_err_set(err, TS_ESTORE,
                                       "trial %lld is not a pending trial of the database %s",
                                       (long long)trial_id, s->path));

  if (r->metric_count > 0) {
    rc = prepare(s, "INSERT OR REPLACE INTO trial_metric (trial_id, name, value) VALUES (?,?,?)",
                 &st, err);
    if (rc != TS_OK)
      return rollback_with(s, rc);
    for (int i = 0; i < r->metric_count; i++) {
      sqlite3_reset(st);
      sqlite3_bind_int64(st, 1, trial_id);
      sqlite3_bind_text(st, 2, r->metrics[i].name, -1, SQLITE_TRANSIENT);
      sqlite3_bind_double(st, 3, r->metrics[i].value);
      if (sqlite3_step(st) != SQLITE_DONE) {
        rc = store_fail(s, err, "cannot store the trial's sub-scores");
        sqlite3_finalize(st);
        return rollback_with(s, rc);
      }
    }
    sqlite3_finalize(st);
  }
  rc = exec_sql(s, "COMMIT", "cannot commit the trial", err);
  return rc == TS_OK ? TS_OK : rollback_with(s, rc);
}

int store_trial_timer(store *s, int64_t trial_id, const char *asked, const char *obtained,
                      double observed_us, ts_err *err) {
  static const char *const names[] = {"default", "high"};
  int asked_ok = 0, obtained_ok = 0;
  for (int i = 0; i < NAME_COUNT(names); i++) {
    asked_ok |= asked && strcmp(asked, names[i]) == 0;
    obtained_ok |= obtained && strcmp(obtained, names[i]) == 0;
  }
  if (!asked_ok || !obtained_ok)
    return ts_err_set(
        err, TS_EINVAL,
        "trial %lld: timer resolution '%s' obtained as '%s' (accepted: default, high)",
        (long long)trial_id, asked ? asked : "", obtained ? obtained : "");
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "UPDATE trial SET resolution_asked=?, resolution_obtained=?, "
                   "timer_resolution_us=? WHERE id=?",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_text(st, 1, asked, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, obtained, -1, SQLITE_TRANSIENT);
  if (isfinite(observed_us) && observed_us >= 0)
    sqlite3_bind_double(st, 3, observed_us);
  else
    sqlite3_bind_null(st, 3);
  sqlite3_bind_int64(st, 4, trial_id);
  rc = step_done(s, st, "cannot store the trial's timer resolution", err);
  if (rc == TS_OK && sqlite3_changes(s->db) != 1)
    rc = ts_err_set(err, TS_ESTORE, "trial %lld is not a trial of the database %s",
                    (long long)trial_id, s->path);
  return rc;
}

int store_trial_fail(store *s, int64_t trial_id, const char *finished_at, const char *reason,
                     ts_err *err) {
  sqlite3_stmt *st;
  int rc =
      prepare(s, "UPDATE trial SET status='failed', finished_at=?, error=? WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  bind_text_or_null(st, 1, finished_at);
  bind_text_or_null(st, 2, reason);
  sqlite3_bind_int64(st, 3, trial_id);
  return step_done(s, st, "cannot store the trial's failure", err);
}

int store_run_end(store *s, int64_t run_id, store_run_status status, const char *detail,
                  const char *finished_at, ts_err *err) {
  const char *text = status_text(run_status_names, NAME_COUNT(run_status_names), (int)status);
  if (!text)
    return ts_err_set(err, TS_EINVAL, "run %lld: %d is not a run status", (long long)run_id,
                      (int)status);
  sqlite3_stmt *st;
  int rc =
      prepare(s, "UPDATE run SET status=?, status_detail=?, finished_at=? WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
  bind_text_or_null(st, 2, detail);
  bind_text_or_null(st, 3, finished_at);
  sqlite3_bind_int64(st, 4, run_id);
  return step_done(s, st, "cannot store the run's end", err);
}

/* Ends a run as `status` (interrupted or failed) with its detail and end, and says whether the
   service's next start resumes it. */
static int run_stop(store *s, int64_t run_id, store_run_status status, int resume_at_start,
                    const char *detail, const char *at, const char *doing, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "UPDATE run SET status=?, status_detail=?, finished_at=?, resume_at_start=? "
                   "WHERE id=?",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_text(st, 1, status_text(run_status_names, NAME_COUNT(run_status_names), (int)status),
                    -1, SQLITE_STATIC);
  bind_text_or_null(st, 2, detail);
  bind_text_or_null(st, 3, at);
  sqlite3_bind_int(st, 4, resume_at_start);
  sqlite3_bind_int64(st, 5, run_id);
  return step_done(s, st, doing, err);
}

int store_run_checkpoint(store *s, int64_t run_id, const char *detail, const char *at,
                         ts_err *err) {
  return run_stop(s, run_id, STORE_RUN_INTERRUPTED, 1, detail, at, "cannot checkpoint the run",
                  err);
}

int store_run_refuse(store *s, int64_t run_id, const char *detail, const char *at, ts_err *err) {
  return run_stop(s, run_id, STORE_RUN_FAILED, 0, detail, at, "cannot mark the run refused", err);
}

/* ---- reading --------------------------------------------------------------------------------- */

static void copy_column(sqlite3_stmt *st, int col, char *buf, size_t len) {
  const unsigned char *text = sqlite3_column_text(st, col);
  snprintf(buf, len, "%s", text ? (const char *)text : "");
}

int store_run_trials(store *s, int64_t run_id, int (*fn)(void *ctx, const store_trial_row *row),
                     void *ctx, ts_err *err) {
  sqlite3_stmt *st;
  int rc =
      prepare(s,
              "SELECT seq, block, condition, bench, status, score, unit, id, "
              "warnings IS NOT NULL, finished_at, started_at, seconds, process_threads, "
              "warnings, resolution_asked, resolution_obtained, timer_resolution_us, "
              "power_source, power_throttling, core_classes, machine_processes, machine_threads "
              "FROM trial WHERE run_id=? ORDER BY seq",
              &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  int result = TS_OK;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    store_trial_row row;
    memset(&row, 0, sizeof row);
    row.seq = sqlite3_column_int(st, 0);
    row.block = sqlite3_column_int(st, 1);
    copy_column(st, 2, row.condition, sizeof row.condition);
    copy_column(st, 3, row.bench, sizeof row.bench);
    char what[64];
    int status = 0;
    snprintf(what, sizeof what, "trial %d of run %lld", row.seq, (long long)run_id);
    result = status_parse(s, trial_status_names, NAME_COUNT(trial_status_names), what,
                          sqlite3_column_text(st, 4), &status, err);
    if (result != TS_OK)
      break;
    row.status = (store_trial_status)status;
    row.score = sqlite3_column_double(st, 5);
    copy_column(st, 6, row.unit, sizeof row.unit);
    row.id = sqlite3_column_int64(st, 7);
    row.has_warnings = sqlite3_column_int(st, 8);
    copy_column(st, 9, row.finished_at, sizeof row.finished_at);
    copy_column(st, 10, row.started_at, sizeof row.started_at);
    row.seconds = sqlite3_column_type(st, 11) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 11);
    row.process_threads =
        sqlite3_column_type(st, 12) == SQLITE_NULL ? -1 : (long)sqlite3_column_int64(st, 12);
    copy_column(st, 13, row.warnings, sizeof row.warnings);
    copy_column(st, 14, row.resolution_asked, sizeof row.resolution_asked);
    copy_column(st, 15, row.resolution_obtained, sizeof row.resolution_obtained);
    row.timer_resolution_us =
        sqlite3_column_type(st, 16) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 16);
    copy_column(st, 17, row.power_source, sizeof row.power_source);
    copy_column(st, 18, row.power_throttling, sizeof row.power_throttling);
    copy_column(st, 19, row.core_classes, sizeof row.core_classes);
    row.machine_processes =
        sqlite3_column_type(st, 20) == SQLITE_NULL ? -1 : (long)sqlite3_column_int64(st, 20);
    row.machine_threads =
        sqlite3_column_type(st, 21) == SQLITE_NULL ? -1 : (long)sqlite3_column_int64(st, 21);
    if (fn(ctx, &row) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  }
  if (result == TS_OK && rc != SQLITE_DONE)
    result = store_fail(s, err, "cannot read the trials");
  sqlite3_finalize(st);
  return result;
}

int store_run_placement(store *s, int64_t run_id,
                        int (*fn)(void *ctx, const char *power_source, const char *power_throttling,
                                  const char *core_classes, int trials),
                        void *ctx, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "SELECT coalesce(power_source,''), coalesce(power_throttling,''), "
                   "coalesce(core_classes,''), count(*) FROM trial "
                   "WHERE run_id=? AND status='done' GROUP BY 1, 2, 3 ORDER BY 4 DESC, 1, 2, 3",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW)
    if (fn(ctx, (const char *)sqlite3_column_text(st, 0), (const char *)sqlite3_column_text(st, 1),
           (const char *)sqlite3_column_text(st, 2), sqlite3_column_int(st, 3)) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  int result = rc == SQLITE_DONE ? TS_OK : store_fail(s, err, "cannot read where the trials ran");
  sqlite3_finalize(st);
  return result;
}

int store_run_metrics(store *s, int64_t run_id,
                      int (*fn)(void *ctx, int64_t trial_id, const char *name, double value),
                      void *ctx, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "SELECT m.trial_id, m.name, m.value FROM trial_metric m JOIN trial t "
                   "ON t.id=m.trial_id WHERE t.run_id=? ORDER BY t.seq, m.name",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW)
    if (fn(ctx, sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1),
           sqlite3_column_double(st, 2)) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  int result = rc == SQLITE_DONE ? TS_OK : store_fail(s, err, "cannot read the trial metrics");
  sqlite3_finalize(st);
  return result;
}

/* The columns read_run_row reads, in its order. */
#define RUN_COLUMNS                                                                                \
  "SELECT r.id, r.plan_name, r.plan_text, r.seed, r.status, r.status_detail, r.started_at, "       \
  "r.finished_at, r.host, r.os, r.cpu, count(t.id), coalesce(sum(t.status='done'),0), "            \
  "coalesce(sum(t.status='failed'),0), r.resume_at_start, r.runner='service', "                    \
  "r.programs_allowed, r.logical_cpus, r.uid, r.machine_id, r.memory_bytes, r.imported_from, "     \
  "r.imported_at FROM run r "                                                                      \
  "LEFT JOIN trial t ON t.run_id=r.id"

static int read_run_row(store *s, sqlite3_stmt *st, store_run_row *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  out->id = sqlite3_column_int64(st, 0);
  char what[32];
  int status = 0;
  snprintf(what, sizeof what, "run %lld", (long long)out->id);
  int rc = status_parse(s, run_status_names, NAME_COUNT(run_status_names), what,
                        sqlite3_column_text(st, 4), &status, err);
  if (rc != TS_OK)
    return rc;
  out->status = (store_run_status)status;
  copy_column(st, 1, out->plan_name, sizeof out->plan_name);
  copy_column(st, 2, out->plan_text, sizeof out->plan_text);
  out->seed = (uint64_t)sqlite3_column_int64(st, 3);
  copy_column(st, 5, out->status_detail, sizeof out->status_detail);
  copy_column(st, 6, out->started_at, sizeof out->started_at);
  copy_column(st, 7, out->finished_at, sizeof out->finished_at);
  copy_column(st, 8, out->host, sizeof out->host);
  copy_column(st, 9, out->os, sizeof out->os);
  copy_column(st, 10, out->cpu, sizeof out->cpu);
  out->trials_total = sqlite3_column_int(st, 11);
  out->trials_done = sqlite3_column_int(st, 12);
  out->trials_failed = sqlite3_column_int(st, 13);
  out->resume_at_start = sqlite3_column_int(st, 14);
  out->by_service = sqlite3_column_int(st, 15);
  out->programs_allowed = sqlite3_column_int(st, 16);
  out->logical_cpus = sqlite3_column_int(st, 17);
  copy_column(st, 18, out->uid, sizeof out->uid);
  copy_column(st, 19, out->machine_id, sizeof out->machine_id);
  out->memory_bytes = (uint64_t)sqlite3_column_int64(st, 20);
  copy_column(st, 21, out->imported_from, sizeof out->imported_from);
  copy_column(st, 22, out->imported_at, sizeof out->imported_at);
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
    result = store_fail(s, err, "cannot list the runs");
  sqlite3_finalize(st);
  return result;
}

int store_runs(store *s, int limit, int (*fn)(void *ctx, const store_run_row *row), void *ctx,
               ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s, RUN_COLUMNS " GROUP BY r.id ORDER BY r.id DESC LIMIT ?", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int(st, 1, limit);
  return each_run(s, st, fn, ctx, err);
}

int store_run_get(store *s, int64_t run_id, store_run_row *out, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s, RUN_COLUMNS " WHERE r.id=? GROUP BY r.id", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    rc = read_run_row(s, st, out, err);
  } else if (rc == SQLITE_DONE) {
    rc = ts_err_set(err, TS_EINVAL, "there is no run %lld in %s", (long long)run_id, s->path);
  } else {
    rc = store_fail(s, err, "cannot read the run");
  }
  sqlite3_finalize(st);
  return rc;
}

int store_latest_run(store *s, int64_t *run_id, ts_err *err) {
  long long id = 0;
  int rc = query_int(s, "SELECT coalesce(max(id), 0) FROM run", &id, err);
  *run_id = rc == TS_OK ? id : 0;
  return rc;
}

int store_integrity_check(store *s, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s, "PRAGMA integrity_check", &st, err);
  if (rc != TS_OK)
    return rc;
  rc = sqlite3_step(st);
  const unsigned char *first = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
  if (first && strcmp((const char *)first, "ok") == 0)
    rc = TS_OK;
  else if (first)
    rc = ts_err_set(err, TS_ESTORE, "database %s is damaged: %s", s->path, first);
  else
    rc = store_fail(s, err, "cannot check the database");
  sqlite3_finalize(st);
  return rc;
}

int store_trials_append(store *s, int64_t run_id, store_trial_plan *trials, int count,
                        ts_err *err) {
  int rc = exec_sql(s, "BEGIN IMMEDIATE", "cannot start a transaction", err);
  if (rc != TS_OK)
    return rc;
  rc = insert_trials(s, run_id, trials, count, err);
  if (rc != TS_OK)
    return rollback_with(s, rc);
  rc = exec_sql(s, "COMMIT", "cannot commit the added trials", err);
  return rc == TS_OK ? TS_OK : rollback_with(s, rc);
}

int store_run_reopen(store *s, int64_t run_id, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "UPDATE run SET status='running', finished_at=NULL, status_detail='resumed', "
                   "resume_at_start=0 WHERE id=?",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  return step_done(s, st, "cannot reopen the run", err);
}

store_run_info store_run_info_here(const plat_sysinfo *sys, const char *plan_name,
                                   const char *plan_text, uint64_t seed, const char *started_at) {
  store_run_info info = {
      plan_name, plan_text,         seed,       started_at,      sys->host,        sys->os,
      sys->cpu,  sys->logical_cpus, TS_VERSION, sys->machine_id, sys->memory_bytes};
  return info;
}

int store_run_create_manual(store *s, const store_run_info *info, int64_t *run_id, ts_err *err) {
  return store_run_begin(s, info, NULL, 0, run_id, err);
}

int store_trial_record(store *s, int64_t run_id, const char *condition, const char *bench,
                       double score, const char *unit, const char *at, int64_t *trial_id,
                       ts_err *err) {
  int rc = exec_sql(s, "BEGIN IMMEDIATE", "cannot start a transaction", err);
  if (rc != TS_OK)
    return rc;
  long long exists = 0, next_seq = 0;
  char sql[160];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM run WHERE id=%lld", (long long)run_id);
  rc = query_int(s, sql, &exists, err);
  if (rc == TS_OK && !exists)
    rc = ts_err_set(err, TS_EINVAL, "there is no run %lld in %s", (long long)run_id, s->path);
  snprintf(sql, sizeof sql, "SELECT coalesce(max(seq),0)+1 FROM trial WHERE run_id=%lld",
           (long long)run_id);
  if (rc == TS_OK)
    rc = query_int(s, sql, &next_seq, err);
  sqlite3_stmt *st = NULL;
  if (rc == TS_OK)
    rc = prepare(s,
                 "INSERT INTO trial (run_id, seq, block, condition, bench, status, started_at, "
                 "finished_at, score, unit, source) VALUES (?,?,1,?,?,'done',?,?,?,?,'manual')",
                 &st, err);
  if (rc != TS_OK)
    return rollback_with(s, rc);
  sqlite3_bind_int64(st, 1, run_id);
  sqlite3_bind_int64(st, 2, next_seq);
  sqlite3_bind_text(st, 3, condition, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 4, bench, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 5, at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 6, at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(st, 7, score);
  bind_text_or_null(st, 8, unit);
  rc = step_done(s, st, "cannot store the recorded score", err);
  if (rc != TS_OK)
    return rollback_with(s, rc);
  *trial_id = sqlite3_last_insert_rowid(s->db);
  rc = exec_sql(s, "COMMIT", "cannot commit the recorded score", err);
  return rc == TS_OK ? TS_OK : rollback_with(s, rc);
}

double store_condition_metric_mean(store *s, int64_t run_id, const char *condition,
                                   const char *metric) {
  sqlite3_stmt *st;
  ts_err ignored;
  double mean = NAN;
  if (prepare(s,
              "SELECT avg(m.value) FROM trial_metric m JOIN trial t ON t.id=m.trial_id "
              "WHERE t.run_id=? AND t.condition=? AND t.block>0 AND t.status='done' AND m.name=?",
              &st, &ignored) != TS_OK)
    return NAN;
  sqlite3_bind_int64(st, 1, run_id);
  sqlite3_bind_text(st, 2, condition, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 3, metric, -1, SQLITE_TRANSIENT);
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
    mean = sqlite3_column_double(st, 0);
  sqlite3_finalize(st);
  return mean;
}

int store_bench_history(store *s, const char *host, const char *bench, const char *condition,
                        int (*fn)(void *ctx, const store_history_trial *t), void *ctx,
                        ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "SELECT r.id, r.plan_text, t.block, t.score, t.seconds FROM trial t "
                   "JOIN run r ON r.id=t.run_id WHERE r.host=? AND r.imported_from IS NULL "
                   "AND t.bench=? AND t.condition=? "
                   "AND t.status='done' AND t.source='measured' AND t.block>0 "
                   "AND t.score IS NOT NULL ORDER BY r.id DESC, t.seq",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, bench, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 3, condition, -1, SQLITE_TRANSIENT);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    store_history_trial t;
    t.run_id = sqlite3_column_int64(st, 0);
    const unsigned char *text = sqlite3_column_text(st, 1);
    t.plan_text = text ? (const char *)text : "";
    t.block = sqlite3_column_int(st, 2);
    t.score = sqlite3_column_double(st, 3);
    t.seconds = sqlite3_column_type(st, 4) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 4);
    if (fn(ctx, &t) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  }
  int result =
      rc == SQLITE_DONE ? TS_OK : store_fail(s, err, "cannot read the benchmark's history");
  sqlite3_finalize(st);
  return result;
}

int store_run_block_seconds(store *s, int64_t run_id,
                            int (*fn)(void *ctx, int block, double seconds), void *ctx,
                            ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   /* julianday keeps about 10 us: rounded to the timestamps' milliseconds */
                   "SELECT block, round((julianday(max(finished_at)) - julianday(min(started_at)))"
                   " * 86400.0, 3) FROM trial WHERE run_id=? AND block>0 GROUP BY block "
                   "HAVING count(*)=sum(status='done') AND count(started_at)=count(*) "
                   "AND count(finished_at)=count(*) ORDER BY block",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (sqlite3_column_type(st, 1) == SQLITE_NULL)
      continue; /* a time SQLite cannot read */
    if (fn(ctx, sqlite3_column_int(st, 0), sqlite3_column_double(st, 1)) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  }
  int result = rc == SQLITE_DONE ? TS_OK : store_fail(s, err, "cannot read the blocks' times");
  sqlite3_finalize(st);
  return result;
}

int store_condition_timer(store *s, int64_t run_id, const char *condition, char *asked,
                          size_t asked_len, char *obtained, size_t obtained_len,
                          double *observed_us, ts_err *err) {
  sqlite3_stmt *st;
  *observed_us = NAN;
  asked[0] = obtained[0] = '\0';
  /* Sorted first, so that mixed trials read the same "default,high" whatever their order. */
  int rc = prepare(s,
                   "SELECT (SELECT group_concat(v) FROM (SELECT DISTINCT resolution_asked v FROM "
                   "trial WHERE run_id=?1 AND condition=?2 AND block>0 AND status='done' ORDER BY "
                   "v)), (SELECT group_concat(v) FROM (SELECT DISTINCT resolution_obtained v FROM "
                   "trial WHERE run_id=?1 AND condition=?2 AND block>0 AND status='done' ORDER BY "
                   "v)), (SELECT avg(timer_resolution_us) FROM trial WHERE run_id=?1 AND "
                   "condition=?2 AND block>0 AND status='done')",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  sqlite3_bind_text(st, 2, condition, -1, SQLITE_TRANSIENT);
  if (sqlite3_step(st) != SQLITE_ROW) {
    rc = store_fail(s, err, "cannot read a condition's timer resolution");
    sqlite3_finalize(st);
    return rc;
  }
  copy_column(st, 0, asked, asked_len);
  copy_column(st, 1, obtained, obtained_len);
  if (sqlite3_column_type(st, 2) != SQLITE_NULL)
    *observed_us = sqlite3_column_double(st, 2);
  sqlite3_finalize(st);
  return TS_OK;
}

/* ---- schedules ------------------------------------------------------------------------------- */

int store_schedule_add(store *s, const store_schedule *sc, const char *created_at, int64_t *id,
                       ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "INSERT INTO schedule (spec, plan_text, require_ac, require_idle_s, grace_s, "
                   "next_due, enabled, created_at, programs_allowed) VALUES (?,?,?,?,?,?,?,?,?)",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_text(st, 1, sc->spec, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, sc->plan_text, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st, 3, sc->require_ac);
  sqlite3_bind_int64(st, 4, sc->require_idle_s);
  sqlite3_bind_int64(st, 5, sc->grace_s);
  if (sc->next_due)
    sqlite3_bind_int64(st, 6, sc->next_due);
  else
    sqlite3_bind_null(st, 6);
  sqlite3_bind_int(st, 7, sc->enabled);
  sqlite3_bind_text(st, 8, created_at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st, 9, sc->programs_allowed != 0);
  rc = step_done(s, st, "cannot store the schedule", err);
  if (rc == TS_OK)
    *id = sqlite3_last_insert_rowid(s->db);
  return rc;
}

int store_schedules(store *s, int (*fn)(void *ctx, const store_schedule *sc), void *ctx,
                    ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "SELECT s.id, s.spec, s.plan_text, s.require_ac, s.require_idle_s, s.grace_s, "
                   "coalesce(s.next_due, 0), s.enabled, coalesce((SELECT e.what || ' ' || e.at || "
                   "coalesce(' run ' || e.run_id, '') || coalesce(': ' || e.detail, '') FROM "
                   "schedule_event e WHERE e.schedule_id=s.id ORDER BY e.id DESC LIMIT 1), ''), "
                   "s.programs_allowed FROM schedule s ORDER BY s.id",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  store_schedule *sc = malloc(sizeof *sc);
  if (!sc) {
    sqlite3_finalize(st);
    return ts_err_set(err, TS_ENOMEM, "no memory for the schedules");
  }
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    memset(sc, 0, sizeof *sc);
    sc->id = sqlite3_column_int64(st, 0);
    copy_column(st, 1, sc->spec, sizeof sc->spec);
    copy_column(st, 2, sc->plan_text, sizeof sc->plan_text);
    sc->require_ac = sqlite3_column_int(st, 3);
    sc->require_idle_s = (long)sqlite3_column_int64(st, 4);
    sc->grace_s = (long)sqlite3_column_int64(st, 5);
    sc->next_due = sqlite3_column_int64(st, 6);
    sc->enabled = sqlite3_column_int(st, 7);
    copy_column(st, 8, sc->last_event, sizeof sc->last_event);
    sc->programs_allowed = sqlite3_column_int(st, 9);
    if (fn(ctx, sc) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  }
  free(sc);
  int result = rc == SQLITE_DONE ? TS_OK : store_fail(s, err, "cannot read the schedules");
  sqlite3_finalize(st);
  return result;
}

int store_schedule_remove(store *s, int64_t id, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s, "DELETE FROM schedule WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, id);
  rc = step_done(s, st, "cannot remove the schedule", err);
  if (rc == TS_OK && sqlite3_changes(s->db) == 0)
    rc = ts_err_set(err, TS_EINVAL, "there is no schedule %lld", (long long)id);
  return rc;
}

int store_schedule_update(store *s, int64_t id, int64_t next_due, int enabled, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s, "UPDATE schedule SET next_due=?, enabled=? WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  if (next_due)
    sqlite3_bind_int64(st, 1, next_due);
  else
    sqlite3_bind_null(st, 1);
  sqlite3_bind_int(st, 2, enabled);
  sqlite3_bind_int64(st, 3, id);
  return step_done(s, st, "cannot update the schedule", err);
}

int store_schedule_event(store *s, int64_t id, store_schedule_outcome what, int64_t run_id,
                         const char *detail, const char *at, ts_err *err) {
  const char *text =
      status_text(schedule_outcome_names, NAME_COUNT(schedule_outcome_names), (int)what);
  if (!text)
    return ts_err_set(err, TS_EINVAL, "schedule %lld: %d is not a due time's outcome",
                      (long long)id, (int)what);
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "INSERT INTO schedule_event (schedule_id, at, what, run_id, detail) "
                   "VALUES (?,?,?,?,?)",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, id);
  sqlite3_bind_text(st, 2, at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 3, text, -1, SQLITE_STATIC);
  if (run_id)
    sqlite3_bind_int64(st, 4, run_id);
  else
    sqlite3_bind_null(st, 4);
  bind_text_or_null(st, 5, detail);
  return step_done(s, st, "cannot record the schedule's event", err);
}

int store_run_set_schedule(store *s, int64_t run_id, int64_t schedule_id, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s, "UPDATE run SET schedule_id=? WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, schedule_id);
  sqlite3_bind_int64(st, 2, run_id);
  return step_done(s, st, "cannot link the run to its schedule", err);
}

int store_run_set_origin(store *s, int64_t run_id, int programs_allowed, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s, "UPDATE run SET runner='service', programs_allowed=? WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int(st, 1, programs_allowed != 0);
  sqlite3_bind_int64(st, 2, run_id);
  return step_done(s, st, "cannot record who started the run", err);
}

int store_unfinished_runs(store *s, int (*fn)(void *ctx, const store_run_row *row), void *ctx,
                          ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   RUN_COLUMNS " WHERE r.status IN ('running','interrupted') AND "
                               "r.plan_name <> 'manual' AND r.imported_from IS NULL "
                               "GROUP BY r.id ORDER BY r.id",
                   &st, err);
  return rc == TS_OK ? each_run(s, st, fn, ctx, err) : rc;
}

/* ---- quiet mode's journal -------------------------------------------------------------------- */

/* An optional number: NULL when `value` is `unknown`. */
static void bind_int64_or_null(sqlite3_stmt *st, int i, int64_t value, int64_t unknown) {
  if (value == unknown)
    sqlite3_bind_null(st, i);
  else
    sqlite3_bind_int64(st, i, value);
}

int store_quiet_begin(store *s, const store_quiet_entry *e, int64_t *id, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "INSERT INTO quiet_journal (started_at, reason, defender_was, "
                   "update_paused_until_was, restore_by) VALUES (?,?,?,?,?)",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_text(st, 1, e->started_at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, e->reason, -1, SQLITE_TRANSIENT);
  bind_int64_or_null(st, 3, e->defender_was, -1);
  bind_int64_or_null(st, 4, e->update_paused_until_was, -1);
  bind_int64_or_null(st, 5, e->restore_by, 0);
  /* The unique index on open entries refuses a second one, even from another process. */
  if (sqlite3_step(st) == SQLITE_DONE) {
    rc = TS_OK;
    *id = sqlite3_last_insert_rowid(s->db);
  } else if (sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_UNIQUE) {
    rc = ts_err_set(err, TS_EINVAL, "quiet mode is already on (database %s)", s->path);
  } else {
    rc = store_fail(s, err, "cannot write quiet mode's journal");
  }
  sqlite3_finalize(st);
  return rc;
}

int store_quiet_set_changed(store *s, int64_t id, int defender_changed, int update_changed,
                            int64_t update_paused_until_set, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "UPDATE quiet_journal SET defender_changed=?, update_changed=?, "
                   "update_paused_until_set=? WHERE id=?",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int(st, 1, defender_changed);
  sqlite3_bind_int(st, 2, update_changed);
  bind_int64_or_null(st, 3, update_paused_until_set, 0);
  sqlite3_bind_int64(st, 4, id);
  return step_done(s, st, "cannot write quiet mode's journal", err);
}

int store_quiet_end(store *s, int64_t id, const char *restored_at, const char *restore_error,
                    ts_err *err) {
  sqlite3_stmt *st;
  int rc =
      prepare(s, "UPDATE quiet_journal SET restored_at=?, restore_error=? WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  bind_text_or_null(st, 1, restored_at);
  bind_text_or_null(st, 2, restore_error);
  sqlite3_bind_int64(st, 3, id);
  return step_done(s, st, "cannot write quiet mode's journal", err);
}

int store_quiet_set_confirmed(store *s, int64_t id, const store_quiet_entry *e, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "UPDATE quiet_journal SET defender_asked=?, defender_confirmed=?, "
                   "update_asked_until=?, update_state=?, update_how=? WHERE id=?",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int(st, 1, e->defender_asked);
  bind_int64_or_null(st, 2, e->defender_confirmed, -1);
  bind_int64_or_null(st, 3, e->update_asked_until, 0);
  bind_text_or_null(st, 4, e->update_state[0] ? e->update_state : NULL);
  bind_text_or_null(st, 5, e->update_how[0] ? e->update_how : NULL);
  sqlite3_bind_int64(st, 6, id);
  return step_done(s, st, "cannot write quiet mode's journal", err);
}

int store_quiet_set_run(store *s, int64_t id, int64_t run_id, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s, "UPDATE quiet_journal SET run_id=? WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  sqlite3_bind_int64(st, 2, id);
  return step_done(s, st, "cannot write quiet mode's journal", err);
}

/* Reads the one entry a query selects, with the columns in this order. */
static int quiet_entry_query(store *s, const char *where, int64_t arg, store_quiet_entry *out,
                             int *found, ts_err *err) {
  char sql[768];
  snprintf(sql, sizeof sql,
           "SELECT id, started_at, reason, coalesce(defender_was,-1), "
           "coalesce(update_paused_until_was,-1), defender_changed, update_changed, "
           "coalesce(update_paused_until_set,0), restored_at, restore_error, "
           "coalesce(restore_by,0), coalesce(run_id,0), coalesce(defender_asked,0), "
           "coalesce(defender_confirmed,-1), coalesce(update_asked_until,0), update_state, "
           "update_how FROM quiet_journal "
           "%s ORDER BY id DESC LIMIT 1",
           where);
  sqlite3_stmt *st;
  int rc = prepare(s, sql, &st, err);
  if (rc != TS_OK)
    return rc;
  if (strchr(where, '?'))
    sqlite3_bind_int64(st, 1, arg);
  memset(out, 0, sizeof *out);
  *found = 0;
  rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *found = 1;
    out->id = sqlite3_column_int64(st, 0);
    copy_column(st, 1, out->started_at, sizeof out->started_at);
    copy_column(st, 2, out->reason, sizeof out->reason);
    out->defender_was = sqlite3_column_int(st, 3);
    out->update_paused_until_was = sqlite3_column_int64(st, 4);
    out->defender_changed = sqlite3_column_int(st, 5);
    out->update_changed = sqlite3_column_int(st, 6);
    out->update_paused_until_set = sqlite3_column_int64(st, 7);
    copy_column(st, 8, out->restored_at, sizeof out->restored_at);
    copy_column(st, 9, out->restore_error, sizeof out->restore_error);
    out->restore_by = sqlite3_column_int64(st, 10);
    out->run_id = sqlite3_column_int64(st, 11);
    out->defender_asked = sqlite3_column_int(st, 12);
    out->defender_confirmed = sqlite3_column_int(st, 13);
    out->update_asked_until = sqlite3_column_int64(st, 14);
    copy_column(st, 15, out->update_state, sizeof out->update_state);
    copy_column(st, 16, out->update_how, sizeof out->update_how);
    rc = TS_OK;
  } else {
    rc = rc == SQLITE_DONE ? TS_OK : store_fail(s, err, "cannot read quiet mode's journal");
  }
  sqlite3_finalize(st);
  return rc;
}

int store_quiet_open_entry(store *s, store_quiet_entry *out, int *found, ts_err *err) {
  return quiet_entry_query(s, "WHERE restored_at IS NULL", 0, out, found, err);
}

/* Entries imported with a run were another machine's quiet mode, not this one's. */
int store_quiet_last_entry(store *s, store_quiet_entry *out, int *found, ts_err *err) {
  return quiet_entry_query(s,
                           "WHERE run_id IS NULL OR run_id NOT IN "
                           "(SELECT id FROM run WHERE imported_from IS NOT NULL)",
                           0, out, found, err);
}

int store_quiet_run_entry(store *s, int64_t run_id, store_quiet_entry *out, int *found,
                          ts_err *err) {
  return quiet_entry_query(s, "WHERE run_id=?", run_id, out, found, err);
}

/* ---- machine checks stored with a run ---------------------------------------------------------
 */

int store_doctor_save(store *s, int64_t run_id, const store_doctor_row *rows, int count,
                      ts_err *err) {
  int rc = exec_sql(s, "BEGIN IMMEDIATE", "cannot start a transaction", err);
  if (rc != TS_OK)
    return rc;
  sqlite3_stmt *st;
  rc = prepare(s, "DELETE FROM run_doctor WHERE run_id=?", &st, err);
  if (rc == TS_OK) {
    sqlite3_bind_int64(st, 1, run_id);
    rc = step_done(s, st, "cannot replace the machine checks", err);
  }
  for (int i = 0; rc == TS_OK && i < count; i++) {
    rc = prepare(s,
                 "INSERT INTO run_doctor(run_id, position, check_name, status, measured, value, "
                 "advice, checked_at) VALUES (?,?,?,?,?,?,?,?)",
                 &st, err);
    if (rc != TS_OK)
      break;
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_int(st, 2, i + 1);
    sqlite3_bind_text(st, 3, rows[i].check, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, rows[i].status, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, rows[i].measured, -1, SQLITE_TRANSIENT);
    if (isnan(rows[i].value))
      sqlite3_bind_null(st, 6);
    else
      sqlite3_bind_double(st, 6, rows[i].value);
    sqlite3_bind_text(st, 7, rows[i].advice, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 8, rows[i].checked_at, -1, SQLITE_TRANSIENT);
    rc = step_done(s, st, "cannot store a machine check", err);
  }
  if (rc == TS_OK)
    rc = exec_sql(s, "COMMIT", "cannot store the machine checks", err);
  return rc == TS_OK ? TS_OK : rollback_with(s, rc);
}

int store_doctor_findings(store *s, int64_t run_id,
                          int (*fn)(void *ctx, const store_doctor_row *row), void *ctx,
                          ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s,
                   "SELECT check_name, status, measured, value, advice, checked_at FROM run_doctor "
                   "WHERE run_id=? ORDER BY position",
                   &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  store_doctor_row row;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    copy_column(st, 0, row.check, sizeof row.check);
    copy_column(st, 1, row.status, sizeof row.status);
    copy_column(st, 2, row.measured, sizeof row.measured);
    row.value = sqlite3_column_type(st, 3) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 3);
    copy_column(st, 4, row.advice, sizeof row.advice);
    copy_column(st, 5, row.checked_at, sizeof row.checked_at);
    if (fn(ctx, &row) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  }
  int result = rc == SQLITE_DONE ? TS_OK : store_fail(s, err, "cannot read the machine checks");
  sqlite3_finalize(st);
  return result;
}

/* ---- runs across databases (export and import) ------------------------------------------------
   One list of columns per record kind serves both directions, so what is written is what can be
   read back. docs/schema.md describes each (a test compares the two). */

typedef struct exchange_column {
  const char *name;   /* in the record, and the column it is stored in */
  const char *select; /* the expression read; NULL: the column `name` */
  char type;          /* 'i' integer, 'r' real, 't' text */
  int stored;         /* 0: exported for the reader, not stored by the import */
} exchange_column;

static const exchange_column run_columns[] = {
    {"uid", NULL, 't', 1},
    {"plan_name", NULL, 't', 1},
    {"plan_text", NULL, 't', 1},
    {"seed", NULL, 'i', 1},
    {"status", NULL, 't', 1},
    {"status_detail", NULL, 't', 1},
    {"started_at", NULL, 't', 1},
    {"finished_at", NULL, 't', 1},
    {"version", NULL, 't', 1},
    {"runner", NULL, 't', 1},
    {"host", NULL, 't', 1},
    {"os", NULL, 't', 1},
    {"cpu", NULL, 't', 1},
    {"logical_cpus", NULL, 'i', 1},
    {"memory_bytes", NULL, 'i', 1},
    {"machine_id", NULL, 't', 1},
    {"schedule", "(SELECT spec FROM schedule WHERE id=run.schedule_id)", 't', 0},
};

static const exchange_column doctor_columns[] = {
    {"position", NULL, 'i', 1},   {"check_name", NULL, 't', 1}, {"status", NULL, 't', 1},
    {"measured", NULL, 't', 1},   {"value", NULL, 'r', 1},      {"advice", NULL, 't', 1},
    {"checked_at", NULL, 't', 1},
};

static const exchange_column quiet_columns[] = {
    {"started_at", NULL, 't', 1},
    {"reason", NULL, 't', 1},
    {"defender_was", NULL, 'i', 1},
    {"update_paused_until_was", NULL, 'i', 1},
    {"defender_changed", NULL, 'i', 1},
    {"update_changed", NULL, 'i', 1},
    {"update_paused_until_set", NULL, 'i', 1},
    {"restored_at", NULL, 't', 1},
    {"restore_error", NULL, 't', 1},
    {"restore_by", NULL, 'i', 1},
    {"defender_asked", NULL, 'i', 1},
    {"defender_confirmed", NULL, 'i', 1},
    {"update_asked_until", NULL, 'i', 1},
    {"update_state", NULL, 't', 1},
    {"update_how", NULL, 't', 1},
};

static const exchange_column trial_columns[] = {
    {"seq", NULL, 'i', 1},
    {"block", NULL, 'i', 1},
    {"condition", NULL, 't', 1},
    {"bench", NULL, 't', 1},
    {"status", NULL, 't', 1},
    {"source", NULL, 't', 1},
    {"started_at", NULL, 't', 1},
    {"finished_at", NULL, 't', 1},
    {"score", NULL, 'r', 1},
    {"unit", NULL, 't', 1},
    {"seconds", NULL, 'r', 1},
    {"process_threads", NULL, 'i', 1},
    {"machine_processes", NULL, 'i', 1},
    {"machine_threads", NULL, 'i', 1},
    {"error", NULL, 't', 1},
    {"warnings", NULL, 't', 1},
    {"resolution_asked", NULL, 't', 1},
    {"resolution_obtained", NULL, 't', 1},
    {"timer_resolution_us", NULL, 'r', 1},
    {"power_source", NULL, 't', 1},
    {"power_throttling", NULL, 't', 1},
    {"core_classes", NULL, 't', 1},
};

/* A metric names its trial by seq; the import finds the trial's new id from it. */
static const exchange_column metric_columns[] = {
    {"seq", "(SELECT seq FROM trial WHERE id=trial_metric.trial_id)", 'i', 0},
    {"name", NULL, 't', 1},
    {"value", NULL, 'r', 1},
};

typedef struct exchange_kind {
  const char *table;
  const exchange_column *columns;
  int count;
  const char *where; /* selects the run's rows, in their order; ? is the run id */
} exchange_kind;

#define KIND(table, columns, where)                                                                \
  { table, columns, NAME_COUNT(columns), where }
static const exchange_kind exchange_kinds[STORE_RECORD_KIND_COUNT] = {
    KIND("run", run_columns, "WHERE id=?"),
    KIND("run_doctor", doctor_columns, "WHERE run_id=? ORDER BY position"),
    KIND("quiet_journal", quiet_columns, "WHERE run_id=? ORDER BY id DESC LIMIT 1"),
    KIND("trial", trial_columns, "WHERE run_id=? ORDER BY seq"),
    KIND("trial_metric", metric_columns,
         "WHERE trial_id IN (SELECT id FROM trial WHERE run_id=?) ORDER BY 1, name"),
};
#undef KIND

#define STORE_KIND_TEXT(name, text) text,
static const char *const record_kind_names[] = {STORE_RECORD_KIND_MAP(STORE_KIND_TEXT)};
#undef STORE_KIND_TEXT

const char *store_record_kind_name(store_record_kind kind) {
  return status_text(record_kind_names, NAME_COUNT(record_kind_names), (int)kind);
}

int store_record_kind_parse(const char *name) {
  for (int i = 0; i < NAME_COUNT(record_kind_names); i++)
    if (strcmp(name, record_kind_names[i]) == 0)
      return i;
  return -1;
}

/* Reads the run's rows of one kind and calls fn with each as a record; *stopped when fn asked. */
static int export_kind(store *s, int64_t run_id, store_record_kind kind,
                       int (*fn)(void *ctx, const store_record *rec), void *ctx, int *stopped,
                       ts_err *err) {
  const exchange_kind *k = &exchange_kinds[kind];
  char sql[1536];
  ts_buf b = ts_buf_on(sql, sizeof sql);
  ts_buf_add(&b, "SELECT ");
  for (int i = 0; i < k->count; i++)
    ts_buf_item(&b, ", ", k->columns[i].select ? k->columns[i].select : k->columns[i].name);
  ts_buf_addf(&b, " FROM %s %s", k->table, k->where);
  sqlite3_stmt *st;
  int rc = prepare(s, sql, &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  store_record *rec = calloc(1, sizeof *rec);
  if (!rec) {
    sqlite3_finalize(st);
    return ts_err_set(err, TS_ENOMEM, "no memory to export run %lld", (long long)run_id);
  }
  rec->kind = kind;
  rec->count = k->count;
  while (!*stopped && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    for (int i = 0; i < k->count; i++) {
      store_value *v = &rec->values[i];
      memset(v, 0, sizeof *v);
      v->name = k->columns[i].name;
      if (sqlite3_column_type(st, i) == SQLITE_NULL) {
        v->type = STORE_VALUE_NULL;
      } else if (k->columns[i].type == 'i') {
        v->type = STORE_VALUE_INT;
        v->i = sqlite3_column_int64(st, i);
      } else if (k->columns[i].type == 'r') {
        v->type = STORE_VALUE_REAL;
        v->d = sqlite3_column_double(st, i);
      } else {
        v->type = STORE_VALUE_TEXT;
        v->text = (const char *)sqlite3_column_text(st, i);
      }
    }
    *stopped = fn(ctx, rec) != 0;
  }
  free(rec);
  int result = *stopped || rc == SQLITE_DONE ? TS_OK : store_fail(s, err, "cannot export the run");
  sqlite3_finalize(st);
  return result;
}

int store_run_export(store *s, int64_t run_id, int (*fn)(void *ctx, const store_record *rec),
                     void *ctx, ts_err *err) {
  long long found = 0;
  char sql[64];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM run WHERE id=%lld", (long long)run_id);
  int rc = exec_sql(s, "BEGIN", "cannot start reading the run", err);
  if (rc != TS_OK)
    return rc;
  rc = query_int(s, sql, &found, err);
  if (rc == TS_OK && !found)
    rc = ts_err_set(err, TS_EINVAL, "there is no run %lld in %s", (long long)run_id, s->path);
  int stopped = 0;
  for (int kind = 0; rc == TS_OK && kind < STORE_RECORD_KIND_COUNT && !stopped; kind++)
    rc = export_kind(s, run_id, (store_record_kind)kind, fn, ctx, &stopped, err);
  sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
  return rc;
}

int store_run_ids(store *s, int (*fn)(void *ctx, int64_t run_id), void *ctx, ts_err *err) {
  sqlite3_stmt *st;
  int rc = prepare(s, "SELECT id FROM run ORDER BY id", &st, err);
  if (rc != TS_OK)
    return rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW)
    if (fn(ctx, sqlite3_column_int64(st, 0)) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  int result = rc == SQLITE_DONE ? TS_OK : store_fail(s, err, "cannot list the runs");
  sqlite3_finalize(st);
  return result;
}

static const exchange_column *find_column(const exchange_kind *k, const char *name) {
  for (int i = 0; i < k->count; i++)
    if (strcmp(k->columns[i].name, name) == 0)
      return &k->columns[i];
  return NULL;
}

static const store_value *record_value(const store_record *rec, const char *name) {
  for (int i = 0; i < rec->count; i++)
    if (strcmp(rec->values[i].name, name) == 0)
      return &rec->values[i];
  return NULL;
}

int store_record_check(const store_record *rec, ts_err *err) {
  const char *kind = store_record_kind_name(rec->kind);
  if (!kind || rec->count < 0 || rec->count > STORE_RECORD_MAX_VALUES)
    return ts_err_set(err, TS_EINVAL, "a record of kind %d with %d values", (int)rec->kind,
                      rec->count);
  const exchange_kind *k = &exchange_kinds[rec->kind];
  for (int i = 0; i < rec->count; i++) {
    const store_value *v = &rec->values[i];
    const exchange_column *c = find_column(k, v->name);
    if (!c)
      return ts_err_set(err, TS_EINVAL,
                        "the %s record has a field '%.64s' that this ThreadSoup does not know "
                        "(docs/schema.md lists the fields of each record)",
                        kind, v->name);
    static const char *const type_names[] = {"null", "a whole number", "a number", "a string"};
    int ok = v->type == STORE_VALUE_NULL || (c->type == 'i' && v->type == STORE_VALUE_INT) ||
             (c->type == 'r' && (v->type == STORE_VALUE_INT || v->type == STORE_VALUE_REAL)) ||
             (c->type == 't' && v->type == STORE_VALUE_TEXT);
    if (!ok)
      return ts_err_set(err, TS_EINVAL, "the %s record's '%s' is %s (accepted: %s or null)", kind,
                        v->name, (unsigned)v->type < 4 ? type_names[v->type] : "of no known type",
                        c->type == 'i'   ? "a whole number"
                        : c->type == 'r' ? "a number"
                                         : "a string");
  }
  if (rec->kind == STORE_RECORD_RUN) {
    const store_value *uid = record_value(rec, "uid");
    int hex = uid && uid->type == STORE_VALUE_TEXT && strlen(uid->text) == 32;
    for (int i = 0; hex && i < 32; i++)
      hex = (uid->text[i] >= '0' && uid->text[i] <= '9') ||
            (uid->text[i] >= 'a' && uid->text[i] <= 'f');
    if (!hex)
      return ts_err_set(err, TS_EINVAL,
                        "the run record's 'uid' is %s%.40s%s (accepted: 32 lowercase hex digits)",
                        uid && uid->type == STORE_VALUE_TEXT ? "'" : "",
                        uid && uid->type == STORE_VALUE_TEXT ? uid->text : "missing",
                        uid && uid->type == STORE_VALUE_TEXT ? "'" : "");
  }
  if (rec->kind == STORE_RECORD_METRIC) {
    const store_value *seq = record_value(rec, "seq");
    if (!seq || seq->type != STORE_VALUE_INT)
      return ts_err_set(err, TS_EINVAL, "the metric record has no 'seq' (its trial's)");
  }
  return TS_OK;
}

static void bind_value(sqlite3_stmt *st, int i, const store_value *v) {
  switch (v->type) {
  case STORE_VALUE_INT:
    sqlite3_bind_int64(st, i, (sqlite3_int64)v->i);
    break;
  case STORE_VALUE_REAL:
    sqlite3_bind_double(st, i, v->d);
    break;
  case STORE_VALUE_TEXT:
    sqlite3_bind_text(st, i, v->text, -1, SQLITE_TRANSIENT);
    break;
  default:
    sqlite3_bind_null(st, i);
  }
}

/* Inserts one checked record into its table: the values its kind stores, then `extra` (values the
   import sets itself), with run_id first when run_id > 0. A metric's trial comes from its seq. */
static int insert_record(store *s, const store_record *rec, int64_t run_id,
                         const store_value *extra, int extra_count, ts_err *err) {
  const exchange_kind *k = &exchange_kinds[rec->kind];
  const store_value *bound[STORE_RECORD_MAX_VALUES + 4];
  int n = 0;
  for (int i = 0; i < rec->count; i++) {
    const exchange_column *c = find_column(k, rec->values[i].name);
    if (c && c->stored)
      bound[n++] = &rec->values[i];
  }
  for (int i = 0; i < extra_count && n < (int)(sizeof bound / sizeof bound[0]); i++)
    bound[n++] = &extra[i];
  int metric = rec->kind == STORE_RECORD_METRIC;
  char sql[2048];
  ts_buf b = ts_buf_on(sql, sizeof sql);
  ts_buf_addf(&b, "INSERT INTO %s (", k->table);
  if (metric)
    ts_buf_item(&b, ", ", "trial_id");
  else if (run_id > 0)
    ts_buf_item(&b, ", ", "run_id");
  for (int i = 0; i < n; i++)
    ts_buf_item(&b, ", ", bound[i]->name);
  ts_buf_add(&b, ") VALUES (");
  if (metric)
    ts_buf_add(&b, "(SELECT id FROM trial WHERE run_id=? AND seq=?)");
  else if (run_id > 0)
    ts_buf_add(&b, "?");
  for (int i = 0; i < n; i++)
    ts_buf_add(&b, i > 0 || metric || run_id > 0 ? ", ?" : "?");
  ts_buf_add(&b, ")");
  sqlite3_stmt *st;
  int rc = prepare(s, sql, &st, err);
  if (rc != TS_OK)
    return rc;
  int at = 1;
  if (metric || run_id > 0)
    sqlite3_bind_int64(st, at++, run_id);
  if (metric)
    bind_value(st, at++, record_value(rec, "seq"));
  for (int i = 0; i < n; i++)
    bind_value(st, at++, bound[i]);
  char doing[64];
  snprintf(doing, sizeof doing, "cannot store the %s record", store_record_kind_name(rec->kind));
  if (metric)
    snprintf(doing, sizeof doing, "cannot store the metric of trial %lld",
             (long long)record_value(rec, "seq")->i);
  rc = sqlite3_step(st);
  sqlite3_finalize(st);
  if (rc == SQLITE_DONE)
    return TS_OK;
  /* A required field missing or null: named as the file's field rather than the table's
     constraint (SQLite says "NOT NULL constraint failed: table.column"). */
  const char *msg = sqlite3_errmsg(s->db), *column = strrchr(msg, '.');
  if (sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_NOTNULL && column)
    return ts_err_set(err, TS_EINVAL,
                      "%s: its '%.64s' is missing or null (a %s record needs one; "
                      "docs/schema.md lists the fields)",
                      doing, column + 1, store_record_kind_name(rec->kind));
  return store_fail(s, err, doing);
}

static int compare_int64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Each metric record's seq names a trial record of the same import (sorted seqs, searched). */
static int check_metric_trials(const store_import_run *in, int *bad_record, ts_err *err) {
  int64_t *seqs = malloc(((size_t)in->count + 1) * sizeof *seqs);
  if (!seqs)
    return ts_err_set(err, TS_ENOMEM, "no memory to check %d records", in->count);
  size_t n = 0;
  for (int i = 0; i < in->count; i++) {
    const store_value *seq =
        in->records[i].kind == STORE_RECORD_TRIAL ? record_value(&in->records[i], "seq") : NULL;
    if (seq && seq->type == STORE_VALUE_INT)
      seqs[n++] = seq->i;
  }
  qsort(seqs, n, sizeof *seqs, compare_int64);
  int rc = TS_OK;
  for (int i = 0; rc == TS_OK && i < in->count; i++) {
    if (in->records[i].kind != STORE_RECORD_METRIC)
      continue;
    int64_t seq = record_value(&in->records[i], "seq")->i;
    if (!bsearch(&seq, seqs, n, sizeof *seqs, compare_int64)) {
      *bad_record = i;
      rc = ts_err_set(err, TS_EINVAL,
                      "cannot store the metric of trial %lld: the file holds no trial record "
                      "with \"seq\":%lld (a metric's seq names its trial)",
                      (long long)seq, (long long)seq);
    }
  }
  free(seqs);
  return rc;
}

int store_run_import(store *s, const store_import_run *in, int64_t *run_id, int *already,
                     int *bad_record, ts_err *err) {
  *run_id = 0;
  *already = 0;
  *bad_record = -1;
  const store_record *run = NULL;
  int quiet_records = 0;
  for (int i = 0; i < in->count; i++) {
    int rc = store_record_check(&in->records[i], err);
    if (rc == TS_OK && in->records[i].kind == STORE_RECORD_RUN && run)
      rc = ts_err_set(err, TS_EINVAL, "a second run record (a file holds one run)");
    if (rc == TS_OK && in->records[i].kind == STORE_RECORD_QUIET && quiet_records++)
      rc = ts_err_set(err, TS_EINVAL, "a second quiet record (a run has at most one)");
    if (rc != TS_OK) {
      *bad_record = i;
      return rc;
    }
    if (in->records[i].kind == STORE_RECORD_RUN)
      run = &in->records[i];
  }
  if (!run)
    return ts_err_set(err, TS_EINVAL, "no run record");
  /* A metric names its trial by seq: one the file does not hold is said here, before anything is
     written, rather than as the database's constraint. */
  int rc = check_metric_trials(in, bad_record, err);
  if (rc != TS_OK)
    return rc;

  rc = exec_sql(s, "BEGIN IMMEDIATE", "cannot start a transaction", err);
  if (rc != TS_OK)
    return rc;
  sqlite3_stmt *st;
  rc = prepare(s, "SELECT id FROM run WHERE uid=?", &st, err);
  if (rc != TS_OK)
    return rollback_with(s, rc);
  bind_value(st, 1, record_value(run, "uid"));
  if (sqlite3_step(st) == SQLITE_ROW) {
    *already = 1;
    *run_id = sqlite3_column_int64(st, 0);
  }
  sqlite3_finalize(st);
  if (*already)
    return rollback_with(s, TS_OK);

  store_value origin[2] = {{"imported_from", STORE_VALUE_TEXT, 0, 0, in->imported_from},
                           {"imported_at", STORE_VALUE_TEXT, 0, 0, in->imported_at}};
  rc = insert_record(s, run, 0, origin, 2, err);
  if (rc != TS_OK) {
    *bad_record = (int)(run - in->records);
    return rollback_with(s, rc);
  }
  *run_id = sqlite3_last_insert_rowid(s->db);
  /* Trials before metrics: a metric finds its trial by seq. */
  static const store_record_kind order[] = {STORE_RECORD_TRIAL, STORE_RECORD_DOCTOR,
                                            STORE_RECORD_QUIET, STORE_RECORD_METRIC};
  for (size_t o = 0; rc == TS_OK && o < sizeof order / sizeof order[0]; o++)
    for (int i = 0; rc == TS_OK && i < in->count; i++) {
      const store_record *rec = &in->records[i];
      if (rec->kind != order[o])
        continue;
      store_value closed[2] = {
          {"restored_at", STORE_VALUE_TEXT, 0, 0, in->imported_at},
          {"restore_error", STORE_VALUE_TEXT, 0, 0,
           "still on on the measuring machine when the run was exported; closed by the import"}};
      const store_value *restored = record_value(rec, "restored_at");
      if (rec->kind == STORE_RECORD_QUIET && (!restored || restored->type == STORE_VALUE_NULL)) {
        /* An open entry would make this machine's quiet mode think it is on. */
        store_record *copy = malloc(sizeof *copy);
        if (!copy) {
          rc = ts_err_set(err, TS_ENOMEM, "no memory to import the quiet record");
          break;
        }
        *copy = *rec;
        copy->count = 0;
        for (int j = 0; j < rec->count; j++)
          if (strcmp(rec->values[j].name, "restored_at") != 0 &&
              strcmp(rec->values[j].name, "restore_error") != 0)
            copy->values[copy->count++] = rec->values[j];
        rc = insert_record(s, copy, *run_id, closed, 2, err);
        free(copy);
      } else {
        rc = insert_record(s, rec, *run_id, NULL, 0, err);
      }
      if (rc != TS_OK)
        *bad_record = i;
    }
  if (rc == TS_OK)
    rc = exec_sql(s, "COMMIT", "cannot commit the imported run", err);
  if (rc != TS_OK) {
    *run_id = 0;
    return rollback_with(s, rc);
  }
  return TS_OK;
}

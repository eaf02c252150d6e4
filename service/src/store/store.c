/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* store.c - the database file itself: checked for whose it is, opened, configured and migrated
   (the migrations are schema.c's), closed, and checked for damage. The SQL of each kind of row
   is in its own file: runs.c, trials.c, schedules.c, quiet_journal.c, machine_checks.c,
   exchange.c, on the helpers of kit.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "store_kit.h"
#include "threadsoup/units.h"
#include "threadsoup/version.h"

/* How long a connection waits for another that holds the file (SQLite's busy timeout). */
#define STORE_BUSY_TIMEOUT_MS 5000

/* Decides whether the file is ours before anything is written to it. */
static int check_identity(store *s, long long *version, ts_err *err) {
  long long app_id = 0, objects = 0;
  /* One read transaction: the three must come from the same state of a file that another
     connection may be building at this moment. */
  int rc = kit_exec(s, "BEGIN", "cannot read the database header", err);
  if (rc == TS_OK)
    rc = kit_query_int(s, "PRAGMA application_id", &app_id, err);
  if (rc == TS_OK)
    rc = kit_query_int(s, "PRAGMA user_version", version, err);
  if (rc == TS_OK)
    rc = kit_query_int(s, "SELECT count(*) FROM sqlite_master", &objects, err);
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
    int rc = kit_exec(s, "BEGIN IMMEDIATE", "cannot start the migration", err);
    if (rc != TS_OK)
      return rc;
    rc = kit_query_int(s, "PRAGMA user_version", &now, err);
    if (rc == TS_OK && now >= v) {
      v = now; /* already there: go on from where the other connection left it */
      rc = kit_exec(s, "COMMIT", "cannot end the migration", err);
      if (rc == TS_OK)
        continue;
    } else if (rc == TS_OK) {
      rc = kit_exec(s, schema_migration((int)v), "cannot migrate the schema", err);
    }
    if (rc == TS_OK) {
      /* Both pragmas are written in the same transaction as the tables they describe. */
      snprintf(pragmas, sizeof pragmas, "PRAGMA application_id=%d; PRAGMA user_version=%lld;",
               STORE_APPLICATION_ID, v);
      rc = kit_exec(s, pragmas, "cannot record the schema version", err);
    }
    if (rc == TS_OK)
      rc = kit_exec(s, "COMMIT", "cannot commit the migration", err);
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
    rc = kit_exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;",
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

static int open_with(store **out, const char *path, int create, ts_err *err);

int store_open(store **out, const char *path, ts_err *err) { return open_with(out, path, 1, err); }

int store_open_existing(store **out, const char *path, ts_err *err) {
  return open_with(out, path, 0, err);
}

static int open_with(store **out, const char *path, int create, ts_err *err) {
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
  rc = sqlite3_open_v2(
      path, &s->db,
      SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOFOLLOW, NULL);
  if (rc != SQLITE_OK && !create && (rc & 0xff) == SQLITE_CANTOPEN && !plat_file_exists(path)) {
    ts_err_set(err, TS_EUSAGE,
               "there is no database %s (a run creates it; check --db, or threadsoup history "
               "lists the runs of the default database)",
               path);
    store_close(s);
    return TS_EUSAGE;
  }
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
  if (kit_query_int(s, "PRAGMA user_version", &v, &e) != TS_OK)
    return -1;
  return (int)v;
}

int store_integrity_check(store *s, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s, "PRAGMA integrity_check", &st, err);
  if (rc != TS_OK)
    return rc;
  rc = sqlite3_step(st);
  const unsigned char *first = rc == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
  if (first && strcmp((const char *)first, "ok") == 0)
    rc = TS_OK;
  else if (first)
    rc = ts_err_set(err, TS_ESTORE, "database %s is damaged: %s", s->path, first);
  else
    rc = kit_fail(s, err, "cannot check the database");
  sqlite3_finalize(st);
  return rc;
}

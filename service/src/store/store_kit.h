/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* store_kit.h - what every file of the store shares, internal to service/src/store/: the
   connection, the helpers that prepare, bind, step and fail with SQLite's errors turned into ts_err
   sentences, the status texts, and the few functions one aggregate lends another. */
#ifndef THREADSOUP_STORE_KIT_H
#define THREADSOUP_STORE_KIT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "threadsoup/plat.h"

struct store {
  sqlite3 *db;
  char path[PLAT_PATH_MAX]; /* named in every error, so the user knows which file */
};

#define KIT_COUNT(array) ((int)(sizeof array / sizeof array[0]))

/* ---- kit.c: statements and their errors ---------------------------------------------------- */

/* TS_ESTORE: what was being done, SQLite's last error and the database. */
int kit_fail(store *s, ts_err *err, const char *doing);
/* Runs SQL that returns no rows (BEGIN, COMMIT, pragmas, migrations). */
int kit_exec(store *s, const char *sql, const char *doing, ts_err *err);
/* Runs a query returning one integer. TS_EFOREIGN_DB when the file is not SQLite at all. */
int kit_query_int(store *s, const char *sql, long long *out, ts_err *err);
int kit_prepare(store *s, const char *sql, sqlite3_stmt **st, ts_err *err);
/* Steps a statement expected to finish with SQLITE_DONE, then finalizes it. */
int kit_step_done(store *s, sqlite3_stmt *st, const char *doing, ts_err *err);
/* Starts a write transaction (BEGIN IMMEDIATE: the write lock now, not at the first write). */
int kit_begin(store *s, ts_err *err);
/* Commits, or rolls back when the commit fails. */
int kit_commit(store *s, const char *doing, ts_err *err);
/* Rolls the open transaction back and passes rc on. */
int kit_rollback(store *s, int rc);
void kit_bind_text_or_null(sqlite3_stmt *st, int i, const char *text);
/* An optional number: NULL when `value` is `unknown`. */
void kit_bind_int64_or_null(sqlite3_stmt *st, int i, int64_t value, int64_t unknown);
/* Copies a text column into buf; "" for NULL. */
void kit_copy_column(sqlite3_stmt *st, int col, char *buf, size_t len);

/* The owner columns of a row (schedule.owner_*, run.owner_*), in the order kit_bind_owner binds
   them. */
#define KIT_OWNER_COLUMNS "owner_uid, owner_sid, owner_name, owner_member"
/* What kit_read_owner reads, in its order, from the owner columns of table alias `t` ("s."). */
#define KIT_OWNER_SELECT(t)                                                                        \
  t "owner_member IS NOT NULL, coalesce(" t "owner_uid, -1), coalesce(" t "owner_sid, ''), "       \
    "coalesce(" t "owner_name, ''), coalesce(" t "owner_member, 1)"
/* Binds the four KIT_OWNER_COLUMNS from parameter `first` on: NULL where not known (a POSIX
   owner has no SID, a Windows one no uid); all NULL for no owner (NULL or not known). */
void kit_bind_owner(sqlite3_stmt *st, int first, const store_owner *owner);
/* Reads the five KIT_OWNER_SELECT columns from column `first` on. */
void kit_read_owner(sqlite3_stmt *st, int first, store_owner *out);

/* ---- statuses.c: the enums of store.h and their texts in the database ----------------------- */

typedef struct status_list {
  const char *const *names; /* indexed by the enum's value */
  int count;
} status_list;

extern const status_list status_runs, status_trials, status_schedule_outcomes;

/* The text of value; NULL outside the list. */
const char *status_text(const status_list *list, int value);
/* Turns a status text read from the database into its enum value: TS_ESTORE naming `what` (e.g.
   "run 7"), the text and the texts this build accepts when it is not one of them. */
int status_parse(store *s, const status_list *list, const char *what, const unsigned char *text,
                 int *out, ts_err *err);

/* ---- trials.c, lent to runs.c --------------------------------------------------------------- */

/* Inserts planned trials (pending) inside the caller's transaction and fills their ids. */
int trials_insert(store *s, int64_t run_id, store_trial_plan *trials, int count, ts_err *err);

#endif

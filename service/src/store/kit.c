/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* kit.c - the helpers every file of the store uses: statements prepared, bound, stepped and
   finished, transactions, and SQLite's errors turned into ts_err sentences naming the database. */
#include <stdio.h>

#include "store_kit.h"

int kit_fail(store *s, ts_err *err, const char *doing) {
  return ts_err_set(err, TS_ESTORE, "%s: %s (database %s)", doing, sqlite3_errmsg(s->db), s->path);
}

int kit_exec(store *s, const char *sql, const char *doing, ts_err *err) {
  char *msg = NULL;
  if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    ts_err_set(err, TS_ESTORE, "%s: %s (database %s)", doing, msg ? msg : "unknown error", s->path);
    sqlite3_free(msg);
    return TS_ESTORE;
  }
  return TS_OK;
}

int kit_query_int(store *s, const char *sql, long long *out, ts_err *err) {
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
  return kit_fail(s, err, "cannot read the database header");
}

int kit_prepare(store *s, const char *sql, sqlite3_stmt **st, ts_err *err) {
  if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
    return kit_fail(s, err, "cannot prepare a statement");
  return TS_OK;
}

int kit_step_done(store *s, sqlite3_stmt *st, const char *doing, ts_err *err) {
  int rc = sqlite3_step(st);
  int result = rc == SQLITE_DONE ? TS_OK : kit_fail(s, err, doing);
  sqlite3_finalize(st);
  return result;
}

int kit_begin(store *s, ts_err *err) {
  return kit_exec(s, "BEGIN IMMEDIATE", "cannot start a transaction", err);
}

int kit_commit(store *s, const char *doing, ts_err *err) {
  int rc = kit_exec(s, "COMMIT", doing, err);
  return rc == TS_OK ? TS_OK : kit_rollback(s, rc);
}

int kit_rollback(store *s, int rc) {
  sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
  return rc;
}

void kit_bind_text_or_null(sqlite3_stmt *st, int i, const char *text) {
  if (text)
    sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null(st, i);
}

void kit_bind_int64_or_null(sqlite3_stmt *st, int i, int64_t value, int64_t unknown) {
  if (value == unknown)
    sqlite3_bind_null(st, i);
  else
    sqlite3_bind_int64(st, i, value);
}

void kit_copy_column(sqlite3_stmt *st, int col, char *buf, size_t len) {
  const unsigned char *text = sqlite3_column_text(st, col);
  snprintf(buf, len, "%s", text ? (const char *)text : "");
}

void kit_bind_owner(sqlite3_stmt *st, int first, const store_owner *owner) {
  if (!owner || !owner->known) {
    for (int i = 0; i < 4; i++)
      sqlite3_bind_null(st, first + i);
    return;
  }
  kit_bind_int64_or_null(st, first, owner->uid < 0 ? -1 : owner->uid, -1);
  kit_bind_text_or_null(st, first + 1, owner->sid[0] ? owner->sid : NULL);
  sqlite3_bind_text(st, first + 2, owner->name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int(st, first + 3, owner->member != 0);
}

void kit_read_owner(sqlite3_stmt *st, int first, store_owner *out) {
  out->known = sqlite3_column_int(st, first);
  out->uid = (long)sqlite3_column_int64(st, first + 1);
  kit_copy_column(st, first + 2, out->sid, sizeof out->sid);
  kit_copy_column(st, first + 3, out->name, sizeof out->name);
  out->member = sqlite3_column_int(st, first + 4);
}

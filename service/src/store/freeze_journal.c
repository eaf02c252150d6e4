/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* freeze_journal.c - the programs a freeze froze, written before freezing and forgotten after
   thawing, so that the next start thaws what a crash left frozen. */
#include <stdlib.h>

#include "store_kit.h"

int store_freeze_record(store *s, const store_frozen *programs, int count, const char *frozen_at,
                        ts_err *err) {
  int rc = kit_begin(s, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_stmt *st;
  rc = kit_prepare(s,
                   "INSERT OR REPLACE INTO freeze_journal (pid, name, owner_pid, frozen_at) "
                   "VALUES (?,?,?,?)",
                   &st, err);
  if (rc != TS_OK)
    return kit_rollback(s, rc);
  for (int i = 0; rc == TS_OK && i < count; i++) {
    sqlite3_bind_int64(st, 1, programs[i].pid);
    sqlite3_bind_text(st, 2, programs[i].name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, programs[i].owner_pid);
    sqlite3_bind_text(st, 4, frozen_at, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) != SQLITE_DONE)
      rc = kit_fail(s, err, "cannot write the freeze journal");
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  return rc == TS_OK ? kit_commit(s, "cannot write the freeze journal", err) : kit_rollback(s, rc);
}

int store_freeze_forget(store *s, long owner_pid, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s, "DELETE FROM freeze_journal WHERE owner_pid=?", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, owner_pid);
  return kit_step_done(s, st, "cannot write the freeze journal", err);
}

int store_freeze_list(store *s, store_frozen **list, int *count, ts_err *err) {
  *list = NULL;
  *count = 0;
  sqlite3_stmt *st;
  int rc = kit_prepare(s, "SELECT pid, name, owner_pid FROM freeze_journal ORDER BY owner_pid, pid",
                       &st, err);
  if (rc != TS_OK)
    return rc;
  int cap = 0, step;
  while ((step = sqlite3_step(st)) == SQLITE_ROW) {
    if (*count == cap) {
      cap = cap ? cap * 2 : 16;
      store_frozen *bigger = realloc(*list, (size_t)cap * sizeof **list);
      if (!bigger) {
        sqlite3_finalize(st);
        free(*list);
        *list = NULL;
        *count = 0;
        return ts_err_set(err, TS_ENOMEM, "no memory for the freeze journal");
      }
      *list = bigger;
    }
    store_frozen *f = &(*list)[(*count)++];
    f->pid = (long)sqlite3_column_int64(st, 0);
    kit_copy_column(st, 1, f->name, sizeof f->name);
    f->owner_pid = (long)sqlite3_column_int64(st, 2);
  }
  if (step != SQLITE_DONE)
    rc = kit_fail(s, err, "cannot read the freeze journal");
  sqlite3_finalize(st);
  return rc;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* quiet_journal.c - quiet mode's journal: the machine's state before quiet mode changed it, what it
   changed and when it was restored, written before each change so a crash still restores. */
#include <stdio.h>
#include <string.h>

#include "store_kit.h"

int store_quiet_begin(store *s, const store_quiet_entry *e, int64_t *id, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s,
                       "INSERT INTO quiet_journal (started_at, reason, defender_was, "
                       "update_paused_until_was, restore_by, parts_asked, owner_pid) "
                       "VALUES (?,?,?,?,?,?,?)",
                       &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_text(st, 1, e->started_at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, e->reason, -1, SQLITE_TRANSIENT);
  kit_bind_int64_or_null(st, 3, e->defender_was, -1);
  kit_bind_int64_or_null(st, 4, e->update_paused_until_was, -1);
  kit_bind_int64_or_null(st, 5, e->restore_by, 0);
  kit_bind_int64_or_null(st, 6, e->parts_asked, 0);
  kit_bind_int64_or_null(st, 7, e->owner_pid, 0);
  /* The unique index on open entries refuses a second one, even from another process. */
  if (sqlite3_step(st) == SQLITE_DONE) {
    rc = TS_OK;
    *id = sqlite3_last_insert_rowid(s->db);
  } else if (sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_UNIQUE) {
    rc = ts_err_set(err, TS_EINVAL, "quiet mode is already on (database %s)", s->path);
  } else {
    rc = kit_fail(s, err, "cannot write quiet mode's journal");
  }
  sqlite3_finalize(st);
  return rc;
}

int store_quiet_set_changed(store *s, int64_t id, int defender_changed, int update_changed,
                            int64_t update_paused_until_set, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s,
                       "UPDATE quiet_journal SET defender_changed=?, update_changed=?, "
                       "update_paused_until_set=? WHERE id=?",
                       &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int(st, 1, defender_changed);
  sqlite3_bind_int(st, 2, update_changed);
  kit_bind_int64_or_null(st, 3, update_paused_until_set, 0);
  sqlite3_bind_int64(st, 4, id);
  return kit_step_done(s, st, "cannot write quiet mode's journal", err);
}

int store_quiet_end(store *s, int64_t id, const char *restored_at, const char *restore_error,
                    ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s, "UPDATE quiet_journal SET restored_at=?, restore_error=? WHERE id=?", &st,
                       err);
  if (rc != TS_OK)
    return rc;
  kit_bind_text_or_null(st, 1, restored_at);
  kit_bind_text_or_null(st, 2, restore_error);
  sqlite3_bind_int64(st, 3, id);
  return kit_step_done(s, st, "cannot write quiet mode's journal", err);
}

int store_quiet_set_confirmed(store *s, int64_t id, const store_quiet_entry *e, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s,
                       "UPDATE quiet_journal SET defender_asked=?, defender_confirmed=?, "
                       "update_asked_until=?, update_state=?, update_how=?, defender_how=? "
                       "WHERE id=?",
                       &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int(st, 1, e->defender_asked);
  kit_bind_int64_or_null(st, 2, e->defender_confirmed, -1);
  kit_bind_int64_or_null(st, 3, e->update_asked_until, 0);
  kit_bind_text_or_null(st, 4, e->update_state[0] ? e->update_state : NULL);
  kit_bind_text_or_null(st, 5, e->update_how[0] ? e->update_how : NULL);
  kit_bind_text_or_null(st, 6, e->defender_how[0] ? e->defender_how : NULL);
  sqlite3_bind_int64(st, 7, id);
  return kit_step_done(s, st, "cannot write quiet mode's journal", err);
}

int store_quiet_set_run(store *s, int64_t id, int64_t run_id, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s, "UPDATE quiet_journal SET run_id=? WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  sqlite3_bind_int64(st, 2, id);
  return kit_step_done(s, st, "cannot write quiet mode's journal", err);
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
           "update_how, coalesce(parts_asked,0), defender_how, coalesce(owner_pid,0) "
           "FROM quiet_journal "
           "%s ORDER BY id DESC LIMIT 1",
           where);
  sqlite3_stmt *st;
  int rc = kit_prepare(s, sql, &st, err);
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
    kit_copy_column(st, 1, out->started_at, sizeof out->started_at);
    kit_copy_column(st, 2, out->reason, sizeof out->reason);
    out->defender_was = sqlite3_column_int(st, 3);
    out->update_paused_until_was = sqlite3_column_int64(st, 4);
    out->defender_changed = sqlite3_column_int(st, 5);
    out->update_changed = sqlite3_column_int(st, 6);
    out->update_paused_until_set = sqlite3_column_int64(st, 7);
    kit_copy_column(st, 8, out->restored_at, sizeof out->restored_at);
    kit_copy_column(st, 9, out->restore_error, sizeof out->restore_error);
    out->restore_by = sqlite3_column_int64(st, 10);
    out->run_id = sqlite3_column_int64(st, 11);
    out->defender_asked = sqlite3_column_int(st, 12);
    out->defender_confirmed = sqlite3_column_int(st, 13);
    out->update_asked_until = sqlite3_column_int64(st, 14);
    kit_copy_column(st, 15, out->update_state, sizeof out->update_state);
    kit_copy_column(st, 16, out->update_how, sizeof out->update_how);
    out->parts_asked = sqlite3_column_int(st, 17);
    kit_copy_column(st, 18, out->defender_how, sizeof out->defender_how);
    out->owner_pid = (long)sqlite3_column_int64(st, 19);
    rc = TS_OK;
  } else {
    rc = rc == SQLITE_DONE ? TS_OK : kit_fail(s, err, "cannot read quiet mode's journal");
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

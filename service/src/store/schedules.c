/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* schedules.c - the schedules the service runs unattended and what became of each due time. */
#include <stdlib.h>
#include <string.h>

#include "store_kit.h"

int store_schedule_add(store *s, const store_schedule *sc, const char *created_at, int64_t *id,
                       ts_err *err) {
  sqlite3_stmt *st;
  int rc =
      kit_prepare(s,
                  /* Ids are never reused: past every schedule there is or was (a removed
                     one leaves its events, see store_schedule_remove, and its runs), so
                     "schedule 3" in a log, an event or a run names one schedule forever. */
                  "INSERT INTO schedule (id, spec, plan_text, require_ac, require_idle_s, "
                  "grace_s, next_due, enabled, created_at, programs_allowed, " KIT_OWNER_COLUMNS
                  ") VALUES (1 + max("
                  "coalesce((SELECT max(id) FROM schedule), 0), "
                  "coalesce((SELECT max(schedule_id) FROM schedule_event), 0), "
                  "coalesce((SELECT max(schedule_id) FROM run), 0)),?,?,?,?,?,?,?,?,?,?,?,?,?)",
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
  kit_bind_owner(st, 10, &sc->owner);
  rc = kit_step_done(s, st, "cannot store the schedule", err);
  if (rc == TS_OK)
    *id = sqlite3_last_insert_rowid(s->db);
  return rc;
}

int store_schedules(store *s, int (*fn)(void *ctx, const store_schedule *sc), void *ctx,
                    ts_err *err) {
  sqlite3_stmt *st;
  int rc =
      kit_prepare(s,
                  "SELECT s.id, s.spec, s.plan_text, s.require_ac, s.require_idle_s, s.grace_s, "
                  "coalesce(s.next_due, 0), s.enabled, coalesce((SELECT e.what || ' ' || e.at || "
                  "coalesce(' run ' || e.run_id, '') || coalesce(': ' || e.detail, '') FROM "
                  "schedule_event e WHERE e.schedule_id=s.id ORDER BY e.id DESC LIMIT 1), ''), "
                  "s.programs_allowed, " KIT_OWNER_SELECT("s.") " FROM schedule s ORDER BY s.id",
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
    kit_copy_column(st, 1, sc->spec, sizeof sc->spec);
    kit_copy_column(st, 2, sc->plan_text, sizeof sc->plan_text);
    sc->require_ac = sqlite3_column_int(st, 3);
    sc->require_idle_s = (long)sqlite3_column_int64(st, 4);
    sc->grace_s = (long)sqlite3_column_int64(st, 5);
    sc->next_due = sqlite3_column_int64(st, 6);
    sc->enabled = sqlite3_column_int(st, 7);
    kit_copy_column(st, 8, sc->last_event, sizeof sc->last_event);
    sc->programs_allowed = sqlite3_column_int(st, 9);
    kit_read_owner(st, 10, &sc->owner);
    if (fn(ctx, sc) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  }
  free(sc);
  int result = rc == SQLITE_DONE ? TS_OK : kit_fail(s, err, "cannot read the schedules");
  sqlite3_finalize(st);
  return result;
}

int store_schedule_remove(store *s, int64_t id, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s, "DELETE FROM schedule WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, id);
  rc = kit_step_done(s, st, "cannot remove the schedule", err);
  if (rc == TS_OK && sqlite3_changes(s->db) == 0)
    return ts_err_set(err, TS_EINVAL, "there is no schedule %lld", (long long)id);
  /* Its trace: the removal as an event, which also keeps its id from being given again. */
  char at[32];
  plat_utc_timestamp(at, sizeof at);
  if (rc == TS_OK)
    rc = store_schedule_event(s, id, STORE_SCHEDULE_SKIPPED, 0, "removed", at, err);
  return rc;
}

int store_schedule_update(store *s, int64_t id, int64_t next_due, int enabled, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s, "UPDATE schedule SET next_due=?, enabled=? WHERE id=?", &st, err);
  if (rc != TS_OK)
    return rc;
  if (next_due)
    sqlite3_bind_int64(st, 1, next_due);
  else
    sqlite3_bind_null(st, 1);
  sqlite3_bind_int(st, 2, enabled);
  sqlite3_bind_int64(st, 3, id);
  return kit_step_done(s, st, "cannot update the schedule", err);
}

int store_schedule_event(store *s, int64_t id, store_schedule_outcome what, int64_t run_id,
                         const char *detail, const char *at, ts_err *err) {
  const char *text = status_text(&status_schedule_outcomes, (int)what);
  if (!text)
    return ts_err_set(err, TS_EINVAL, "schedule %lld: %d is not a due time's outcome",
                      (long long)id, (int)what);
  sqlite3_stmt *st;
  int rc = kit_prepare(s,
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
  kit_bind_text_or_null(st, 5, detail);
  return kit_step_done(s, st, "cannot record the schedule's event", err);
}

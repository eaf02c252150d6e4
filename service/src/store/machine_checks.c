/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* machine_checks.c - the machine checks (`threadsoup doctor`'s quick checks) stored with a run:
   saved before its first trial, replaced when it resumes, read by its report. */
#include <math.h>

#include "store_kit.h"

int store_doctor_save(store *s, int64_t run_id, const store_doctor_row *rows, int count,
                      ts_err *err) {
  int rc = kit_begin(s, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_stmt *st;
  rc = kit_prepare(s, "DELETE FROM run_doctor WHERE run_id=?", &st, err);
  if (rc == TS_OK) {
    sqlite3_bind_int64(st, 1, run_id);
    rc = kit_step_done(s, st, "cannot replace the machine checks", err);
  }
  for (int i = 0; rc == TS_OK && i < count; i++) {
    rc =
        kit_prepare(s,
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
    rc = kit_step_done(s, st, "cannot store a machine check", err);
  }
  return rc == TS_OK ? kit_commit(s, "cannot store the machine checks", err) : kit_rollback(s, rc);
}

int store_doctor_findings(store *s, int64_t run_id,
                          int (*fn)(void *ctx, const store_doctor_row *row), void *ctx,
                          ts_err *err) {
  sqlite3_stmt *st;
  int rc =
      kit_prepare(s,
                  "SELECT check_name, status, measured, value, advice, checked_at FROM run_doctor "
                  "WHERE run_id=? ORDER BY position",
                  &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  store_doctor_row row;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    kit_copy_column(st, 0, row.check, sizeof row.check);
    kit_copy_column(st, 1, row.status, sizeof row.status);
    kit_copy_column(st, 2, row.measured, sizeof row.measured);
    row.value = sqlite3_column_type(st, 3) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 3);
    kit_copy_column(st, 4, row.advice, sizeof row.advice);
    kit_copy_column(st, 5, row.checked_at, sizeof row.checked_at);
    if (fn(ctx, &row) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  }
  int result = rc == SQLITE_DONE ? TS_OK : kit_fail(s, err, "cannot read the machine checks");
  sqlite3_finalize(st);
  return result;
}

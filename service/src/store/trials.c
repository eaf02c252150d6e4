/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* trials.c - trials and their named numbers (trial_metric): planned, finished or failed, typed in
   by hand, and read back per run, per condition and per benchmark.
   Map: the trial's columns (the one table of them, store_trial_columns), writing (planned trials,
   results, failures, scores typed in), reading (a run's trials and metrics, then what the
   estimate and the reports ask of a condition or a benchmark). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "store_kit.h"
#include "threadsoup/buf.h"

/* ---- the trial's columns ------------------------------------------------------------------- */

/* In the order of export files' trial records; `report` gives the reports' order. The migrations of
   schema.c build the table itself (they are history, so they are not generated from this list);
   test_store holds the two equal. */
#define IN_ROW(kind, member)                                                                       \
  kind, offsetof(store_trial_row, member), sizeof(((store_trial_row *)0)->member)
#define NOT_IN_ROW STORE_FIELD_NONE, 0, 0
const store_trial_column store_trial_columns[] = {
    {"id", STORE_VALUE_INT, 0, 0, IN_ROW(STORE_FIELD_ID, id)},
    {"run_id", STORE_VALUE_INT, 0, 0, NOT_IN_ROW},
    {"seq", STORE_VALUE_INT, 1, 1, IN_ROW(STORE_FIELD_INT, seq)},
    {"block", STORE_VALUE_INT, 1, 2, IN_ROW(STORE_FIELD_INT, block)},
    {"condition", STORE_VALUE_TEXT, 1, 3, IN_ROW(STORE_FIELD_TEXT, condition)},
    {"bench", STORE_VALUE_TEXT, 1, 4, IN_ROW(STORE_FIELD_TEXT, bench)},
    {"status", STORE_VALUE_TEXT, 1, 5, IN_ROW(STORE_FIELD_STATUS, status)},
    {"source", STORE_VALUE_TEXT, 1, 0, NOT_IN_ROW},
    {"started_at", STORE_VALUE_TEXT, 1, 9, IN_ROW(STORE_FIELD_TEXT, started_at)},
    {"finished_at", STORE_VALUE_TEXT, 1, 10, IN_ROW(STORE_FIELD_TEXT, finished_at)},
    {"score", STORE_VALUE_REAL, 1, 6, IN_ROW(STORE_FIELD_SCORE, score)},
    {"unit", STORE_VALUE_TEXT, 1, 7, IN_ROW(STORE_FIELD_TEXT, unit)},
    {"seconds", STORE_VALUE_REAL, 1, 8, IN_ROW(STORE_FIELD_REAL, seconds)},
    {"process_threads", STORE_VALUE_INT, 1, 11, IN_ROW(STORE_FIELD_COUNT, process_threads)},
    {"machine_processes", STORE_VALUE_INT, 1, 0, IN_ROW(STORE_FIELD_COUNT, machine_processes)},
    {"machine_threads", STORE_VALUE_INT, 1, 0, IN_ROW(STORE_FIELD_COUNT, machine_threads)},
    {"error", STORE_VALUE_TEXT, 1, 0, NOT_IN_ROW},
    {"warnings", STORE_VALUE_TEXT, 1, 12, IN_ROW(STORE_FIELD_TEXT, warnings)},
    {"resolution_asked", STORE_VALUE_TEXT, 1, 13, IN_ROW(STORE_FIELD_TEXT, resolution_asked)},
    {"resolution_obtained", STORE_VALUE_TEXT, 1, 14, IN_ROW(STORE_FIELD_TEXT, resolution_obtained)},
    {"timer_resolution_us", STORE_VALUE_REAL, 1, 15, IN_ROW(STORE_FIELD_REAL, timer_resolution_us)},
    {"power_source", STORE_VALUE_TEXT, 1, 16, IN_ROW(STORE_FIELD_TEXT, power_source)},
    {"power_throttling", STORE_VALUE_TEXT, 1, 17, IN_ROW(STORE_FIELD_TEXT, power_throttling)},
    {"core_classes", STORE_VALUE_TEXT, 1, 18, IN_ROW(STORE_FIELD_TEXT, core_classes)},
};
#undef IN_ROW
#undef NOT_IN_ROW

const int store_trial_column_count = KIT_COUNT(store_trial_columns);

store_value store_trial_value(const store_trial_row *row, const store_trial_column *column) {
  store_value v = {column->name, STORE_VALUE_NULL, 0, 0, NULL};
  const char *field = (const char *)row + column->offset;
  switch (column->field) {
  case STORE_FIELD_ID:
    v.type = STORE_VALUE_INT;
    v.i = *(const int64_t *)field;
    break;
  case STORE_FIELD_INT:
    v.type = STORE_VALUE_INT;
    v.i = *(const int *)field;
    break;
  case STORE_FIELD_STATUS:
    v.type = STORE_VALUE_TEXT;
    v.text = store_trial_status_name(row->status);
    break;
  case STORE_FIELD_TEXT:
    v.type = STORE_VALUE_TEXT;
    v.text = field;
    break;
  case STORE_FIELD_SCORE:
  case STORE_FIELD_REAL:
    v.d = *(const double *)field;
    if (isfinite(v.d) && (column->field != STORE_FIELD_SCORE || row->status == STORE_TRIAL_DONE))
      v.type = STORE_VALUE_REAL;
    break;
  case STORE_FIELD_COUNT:
    v.i = *(const long *)field;
    if (v.i >= 0)
      v.type = STORE_VALUE_INT;
    break;
  case STORE_FIELD_NONE:
    break;
  }
  return v;
}

/* ---- writing ------------------------------------------------------------------------------- */

int trials_insert(store *s, int64_t run_id, store_trial_plan *trials, int count, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(
      s, "INSERT INTO trial (run_id, seq, block, condition, bench) VALUES (?,?,?,?,?)", &st, err);
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
      rc = kit_fail(s, err, "cannot store the planned trials");
      sqlite3_finalize(st);
      return rc;
    }
    trials[i].id = sqlite3_last_insert_rowid(s->db);
  }
  sqlite3_finalize(st);
  return TS_OK;
}

int store_trials_append(store *s, int64_t run_id, store_trial_plan *trials, int count,
                        ts_err *err) {
  int rc = kit_begin(s, err);
  if (rc != TS_OK)
    return rc;
  rc = trials_insert(s, run_id, trials, count, err);
  if (rc != TS_OK)
    return kit_rollback(s, rc);
  return kit_commit(s, "cannot commit the added trials", err);
}

int store_trials_drop_pending(store *s, int64_t run_id, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s, "DELETE FROM trial WHERE run_id=? AND status='pending'", &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  return kit_step_done(s, st, "cannot drop the trials not run", err);
}

int store_trial_finish(store *s, int64_t trial_id, const store_trial_result *r, ts_err *err) {
  if (r->metric_count > STORE_TRIAL_METRICS_MAX)
    return ts_err_set(err, TS_EINVAL,
                      "a result with %d named numbers (accepted: at most %d per trial)",
                      r->metric_count, STORE_TRIAL_METRICS_MAX);
  int rc = kit_begin(s, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_stmt *st;
  rc = kit_prepare(
      s,
      "UPDATE trial SET status='done', started_at=?, finished_at=?, score=?, unit=?, "
      "seconds=?, process_threads=?, machine_processes=?, machine_threads=?, error=NULL, "
      "warnings=?, power_source=?, power_throttling=?, core_classes=? "
      "WHERE id=? AND status='pending'",
      &st, err);
  if (rc != TS_OK)
    return kit_rollback(s, rc);
  sqlite3_bind_text(st, 1, r->started_at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, r->finished_at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(st, 3, r->score);
  sqlite3_bind_text(st, 4, r->unit, -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(st, 5, r->seconds);
  sqlite3_bind_int64(st, 6, r->process_threads);
  sqlite3_bind_int64(st, 7, r->machine_processes);
  sqlite3_bind_int64(st, 8, r->machine_threads);
  kit_bind_text_or_null(st, 9, r->warnings);
  kit_bind_text_or_null(st, 10, r->power_source);
  kit_bind_text_or_null(st, 11, r->power_throttling);
  kit_bind_text_or_null(st, 12, r->core_classes);
  sqlite3_bind_int64(st, 13, trial_id);
  rc = kit_step_done(s, st, "cannot store the trial's result", err);
  if (rc != TS_OK)
    return kit_rollback(s, rc);
  if (sqlite3_changes(s->db) != 1)
    return kit_rollback(s, ts_err_set(err, TS_ESTORE,
                                      "trial %lld is not a pending trial of the database %s",
                                      (long long)trial_id, s->path));

  if (r->metric_count > 0) {
    rc = kit_prepare(
        s, "INSERT OR REPLACE INTO trial_metric (trial_id, name, value) VALUES (?,?,?)", &st, err);
    if (rc != TS_OK)
      return kit_rollback(s, rc);
    for (int i = 0; i < r->metric_count; i++) {
      sqlite3_reset(st);
      sqlite3_bind_int64(st, 1, trial_id);
      sqlite3_bind_text(st, 2, r->metrics[i].name, -1, SQLITE_TRANSIENT);
      sqlite3_bind_double(st, 3, r->metrics[i].value);
      if (sqlite3_step(st) != SQLITE_DONE) {
        rc = kit_fail(s, err, "cannot store the trial's sub-scores");
        sqlite3_finalize(st);
        return kit_rollback(s, rc);
      }
    }
    sqlite3_finalize(st);
  }
  return kit_commit(s, "cannot commit the trial", err);
}

int store_trial_timer(store *s, int64_t trial_id, const char *asked, const char *obtained,
                      double observed_us, ts_err *err) {
  static const char *const names[] = {"default", "high"};
  int asked_ok = 0, obtained_ok = 0;
  for (int i = 0; i < KIT_COUNT(names); i++) {
    asked_ok |= asked && strcmp(asked, names[i]) == 0;
    obtained_ok |= obtained && strcmp(obtained, names[i]) == 0;
  }
  if (!asked_ok || !obtained_ok)
    return ts_err_set(
        err, TS_EINVAL,
        "trial %lld: timer resolution '%s' obtained as '%s' (accepted: default, high)",
        (long long)trial_id, asked ? asked : "", obtained ? obtained : "");
  sqlite3_stmt *st;
  int rc = kit_prepare(s,
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
  rc = kit_step_done(s, st, "cannot store the trial's timer resolution", err);
  if (rc == TS_OK && sqlite3_changes(s->db) != 1)
    rc = ts_err_set(err, TS_ESTORE, "trial %lld is not a trial of the database %s",
                    (long long)trial_id, s->path);
  return rc;
}

int store_trial_fail(store *s, int64_t trial_id, const char *finished_at, const char *reason,
                     ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s, "UPDATE trial SET status='failed', finished_at=?, error=? WHERE id=?",
                       &st, err);
  if (rc != TS_OK)
    return rc;
  kit_bind_text_or_null(st, 1, finished_at);
  kit_bind_text_or_null(st, 2, reason);
  sqlite3_bind_int64(st, 3, trial_id);
  return kit_step_done(s, st, "cannot store the trial's failure", err);
}

int store_score_check(double score, const char *what, ts_err *err) {
  if (score == 0 || (score >= STORE_SCORE_MIN && score <= STORE_SCORE_MAX))
    return TS_OK;
  return ts_err_set(err, TS_EINVAL,
                    "%s %.17g is out of range (accepted: 0, or a number from %g to %g)", what,
                    score, STORE_SCORE_MIN, STORE_SCORE_MAX);
}

int store_trial_record(store *s, int64_t run_id, const char *condition, const char *bench,
                       double score, const char *unit, const char *at, int64_t *trial_id,
                       ts_err *err) {
  if (store_score_check(score, "the score", err) != TS_OK)
    return TS_EINVAL;
  int rc = kit_begin(s, err);
  if (rc != TS_OK)
    return rc;
  long long exists = 0, next_seq = 0;
  char sql[160];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM run WHERE id=%lld", (long long)run_id);
  rc = kit_query_int(s, sql, &exists, err);
  if (rc == TS_OK && !exists)
    rc = ts_err_set(err, TS_EINVAL, "there is no run %lld in %s", (long long)run_id, s->path);
  /* An imported run is another machine's measurement: a score of this one does not belong in it. */
  long long imported = 0;
  snprintf(sql, sizeof sql, "SELECT count(*) FROM run WHERE id=%lld AND imported_from IS NOT NULL",
           (long long)run_id);
  if (rc == TS_OK)
    rc = kit_query_int(s, sql, &imported, err);
  if (rc == TS_OK && imported)
    rc = ts_err_set(err, TS_EDENIED,
                    "run %lld was imported from an export file: it belongs to the "
                    "machine that measured it; record into a run of this machine (run new makes "
                    "one)",
                    (long long)run_id);
  snprintf(sql, sizeof sql, "SELECT coalesce(max(seq),0)+1 FROM trial WHERE run_id=%lld",
           (long long)run_id);
  if (rc == TS_OK)
    rc = kit_query_int(s, sql, &next_seq, err);
  sqlite3_stmt *st = NULL;
  if (rc == TS_OK)
    rc = kit_prepare(s,
                     "INSERT INTO trial (run_id, seq, block, condition, bench, status, started_at, "
                     "finished_at, score, unit, source) VALUES (?,?,1,?,?,'done',?,?,?,?,'manual')",
                     &st, err);
  if (rc != TS_OK)
    return kit_rollback(s, rc);
  sqlite3_bind_int64(st, 1, run_id);
  sqlite3_bind_int64(st, 2, next_seq);
  sqlite3_bind_text(st, 3, condition, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 4, bench, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 5, at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 6, at, -1, SQLITE_TRANSIENT);
  sqlite3_bind_double(st, 7, score);
  kit_bind_text_or_null(st, 8, unit);
  rc = kit_step_done(s, st, "cannot store the recorded score", err);
  if (rc != TS_OK)
    return kit_rollback(s, rc);
  *trial_id = sqlite3_last_insert_rowid(s->db);
  return kit_commit(s, "cannot commit the recorded score", err);
}

/* ---- reading ------------------------------------------------------------------------------- */

/* Reads one column of a trial into its field of the row (the table says which and how). */
static int read_trial_field(store *s, sqlite3_stmt *st, int col, const store_trial_column *c,
                            int64_t run_id, store_trial_row *row, ts_err *err) {
  char *field = (char *)row + c->offset;
  int null = sqlite3_column_type(st, col) == SQLITE_NULL;
  switch (c->field) {
  case STORE_FIELD_ID:
    *(int64_t *)field = sqlite3_column_int64(st, col);
    break;
  case STORE_FIELD_INT:
    *(int *)field = sqlite3_column_int(st, col);
    break;
  case STORE_FIELD_STATUS: {
    /* seq comes before status in the table: the error names the trial. */
    char what[64];
    int status = 0;
    snprintf(what, sizeof what, "trial %d of run %lld", row->seq, (long long)run_id);
    int rc = status_parse(s, &status_trials, what, sqlite3_column_text(st, col), &status, err);
    if (rc != TS_OK)
      return rc;
    row->status = (store_trial_status)status;
    break;
  }
  case STORE_FIELD_TEXT:
    kit_copy_column(st, col, field, c->size);
    break;
  case STORE_FIELD_SCORE:
    *(double *)field = sqlite3_column_double(st, col);
    break;
  case STORE_FIELD_REAL:
    *(double *)field = null ? NAN : sqlite3_column_double(st, col);
    break;
  case STORE_FIELD_COUNT:
    *(long *)field = null ? -1 : (long)sqlite3_column_int64(st, col);
    break;
  case STORE_FIELD_NONE:
    break;
  }
  return TS_OK;
}

int store_run_trials(store *s, int64_t run_id, int (*fn)(void *ctx, const store_trial_row *row),
                     void *ctx, ts_err *err) {
  /* The columns the row holds, in the table's order, then whether the trial has warnings at all
     (a warning may be empty text). */
  char sql[1024];
  ts_buf b = ts_buf_on(sql, sizeof sql);
  ts_buf_add(&b, "SELECT ");
  int read = 0;
  for (int i = 0; i < store_trial_column_count; i++)
    if (store_trial_columns[i].field != STORE_FIELD_NONE) {
      ts_buf_item(&b, ", ", store_trial_columns[i].name);
      read++;
    }
  ts_buf_add(&b, ", warnings IS NOT NULL FROM trial WHERE run_id=? ORDER BY seq");
  sqlite3_stmt *st;
  int rc = kit_prepare(s, sql, &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  int result = TS_OK;
  while (result == TS_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    store_trial_row row;
    memset(&row, 0, sizeof row);
    for (int i = 0, col = 0; result == TS_OK && i < store_trial_column_count; i++)
      if (store_trial_columns[i].field != STORE_FIELD_NONE)
        result = read_trial_field(s, st, col++, &store_trial_columns[i], run_id, &row, err);
    row.has_warnings = sqlite3_column_int(st, read);
    if (result == TS_OK && fn(ctx, &row) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  }
  if (result == TS_OK && rc != SQLITE_DONE)
    result = kit_fail(s, err, "cannot read the trials");
  sqlite3_finalize(st);
  return result;
}

int store_run_placement(store *s, int64_t run_id,
                        int (*fn)(void *ctx, const char *power_source, const char *power_throttling,
                                  const char *core_classes, int trials),
                        void *ctx, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s,
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
  int result = rc == SQLITE_DONE ? TS_OK : kit_fail(s, err, "cannot read where the trials ran");
  sqlite3_finalize(st);
  return result;
}

int store_run_metrics(store *s, int64_t run_id,
                      int (*fn)(void *ctx, int64_t trial_id, const char *name, double value),
                      void *ctx, ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(s,
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
  int result = rc == SQLITE_DONE ? TS_OK : kit_fail(s, err, "cannot read the trial metrics");
  sqlite3_finalize(st);
  return result;
}

double store_condition_metric_mean(store *s, int64_t run_id, const char *condition,
                                   const char *metric) {
  sqlite3_stmt *st;
  ts_err ignored;
  double mean = NAN;
  if (kit_prepare(
          s,
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

int store_condition_timer(store *s, int64_t run_id, const char *condition, char *asked,
                          size_t asked_len, char *obtained, size_t obtained_len,
                          double *observed_us, ts_err *err) {
  sqlite3_stmt *st;
  *observed_us = NAN;
  asked[0] = obtained[0] = '\0';
  /* Sorted first, so that mixed trials read the same "default,high" whatever their order. */
  int rc =
      kit_prepare(s,
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
    rc = kit_fail(s, err, "cannot read a condition's timer resolution");
    sqlite3_finalize(st);
    return rc;
  }
  kit_copy_column(st, 0, asked, asked_len);
  kit_copy_column(st, 1, obtained, obtained_len);
  if (sqlite3_column_type(st, 2) != SQLITE_NULL)
    *observed_us = sqlite3_column_double(st, 2);
  sqlite3_finalize(st);
  return TS_OK;
}

int store_bench_history(store *s, const char *host, const char *bench, const char *condition,
                        int (*fn)(void *ctx, const store_history_trial *t), void *ctx,
                        ts_err *err) {
  sqlite3_stmt *st;
  int rc = kit_prepare(
      s,
      /* julianday keeps about 10 us: rounded to the timestamps' ms */
      "SELECT r.id, r.plan_text, t.block, t.score, t.seconds, t.condition, "
      "round((julianday(t.finished_at) - julianday(t.started_at)) * 86400.0, 3), "
      "(SELECT m.value FROM trial_metric m WHERE m.trial_id=t.id AND m.name='iter.count') "
      "FROM trial t JOIN run r ON r.id=t.run_id WHERE r.host=?1 "
      "AND r.imported_from IS NULL AND t.bench=?2 AND (?3 IS NULL OR t.condition=?3) "
      "AND t.status='done' AND t.source='measured' AND t.block>0 "
      "AND t.score IS NOT NULL ORDER BY r.id DESC, t.seq",
      &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_text(st, 1, host, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, bench, -1, SQLITE_TRANSIENT);
  if (condition)
    sqlite3_bind_text(st, 3, condition, -1, SQLITE_TRANSIENT);
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    store_history_trial t;
    t.run_id = sqlite3_column_int64(st, 0);
    const unsigned char *text = sqlite3_column_text(st, 1);
    t.plan_text = text ? (const char *)text : "";
    t.block = sqlite3_column_int(st, 2);
    t.score = sqlite3_column_double(st, 3);
    t.seconds = sqlite3_column_type(st, 4) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 4);
    const unsigned char *condition_text = sqlite3_column_text(st, 5);
    t.condition = condition_text ? (const char *)condition_text : "";
    t.wall_seconds = sqlite3_column_type(st, 6) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 6);
    t.runs = sqlite3_column_type(st, 7) == SQLITE_NULL ? 1 : sqlite3_column_int(st, 7);
    if (fn(ctx, &t) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  }
  int result = rc == SQLITE_DONE ? TS_OK : kit_fail(s, err, "cannot read the benchmark's history");
  sqlite3_finalize(st);
  return result;
}

int store_run_block_seconds(store *s, int64_t run_id,
                            int (*fn)(void *ctx, int block, double seconds), void *ctx,
                            ts_err *err) {
  sqlite3_stmt *st;
  int rc =
      kit_prepare(s,
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
  int result = rc == SQLITE_DONE ? TS_OK : kit_fail(s, err, "cannot read the blocks' times");
  sqlite3_finalize(st);
  return result;
}

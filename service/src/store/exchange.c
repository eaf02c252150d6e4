/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* exchange.c - runs across databases: a run read out as records of named values (export), and
   such records checked and stored as a new run in one transaction (import).
   Map: the columns of each kind of record (one list per kind serves both directions, so what is
   written is what can be read back; the trial's are store_trial_columns, and docs/schema.md
   describes each, a test compares the two), then export, then the checks and the import. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_kit.h"
#include "threadsoup/buf.h"
#include "threadsoup/sha256.h"

/* ---- the columns of each kind of record ----------------------------------------------------- */

typedef struct exchange_column {
  const char *name;      /* in the record, and the column it is stored in */
  const char *select;    /* the expression read; NULL: the column `name` */
  store_value_type type; /* STORE_VALUE_INT, _REAL or _TEXT */
  int stored;            /* 0: exported for the reader, not stored by the import */
} exchange_column;

static const exchange_column run_columns[] = {
    {"uid", NULL, STORE_VALUE_TEXT, 1},
    {"plan_name", NULL, STORE_VALUE_TEXT, 1},
    {"plan_text", NULL, STORE_VALUE_TEXT, 1},
    {"seed", NULL, STORE_VALUE_INT, 1},
    {"status", NULL, STORE_VALUE_TEXT, 1},
    {"status_detail", NULL, STORE_VALUE_TEXT, 1},
    {"started_at", NULL, STORE_VALUE_TEXT, 1},
    {"finished_at", NULL, STORE_VALUE_TEXT, 1},
    {"version", NULL, STORE_VALUE_TEXT, 1},
    {"runner", NULL, STORE_VALUE_TEXT, 1},
    {"host", NULL, STORE_VALUE_TEXT, 1},
    {"os", NULL, STORE_VALUE_TEXT, 1},
    {"cpu", NULL, STORE_VALUE_TEXT, 1},
    {"logical_cpus", NULL, STORE_VALUE_INT, 1},
    {"memory_bytes", NULL, STORE_VALUE_INT, 1},
    {"machine_id", NULL, STORE_VALUE_TEXT, 1},
    {"schedule", "(SELECT spec FROM schedule WHERE id=run.schedule_id)", STORE_VALUE_TEXT, 0},
};

static const exchange_column doctor_columns[] = {
    {"position", NULL, STORE_VALUE_INT, 1},    {"check_name", NULL, STORE_VALUE_TEXT, 1},
    {"status", NULL, STORE_VALUE_TEXT, 1},     {"measured", NULL, STORE_VALUE_TEXT, 1},
    {"value", NULL, STORE_VALUE_REAL, 1},      {"advice", NULL, STORE_VALUE_TEXT, 1},
    {"checked_at", NULL, STORE_VALUE_TEXT, 1},
};

static const exchange_column quiet_columns[] = {
    {"started_at", NULL, STORE_VALUE_TEXT, 1},
    {"reason", NULL, STORE_VALUE_TEXT, 1},
    {"defender_was", NULL, STORE_VALUE_INT, 1},
    {"update_paused_until_was", NULL, STORE_VALUE_INT, 1},
    {"defender_changed", NULL, STORE_VALUE_INT, 1},
    {"update_changed", NULL, STORE_VALUE_INT, 1},
    {"update_paused_until_set", NULL, STORE_VALUE_INT, 1},
    {"restored_at", NULL, STORE_VALUE_TEXT, 1},
    {"restore_error", NULL, STORE_VALUE_TEXT, 1},
    {"restore_by", NULL, STORE_VALUE_INT, 1},
    {"defender_asked", NULL, STORE_VALUE_INT, 1},
    {"defender_confirmed", NULL, STORE_VALUE_INT, 1},
    {"update_asked_until", NULL, STORE_VALUE_INT, 1},
    {"update_state", NULL, STORE_VALUE_TEXT, 1},
    {"update_how", NULL, STORE_VALUE_TEXT, 1},
};

/* A metric names its trial by seq; the import finds the trial's new id from it. */
static const exchange_column metric_columns[] = {
    {"seq", "(SELECT seq FROM trial WHERE id=trial_metric.trial_id)", STORE_VALUE_INT, 0},
    {"name", NULL, STORE_VALUE_TEXT, 1},
    {"value", NULL, STORE_VALUE_REAL, 1},
};

typedef struct exchange_kind {
  const char *table;
  const exchange_column *columns; /* NULL: the exported columns of store_trial_columns */
  int count;
  const char *where; /* selects the run's rows, in their order; ? is the run id */
} exchange_kind;

#define KIND(table, columns, where)                                                                \
  { table, columns, KIT_COUNT(columns), where }
static const exchange_kind exchange_kinds[STORE_RECORD_KIND_COUNT] = {
    KIND("run", run_columns, "WHERE id=?"),
    KIND("run_doctor", doctor_columns, "WHERE run_id=? ORDER BY position"),
    KIND("quiet_journal", quiet_columns, "WHERE run_id=? ORDER BY id DESC LIMIT 1"),
    {"trial", NULL, 0, "WHERE run_id=? ORDER BY seq"},
    KIND("trial_metric", metric_columns,
         "WHERE trial_id IN (SELECT id FROM trial WHERE run_id=?) ORDER BY 1, name"),
};
#undef KIND

#define STORE_KIND_TEXT(name, text) text,
static const char *const record_kind_names[] = {STORE_RECORD_KIND_MAP(STORE_KIND_TEXT)};
#undef STORE_KIND_TEXT

const char *store_record_kind_name(store_record_kind kind) {
  return (unsigned)kind < (unsigned)KIT_COUNT(record_kind_names) ? record_kind_names[kind] : NULL;
}

int store_record_kind_parse(const char *name) {
  for (int i = 0; i < KIT_COUNT(record_kind_names); i++)
    if (strcmp(name, record_kind_names[i]) == 0)
      return i;
  return -1;
}

/* The columns of a kind's records, in their order, into out (STORE_RECORD_MAX_VALUES of them);
   returns how many. */
static int kind_columns(store_record_kind kind, exchange_column *out) {
  const exchange_kind *k = &exchange_kinds[kind];
  int n = 0;
  for (int i = 0; k->columns && i < k->count && n < STORE_RECORD_MAX_VALUES; i++)
    out[n++] = k->columns[i];
  for (int i = 0; !k->columns && i < store_trial_column_count && n < STORE_RECORD_MAX_VALUES; i++)
    if (store_trial_columns[i].exported) {
      exchange_column c = {store_trial_columns[i].name, NULL, store_trial_columns[i].type, 1};
      out[n++] = c;
    }
  return n;
}

/* ---- export ------------------------------------------------------------------------------- */

/* Reads the run's rows of one kind and calls fn with each as a record; *stopped when fn asked. */
static int export_kind(store *s, int64_t run_id, store_record_kind kind,
                       int (*fn)(void *ctx, const store_record *rec), void *ctx, int *stopped,
                       ts_err *err) {
  const exchange_kind *k = &exchange_kinds[kind];
  exchange_column columns[STORE_RECORD_MAX_VALUES];
  int count = kind_columns(kind, columns);
  char sql[1536];
  ts_buf b = ts_buf_on(sql, sizeof sql);
  ts_buf_add(&b, "SELECT ");
  for (int i = 0; i < count; i++)
    ts_buf_item(&b, ", ", columns[i].select ? columns[i].select : columns[i].name);
  ts_buf_addf(&b, " FROM %s %s", k->table, k->where);
  sqlite3_stmt *st;
  int rc = kit_prepare(s, sql, &st, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_bind_int64(st, 1, run_id);
  store_record *rec = calloc(1, sizeof *rec);
  if (!rec) {
    sqlite3_finalize(st);
    return ts_err_set(err, TS_ENOMEM, "no memory to export run %lld", (long long)run_id);
  }
  rec->kind = kind;
  rec->count = count;
  while (!*stopped && (rc = sqlite3_step(st)) == SQLITE_ROW) {
    for (int i = 0; i < count; i++) {
      store_value *v = &rec->values[i];
      memset(v, 0, sizeof *v);
      v->name = columns[i].name;
      if (sqlite3_column_type(st, i) == SQLITE_NULL) {
        v->type = STORE_VALUE_NULL;
      } else if (columns[i].type == STORE_VALUE_INT) {
        v->type = STORE_VALUE_INT;
        v->i = sqlite3_column_int64(st, i);
      } else if (columns[i].type == STORE_VALUE_REAL) {
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
  int result = *stopped || rc == SQLITE_DONE ? TS_OK : kit_fail(s, err, "cannot export the run");
  sqlite3_finalize(st);
  return result;
}

int store_run_export(store *s, int64_t run_id, int (*fn)(void *ctx, const store_record *rec),
                     void *ctx, ts_err *err) {
  long long found = 0;
  char sql[64];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM run WHERE id=%lld", (long long)run_id);
  int rc = kit_exec(s, "BEGIN", "cannot start reading the run", err);
  if (rc != TS_OK)
    return rc;
  rc = kit_query_int(s, sql, &found, err);
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
  int rc = kit_prepare(s, "SELECT id FROM run ORDER BY id", &st, err);
  if (rc != TS_OK)
    return rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW)
    if (fn(ctx, sqlite3_column_int64(st, 0)) != 0) {
      rc = SQLITE_DONE;
      break;
    }
  int result = rc == SQLITE_DONE ? TS_OK : kit_fail(s, err, "cannot list the runs");
  sqlite3_finalize(st);
  return result;
}

/* ---- checks and import --------------------------------------------------------------------- */

static const exchange_column *find_column(const exchange_column *columns, int count,
                                          const char *name) {
  for (int i = 0; i < count; i++)
    if (strcmp(columns[i].name, name) == 0)
      return &columns[i];
  return NULL;
}

static const store_value *record_value(const store_record *rec, const char *name) {
  for (int i = 0; i < rec->count; i++)
    if (strcmp(rec->values[i].name, name) == 0)
      return &rec->values[i];
  return NULL;
}

/* 1 when text is a time as the exporter writes it: ISO 8601 in UTC, "YYYY-MM-DDTHH:MM:SS" with
   optional fractions of a second, then "Z" (plat_utc_timestamp's form). */
static int is_utc_timestamp(const char *text) {
  static const char form[] = "dddd-dd-ddTdd:dd:dd";
  int n[6] = {0};
  for (int i = 0, field = 0; form[i]; i++) {
    if (form[i] != 'd') {
      if (text[i] != form[i])
        return 0;
      field++;
    } else if (text[i] < '0' || text[i] > '9') {
      return 0;
    } else {
      n[field] = n[field] * 10 + (text[i] - '0');
    }
  }
  const char *rest = text + sizeof form - 1;
  if (*rest == '.') {
    do
      rest++;
    while (*rest >= '0' && *rest <= '9');
    if (rest == text + sizeof form)
      return 0;
  }
  static const int month_days[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return strcmp(rest, "Z") == 0 && n[1] >= 1 && n[1] <= 12 && n[2] >= 1 &&
         n[2] <= month_days[n[1] - 1] && n[3] <= 23 && n[4] <= 59 && n[5] <= 60;
}

int store_record_check(const store_record *rec, ts_err *err) {
  const char *kind = store_record_kind_name(rec->kind);
  if (!kind || rec->count < 0 || rec->count > STORE_RECORD_MAX_VALUES)
    return ts_err_set(err, TS_EINVAL, "a record of kind %d with %d values", (int)rec->kind,
                      rec->count);
  exchange_column columns[STORE_RECORD_MAX_VALUES];
  int count = kind_columns(rec->kind, columns);
  /* By store_value_type. */
  static const char *const type_names[] = {"null", "a whole number", "a number", "a string"};
  for (int i = 0; i < rec->count; i++) {
    const store_value *v = &rec->values[i];
    const exchange_column *c = find_column(columns, count, v->name);
    if (!c)
      return ts_err_set(err, TS_EINVAL,
                        "the %s record has a field '%.64s' that this ThreadSoup does not know "
                        "(docs/schema.md lists the fields of each record)",
                        kind, v->name);
    int ok = v->type == STORE_VALUE_NULL || v->type == c->type ||
             (c->type == STORE_VALUE_REAL && v->type == STORE_VALUE_INT);
    if (!ok)
      return ts_err_set(err, TS_EINVAL, "the %s record's '%s' is %s (accepted: %s or null)", kind,
                        v->name, (unsigned)v->type < 4 ? type_names[v->type] : "of no known type",
                        type_names[c->type]);
    size_t len = strlen(v->name);
    if (v->type == STORE_VALUE_TEXT && len > 3 && strcmp(v->name + len - 3, "_at") == 0 &&
        !is_utc_timestamp(v->text))
      return ts_err_set(err, TS_EINVAL,
                        "the %s record's '%s' is '%.40s' (accepted: a UTC time as the exporter "
                        "writes it, YYYY-MM-DDTHH:MM:SS.sssZ)",
                        kind, v->name, v->text);
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
  if (rec->kind == STORE_RECORD_TRIAL) {
    const store_value *score = record_value(rec, "score");
    if (score && score->type != STORE_VALUE_NULL &&
        store_score_check(score->type == STORE_VALUE_INT ? (double)score->i : score->d,
                          "the trial record's 'score'", err) != TS_OK)
      return TS_EINVAL;
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

/* A prepared INSERT kept for the next record of its kind with the same fields (an import's
   records are alike: preparing each anew costs more than storing it). */
typedef struct insert_cache {
  sqlite3_stmt *st;
  char sql[2048];
} insert_cache;

/* Inserts one checked record into its table: the values its kind stores, then `extra` (values the
   import sets itself), with run_id first when run_id > 0. A metric's trial comes from its seq.
   cache (may be NULL) keeps the statement for the next record. */
static int insert_record(store *s, const store_record *rec, int64_t run_id,
                         const store_value *extra, int extra_count, insert_cache *cache,
                         ts_err *err) {
  const exchange_kind *k = &exchange_kinds[rec->kind];
  exchange_column columns[STORE_RECORD_MAX_VALUES];
  int count = kind_columns(rec->kind, columns);
  const store_value *bound[STORE_RECORD_MAX_VALUES + 4];
  int n = 0;
  for (int i = 0; i < rec->count; i++) {
    const exchange_column *c = find_column(columns, count, rec->values[i].name);
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
  int rc = TS_OK;
  if (cache && cache->st && strcmp(cache->sql, sql) == 0) {
    st = cache->st;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
  } else {
    rc = kit_prepare(s, sql, &st, err);
    if (rc != TS_OK)
      return rc;
    if (cache) {
      sqlite3_finalize(cache->st);
      cache->st = st;
      snprintf(cache->sql, sizeof cache->sql, "%s", sql);
    }
  }
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
  if (cache)
    sqlite3_reset(st);
  else
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
  return kit_fail(s, err, doing);
}

/* ---- a run stored record by record -------------------------------------------------------- */

struct store_import {
  store *s;
  insert_cache inserts[STORE_RECORD_KIND_COUNT];
  sqlite3_stmt *metric_room; /* check_metric_room's query */
  int64_t run_id;            /* the run being stored, inside the open transaction */
  int64_t known_id;          /* the run stored before with the same uid; 0 when none */
  int quiet_records;
  char imported_at[40];
};

int store_import_begin(store *s, const store_record *run, const char *imported_from,
                       const char *imported_at, store_import **out, ts_err *err) {
  *out = NULL;
  int rc = store_record_check(run, err);
  if (rc == TS_OK && run->kind != STORE_RECORD_RUN)
    rc = ts_err_set(err, TS_EINVAL,
                    "a %s record before the run record (the run record comes first, after the "
                    "header)",
                    store_record_kind_name(run->kind));
  if (rc != TS_OK)
    return rc;
  store_import *im = calloc(1, sizeof *im);
  if (!im)
    return ts_err_set(err, TS_ENOMEM, "no memory to import a run");
  im->s = s;
  snprintf(im->imported_at, sizeof im->imported_at, "%s", imported_at);
  rc = kit_begin(s, err);
  if (rc != TS_OK) {
    free(im);
    return rc;
  }
  sqlite3_stmt *st;
  rc = kit_prepare(s, "SELECT id FROM run WHERE uid=?", &st, err);
  if (rc == TS_OK) {
    bind_value(st, 1, record_value(run, "uid"));
    if (sqlite3_step(st) == SQLITE_ROW)
      im->known_id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
  }
  /* A known uid is still stored, without its uid, so the two runs can be compared as the
     database holds them; the transaction is then rolled back. */
  store_record *copy = rc == TS_OK ? malloc(sizeof *copy) : NULL;
  if (rc == TS_OK && !copy)
    rc = ts_err_set(err, TS_ENOMEM, "no memory to import a run");
  if (rc == TS_OK) {
    *copy = *run;
    for (int i = 0; im->known_id && i < copy->count; i++)
      if (strcmp(copy->values[i].name, "uid") == 0)
        copy->values[i].type = STORE_VALUE_NULL;
    store_value origin[2] = {{"imported_from", STORE_VALUE_TEXT, 0, 0, imported_from},
                             {"imported_at", STORE_VALUE_TEXT, 0, 0, imported_at}};
    rc = insert_record(s, copy, 0, origin, 2, NULL, err);
    free(copy);
  }
  if (rc != TS_OK) {
    kit_rollback(s, rc);
    free(im);
    return rc;
  }
  im->run_id = sqlite3_last_insert_rowid(s->db);
  *out = im;
  return TS_OK;
}

/* TS_EINVAL unless the run holds a trial of `seq` with room for one more metric. */
static int check_metric_room(store_import *im, const store_value *seq, ts_err *err) {
  int rc = im->metric_room ? TS_OK
                           : kit_prepare(im->s,
                                         "SELECT (SELECT count(*) FROM trial_metric WHERE "
                                         "trial_id=trial.id) FROM trial WHERE run_id=? AND seq=?",
                                         &im->metric_room, err);
  if (rc != TS_OK)
    return rc;
  sqlite3_stmt *st = im->metric_room;
  sqlite3_bind_int64(st, 1, im->run_id);
  bind_value(st, 2, seq);
  long long count = -1;
  if (sqlite3_step(st) == SQLITE_ROW)
    count = sqlite3_column_int64(st, 0);
  sqlite3_reset(st);
  if (count < 0)
    return ts_err_set(err, TS_EINVAL,
                      "cannot store the metric of trial %lld: the file holds no trial record "
                      "with \"seq\":%lld before it (a metric's seq names its trial)",
                      (long long)seq->i, (long long)seq->i);
  if (count >= STORE_TRIAL_METRICS_MAX)
    return ts_err_set(err, TS_EINVAL,
                      "cannot store the metric of trial %lld: more than %d metrics for one trial "
                      "(accepted: at most %d)",
                      (long long)seq->i, STORE_TRIAL_METRICS_MAX, STORE_TRIAL_METRICS_MAX);
  return TS_OK;
}

int store_import_add(store_import *im, const store_record *rec, ts_err *err) {
  int rc = store_record_check(rec, err);
  if (rc != TS_OK)
    return rc;
  if (rec->kind == STORE_RECORD_RUN)
    return ts_err_set(err, TS_EINVAL, "a second run record (a file holds one run)");
  if (rec->kind == STORE_RECORD_QUIET && im->quiet_records++)
    return ts_err_set(err, TS_EINVAL, "a second quiet record (a run has at most one)");
  if (rec->kind == STORE_RECORD_METRIC &&
      (rc = check_metric_room(im, record_value(rec, "seq"), err)) != TS_OK)
    return rc;
  const store_value *restored = record_value(rec, "restored_at");
  if (rec->kind != STORE_RECORD_QUIET || (restored && restored->type != STORE_VALUE_NULL))
    return insert_record(im->s, rec, im->run_id, NULL, 0, &im->inserts[rec->kind], err);
  /* An open entry would make this machine's quiet mode think it is on. */
  store_value closed[2] = {
      {"restored_at", STORE_VALUE_TEXT, 0, 0, im->imported_at},
      {"restore_error", STORE_VALUE_TEXT, 0, 0,
       "still on on the measuring machine when the run was exported; closed by the import"}};
  store_record *copy = malloc(sizeof *copy);
  if (!copy)
    return ts_err_set(err, TS_ENOMEM, "no memory to import the quiet record");
  *copy = *rec;
  copy->count = 0;
  for (int j = 0; j < rec->count; j++)
    if (strcmp(rec->values[j].name, "restored_at") != 0 &&
        strcmp(rec->values[j].name, "restore_error") != 0)
      copy->values[copy->count++] = rec->values[j];
  rc = insert_record(im->s, copy, im->run_id, closed, 2, NULL, err);
  free(copy);
  return rc;
}

/* Feeds one value to the digest: its name, its type and its value, each delimited. */
static void digest_value(ts_sha256 *h, const store_value *v) {
  char num[48];
  ts_sha256_update(h, v->name, strlen(v->name) + 1);
  ts_sha256_update(h, &"NIRT"[v->type < 4 ? v->type : 0], 1);
  if (v->type == STORE_VALUE_INT)
    snprintf(num, sizeof num, "%lld", (long long)v->i);
  else if (v->type == STORE_VALUE_REAL)
    snprintf(num, sizeof num, "%.17g", v->d);
  else
    num[0] = '\0';
  if (v->type == STORE_VALUE_TEXT)
    ts_sha256_update(h, v->text, strlen(v->text) + 1);
  else
    ts_sha256_update(h, num, strlen(num) + 1);
}

/* What two copies of a run must agree on: the run's facts (not its uid, which is how they were
   matched, nor the schedule, which only the measuring machine knows), trials and metrics. */
static int digest_record(void *ctx, const store_record *rec) {
  if (rec->kind != STORE_RECORD_RUN && rec->kind != STORE_RECORD_TRIAL &&
      rec->kind != STORE_RECORD_METRIC)
    return 0;
  ts_sha256 *h = ctx;
  const char *kind = store_record_kind_name(rec->kind);
  ts_sha256_update(h, kind, strlen(kind) + 1);
  for (int i = 0; i < rec->count; i++)
    if (rec->kind != STORE_RECORD_RUN ||
        (strcmp(rec->values[i].name, "uid") != 0 && strcmp(rec->values[i].name, "schedule") != 0))
      digest_value(h, &rec->values[i]);
  return 0;
}

/* The digest of a stored run, read in export order (trials by seq, metrics by seq and name). */
static int digest_run(store *s, int64_t run_id, uint8_t out[TS_SHA256_SIZE], ts_err *err) {
  ts_sha256 h;
  ts_sha256_init(&h);
  int stopped = 0, rc = TS_OK;
  for (int kind = 0; rc == TS_OK && kind < STORE_RECORD_KIND_COUNT; kind++)
    rc = export_kind(s, run_id, (store_record_kind)kind, digest_record, &h, &stopped, err);
  ts_sha256_final(&h, out);
  return rc;
}

/* Finalizes the statements the import kept (before its transaction ends). */
static void import_statements_free(store_import *im) {
  for (int k = 0; k < STORE_RECORD_KIND_COUNT; k++)
    sqlite3_finalize(im->inserts[k].st);
  sqlite3_finalize(im->metric_room);
  memset(im->inserts, 0, sizeof im->inserts);
  im->metric_room = NULL;
}

int store_import_end(store_import *im, store_import_result *out, ts_err *err) {
  store *s = im->s;
  import_statements_free(im);
  memset(out, 0, sizeof *out);
  int rc = TS_OK;
  if (!im->known_id) {
    rc = kit_exec(s, "COMMIT", "cannot commit the imported run", err);
    if (rc == TS_OK) {
      out->outcome = STORE_IMPORT_NEW;
      out->run_id = im->run_id;
    }
  } else {
    uint8_t stored[TS_SHA256_SIZE], incoming[TS_SHA256_SIZE];
    rc = digest_run(s, im->known_id, stored, err);
    if (rc == TS_OK)
      rc = digest_run(s, im->run_id, incoming, err);
    sqlite3_stmt *st;
    if (rc == TS_OK &&
        (rc = kit_prepare(s, "SELECT imported_from FROM run WHERE id=?", &st, err)) == TS_OK) {
      sqlite3_bind_int64(st, 1, im->known_id);
      const unsigned char *from =
          sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_text(st, 0) : NULL;
      snprintf(out->stored_from, sizeof out->stored_from, "%s", from ? (const char *)from : "");
      sqlite3_finalize(st);
    }
    out->run_id = im->known_id;
    out->outcome =
        memcmp(stored, incoming, sizeof stored) == 0 ? STORE_IMPORT_SAME : STORE_IMPORT_CONFLICT;
  }
  if (rc != TS_OK || im->known_id)
    kit_rollback(s, rc);
  free(im);
  return rc;
}

void store_import_abort(store_import *im) {
  if (!im)
    return;
  import_statements_free(im);
  kit_rollback(im->s, TS_OK);
  free(im);
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_store.c - the database: created and migrated from nothing or from older versions, reopened,
   foreign or newer files refused and left untouched, each trial visible to other readers once it
   is finished, statuses read as enums (a text the store does not know is an error), and the one
   table of the trial's columns true to the trial table and to what a trial row holds. */
#define _DEFAULT_SOURCE /* symlink, chown */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "testdb.h"
#include "store/schema.h"
#include "store/store.h"
#include "threadsoup/plat.h"
#ifndef _WIN32
#include <sys/stat.h>
#include <unistd.h>
#endif

/* The whole file, to prove a refused file was not touched. */
static char *slurp(const char *path, long *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  *len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = malloc((size_t)*len + 1);
  if (buf && fread(buf, 1, (size_t)*len, f) != (size_t)*len) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  return buf;
}

static void raw_exec(const char *path, const char *sql) {
  sqlite3 *db;
  CHECK_INT(sqlite3_open(path, &db), SQLITE_OK);
  CHECK_INT(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
}

/* A database as version `version` left it (its migrations, its ids), holding `rows` (SQL). */
static void old_database(const char *path, int version, const char *rows) {
  static char sql[65536];
  int len = 0;
  remove_db(path);
  for (int v = 1; v <= version; v++)
    len += snprintf(sql + len, sizeof sql - (size_t)len, "%s", schema_migration(v));
  snprintf(sql + len, sizeof sql - (size_t)len,
           "PRAGMA application_id=%d; PRAGMA user_version=%d;%s", STORE_APPLICATION_ID, version,
           rows);
  raw_exec(path, sql);
}

static const store_run_info info = {"quick", "name=quick\n", 42,    "2026-01-01T00:00:00.000Z",
                                    "host",  "os",           "cpu", 2,
                                    "0.0.0", NULL,           0};

/* Keeps each trial's status by sequence (ctx: store_trial_status[], as long as the run). */
static int collect_status(void *ctx, const store_trial_row *row) {
  ((store_trial_status *)ctx)[row->seq - 1] = row->status;
  return 0;
}

/* Keeps the first trial (ctx: store_trial_row) and stops. */
static int keep_first_trial(void *ctx, const store_trial_row *row) {
  *(store_trial_row *)ctx = *row;
  return 1;
}

static void migrations_match_the_version(void) {
  CHECK_INT(schema_migration_count(), STORE_SCHEMA_VERSION);
  CHECK(schema_migration(0) == NULL);
  CHECK(schema_migration(STORE_SCHEMA_VERSION) != NULL);
}

static void creates_a_new_database(void) {
  const char *path = "store_new.db";
  remove_db(path);
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(store_schema_version(s), STORE_SCHEMA_VERSION);
  store_close(s);
  CHECK_INT(raw_query(path, "PRAGMA application_id"), STORE_APPLICATION_ID);
  CHECK_INT(raw_query(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM sqlite_master WHERE name IN "
                            "('run','trial','trial_metric')"),
            3);
  CHECK_INT(raw_query(path, "SELECT journal_mode='wal' FROM pragma_journal_mode"), 1);
}

static void migrates_an_empty_file(void) {
  const char *path = "store_empty.db";
  remove_db(path);
  FILE *f = fopen(path, "wb");
  REQUIRE(f != NULL);
  fclose(f);
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(store_schema_version(s), STORE_SCHEMA_VERSION);
  store_close(s);
}

static void reopens_with_its_runs(void) {
  const char *path = "store_reopen.db";
  remove_db(path);
  store *s;
  ts_err err;
  store_trial_plan trials[3] = {{1, 1, "baseline", "builtin-st", 0},
                                {2, 1, "sleep:10@500ms", "builtin-st", 0},
                                {3, 2, "baseline", "builtin-st", 0}};
  int64_t run_id = 0;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(store_run_begin(s, &info, trials, 3, &run_id, &err), TS_OK);
  CHECK(run_id > 0 && trials[0].id > 0 && trials[2].id > trials[1].id);
  store_close(s);

  REQUIRE(store_open(&s, path, &err) == TS_OK);
  store_run_row row;
  CHECK_INT(store_run_get(s, run_id, &row, &err), TS_OK);
  CHECK_INT(row.trials_total, 3);
  CHECK_INT(row.trials_done, 0);
  CHECK_INT(row.status, STORE_RUN_RUNNING);
  CHECK_INT(row.resume_at_start, 0);
  int64_t latest = 0;
  CHECK_INT(store_latest_run(s, &latest, &err), TS_OK);
  CHECK_INT(latest, run_id);
  CHECK_INT(store_run_get(s, run_id + 1, &row, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "there is no run");
  store_close(s);

  /* Every run has its own identity, and keeps the machine it was measured on. */
  store_run_info on_machine = info;
  on_machine.machine_id = "4a6c8d77e0d342e5537794a28f1775c8";
  on_machine.memory_bytes = 24ull << 30;
  int64_t second = 0;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(store_run_begin(s, &on_machine, NULL, 0, &second, &err), TS_OK);
  store_run_row first_row = row;
  CHECK_INT(store_run_get(s, second, &row, &err), TS_OK);
  CHECK_INT(strlen(row.uid), 32);
  CHECK(strcmp(row.uid, first_row.uid) != 0);
  CHECK_STR_EQ(first_row.machine_id, "");
  CHECK_STR_EQ(row.machine_id, "4a6c8d77e0d342e5537794a28f1775c8");
  CHECK_INT(row.memory_bytes, 24ll << 30);
  CHECK_INT(store_integrity_check(s, &err), TS_OK);
  store_close(s);
}

static void finished_trial_is_visible_at_once(void) {
  const char *path = "store_commit.db";
  remove_db(path);
  store *s;
  ts_err err;
  store_trial_plan trials[2] = {{1, 1, "baseline", "builtin-st", 0},
                                {2, 1, "sleep:10@500ms", "builtin-st", 0}};
  int64_t run_id = 0;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(store_run_begin(s, &info, trials, 2, &run_id, &err), TS_OK);
  store_metric metrics[2] = {{"integer", 10.5}, {"memory", 3.25}};
  store_trial_result r = {"2026-01-01T00:00:01.000Z",
                          "2026-01-01T00:00:02.000Z",
                          123.5,
                          "rounds/s",
                          1.0,
                          12,
                          300,
                          2500,
                          2,
                          metrics,
                          "quiet gate timed out",
                          "battery",
                          "off",
                          "class1:4,class0:0"};
  CHECK_INT(store_trial_finish(s, trials[0].id, &r, &err), TS_OK);
  /* Another connection sees it while this one is still open: it is committed. */
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE status='done' AND score=123.5"), 1);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial_metric"), 2);
  CHECK_INT(store_trial_fail(s, trials[1].id, "2026-01-01T00:00:03.000Z", "the OS said no", &err),
            TS_OK);
  CHECK_INT(store_run_end(s, run_id, STORE_RUN_FAILED, "1 of 2 trials done",
                          "2026-01-01T00:00:04.000Z", &err),
            TS_OK);
  store_run_row row;
  CHECK_INT(store_run_get(s, run_id, &row, &err), TS_OK);
  CHECK_INT(row.trials_done, 1);
  CHECK_INT(row.trials_failed, 1);
  CHECK_INT(row.status, STORE_RUN_FAILED);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM run WHERE status='failed'"), 1);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE warnings LIKE 'quiet gate%'"), 1);
  /* Where the benchmark ran is stored with the trial and read back with it. */
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE power_source='battery' AND "
                            "power_throttling='off' AND core_classes='class1:4,class0:0'"),
            1);
  store_trial_row first;
  memset(&first, 0, sizeof first);
  CHECK_INT(store_run_trials(s, run_id, keep_first_trial, &first, &err), TS_OK);
  CHECK(strcmp(first.power_source, "battery") == 0);
  CHECK(strcmp(first.power_throttling, "off") == 0);
  CHECK(strcmp(first.core_classes, "class1:4,class0:0") == 0);
  CHECK_INT(store_trial_finish(s, 99999, &r, &err), TS_ESTORE);
  CHECK_STR_CONTAINS(err.text, "trial 99999 is not a pending trial");
  /* A finished trial is never overwritten. */
  CHECK_INT(store_trial_finish(s, trials[0].id, &r, &err), TS_ESTORE);
  store_close(s);
}

static const store_trial_column *trial_column(const char *name) {
  for (int i = 0; i < store_trial_column_count; i++)
    if (strcmp(store_trial_columns[i].name, name) == 0)
      return &store_trial_columns[i];
  return NULL;
}

/* Each column of a new database's trial table is in store_trial_columns with its SQL type, and
   nothing else is; the reports' places are 1..n, each once; export records can hold them all. */
static void trial_columns_match_the_trial_table(void) {
  const char *path = "store_columns.db";
  remove_db(path);
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  store_close(s);
  sqlite3 *db;
  sqlite3_stmt *st;
  REQUIRE(sqlite3_open(path, &db) == SQLITE_OK);
  REQUIRE(sqlite3_prepare_v2(db, "SELECT name, type FROM pragma_table_info('trial')", -1, &st,
                             NULL) == SQLITE_OK);
  static const char *const sql_types[] = {"", "INTEGER", "REAL", "TEXT"}; /* by store_value_type */
  int columns = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char *name = (const char *)sqlite3_column_text(st, 0);
    const char *type = (const char *)sqlite3_column_text(st, 1);
    const store_trial_column *c = trial_column(name);
    if (!c)
      fprintf(stderr, "  store_trial_columns lacks the trial table's column %s\n", name);
    CHECK(c != NULL);
    if (c && strcmp(sql_types[c->type], type) != 0)
      fprintf(stderr, "  store_trial_columns: %s is %s, the trial table's %s\n", name,
              sql_types[c->type], type);
    CHECK(!c || strcmp(sql_types[c->type], type) == 0);
    columns++;
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  CHECK_INT(columns, store_trial_column_count);
  int shown = 0, exported = 0;
  for (int i = 0; i < store_trial_column_count; i++) {
    shown += store_trial_columns[i].report > 0;
    exported += store_trial_columns[i].exported;
    CHECK((store_trial_columns[i].field == STORE_FIELD_NONE) == (store_trial_columns[i].size == 0));
  }
  for (int place = 1; place <= shown; place++) {
    int at = 0;
    for (int i = 0; i < store_trial_column_count; i++)
      at += store_trial_columns[i].report == place;
    CHECK_INT(at, 1);
  }
  CHECK(exported <= STORE_RECORD_MAX_VALUES);
}

/* Keeps every trial (ctx: store_trial_row[], as long as the run). */
static int keep_trials(void *ctx, const store_trial_row *row) {
  ((store_trial_row *)ctx)[row->seq - 1] = *row;
  return 0;
}

/* A trial's columns as reports show them: what was not recorded (a pending trial's score,
   seconds and thread count) is null, texts and the status are text, counts are whole numbers. */
static void trial_values_as_reports_show_them(void) {
  const char *path = "store_values.db";
  remove_db(path);
  store *s;
  ts_err err;
  store_trial_plan trials[2] = {{1, 0, "baseline", "builtin-st", 0},
                                {2, 1, "sleep:10@500ms", "builtin-mt", 0}};
  int64_t run_id = 0;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(store_run_begin(s, &info, trials, 2, &run_id, &err), TS_OK);
  store_trial_result r = {"2026-01-01T00:00:01.000Z",
                          "2026-01-01T00:00:02.000Z",
                          123.5,
                          "rounds/s",
                          1.25,
                          12,
                          300,
                          2500,
                          0,
                          NULL,
                          "",
                          "ac",
                          "off",
                          "uniform"};
  CHECK_INT(store_trial_finish(s, trials[0].id, &r, &err), TS_OK);
  store_trial_row rows[2];
  memset(rows, 0, sizeof rows);
  CHECK_INT(store_run_trials(s, run_id, keep_trials, rows, &err), TS_OK);
  store_close(s);

  const store_trial_row *done = &rows[0], *pending = &rows[1];
  CHECK(done->id == trials[0].id);
  CHECK_INT(done->seq, 1);
  CHECK_INT(done->block, 0);
  CHECK(strcmp(done->condition, "baseline") == 0);
  CHECK(strcmp(pending->bench, "builtin-mt") == 0);
  CHECK_INT(done->machine_processes, 300);
  CHECK_INT(done->machine_threads, 2500);
  CHECK_INT(pending->machine_threads, -1);
  /* An empty warning is still a warning; a pending trial has none. */
  CHECK_INT(done->has_warnings, 1);
  CHECK_INT(pending->has_warnings, 0);

  store_value v = store_trial_value(done, trial_column("score"));
  CHECK_INT(v.type, STORE_VALUE_REAL);
  CHECK(v.d == 123.5);
  CHECK(strcmp(v.name, "score") == 0);
  v = store_trial_value(done, trial_column("seconds"));
  CHECK(v.type == STORE_VALUE_REAL && v.d == 1.25);
  v = store_trial_value(done, trial_column("process_threads"));
  CHECK(v.type == STORE_VALUE_INT && v.i == 12);
  v = store_trial_value(done, trial_column("seq"));
  CHECK(v.type == STORE_VALUE_INT && v.i == 1);
  v = store_trial_value(done, trial_column("status"));
  CHECK(v.type == STORE_VALUE_TEXT && strcmp(v.text, "done") == 0);
  v = store_trial_value(done, trial_column("core_classes"));
  CHECK(v.type == STORE_VALUE_TEXT && strcmp(v.text, "uniform") == 0);
  v = store_trial_value(done, trial_column("error"));
  CHECK_INT(v.type, STORE_VALUE_NULL); /* not in the row */

  CHECK_INT(store_trial_value(pending, trial_column("score")).type, STORE_VALUE_NULL);
  CHECK_INT(store_trial_value(pending, trial_column("seconds")).type, STORE_VALUE_NULL);
  CHECK_INT(store_trial_value(pending, trial_column("process_threads")).type, STORE_VALUE_NULL);
  CHECK_INT(store_trial_value(pending, trial_column("timer_resolution_us")).type, STORE_VALUE_NULL);
  v = store_trial_value(pending, trial_column("status"));
  CHECK(v.type == STORE_VALUE_TEXT && strcmp(v.text, "pending") == 0);
  v = store_trial_value(pending, trial_column("power_source"));
  CHECK(v.type == STORE_VALUE_TEXT && strcmp(v.text, "") == 0);
}

static void migrates_version_1_keeping_its_runs(void) {
  const char *path = "store_v1.db";
  /* A database as version 1 wrote it, with a run and a done trial. */
  old_database(path, 1,
               "INSERT INTO run VALUES (1,'quick','name = quick\n',7,'finished',NULL,"
               "'2026-01-01T00:00:00.000Z',NULL,'h','o','c',2,'0.1.0');"
               "INSERT INTO trial (run_id, seq, block, condition, bench, status, score) VALUES "
               "(1,1,1,'baseline','builtin-st','done',250.5);");
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(store_schema_version(s), STORE_SCHEMA_VERSION);
  store_run_row *row = malloc(sizeof *row);
  REQUIRE(row != NULL);
  CHECK_INT(store_run_get(s, 1, row, &err), TS_OK);
  CHECK_INT(row->trials_done, 1);
  CHECK_STR_CONTAINS(row->plan_text, "name = quick");
  /* Version 12 gave the old run its identity; where it came from and the machine are unknown. */
  CHECK_INT(strlen(row->uid), 32);
  CHECK_INT(strspn(row->uid, "0123456789abcdef"), 32);
  CHECK_STR_EQ(row->machine_id, "");
  CHECK_INT(row->memory_bytes, 0);
  CHECK_STR_EQ(row->imported_from, "");
  free(row);
  store_close(s);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE source='measured' AND score=250.5"),
            1);
}

/* A database as version 4 left it: two runs the service's stop interrupted (the old way: only
   the detail says so), one a user interrupted, one running (killed), one finished. */
static void migrates_version_4_marking_runs_to_resume(void) {
  const char *path = "store_v4.db";
  old_database(
      path, 4,
      "INSERT INTO run (id, plan_name, plan_text, seed, status, status_detail, started_at, "
      "host, os, cpu, logical_cpus, version) VALUES "
      "(1,'quick','name = quick\n',7,'interrupted','service stopped (signal SIGTERM); "
      "resumes at the next start','2026-01-01T00:00:00.000Z','h','o','c',2,'0.1.0'),"
      "(2,'quick','name = quick\n',7,'interrupted','3 trials run in this sitting; "
      "interrupted','2026-01-01T00:00:00.000Z','h','o','c',2,'0.1.0'),"
      "(3,'quick','name = quick\n',7,'running',NULL,"
      "'2026-01-01T00:00:00.000Z','h','o','c',2,'0.1.0'),"
      "(4,'quick','name = quick\n',7,'finished','service stopped long ago',"
      "'2026-01-01T00:00:00.000Z','h','o','c',2,'0.1.0'),"
      "(5,'seed','name = seed\n',9,'interrupted','service stopped (SCM STOP); resumes at "
      "the next start','2026-01-01T00:00:00.000Z','h','o','c',2,'0.1.0');");
  store *s;
  ts_err err;
  CHECK_INT(store_open(&s, path, &err), TS_OK);
  CHECK_INT(store_schema_version(s), STORE_SCHEMA_VERSION);
  static store_run_row row;
  const int expected[5] = {1, 0, 0, 0, 1};
  const store_run_status statuses[5] = {STORE_RUN_INTERRUPTED, STORE_RUN_INTERRUPTED,
                                        STORE_RUN_RUNNING, STORE_RUN_FINISHED,
                                        STORE_RUN_INTERRUPTED};
  for (int id = 1; id <= 5; id++) {
    CHECK_INT(store_run_get(s, id, &row, &err), TS_OK);
    CHECK_INT(row.status, statuses[id - 1]);
    CHECK_INT(row.resume_at_start, expected[id - 1]);
    /* Version 6: the runs the service checkpointed were its own; the others are taken for
       foreground runs, and nobody's right to run programs is assumed. */
    CHECK_INT(row.by_service, expected[id - 1]);
    CHECK_INT(row.programs_allowed, 0);
  }
  CHECK_STR_CONTAINS(row.status_detail, "service stopped (SCM STOP)");
  store_close(s);
  CHECK_INT(raw_query(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
  CHECK_INT(raw_query(path, "SELECT sum(id) FROM run WHERE resume_at_start=1"), 6);
}

/* A database from before quiet mode's deadline, with quiet mode left on: the entry stays open,
   without a deadline (restored at the next start as before), and new entries keep theirs. */
static void migrates_quiet_journal_to_deadlines(void) {
  const char *path = "store_quiet_deadline.db";
  int with_deadline = 0;
  for (int v = 1; v <= schema_migration_count(); v++)
    if (strstr(schema_migration(v), "quiet_journal ADD COLUMN restore_by"))
      with_deadline = v;
  REQUIRE(with_deadline > 4);
  old_database(path, with_deadline - 1,
               "INSERT INTO quiet_journal (id, started_at, reason, defender_was, "
               "update_paused_until_was, defender_changed, update_changed) VALUES "
               "(1,'2026-01-01T00:00:00.000Z','run 3',1,0,1,1);");
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  store_quiet_entry e;
  int found = 0;
  CHECK_INT(store_quiet_open_entry(s, &e, &found, &err), TS_OK);
  CHECK_INT(found, 1);
  CHECK_INT(e.restore_by, 0);
  CHECK_INT(store_quiet_end(s, 1, "2026-01-01T01:00:00.000Z", NULL, &err), TS_OK);
  memset(&e, 0, sizeof e);
  snprintf(e.started_at, sizeof e.started_at, "2026-01-02T00:00:00.000Z");
  snprintf(e.reason, sizeof e.reason, "by hand");
  e.restore_by = INT64_C(1796637600);
  int64_t id = 0;
  CHECK_INT(store_quiet_begin(s, &e, &id, &err), TS_OK);
  CHECK_INT(store_quiet_open_entry(s, &e, &found, &err), TS_OK);
  CHECK_INT(e.restore_by, INT64_C(1796637600));
  store_close(s);
  CHECK_INT(raw_query(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
}

/* A database from before runs of scores typed in ended: a run `record` made, still 'running';
   a measured run that is genuinely running; a running run whose plan a user named "manual" but
   that ThreadSoup measured; and an imported run of typed-in scores, which keeps its file's
   status. Only the first ends, at its last score's time. */
static void migrates_runs_of_typed_in_scores_to_finished(void) {
  const char *path = "store_typed_in.db";
  old_database(
      path, 15,
      "INSERT INTO run (id, plan_name, plan_text, seed, status, status_detail, started_at, "
      "host, os, cpu, logical_cpus, version, uid, imported_from) VALUES "
      "(1,'manual','name = manual\n',0,'running',NULL,'2026-01-01T00:00:00.000Z',"
      "'h','o','c',2,'0.1.0','01',NULL),"
      "(2,'quick','name = quick\n',7,'running',NULL,'2026-01-01T00:00:00.000Z',"
      "'h','o','c',2,'0.1.0','02',NULL),"
      "(3,'manual','name = manual\n',7,'running',NULL,'2026-01-01T00:00:00.000Z',"
      "'h','o','c',2,'0.1.0','03',NULL),"
      "(4,'manual','name = manual\n',0,'running',NULL,'2026-01-01T00:00:00.000Z',"
      "'h','o','c',2,'0.1.0','04','/in/run.tsrun');"
      "INSERT INTO trial (run_id, seq, block, condition, bench, status, finished_at, score, "
      "source) VALUES "
      "(1,1,1,'baseline','cpuz','done','2026-01-02T10:00:00.000Z',500,'manual'),"
      "(1,2,1,'sleep:5000','cpuz','done','2026-01-03T11:00:00.000Z',480,'manual'),"
      "(2,1,1,'baseline','builtin-st','done','2026-01-01T00:01:00.000Z',250,'measured'),"
      "(2,2,1,'sleep:5000','builtin-st','pending',NULL,NULL,'measured'),"
      "(3,1,1,'baseline','builtin-st','pending',NULL,NULL,'measured'),"
      "(4,1,1,'baseline','cpuz','done','2026-01-02T10:00:00.000Z',500,'manual');");
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  static store_run_row row;
  CHECK_INT(store_run_get(s, 1, &row, &err), TS_OK);
  CHECK_INT(row.status, STORE_RUN_FINISHED);
  CHECK_STR_EQ(row.status_detail, "scores typed in");
  CHECK_STR_EQ(row.finished_at, "2026-01-03T11:00:00.000Z");
  CHECK_INT(row.trials_done, 2);
  const int64_t left_running[] = {2, 3, 4};
  for (size_t i = 0; i < sizeof left_running / sizeof left_running[0]; i++) {
    CHECK_INT(store_run_get(s, left_running[i], &row, &err), TS_OK);
    CHECK_INT(row.status, STORE_RUN_RUNNING);
    CHECK_STR_EQ(row.finished_at, "");
  }
  store_close(s);
  CHECK_INT(raw_query(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
}

/* Version 17 keeps who added a schedule; a version-16 schedule has no owner (its runs keep the
   stored right alone), and a new one keeps its owner's uid, SID, name and whether a member. */
static int collect_schedule_rows(void *ctx, const store_schedule *sc) {
  store_schedule *rows = ctx;
  if (sc->id >= 1 && sc->id <= 3)
    rows[sc->id - 1] = *sc;
  return 0;
}

static void migrates_schedules_to_owners(void) {
  const char *path = "store_schedule_owner.db";
  old_database(path, 16,
               "INSERT INTO schedule (id, spec, plan_text, next_due, created_at, "
               "programs_allowed) VALUES (1,'daily 03:00','name = quick\n',100,"
               "'2026-01-01T00:00:00.000Z',0),(2,'daily 04:00','name = quick\n',100,"
               "'2026-01-01T00:00:00.000Z',1);");
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(raw_query(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
  static store_schedule added, rows[3];
  memset(&added, 0, sizeof added);
  snprintf(added.spec, sizeof added.spec, "daily 05:00");
  snprintf(added.plan_text, sizeof added.plan_text, "name = quick\n");
  added.enabled = 1;
  added.owner.known = 1;
  added.owner.uid = 1000;
  snprintf(added.owner.sid, sizeof added.owner.sid, "S-1-5-21-1-2-3-1001");
  snprintf(added.owner.name, sizeof added.owner.name, "alex");
  added.owner.member = 1;
  int64_t id = 0;
  CHECK_INT(store_schedule_add(s, &added, "2026-01-02T00:00:00.000Z", &id, &err), TS_OK);
  CHECK(id == 3);
  memset(rows, 0, sizeof rows);
  CHECK_INT(store_schedules(s, collect_schedule_rows, rows, &err), TS_OK);
  CHECK_INT(rows[0].owner.known, 0);
  CHECK_INT(rows[0].programs_allowed, 0);
  CHECK_INT(rows[1].owner.known, 0);
  CHECK_INT(rows[1].programs_allowed, 1);
  CHECK_INT(rows[2].owner.known, 1);
  CHECK(rows[2].owner.uid == 1000);
  CHECK_STR_EQ(rows[2].owner.sid, "S-1-5-21-1-2-3-1001");
  CHECK_STR_EQ(rows[2].owner.name, "alex");
  CHECK_INT(rows[2].owner.member, 1);
  store_close(s);
  /* POSIX owners have no SID, Windows owners no uid: NULL in the file, not "" or -1. */
  CHECK_INT(raw_query(path, "SELECT count(*) FROM schedule WHERE owner_member IS NULL"), 2);
  CHECK_INT(raw_query(path, "SELECT owner_uid FROM schedule WHERE id=3"), 1000);
  remove_db(path);
}

/* Version 18 keeps whom the service started a run for: a version-17 run has no one (it resumes
   as before: its schedule's owner, or the stored right alone), a run marked the service's for a
   client keeps that client, and one marked so with nobody known (a schedule added before version
   17) has no one, NULL in the file. */
static void migrates_runs_to_whom_they_were_started_for(void) {
  const char *path = "store_run_owner.db";
  old_database(path, 17,
               "INSERT INTO run (id, plan_name, plan_text, seed, status, status_detail, "
               "started_at, host, os, cpu, logical_cpus, version, runner, resume_at_start, "
               "uid) VALUES (1,'quick','name = quick\n',7,'interrupted','service stopped (test); "
               "resumes at the next start','2026-01-01T00:00:00.000Z','h','o','c',2,'0.1.0',"
               "'service',1,'01');");
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(raw_query(path, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
  static store_run_row row;
  CHECK_INT(store_run_get(s, 1, &row, &err), TS_OK);
  CHECK_INT(row.started_for.known, 0);
  CHECK_INT(row.resume_at_start, 1);

  store_owner member = {1, 1000, "", "alex", 1}, windows = {1, -1, "S-1-5-21-1-2-3-1001", "ann", 0};
  int64_t ids[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++)
    REQUIRE(store_run_begin(s, &info, NULL, 0, &ids[i], &err) == TS_OK);
  CHECK_INT(store_run_set_origin(s, ids[0], 0, &member, &err), TS_OK);
  CHECK_INT(store_run_set_origin(s, ids[1], 1, &windows, &err), TS_OK);
  store_owner none = member;
  none.known = 0;
  CHECK_INT(store_run_set_origin(s, ids[2], 0, &none, &err), TS_OK);
  CHECK_INT(store_run_get(s, ids[0], &row, &err), TS_OK);
  CHECK_INT(row.started_for.known, 1);
  CHECK(row.started_for.uid == 1000);
  CHECK_STR_EQ(row.started_for.sid, "");
  CHECK_STR_EQ(row.started_for.name, "alex");
  CHECK_INT(row.started_for.member, 1);
  CHECK_STR_EQ(row.owner, ""); /* not the owner of a run of scores typed in */
  CHECK_INT(store_run_get(s, ids[1], &row, &err), TS_OK);
  CHECK_INT(row.started_for.known, 1);
  CHECK(row.started_for.uid == -1);
  CHECK_STR_EQ(row.started_for.sid, "S-1-5-21-1-2-3-1001");
  CHECK_INT(row.started_for.member, 0);
  CHECK_INT(row.programs_allowed, 1);
  CHECK_INT(store_run_get(s, ids[2], &row, &err), TS_OK);
  CHECK_INT(row.started_for.known, 0);
  CHECK_INT(row.by_service, 1);
  store_close(s);
  /* POSIX owners have no SID, Windows owners no uid, and nobody known is NULL in all four. */
  CHECK_INT(raw_query(path, "SELECT count(*) FROM run WHERE owner_member IS NULL AND owner_uid "
                            "IS NULL AND owner_sid IS NULL AND owner_name IS NULL"),
            2);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM run WHERE owner_sid IS NULL AND owner_uid=1000"),
            1);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM run WHERE owner_uid IS NULL AND "
                            "owner_sid='S-1-5-21-1-2-3-1001'"),
            1);
  remove_db(path);
}

typedef struct unfinished {
  int count;
  int64_t ids[8];
  int resume[8];
} unfinished;

static int collect_unfinished(void *ctx, const store_run_row *row) {
  unfinished *u = ctx;
  if (u->count < 8) {
    u->ids[u->count] = row->id;
    u->resume[u->count++] = row->resume_at_start;
  }
  return 0;
}

/* The service's stop checkpoints a run to resume at the next start; resuming clears the mark. */
static void checkpoint_marks_and_reopen_clears(void) {
  const char *path = "store_checkpoint.db";
  remove_db(path);
  store *s;
  ts_err err;
  store_trial_plan trials[1] = {{1, 1, "baseline", "builtin-st", 0}};
  int64_t stopped = 0, by_user = 0;
  CHECK_INT(store_open(&s, path, &err), TS_OK);
  CHECK_INT(store_run_begin(s, &info, trials, 1, &stopped, &err), TS_OK);
  CHECK_INT(store_run_begin(s, &info, trials, 1, &by_user, &err), TS_OK);
  CHECK_INT(store_run_end(s, stopped, STORE_RUN_INTERRUPTED, "0 trials run in this sitting",
                          "2026-01-01T00:00:01.000Z", &err),
            TS_OK);
  CHECK_INT(store_run_checkpoint(s, stopped,
                                 "service stopped (signal SIGTERM); resumes at the "
                                 "next start",
                                 "2026-01-01T00:00:02.000Z", &err),
            TS_OK);
  CHECK_INT(store_run_end(s, by_user, STORE_RUN_INTERRUPTED, "stopped by the user",
                          "2026-01-01T00:00:03.000Z", &err),
            TS_OK);
  static store_run_row row;
  CHECK_INT(store_run_get(s, stopped, &row, &err), TS_OK);
  CHECK_INT(row.status, STORE_RUN_INTERRUPTED);
  CHECK_INT(row.resume_at_start, 1);
  CHECK_STR_CONTAINS(row.status_detail, "service stopped (signal SIGTERM)");
  CHECK_STR_CONTAINS(row.finished_at, "2026-01-01T00:00:02.000Z");
  CHECK_INT(raw_query(path, "SELECT count(*) FROM run WHERE status='interrupted'"), 2);

  unfinished u = {0};
  CHECK_INT(store_unfinished_runs(s, collect_unfinished, &u, &err), TS_OK);
  CHECK_INT(u.count, 2);
  CHECK_INT(u.ids[0], stopped);
  CHECK_INT(u.resume[0], 1);
  CHECK_INT(u.ids[1], by_user);
  CHECK_INT(u.resume[1], 0);

  CHECK_INT(store_run_reopen(s, stopped, &err), TS_OK);
  CHECK_INT(store_run_get(s, stopped, &row, &err), TS_OK);
  CHECK_INT(row.status, STORE_RUN_RUNNING);
  CHECK_INT(row.resume_at_start, 0);
  CHECK_INT(row.finished_at[0], 0);
  CHECK_INT(store_run_end(s, stopped, STORE_RUN_FINISHED, NULL, "2026-01-01T00:00:04.000Z", &err),
            TS_OK);
  u.count = 0;
  CHECK_INT(store_unfinished_runs(s, collect_unfinished, &u, &err), TS_OK);
  CHECK_INT(u.count, 1);
  CHECK_INT(u.ids[0], by_user);
  store_close(s);
}

/* Every enum value has its text, the database accepts each, and reading gives the value back. */
static void statuses_round_trip(void) {
  CHECK(strcmp(store_run_status_name(STORE_RUN_RUNNING), "running") == 0);
  CHECK(strcmp(store_run_status_name(STORE_RUN_FINISHED), "finished") == 0);
  CHECK(strcmp(store_run_status_name(STORE_RUN_INTERRUPTED), "interrupted") == 0);
  CHECK(strcmp(store_run_status_name(STORE_RUN_FAILED), "failed") == 0);
  CHECK(strcmp(store_run_status_name((store_run_status)42), "unknown") == 0);
  CHECK(strcmp(store_trial_status_name(STORE_TRIAL_PENDING), "pending") == 0);
  CHECK(strcmp(store_trial_status_name(STORE_TRIAL_DONE), "done") == 0);
  CHECK(strcmp(store_trial_status_name(STORE_TRIAL_FAILED), "failed") == 0);
  CHECK(strcmp(store_trial_status_name((store_trial_status)-1), "unknown") == 0);
  CHECK(strcmp(store_schedule_outcome_name(STORE_SCHEDULE_STARTED), "started") == 0);
  CHECK(strcmp(store_schedule_outcome_name(STORE_SCHEDULE_MISSED), "missed") == 0);
  CHECK(strcmp(store_schedule_outcome_name(STORE_SCHEDULE_SKIPPED), "skipped") == 0);
  CHECK(strcmp(store_schedule_outcome_name((store_schedule_outcome)3), "unknown") == 0);

  const char *path = "store_statuses.db";
  remove_db(path);
  store *s;
  ts_err err;
  store_trial_plan trials[3] = {{1, 1, "baseline", "builtin-st", 0},
                                {2, 1, "baseline", "builtin-st", 0},
                                {3, 1, "baseline", "builtin-st", 0}};
  int64_t run_id = 0;
  CHECK_INT(store_open(&s, path, &err), TS_OK);
  CHECK_INT(store_run_begin(s, &info, trials, 3, &run_id, &err), TS_OK);
  static store_run_row row;
  for (int st = STORE_RUN_RUNNING; st <= STORE_RUN_FAILED; st++) {
    CHECK_INT(store_run_end(s, run_id, (store_run_status)st, NULL, NULL, &err), TS_OK);
    CHECK_INT(store_run_get(s, run_id, &row, &err), TS_OK);
    CHECK_INT(row.status, st);
  }
  CHECK_INT(store_run_end(s, run_id, (store_run_status)4, NULL, NULL, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "not a run status");
  CHECK_INT(raw_query(path, "SELECT count(*) FROM run WHERE status='failed'"), 1);

  store_trial_result r = {"2026-01-01T00:00:01.000Z",
                          "2026-01-01T00:00:02.000Z",
                          1.5,
                          "x",
                          1,
                          1,
                          1,
                          1,
                          0,
                          NULL,
                          NULL,
                          NULL,
                          NULL,
                          NULL};
  CHECK_INT(store_trial_finish(s, trials[0].id, &r, &err), TS_OK);
  CHECK_INT(store_trial_fail(s, trials[1].id, "2026-01-01T00:00:03.000Z", "no", &err), TS_OK);
  store_trial_status seen[3] = {STORE_TRIAL_FAILED, STORE_TRIAL_FAILED, STORE_TRIAL_FAILED};
  CHECK_INT(store_run_trials(s, run_id, collect_status, seen, &err), TS_OK);
  CHECK_INT(seen[0], STORE_TRIAL_DONE);
  CHECK_INT(seen[1], STORE_TRIAL_FAILED);
  CHECK_INT(seen[2], STORE_TRIAL_PENDING);

  store_schedule sc;
  memset(&sc, 0, sizeof sc);
  snprintf(sc.spec, sizeof sc.spec, "daily 03:00");
  snprintf(sc.plan_text, sizeof sc.plan_text, "name = quick\n");
  sc.enabled = 1;
  int64_t schedule_id = 0;
  CHECK_INT(store_schedule_add(s, &sc, "2026-01-01T00:00:00.000Z", &schedule_id, &err), TS_OK);
  CHECK_INT(store_schedule_event(s, schedule_id, STORE_SCHEDULE_STARTED, run_id, NULL,
                                 "2026-01-01T03:00:00.000Z", &err),
            TS_OK);
  CHECK_INT(store_schedule_event(s, schedule_id, STORE_SCHEDULE_MISSED, 0, "service not running",
                                 "2026-01-02T03:00:00.000Z", &err),
            TS_OK);
  CHECK_INT(store_schedule_event(s, schedule_id, STORE_SCHEDULE_SKIPPED, 0, "on battery power",
                                 "2026-01-03T03:00:00.000Z", &err),
            TS_OK);
  CHECK_INT(store_schedule_event(s, schedule_id, (store_schedule_outcome)7, 0, NULL,
                                 "2026-01-04T03:00:00.000Z", &err),
            TS_EINVAL);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM schedule_event WHERE what='started' AND "
                            "run_id IS NOT NULL"),
            1);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM schedule_event WHERE what IN "
                            "('missed','skipped') AND run_id IS NULL"),
            2);
  store_close(s);
}

/* Writes status texts this build does not know, as another program could: the CHECK constraints
   are switched off on a second connection. */
static void write_unchecked(const char *path, const char *sql) {
  sqlite3 *db;
  CHECK_INT(sqlite3_open(path, &db), SQLITE_OK);
  sqlite3_busy_timeout(db, 5000);
  CHECK_INT(sqlite3_exec(db, "PRAGMA ignore_check_constraints=ON", NULL, NULL, NULL), SQLITE_OK);
  CHECK_INT(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(db);
}

static int count_row(void *ctx, const store_run_row *row) {
  (void)row;
  (*(int *)ctx)++;
  return 0;
}

/* A status text the store does not know is an error naming the run or trial, the text and the
   accepted ones: never a crash, never a default. */
static void unknown_status_text_is_an_error(void) {
  const char *path = "store_unknown_status.db";
  remove_db(path);
  store *s;
  ts_err err;
  store_trial_plan trials[2] = {{1, 1, "baseline", "builtin-st", 0},
                                {2, 1, "baseline", "builtin-st", 0}};
  int64_t run_id = 0;
  CHECK_INT(store_open(&s, path, &err), TS_OK);
  CHECK_INT(store_run_begin(s, &info, trials, 2, &run_id, &err), TS_OK);

  write_unchecked(path, "UPDATE run SET status='paused' WHERE id=1");
  CHECK_INT(raw_query(path, "SELECT count(*) FROM run WHERE status='paused'"), 1);
  static store_run_row row;
  CHECK_INT(store_run_get(s, run_id, &row, &err), TS_ESTORE);
  CHECK_STR_CONTAINS(err.text, "run 1 in database store_unknown_status.db");
  CHECK_STR_CONTAINS(err.text, "'paused'");
  CHECK_STR_CONTAINS(err.text, "(accepted: running, finished, interrupted, failed)");
  int rows = 0;
  memset(&err, 0, sizeof err);
  CHECK_INT(store_runs(s, 10, count_row, &rows, &err), TS_ESTORE);
  CHECK_INT(rows, 0);
  CHECK_STR_CONTAINS(err.text, "'paused'");
  write_unchecked(path, "UPDATE run SET status='' WHERE id=1");
  CHECK_INT(store_run_get(s, run_id, &row, &err), TS_ESTORE);
  CHECK_STR_CONTAINS(err.text, "status ''");
  write_unchecked(path, "UPDATE run SET status='running' WHERE id=1");
  CHECK_INT(store_run_get(s, run_id, &row, &err), TS_OK);
  CHECK_INT(row.status, STORE_RUN_RUNNING);

  write_unchecked(path, "UPDATE trial SET status='skipped' WHERE seq=2");
  store_trial_status seen[2] = {STORE_TRIAL_DONE, STORE_TRIAL_DONE};
  CHECK_INT(store_run_trials(s, run_id, collect_status, seen, &err), TS_ESTORE);
  CHECK_STR_CONTAINS(err.text, "trial 2 of run 1 in database store_unknown_status.db");
  CHECK_STR_CONTAINS(err.text, "'skipped'");
  CHECK_STR_CONTAINS(err.text, "(accepted: pending, done, failed)");
  CHECK_INT(seen[0], STORE_TRIAL_PENDING); /* the rows before it were read */
  store_close(s);
}

static void records_a_score_typed_by_hand(void) {
  const char *path = "store_record.db";
  remove_db(path);
  store *s;
  ts_err err;
  int64_t run_id = 0, trial_id = 0;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(store_run_create_manual(s, &info, &run_id, &err), TS_OK);
  CHECK_INT(store_trial_record(s, run_id, "baseline", "cpuz-single", 512.5, "points",
                               "2026-01-01T00:00:00.000Z", &trial_id, &err),
            TS_OK);
  CHECK_INT(store_trial_record(s, run_id + 5, "baseline", "cpuz-single", 1, NULL,
                               "2026-01-01T00:00:00.000Z", &trial_id, &err),
            TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "there is no run");
  store_close(s);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE source='manual' AND score=512.5"), 1);
}

/* `record`'s door: a run of scores typed in is finished once a score is in (nothing left
   "running"), keeps one unit per benchmark, and a run ThreadSoup measured takes no typed-in score
   whether it finished or not; a refused score adds nothing. */
static void typed_in_scores_keep_to_their_runs(void) {
  const char *path = "store_score_record.db";
  remove_db(path);
  store *s;
  ts_err err;
  int64_t manual = 0, measured = 0, trial_id = 0;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  store_run_info typed = info;
  typed.plan_name = "manual";
  CHECK_INT(store_run_create_manual(s, &typed, &manual, &err), TS_OK);
  CHECK_INT(store_score_record(s, manual, "baseline", "cpuz-single", 512.5, "points",
                               "2026-01-01T00:01:00.000Z", &trial_id, &err),
            TS_OK);
  store_run_row *row = malloc(sizeof *row);
  REQUIRE(row != NULL);
  CHECK_INT(store_run_get(s, manual, row, &err), TS_OK);
  CHECK_INT(row->status, STORE_RUN_FINISHED);
  CHECK_STR_EQ(row->finished_at, "2026-01-01T00:01:00.000Z");
  CHECK_INT(store_score_record(s, manual, "sleep:5000", "cpuz-single", 500, "fps",
                               "2026-01-01T00:02:00.000Z", &trial_id, &err),
            TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "run 1 holds cpuz-single scores in points: a score in fps would "
                               "mix units in one table (accepted: --unit points, or another "
                               "--bench name)");
  CHECK_INT(store_score_record(s, manual, "sleep:5000", "cpuz-single", 500, NULL,
                               "2026-01-01T00:02:00.000Z", &trial_id, &err),
            TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "a score without a unit would mix units");
  CHECK_INT(store_score_record(s, manual, "sleep:5000", "cpuz-single", 500, "points",
                               "2026-01-01T00:03:00.000Z", &trial_id, &err),
            TS_OK);
  CHECK_INT(store_score_record(s, manual, "sleep:5000", "game-fps", 60, "fps",
                               "2026-01-01T00:04:00.000Z", &trial_id, &err),
            TS_OK);
  CHECK_INT(store_run_get(s, manual, row, &err), TS_OK);
  CHECK_INT(row->status, STORE_RUN_FINISHED);
  CHECK_STR_EQ(row->finished_at, "2026-01-01T00:04:00.000Z");

  store_trial_plan trials[1] = {{1, 1, "baseline", "builtin-st", 0}};
  CHECK_INT(store_run_begin(s, &info, trials, 1, &measured, &err), TS_OK);
  for (int finished = 0; finished < 2; finished++) {
    if (finished)
      CHECK_INT(
          store_run_end(s, measured, STORE_RUN_FINISHED, NULL, "2026-01-01T00:05:00.000Z", &err),
          TS_OK);
    CHECK_INT(store_score_record(s, measured, "baseline", "cpuz-single", 1, NULL,
                                 "2026-01-01T00:06:00.000Z", &trial_id, &err),
              TS_EDENIED);
    CHECK_STR_CONTAINS(err.text, "run 2 is a run ThreadSoup measured");
    CHECK_STR_CONTAINS(err.text, "(accepted: --run new, or a run that record made)");
  }
  free(row);
  store_close(s);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE source='manual'"), 3);
}

static void refuses_a_file_that_is_not_sqlite(void) {
  const char *path = "store_text.db";
  remove_db(path);
  FILE *f = fopen(path, "wb");
  REQUIRE(f != NULL);
  for (int i = 0; i < 200; i++)
    fprintf(f, "line %d of a text file that is certainly not a database\n", i);
  fclose(f);
  long before_len = 0, after_len = 0;
  char *before = slurp(path, &before_len);
  store *s = (store *)1;
  ts_err err;
  CHECK_INT(store_open(&s, path, &err), TS_EFOREIGN_DB);
  CHECK(s == NULL);
  CHECK_STR_CONTAINS(err.text, "is not a ThreadSoup database");
  CHECK_STR_CONTAINS(err.text, "left as is");
  char *after = slurp(path, &after_len);
  CHECK(before && after && before_len == after_len &&
        memcmp(before, after, (size_t)before_len) == 0);
  free(before);
  free(after);
}

static void refuses_another_programs_database(void) {
  const char *path = "store_foreign.db";
  remove_db(path);
  raw_exec(path, "CREATE TABLE recipes(name TEXT, minutes INT); "
                 "INSERT INTO recipes VALUES ('soup', 30);");
  long before_len = 0, after_len = 0;
  char *before = slurp(path, &before_len);
  store *s;
  ts_err err;
  CHECK_INT(store_open(&s, path, &err), TS_EFOREIGN_DB);
  CHECK_STR_CONTAINS(err.text, "another program");
  char *after = slurp(path, &after_len);
  CHECK(before && after && before_len == after_len &&
        memcmp(before, after, (size_t)before_len) == 0);
  CHECK_INT(raw_query(path, "SELECT minutes FROM recipes"), 30);
  free(before);
  free(after);
}

static void refuses_a_newer_database(void) {
  const char *path = "store_newer.db";
  remove_db(path);
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  store_close(s);
  raw_exec(path, "PRAGMA user_version=99");
  CHECK_INT(store_open(&s, path, &err), TS_ENEWER_DB);
  CHECK_STR_CONTAINS(err.text, "newer ThreadSoup (schema version 99");
  CHECK_INT(raw_query(path, "PRAGMA user_version"), 99);
}

/* Connections opening one new file at the same moment (the service starting while `history`
   reads) all succeed: none is told "database is locked" while another sets the file up. */
typedef struct opener {
  plat_thread thread;
  const char *path;
  volatile int *go;
  int rc;
  char text[256];
} opener;

static void open_when_told(void *arg) {
  opener *o = arg;
  while (!*o->go) {
  }
  store *s;
  ts_err err;
  o->rc = store_open(&s, o->path, &err);
  if (o->rc == TS_OK)
    store_close(s);
  else
    snprintf(o->text, sizeof o->text, "%s", err.text);
}

static void opened_by_many_at_once(void) {
  enum { OPENERS = 6, ROUNDS = 40 };
  int failed = 0;
  char first[256] = "";
  for (int round = 0; round < ROUNDS; round++) {
    const char *path = "at_once.db";
    remove_db(path);
    static opener openers[OPENERS];
    static volatile int go;
    go = 0;
    ts_err err;
    for (int i = 0; i < OPENERS; i++) {
      openers[i] = (opener){.path = path, .go = &go};
      CHECK_INT(plat_thread_start(&openers[i].thread, 0, open_when_told, &openers[i], &err), TS_OK);
    }
    go = 1;
    for (int i = 0; i < OPENERS; i++) {
      plat_thread_join(openers[i].thread);
      if (openers[i].rc != TS_OK && failed++ == 0)
        snprintf(first, sizeof first, "%s", openers[i].text);
    }
  }
  if (failed)
    fprintf(stderr, "  %d of %d opens failed; first: %s\n", failed, OPENERS * ROUNDS, first);
  CHECK_INT(failed, 0);
  remove_db("at_once.db");
}

/* The sidecars (-wal, -shm, -journal) are checked at every open before the database exists; once
   it does, Windows leaves them alone (another connection may be deleting its journal), POSIX
   checks them still. */
static void sidecars_checked_while_safe(void) {
  const char *path = "store_sidecars.db";
  remove_db(path);
  CHECK(plat_database_sidecars_inspectable(path));
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
#ifdef _WIN32
  CHECK(!plat_database_sidecars_inspectable(path));
#else
  CHECK(plat_database_sidecars_inspectable(path));
#endif
  store_close(s);
}

#ifndef _WIN32
/* Whoever can write the database decides what the service runs: a database, folder or sidecar
   that is someone else's, a link, or writable by everyone is refused at open, naming the file. */
static void refuses_files_that_are_not_ours(void) {
  const char *folder = "trust", *path = "trust/t.db";
  char side[64];
  store *s;
  ts_err err;
  mkdir(folder, 0700);
  chmod(folder, 0700);
  remove_db(path);
  remove("trust/t.db-journal");
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  store_close(s);

  /* A link where a sidecar goes. */
  snprintf(side, sizeof side, "%s-journal", path);
  CHECK_INT(symlink("/nonexistent-target", side), 0);
  CHECK_INT(store_open(&s, path, &err), TS_EDENIED);
  CHECK_STR_CONTAINS(err.text, "trust/t.db-journal is a symbolic link");
  remove(side);

  /* Writable by everyone. */
  chmod(path, 0666);
  CHECK_INT(store_open(&s, path, &err), TS_EDENIED);
  CHECK_STR_CONTAINS(err.text, "trust/t.db (owned by");
  CHECK_STR_CONTAINS(err.text, "writable by everyone (mode 666");
  chmod(path, 0644);

  if (geteuid() != 0) {
    fprintf(stderr, "  note: not root, so files of another user cannot be made; that part is "
                    "skipped\n");
  } else {
    /* A sidecar planted by another user (nobody, uid 65534) before the service opens. */
    snprintf(side, sizeof side, "%s-wal", path);
    FILE *f = fopen(side, "w");
    REQUIRE(f);
    fclose(f);
    CHECK_INT(chown(side, 65534, 65534), 0);
    CHECK_INT(store_open(&s, path, &err), TS_EDENIED);
    CHECK_STR_CONTAINS(err.text, "trust/t.db-wal belongs to");
    CHECK_STR_CONTAINS(err.text, "uid 65534");
    remove(side);
    /* The database itself, and its folder. */
    CHECK_INT(chown(path, 65534, 65534), 0);
    CHECK_INT(store_open(&s, path, &err), TS_EDENIED);
    CHECK_STR_CONTAINS(err.text, "trust/t.db belongs to");
    CHECK_INT(chown(path, 0, 0), 0);
    CHECK_INT(chown(folder, 65534, 65534), 0);
    CHECK_INT(store_open(&s, path, &err), TS_EDENIED);
    CHECK_STR_CONTAINS(err.text, "trust belongs to");
    CHECK_INT(chown(folder, 0, 0), 0);
  }
  CHECK_INT(store_open(&s, path, &err), TS_OK);
  store_close(s);
  remove_db(path);
  rmdir(folder);
}
#endif

int main(void) {
  RUN_CASE(migrations_match_the_version);
  RUN_CASE(creates_a_new_database);
  RUN_CASE(migrates_an_empty_file);
  RUN_CASE(reopens_with_its_runs);
  RUN_CASE(finished_trial_is_visible_at_once);
  RUN_CASE(trial_columns_match_the_trial_table);
  RUN_CASE(trial_values_as_reports_show_them);
  RUN_CASE(migrates_version_1_keeping_its_runs);
  RUN_CASE(migrates_version_4_marking_runs_to_resume);
  RUN_CASE(checkpoint_marks_and_reopen_clears);
  RUN_CASE(statuses_round_trip);
  RUN_CASE(unknown_status_text_is_an_error);
  RUN_CASE(records_a_score_typed_by_hand);
  RUN_CASE(typed_in_scores_keep_to_their_runs);
  RUN_CASE(refuses_a_file_that_is_not_sqlite);
  RUN_CASE(migrates_quiet_journal_to_deadlines);
  RUN_CASE(migrates_runs_of_typed_in_scores_to_finished);
  RUN_CASE(migrates_schedules_to_owners);
  RUN_CASE(migrates_runs_to_whom_they_were_started_for);
  RUN_CASE(refuses_another_programs_database);
  RUN_CASE(refuses_a_newer_database);
  RUN_CASE(opened_by_many_at_once);
  RUN_CASE(sidecars_checked_while_safe);
#ifndef _WIN32
  RUN_CASE(refuses_files_that_are_not_ours);
#endif
  return check_summary();
}

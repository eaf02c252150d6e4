/* test_store.c - the database: created and migrated from nothing, reopened, foreign or newer files
   refused and left untouched, each trial visible to other readers once it is finished. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "testdb.h"
#include "store/schema.h"
#include "store/store.h"
#include "threadsoup/plat.h"

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

static const store_run_info info = {
    "quick", "name=quick\n", 42, "2026-01-01T00:00:00.000Z", "host", "os", "cpu", 2, "0.0.0"};

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
  CHECK_STR_CONTAINS(row.status, "running");
  int64_t latest = 0;
  CHECK_INT(store_latest_run(s, &latest, &err), TS_OK);
  CHECK_INT(latest, run_id);
  CHECK_INT(store_run_get(s, run_id + 1, &row, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "there is no run");
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
                          "quiet gate timed out"};
  CHECK_INT(store_trial_finish(s, trials[0].id, &r, &err), TS_OK);
  /* Another connection sees it while this one is still open: it is committed. */
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE status='done' AND score=123.5"), 1);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial_metric"), 2);
  CHECK_INT(store_trial_fail(s, trials[1].id, "2026-01-01T00:00:03.000Z", "the OS said no", &err),
            TS_OK);
  CHECK_INT(
      store_run_end(s, run_id, "failed", "1 of 2 trials done", "2026-01-01T00:00:04.000Z", &err),
      TS_OK);
  store_run_row row;
  CHECK_INT(store_run_get(s, run_id, &row, &err), TS_OK);
  CHECK_INT(row.trials_done, 1);
  CHECK_INT(row.trials_failed, 1);
  CHECK_STR_CONTAINS(row.status, "failed");
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE warnings LIKE 'quiet gate%'"), 1);
  CHECK_INT(store_trial_finish(s, 99999, &r, &err), TS_ESTORE);
  CHECK_STR_CONTAINS(err.text, "trial 99999 is not a pending trial");
  /* A finished trial is never overwritten. */
  CHECK_INT(store_trial_finish(s, trials[0].id, &r, &err), TS_ESTORE);
  store_close(s);
}

static void migrates_version_1_keeping_its_runs(void) {
  const char *path = "store_v1.db";
  remove_db(path);
  /* A database as version 1 wrote it, with a run and a done trial. */
  char sql[4096];
  snprintf(sql, sizeof sql,
           "%s PRAGMA application_id=%d; PRAGMA user_version=1;"
           "INSERT INTO run VALUES (1,'quick','name = quick\n',7,'finished',NULL,"
           "'2026-01-01T00:00:00.000Z',NULL,'h','o','c',2,'0.1.0');"
           "INSERT INTO trial (run_id, seq, block, condition, bench, status, score) VALUES "
           "(1,1,1,'baseline','builtin-st','done',250.5);",
           schema_migration(1), STORE_APPLICATION_ID);
  raw_exec(path, sql);
  store *s;
  ts_err err;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(store_schema_version(s), STORE_SCHEMA_VERSION);
  store_run_row *row = malloc(sizeof *row);
  REQUIRE(row != NULL);
  CHECK_INT(store_run_get(s, 1, row, &err), TS_OK);
  CHECK_INT(row->trials_done, 1);
  CHECK_STR_CONTAINS(row->plan_text, "name = quick");
  free(row);
  store_close(s);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM trial WHERE source='measured' AND score=250.5"),
            1);
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

int main(void) {
  RUN_CASE(migrations_match_the_version);
  RUN_CASE(creates_a_new_database);
  RUN_CASE(migrates_an_empty_file);
  RUN_CASE(reopens_with_its_runs);
  RUN_CASE(finished_trial_is_visible_at_once);
  RUN_CASE(migrates_version_1_keeping_its_runs);
  RUN_CASE(records_a_score_typed_by_hand);
  RUN_CASE(refuses_a_file_that_is_not_sqlite);
  RUN_CASE(refuses_another_programs_database);
  RUN_CASE(refuses_a_newer_database);
  RUN_CASE(opened_by_many_at_once);
  return check_summary();
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_exchange.c - runs carried between databases: a run exported from one database and
   imported into another gives the same reports byte for byte; importing twice keeps one copy;
   damaged, newer and foreign files are refused with line and reason and change nothing; folders
   export and import; a plan's export-to writes the file when a real run finishes; FIFOs, links and
   endless lines planted in an export or import folder are refused without a wait. */
#define _DEFAULT_SOURCE /* symlink, mkfifo, lstat */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../service/src/exchange/export.h"
#include "../../service/src/exchange/import.h"
#include "../../service/src/experiment/experiment.h"
#include "../../service/src/plan/plan.h"
#include "check.h"
#include "testdb.h"
#include "testreport.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_doctor.h"
#include "threadsoup/units.h"

#ifndef _WIN32
#include <sys/stat.h>
#include <unistd.h>
#else
#include <windows.h>
#endif

#define DB_A "test_exchange_a.db"
#define DB_B "test_exchange_b.db"
#define FILE_1 "test_exchange_run.jsonl"
#define FOLDER "test_exchange_folder"

static store *a;
static int64_t run_a;

/* A run as a real one leaves it: warm-up, done and failed trials, metrics with awkward values,
   warnings, machine checks, timer resolutions and a quiet-mode entry. */
static void make_run(void) {
  ts_err err;
  remove_db(DB_A);
  CHECK_INT(store_open(&a, DB_A, &err), TS_OK);
  store_run_info info = {"mine",
                         "name = mine\nconditions = baseline, sleep:200@500ms\n",
                         UINT64_C(18446744073709551557), /* past INT64_MAX: stored as its bits */
                         "2026-01-01T00:00:00.000Z",
                         "host \"one\"",
                         "Linux 6.1",
                         "cpu caf\xc3\xa9",
                         8,
                         "0.1.0",
                         "0123456789abcdef0123456789abcdef",
                         UINT64_C(17179869184)};
  store_trial_plan trials[9];
  const char *conds[2] = {"baseline", "sleep:200@500ms"};
  int n = 0;
  trials[n] = (store_trial_plan){n + 1, 0, "baseline", "builtin-st", 0}, n++;
  for (int rep = 1; rep <= 4; rep++)
    for (int c = 0; c < 2; c++)
      trials[n] = (store_trial_plan){n + 1, rep, conds[c], "builtin-st", 0}, n++;
  CHECK_INT(store_run_begin(a, &info, trials, n, &run_a, &err), TS_OK);
  for (int i = 0; i < n; i++) {
    if (i == 4) {
      CHECK_INT(store_trial_fail(a, trials[i].id, "2026-01-01T00:01:00.000Z", "boom\n\"x\"", &err),
                TS_OK);
      continue;
    }
    /* Scores and metrics that only 17 digits carry exactly. */
    double score = (i % 2 ? 90.0 : 100.0) + i / 3.0 + 1e-13;
    store_metric metrics[3] = {{"load.switches_per_s", (i % 2) * 100.0 + 0.1},
                               {"census.threads", 1e300 / (i + 1)},
                               {"state.S (sleeping)", -0.0}};
    store_trial_result result = {"2026-01-01T00:00:01.000Z",
                                 "2026-01-01T00:00:02.000Z",
                                 score,
                                 "Mwork/s",
                                 0.1 * (i + 1),
                                 3,
                                 100 + i,
                                 900 + i,
                                 3,
                                 metrics,
                                 i == 3 ? "quiet gate skipped, \"busy\"\t" : NULL,
                                 "ac",
                                 "off",
                                 i == 2 ? "class1:3,class0:1" : "uniform"};
    CHECK_INT(store_trial_finish(a, trials[i].id, &result, &err), TS_OK);
    CHECK_INT(store_trial_timer(a, trials[i].id, "default", "default", 15.625 + i, &err), TS_OK);
  }
  store_doctor_row rows[2] = {
      {"timer", "ok", "a 1 ms sleep took 1.09 ms", 1.0917260000000001, "", "2026-01-01T00:00:00Z"},
      {"pids-max", "warn", "no limit", NAN, "raise it", "2026-01-01T00:00:00Z"}};
  CHECK_INT(store_doctor_save(a, run_a, rows, 2, &err), TS_OK);
  store_quiet_entry e;
  memset(&e, 0, sizeof e);
  snprintf(e.started_at, sizeof e.started_at, "2026-01-01T00:00:00.000Z");
  snprintf(e.reason, sizeof e.reason, "run %lld", (long long)run_a);
  e.defender_was = 1;
  e.restore_by = INT64_C(1796637600) - 3600;
  int64_t quiet_id = 0;
  CHECK_INT(store_quiet_begin(a, &e, &quiet_id, &err), TS_OK);
  e.defender_asked = 1;
  e.defender_confirmed = 1;
  e.update_asked_until = INT64_C(1796637600);
  snprintf(e.update_state, sizeof e.update_state, "written");
  snprintf(e.update_how, sizeof e.update_how, "not confirmed (after 5.0 s)");
  CHECK_INT(store_quiet_set_confirmed(a, quiet_id, &e, &err), TS_OK);
  CHECK_INT(store_quiet_set_run(a, quiet_id, run_a, &err), TS_OK);
  CHECK_INT(store_quiet_end(a, quiet_id, "2026-01-01T00:02:00.000Z", NULL, &err), TS_OK);
  CHECK_INT(
      store_run_end(a, run_a, STORE_RUN_FINISHED, "9 trials", "2026-01-01T00:02:00.000Z", &err),
      TS_OK);
}

static char *read_all(const char *path, long *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  *size = ftell(f);
  rewind(f);
  char *text = calloc(1, (size_t)*size + 1);
  if (text && fread(text, 1, (size_t)*size, f) != (size_t)*size) {
    free(text);
    text = NULL;
  }
  fclose(f);
  return text;
}

static void write_all(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* Every row of every table an import writes, summed: what must not change when one is refused. */
static long long rows_of(const char *path) {
  return raw_query(path, "SELECT (SELECT count(*) FROM run) + (SELECT count(*) FROM trial) + "
                         "(SELECT count(*) FROM trial_metric) + (SELECT count(*) FROM run_doctor) "
                         "+ (SELECT count(*) FROM quiet_journal)");
}

/* Removes from `text` the header's line that marks an imported run (text: "imported from FILE
   on DATE…", HTML: its <dt>imported</dt> entry); returns how many it removed. */
static int strip_imported_mark(char *text) {
  static const char *const marks[] = {"imported from ", "<dt>imported</dt>"};
  int removed = 0;
  for (char *line = text; line && *line;) {
    char *end = strchr(line, '\n');
    int marked = 0;
    for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++)
      marked |= strncmp(line, marks[k], strlen(marks[k])) == 0;
    if (marked && end) {
      memmove(line, end + 1, strlen(end + 1) + 1);
      removed++;
      continue;
    }
    line = end ? end + 1 : NULL;
  }
  return removed;
}

/* The reports of run id_x of x and of its import, run id_y of y, are the same but for the
   imported run's mark, which its text and HTML headers show once. */
static void reports_equal(store *x, int64_t id_x, store *y, int64_t id_y) {
  const report_format formats[] = {REPORT_FORMAT_TEXT, REPORT_FORMAT_JSON, REPORT_FORMAT_CSV,
                                   REPORT_FORMAT_HTML};
  for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
    char *rx = test_render_report(x, id_x, formats[i]);
    char *ry = test_render_report(y, id_y, formats[i]);
    int marked = formats[i] == REPORT_FORMAT_TEXT || formats[i] == REPORT_FORMAT_HTML;
    CHECK_INT(ry ? strip_imported_mark(ry) : -1, marked ? 1 : 0);
    CHECK(rx && ry && strlen(rx) > 500);
    if (rx && ry && strcmp(rx, ry) != 0)
      fprintf(stderr,
              "  the %d report differs after the round trip:\n--- exported\n%s\n--- "
              "imported\n%s\n",
              (int)formats[i], rx, ry);
    CHECK(rx && ry && strcmp(rx, ry) == 0);
    free(rx);
    free(ry);
  }
}

static void round_trip_gives_the_same_reports(void) {
  ts_err err;
  store *b = NULL;
  remove_db(DB_B);
  remove(FILE_1);
  REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
  CHECK_INT(exchange_export_file(a, run_a, FILE_1, &err), TS_OK);
  exchange_import_result r;
  CHECK_INT(exchange_import_file(b, FILE_1, &r, &err), TS_OK);
  CHECK_INT(r.already, 0);
  CHECK_INT(r.trials, 9);
  CHECK_INT(r.run_id, run_a); /* both databases' first run: the reports' ids agree too */
  reports_equal(a, run_a, b, r.run_id);

  store_run_row *ra = malloc(sizeof *ra), *rb = malloc(sizeof *rb);
  REQUIRE(ra && rb);
  CHECK_INT(store_run_get(a, run_a, ra, &err), TS_OK);
  CHECK_INT(store_run_get(b, r.run_id, rb, &err), TS_OK);
  CHECK_STR_EQ(rb->uid, ra->uid);
  CHECK_STR_EQ(r.uid, ra->uid);
  CHECK(rb->seed == UINT64_C(18446744073709551557));
  CHECK_STR_EQ(rb->machine_id, "0123456789abcdef0123456789abcdef");
  CHECK(rb->memory_bytes == UINT64_C(17179869184));
  CHECK_STR_EQ(rb->cpu, "cpu caf\xc3\xa9");
  CHECK_STR_EQ(rb->imported_from, FILE_1);
  CHECK(rb->imported_at[0] != '\0');
  CHECK_STR_EQ(ra->imported_from, "");
  free(ra);
  free(rb);
  /* Every stored bit of every double, not only what the reports show. */
  CHECK_INT(raw_query(DB_B, "SELECT count(*) FROM trial_metric WHERE value=1e300/3"), 1);
  CHECK_INT(raw_query(DB_B, "SELECT count(*) FROM trial WHERE score=100.0+2/3.0+1e-13"), 1);
  CHECK_INT(raw_query(DB_B, "SELECT count(*) FROM trial WHERE error='boom\n\"x\"'"), 1);

  /* Exported again from the importing database, the file is the same, byte for byte. */
  CHECK_INT(exchange_export_file(b, r.run_id, "test_exchange_again.jsonl", &err), TS_OK);
  long size1 = 0, size2 = 0;
  char *f1 = read_all(FILE_1, &size1), *f2 = read_all("test_exchange_again.jsonl", &size2);
  CHECK(f1 && f2 && size1 == size2 && memcmp(f1, f2, (size_t)size1) == 0);
  CHECK_STR_CONTAINS(f1, "{\"format\":\"threadsoup-run\",\"version\":1,");
  CHECK_STR_CONTAINS(f1, "{\"end\":true,\"trials\":9,");
  CHECK_STR_CONTAINS(f1, "\"seed\":-59,"); /* the bits of 2^64 - 59 as a signed integer */
  free(f1);
  free(f2);

  /* Twice: one copy, reported already there. */
  long long before = rows_of(DB_B);
  CHECK_INT(exchange_import_file(b, FILE_1, &r, &err), TS_OK);
  CHECK_INT(r.already, 1);
  CHECK_INT(r.run_id, 1);
  CHECK_INT(rows_of(DB_B), before);
  CHECK_INT(raw_query(DB_B, "SELECT count(*) FROM run"), 1);
  store_close(b);
}

/* The exported file with line `line` (1-based) replaced by `with` (NULL: the file cut after the
   line before it), written to path. */
static void variant(const char *path, int line, const char *with) {
  long size = 0;
  char *text = read_all(FILE_1, &size);
  REQUIRE(text != NULL);
  FILE *f = fopen(path, "wb");
  REQUIRE(f != NULL);
  int at = 1;
  for (char *p = text; *p;) {
    char *end = strchr(p, '\n');
    size_t len = end ? (size_t)(end - p) + 1 : strlen(p);
    if (at == line && !with)
      break;
    if (at == line)
      fprintf(f, "%s\n", with);
    else
      fwrite(p, 1, len, f);
    p += len;
    at++;
  }
  fclose(f);
  free(text);
}

static void refused(store *b, const char *path, const char *want) {
  ts_err err;
  exchange_import_result r;
  long long before = rows_of(DB_B);
  CHECK_INT(exchange_import_file(b, path, &r, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, path);
  CHECK_STR_CONTAINS(err.text, want);
  CHECK_STR_CONTAINS(err.text, "nothing was imported from it");
  CHECK_INT(rows_of(DB_B), before);
}

static void damaged_and_foreign_files_change_nothing(void) {
  ts_err err;
  store *b = NULL;
  remove_db(DB_B);
  REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
  CHECK_INT(rows_of(DB_B), 0);
  /* Line 12 is a trial's: the run, 2 checks, the quiet entry, then the trials. */
  variant("test_exchange_cut.jsonl", 12, NULL);
  refused(b, "test_exchange_cut.jsonl",
          ":12: the file ends without its trailer line {\"end\":true,...}: it is truncated");
  variant("test_exchange_v2.jsonl", 1,
          "{\"format\":\"threadsoup-run\",\"version\":2,\"threadsoup\":\"9.0\"}");
  refused(b, "test_exchange_v2.jsonl",
          ":1: written by a newer ThreadSoup: format version 2, and ThreadSoup");
  refused(b, "test_exchange_v2.jsonl", "reads version 1");
  write_all("test_exchange_foreign.jsonl", "{\"name\":\"package\",\"version\":\"1.0\"}\n");
  refused(b, "test_exchange_foreign.jsonl",
          ":1: not a ThreadSoup run export: its first line has no \"format\":\"threadsoup-run\"");
  write_all("test_exchange_text.jsonl", "hello, world\n");
  refused(b, "test_exchange_text.jsonl", ":1: not a ThreadSoup run export (not JSON)");
  write_all("test_exchange_empty.jsonl", "");
  refused(b, "test_exchange_empty.jsonl", ":1: an empty file");
  variant("test_exchange_badjson.jsonl", 7, "{\"record\":\"trial\",\"seq\":1,");
  refused(b, "test_exchange_badjson.jsonl",
          ":7: not JSON: an object member whose name is not a string at byte 27");
  variant("test_exchange_badtype.jsonl", 6,
          "{\"record\":\"trial\",\"seq\":\"one\",\"block\":0,\"condition\":\"baseline\","
          "\"bench\":\"builtin-st\",\"status\":\"done\"}");
  refused(b, "test_exchange_badtype.jsonl",
          ":6: the trial record's 'seq' is a string (accepted: a whole number");
  variant("test_exchange_unknown.jsonl", 6,
          "{\"record\":\"trial\",\"seq\":1,\"block\":0,\"condition\":\"baseline\","
          "\"bench\":\"builtin-st\",\"status\":\"done\",\"colour\":\"red\"}");
  refused(b, "test_exchange_unknown.jsonl",
          ":6: the trial record has a field 'colour' that this ThreadSoup does not know");
  variant("test_exchange_status.jsonl", 6,
          "{\"record\":\"trial\",\"seq\":1,\"block\":0,\"condition\":\"baseline\","
          "\"bench\":\"builtin-st\",\"status\":\"great\"}");
  refused(b, "test_exchange_status.jsonl", ":6: cannot store the trial record: CHECK constraint");
  variant("test_exchange_nobench.jsonl", 6,
          "{\"record\":\"trial\",\"seq\":1,\"block\":0,\"condition\":\"baseline\","
          "\"status\":\"done\"}");
  refused(b, "test_exchange_nobench.jsonl",
          ":6: cannot store the trial record: its 'bench' is missing or null (a trial record needs "
          "one");
  /* The trailer (line 39) after 2 checks, the quiet entry, 9 trials and 8 x 3 metrics. */
  variant("test_exchange_count.jsonl", 39, "{\"end\":true,\"trials\":8,\"records\":37}");
  refused(b, "test_exchange_count.jsonl", ":39: the trailer counts 8 trials");
  variant("test_exchange_kind.jsonl", 3, "{\"record\":\"secret\"}");
  refused(b, "test_exchange_kind.jsonl", ":3: a line that is neither a record");
  variant("test_exchange_uid.jsonl", 2, "{\"record\":\"run\",\"uid\":\"ABC\"}");
  refused(b, "test_exchange_uid.jsonl", ":2: the run record's 'uid' is 'ABC' (accepted: 32");
  variant("test_exchange_nul.jsonl", 3,
          "{\"record\":\"doctor\",\"position\":1,\"check_name\":\"a\\u0000b\"}");
  refused(b, "test_exchange_nul.jsonl", ":3: the field 'check_name' holds \\u0000");
  /* A metric of a trial the file does not hold is refused before anything is written. */
  variant("test_exchange_orphan.jsonl", 15,
          "{\"record\":\"metric\",\"seq\":99,\"name\":\"x\",\"value\":1.5}");
  refused(
      b, "test_exchange_orphan.jsonl",
      ":15: cannot store the metric of trial 99: the file holds no trial record with \"seq\":99");
  /* Lines after the trailer. */
  long size = 0;
  char *text = read_all(FILE_1, &size);
  REQUIRE(text != NULL);
  char *more = malloc((size_t)size + 16);
  REQUIRE(more != NULL);
  snprintf(more, (size_t)size + 16, "%s{}\n", text);
  write_all("test_exchange_after.jsonl", more);
  free(more);
  free(text);
  refused(b, "test_exchange_after.jsonl", "more lines after the trailer");
  CHECK_INT(rows_of(DB_B), 0);
  /* The unchanged file still imports. */
  exchange_import_result r;
  CHECK_INT(exchange_import_file(b, FILE_1, &r, &err), TS_OK);
  CHECK_INT(r.already, 0);
  CHECK(rows_of(DB_B) > 0);
  store_close(b);
}

/* Writes len bytes of data to path. */
static void write_bytes(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "wb");
  REQUIRE(f != NULL);
  CHECK(fwrite(data, 1, len, f) == len);
  fclose(f);
}

/* Empty lines, NUL bytes, CR line ends and lone bytes where the first line should be: each is
   refused with the line and the reason (an empty first line once crashed the reader). */
static void odd_first_lines_are_refused(void) {
  ts_err err;
  store *b = NULL;
  remove_db(DB_B);
  REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
  static const struct {
    const char *data;
    size_t len;
    const char *want;
  } cases[] = {
      {"\n", 1, ":1: not a ThreadSoup run export (not JSON)"},
      {"\n\n", 2, ":1: not a ThreadSoup run export (not JSON)"},
      {"\r\n", 2, ":1: not a ThreadSoup run export (not JSON)"},
      {"\0", 1, ":1: not a ThreadSoup run export (not JSON)"},
      {"{}\n", 3, ":1: not a ThreadSoup run export: its first line has no \"format\""},
      {"[]\n", 3, ":1: not a ThreadSoup run export (a JSON object per line)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    write_bytes("test_exchange_odd.jsonl", cases[i].data, cases[i].len);
    refused(b, "test_exchange_odd.jsonl", cases[i].want);
  }
  CHECK_INT(rows_of(DB_B), 0);
  store_close(b);
}

/* The export cut at many bytes and with bytes changed at fixed-seed random places: each import
   either refuses the file (with the file and a line) leaving the database as it was, or stores
   the run; only the whole file (or the file without its last newline) is stored when cut. */
static void mutated_files_are_refused_or_imported(void) {
  ts_err err;
  store *b = NULL;
  long size = 0;
  char *text = read_all(FILE_1, &size);
  REQUIRE(text != NULL);
  char *copy = malloc((size_t)size + 1);
  REQUIRE(copy != NULL);
  remove_db(DB_B);
  REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
  const char *path = "test_exchange_mutated.jsonl";
  int imported = 0, refusals = 0, wrong = 0;
  uint64_t x = UINT64_C(0x9e3779b97f4a7c15);
  /* Cuts at every byte of the first and last 160 bytes and at every 23rd byte between (the
     lines in between are alike), then 200 changes of 1 to 3 bytes each. */
  for (long k = 0; k <= size + 200; k++) {
    long len = size;
    memcpy(copy, text, (size_t)size);
    if (k <= size) {
      if (k > 160 && k < size - 160 && k % 23 != 0)
        continue;
      len = k;
    } else {
      int changes = 1 + (int)(k % 3);
      for (int c = 0; c < changes; c++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        static const char bytes[] = "\"{}[],:0-9.e\\u \n\r\0\xff\xc3";
        char with = (x >> 40) & 1 ? bytes[(x >> 32) % (sizeof bytes - 1)] : (char)(x >> 48);
        copy[(x >> 8) % (uint64_t)size] = with;
      }
    }
    write_bytes(path, copy, (size_t)len);
    exchange_import_result r;
    long long before = rows_of(DB_B);
    int rc = exchange_import_file(b, path, &r, &err);
    if (rc == TS_OK) {
      imported++;
      if (k <= size && k < size - 1)
        wrong++;
      /* Start again from an empty database for the next file. */
      store_close(b);
      remove_db(DB_B);
      REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
      continue;
    }
    refusals++;
    if (rc != TS_EINVAL || strncmp(err.text, path, strlen(path)) != 0 ||
        err.text[strlen(path)] != ':' || rows_of(DB_B) != before) {
      if (wrong++ < 5)
        fprintf(stderr, "case %ld: rc %d: %s\n", k, rc, err.text);
    }
  }
  CHECK_INT(wrong, 0);
  CHECK(imported >= 2); /* the whole file and the file without its last newline */
  CHECK(refusals > size / 23);
  CHECK_INT(raw_query(DB_B, "SELECT count(*) FROM pragma_quick_check WHERE quick_check != 'ok'"),
            0);
  store_close(b);
  free(copy);
  free(text);
}

/* A file in a folder that does not exist, or a missing folder: the message names the folder. */
static void export_to_a_missing_folder_names_it(void) {
  ts_err err;
  CHECK_INT(exchange_export_file(a, run_a, "test_exchange_no_such_folder/run.jsonl", &err),
            TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "cannot write test_exchange_no_such_folder/run.jsonl: there is no "
                               "folder test_exchange_no_such_folder (accepted: a file in an "
                               "existing folder, or an existing folder)");
  CHECK_INT(exchange_export_file(a, run_a, "test_exchange_no_such_folder/", &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "there is no folder test_exchange_no_such_folder/");
  CHECK(!plat_file_exists("test_exchange_no_such_folder"));
}

typedef struct outcomes {
  int imported, already, refused;
} outcomes;

static void count_outcome(void *ctx, const char *file, int rc, const exchange_import_result *r,
                          const ts_err *err) {
  outcomes *o = ctx;
  (void)file;
  (void)err;
  if (rc != TS_OK)
    o->refused++;
  else if (r->already)
    o->already++;
  else
    o->imported++;
}

static int remove_in_folder(void *ctx, const char *name) {
  char path[PLAT_PATH_MAX];
  (void)ctx;
  exchange_join_path(FOLDER, name, path, sizeof path);
  remove(path);
  return 0;
}

static int remove_in_folder_of(void *ctx, const char *name) {
  char path[PLAT_PATH_MAX];
  exchange_join_path(ctx, name, path, sizeof path);
  remove(path);
  return 0;
}

typedef struct conflict_log {
  int imported, already, conflicts, refused;
  char conflict_file[PLAT_PATH_MAX];
  char stored_from[PLAT_PATH_MAX];
} conflict_log;

static void log_outcome(void *ctx, const char *file, int rc, const exchange_import_result *r,
                        const ts_err *err) {
  conflict_log *l = ctx;
  if (rc != TS_OK) {
    fprintf(stderr, "  refused: %s\n", err->text);
    l->refused++;
  } else if (r->conflict) {
    l->conflicts++;
    snprintf(l->conflict_file, sizeof l->conflict_file, "%s", file);
    snprintf(l->stored_from, sizeof l->stored_from, "%s", r->stored_from);
  } else {
    *(r->already ? &l->already : &l->imported) += 1;
  }
}

/* A run exported into a folder (again: nothing new; over a different file: -2), a stray file and
   a hidden temporary one beside it; importing the folder takes the export files only. */
static void folders_export_and_import(void) {
  ts_err err;
  char path[PLAT_PATH_MAX];
  plat_mkdir_p(FOLDER, &err);
  remove_db(DB_B);
  /* Empty the folder of an earlier run of this test (other runs, other uids). */
  CHECK_INT(plat_list_folder(FOLDER, remove_in_folder, NULL, &err), TS_OK);
  char name[96];
  CHECK_INT(exchange_file_name(a, run_a, name, sizeof name, &err), TS_OK);
  exchange_join_path(FOLDER, name, path, sizeof path);
  char second[PLAT_PATH_MAX];
  snprintf(second, sizeof second, "%.*s-2.jsonl", (int)(strlen(path) - 6), path);

  CHECK_INT(exchange_export_to_folder(a, run_a, FOLDER, path, sizeof path, &err), TS_OK);
  CHECK_STR_CONTAINS(path, name);
  char again[PLAT_PATH_MAX];
  CHECK_INT(exchange_export_to_folder(a, run_a, FOLDER, again, sizeof again, &err), TS_OK);
  CHECK_STR_EQ(again, path); /* the same bytes: left as is */
  /* A different file of that name is never overwritten. */
  write_all(path, "something else\n");
  CHECK_INT(exchange_export_to_folder(a, run_a, FOLDER, again, sizeof again, &err), TS_OK);
  CHECK_STR_EQ(again, second);
  long size = 0;
  char *kept = read_all(path, &size);
  CHECK_STR_EQ(kept, "something else\n");
  free(kept);
  remove(path);
  CHECK_INT(exchange_export_to_folder(a, run_a, "no-such-folder-here", again, sizeof again, &err),
            TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "no-such-folder-here is not a folder");

  char other[PLAT_PATH_MAX];
  exchange_join_path(FOLDER, "notes.txt", other, sizeof other);
  write_all(other, "not an export\n");
  exchange_join_path(FOLDER, ".threadsoup-run-x.jsonl", other, sizeof other);
  write_all(other, "half a fi");
  store *b = NULL;
  REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
  outcomes o = {0, 0, 0};
  int files = 0;
  CHECK_INT(exchange_import_path(b, FOLDER, count_outcome, &o, &files, &err), TS_OK);
  CHECK_INT(files, 1);
  CHECK_INT(o.imported, 1);
  CHECK_INT(o.refused, 0);
  CHECK_INT(exchange_import_path(b, FOLDER, count_outcome, &o, &files, &err), TS_OK);
  CHECK_INT(o.already, 1);
  CHECK_INT(raw_query(DB_B, "SELECT count(*) FROM run"), 1);
  CHECK_INT(raw_query(DB_B, "SELECT count(*) FROM run WHERE imported_from LIKE '%-2.jsonl'"), 1);
  store_close(b);
}

/* Replaces the first `from` in text by the shorter or equal `to`; 0 when there is none. */
static int replace_once(char *text, const char *from, const char *to) {
  char *at = strstr(text, from);
  if (!at || strlen(to) > strlen(from))
    return 0;
  memmove(at + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
  memcpy(at, to, strlen(to));
  return 1;
}

static int count_trial(void *ctx, const store_history_trial *t) {
  (void)t;
  ++*(int *)ctx;
  return 0;
}

static int count_row(void *ctx, const store_run_row *row) {
  (void)row;
  ++*(int *)ctx;
  return 0;
}

#define SHARE "test_exchange_share"

/* A share folder where a forged twin of a run (its uid, another score) sorts before the genuine
   file: the twin comes in first, the genuine file is then a conflict naming the twin's file, not
   "already there", and nothing is overwritten; a file named for one run that carries another, and
   a timestamp not written as the exporter writes it, are refused naming what was wrong. */
static void forged_twins_are_conflicts(void) {
  ts_err err;
  char genuine[PLAT_PATH_MAX], forged[PLAT_PATH_MAX], name[96];
  plat_mkdir_p(SHARE, &err);
  CHECK_INT(plat_list_folder(SHARE, remove_in_folder_of, (void *)SHARE, &err), TS_OK);
  CHECK_INT(exchange_export_to_folder(a, run_a, SHARE, genuine, sizeof genuine, &err), TS_OK);
  CHECK_INT(exchange_file_name(a, run_a, name, sizeof name, &err), TS_OK);
  long size = 0;
  char *text = read_all(genuine, &size);
  REQUIRE(text != NULL);
  /* The forged twin: the same uid, one score changed, under a name that sorts first. */
  char *score = strstr(text, "\"score\":");
  REQUIRE(score != NULL);
  score[8] = score[8] == '9' ? '1' : '9';
  exchange_join_path(SHARE, "0-forged.jsonl", forged, sizeof forged);
  write_all(forged, text);
  free(text);

  remove_db(DB_B);
  store *b = NULL;
  REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
  conflict_log log;
  memset(&log, 0, sizeof log);
  int files = 0;
  CHECK_INT(exchange_import_path(b, SHARE, log_outcome, &log, &files, &err), TS_OK);
  CHECK_INT(files, 2);
  CHECK_INT(log.imported, 1);
  CHECK_INT(log.conflicts, 1);
  CHECK_INT(log.already, 0);
  CHECK_STR_CONTAINS(log.conflict_file, name);
  CHECK_STR_EQ(log.stored_from, forged);
  CHECK_INT(raw_query(DB_B, "SELECT count(*) FROM run"), 1);
  CHECK_INT(raw_query(DB_B, "SELECT count(*) FROM run WHERE imported_from LIKE '%0-forged.jsonl'"),
            1);
  long long rows = rows_of(DB_B);
  /* Again: the twin is the same as what is stored, the genuine file still a conflict. */
  memset(&log, 0, sizeof log);
  CHECK_INT(exchange_import_path(b, SHARE, log_outcome, &log, &files, &err), TS_OK);
  CHECK_INT(log.already, 1);
  CHECK_INT(log.conflicts, 1);
  CHECK_INT(rows_of(DB_B), rows);

  /* The genuine contents under another run's name: refused, naming both uids. */
  char misnamed[PLAT_PATH_MAX];
  exchange_join_path(SHARE, "threadsoup-run-00000000000000000000000000000000.jsonl", misnamed,
                     sizeof misnamed);
  text = read_all(genuine, &size);
  REQUIRE(text != NULL);
  write_all(misnamed, text);
  free(text);
  exchange_import_result r;
  CHECK_INT(exchange_import_file(b, misnamed, &r, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, ":1: the file's name says run 00000000000000000000000000000000 "
                               "and its header says run ");
  char uid[40];
  snprintf(uid, sizeof uid, "%.32s", name + strlen("threadsoup-run-"));
  CHECK_STR_CONTAINS(err.text, uid);
  remove(misnamed);
  /* A later copy's name (-2) is the run's too. */
  exchange_join_path(SHARE, name, misnamed, sizeof misnamed);
  snprintf(misnamed + strlen(misnamed) - 6, 10, "-2.jsonl");
  text = read_all(genuine, &size);
  REQUIRE(text != NULL);
  write_all(misnamed, text);
  free(text);
  CHECK_INT(exchange_import_file(b, misnamed, &r, &err), TS_OK);
  CHECK_INT(r.conflict, 1);
  remove(misnamed);
  store_close(b);

  /* A timestamp not as the exporter writes it: refused naming the field and the line. */
  remove_db(DB_B);
  REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
  text = read_all(FILE_1, &size);
  REQUIRE(text != NULL);
  REQUIRE(replace_once(text, "\"started_at\":\"2026-01-01T00:00:00.000Z\"",
                       "\"started_at\":\"yesterday, at noon\""));
  write_all("test_exchange_time.jsonl", text);
  free(text);
  refused(b, "test_exchange_time.jsonl",
          ":2: the run record's 'started_at' is 'yesterday, at noon' (accepted: a UTC time");
  store_close(b);
}

/* Imported runs are not this machine's to resume, and a quiet-mode entry still open where the run
   was measured is closed here: this machine's quiet mode is not on. */
static void imported_runs_stay_inert(void) {
  ts_err err;
  remove(FILE_1);
  /* Whom the service started a run for stays here: not written, and not taken from a file. */
  store_owner member = {1, 1000, "", "alex-owner", 1};
  CHECK_INT(store_run_set_origin(a, run_a, 0, &member, &err), TS_OK);
  CHECK_INT(exchange_export_file(a, run_a, FILE_1, &err), TS_OK);
  long size = 0;
  char *text = read_all(FILE_1, &size);
  REQUIRE(text != NULL);
  CHECK(strstr(text, "owner") == NULL);
  CHECK(strstr(text, "alex-owner") == NULL);
  char *forged = malloc((size_t)size + 1);
  REQUIRE(forged != NULL);
  memcpy(forged, text, (size_t)size + 1);
  REQUIRE(replace_once(forged, "\"runner\":\"service\"", "\"owner_uid\":1000"));
  write_all("test_exchange_owner.jsonl", forged);
  free(forged);
  /* The run marked running, the quiet entry open. */
  REQUIRE(replace_once(text, "\"status\":\"finished\"", "\"status\":\"running\""));
  REQUIRE(
      replace_once(text, "\"restored_at\":\"2026-01-01T00:02:00.000Z\"", "\"restored_at\":null"));
  write_all("test_exchange_running.jsonl", text);
  free(text);
  remove_db(DB_B);
  store *b = NULL;
  REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
  refused(b, "test_exchange_owner.jsonl",
          ":2: the run record has a field 'owner_uid' that this ThreadSoup does not know");
  exchange_import_result r;
  CHECK_INT(exchange_import_file(b, "test_exchange_running.jsonl", &r, &err), TS_OK);
  if (err.code)
    fprintf(stderr, "  %s\n", err.text);
  static store_run_row row;
  CHECK_INT(store_run_get(b, r.run_id, &row, &err), TS_OK);
  CHECK_INT(row.started_for.known, 0);
  CHECK_INT(raw_query(DB_B, "SELECT count(*) FROM run WHERE status='running'"), 1);
  int found = 1;
  store_quiet_entry e;
  CHECK_INT(store_quiet_open_entry(b, &e, &found, &err), TS_OK);
  CHECK_INT(found, 0);
  CHECK_INT(store_quiet_run_entry(b, r.run_id, &e, &found, &err), TS_OK);
  CHECK_INT(found, 1);
  CHECK_STR_CONTAINS(e.restore_error, "closed by the import");
  CHECK_INT(store_quiet_last_entry(b, &e, &found, &err), TS_OK);
  CHECK_INT(found, 0); /* the measuring machine's quiet mode, not this one's */
  /* Nor are its trials this machine's history for estimates, though the host name is the same. */
  int history = 0;
  CHECK_INT(
      store_bench_history(a, "host \"one\"", "builtin-st", "baseline", count_trial, &history, &err),
      TS_OK);
  CHECK(history > 0);
  history = 0;
  CHECK_INT(
      store_bench_history(b, "host \"one\"", "builtin-st", "baseline", count_trial, &history, &err),
      TS_OK);
  CHECK_INT(history, 0);
  int unfinished = 0;
  CHECK_INT(store_unfinished_runs(b, count_row, &unfinished, &err), TS_OK);
  CHECK_INT(unfinished, 0);
  store_close(b);
}

/* A plan with export-to: the finished run's file appears in the folder and imports. */
static void plan_export_to_writes_the_file(void) {
  ts_err err;
  plat_mkdir_p("test_exchange_to", &err);
  remove_db("test_exchange_run.db");
  store *s = NULL;
  REQUIRE(store_open(&s, "test_exchange_run.db", &err) == TS_OK);
  plan p;
  REQUIRE(plan_parse("conditions = baseline\nbench = builtin-st\nreps = 1\nwarmup = 0\n"
                     "settle = 100ms\nwork-scale = 0.02\nquiet-cpu = off\n"
                     "export-to = test_exchange_to\n",
                     "test", &p, &err) == TS_OK);
  int64_t id = 0;
  int rc = experiment_run(s, &p, 7, NULL, NULL, &id, &err);
  if (rc != TS_OK)
    fprintf(stderr, "  run: %s\n", err.text);
  REQUIRE(rc == TS_OK);
  char name[96], path[PLAT_PATH_MAX];
  CHECK_INT(exchange_file_name(s, id, name, sizeof name, &err), TS_OK);
  exchange_join_path("test_exchange_to", name, path, sizeof path);
  CHECK(plat_file_exists(path));
  store_run_row *row = malloc(sizeof *row);
  REQUIRE(row != NULL);
  CHECK_INT(store_run_get(s, id, row, &err), TS_OK);
  CHECK_INT(row->status, STORE_RUN_FINISHED);
  CHECK(strstr(row->status_detail, "export-to failed") == NULL);
  free(row);
  remove_db(DB_B);
  store *b = NULL;
  REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
  exchange_import_result r;
  CHECK_INT(exchange_import_file(b, path, &r, &err), TS_OK);
  CHECK_INT(r.trials, 1);
  reports_equal(s, id, b, r.run_id);
  store_close(b);
  remove(path);

  /* A folder that is not there: the run still finishes, and says why there is no file. */
  REQUIRE(plan_parse("conditions = baseline\nbench = builtin-st\nreps = 1\nwarmup = 0\n"
                     "settle = 100ms\nwork-scale = 0.02\nquiet-cpu = off\n"
                     "export-to = test_exchange_missing_folder\n",
                     "test", &p, &err) == TS_OK);
  rc = experiment_run(s, &p, 7, NULL, NULL, &id, &err);
  CHECK_INT(rc, TS_OK);
  row = malloc(sizeof *row);
  REQUIRE(row != NULL);
  CHECK_INT(store_run_get(s, id, row, &err), TS_OK);
  CHECK_INT(row->status, STORE_RUN_FINISHED);
  CHECK_STR_CONTAINS(row->status_detail,
                     "export-to failed: test_exchange_missing_folder is not a folder");
  free(row);
  store_close(s);
}

typedef struct doc_check {
  const char *doc;
  int missing;
} doc_check;

/* Each member of each record is in its kind's row of docs/schema.md's table of export files. */
static int member_documented(void *ctx, const store_record *rec) {
  doc_check *d = ctx;
  char head[48], want[80];
  snprintf(head, sizeof head, "\n| `%s` |", store_record_kind_name(rec->kind));
  const char *row = strstr(d->doc, head);
  const char *end = row ? strchr(row + 1, '\n') : NULL;
  for (int i = 0; i < rec->count; i++) {
    snprintf(want, sizeof want, "`%s`", rec->values[i].name);
    const char *at = row ? strstr(row, want) : NULL;
    if (!at || at > end) {
      fprintf(stderr, "  docs/schema.md: the %s row lacks %s\n", head + 1, want);
      d->missing++;
    }
  }
  return 0;
}

static const char *doc_path;

static void the_format_is_documented(void) {
  long size = 0;
  char *doc = read_all(doc_path, &size);
  REQUIRE(doc != NULL);
  const char *section = strstr(doc, "## Export files");
  REQUIRE(section != NULL);
  CHECK_STR_CONTAINS(section, "**Format `threadsoup-run`, version 1.**");
  doc_check d = {section, 0};
  ts_err err;
  CHECK_INT(store_run_export(a, run_a, member_documented, &d, &err), TS_OK);
  CHECK_INT(d.missing, 0);
  free(doc);
}

/* A folder where the tests plant what a user who may write a share could. */
#define HOSTILE "test_exchange_hostile"

/* What a folder import did with each file: how many imported, and each refusal with its file. */
typedef struct named_outcomes {
  int imported;
  char refused[1024];
} named_outcomes;

static void name_outcome(void *ctx, const char *file, int rc, const exchange_import_result *r,
                         const ts_err *err) {
  named_outcomes *o = ctx;
  (void)r;
  if (rc == TS_OK)
    o->imported++;
  else
    snprintf(o->refused + strlen(o->refused), sizeof o->refused - strlen(o->refused), "%s: %s\n",
             file, err->text);
}

#ifndef _WIN32

/* Empties HOSTILE (files, links and FIFOs of an earlier run of this test) and makes it. */
static void fresh_hostile_folder(void) {
  ts_err err;
  plat_mkdir_p(HOSTILE, &err);
  CHECK_INT(system("rm -rf " HOSTILE "/* " HOSTILE "/.[!.]* " HOSTILE "-link"), 0);
}

/* A FIFO or a symbolic link planted at the export's final name (predictable: it holds the run's
   uid) is refused, named, without waiting on the FIFO or reading what the link points at; the
   export file is made 0640; a folder that is a symbolic link is refused, naming it. */
static void export_refuses_what_others_planted(void) {
  ts_err err;
  char name[96], planted[PLAT_PATH_MAX], written[PLAT_PATH_MAX];
  fresh_hostile_folder();
  CHECK_INT(exchange_file_name(a, run_a, name, sizeof name, &err), TS_OK);
  exchange_join_path(HOSTILE, name, planted, sizeof planted);
  REQUIRE(mkfifo(planted, 0666) == 0);
  alarm(20); /* a wait on the FIFO ends the test as a failure, not as a hang */
  CHECK_INT(exchange_export_to_folder(a, run_a, HOSTILE, written, sizeof written, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, name);
  CHECK_STR_CONTAINS(err.text, "is a FIFO (named pipe): refused (accepted: a regular file)");
  remove(planted);
  REQUIRE(symlink("/etc/passwd", planted) == 0);
  CHECK_INT(exchange_export_to_folder(a, run_a, HOSTILE, written, sizeof written, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "is a symbolic link: refused");
  alarm(0);
  /* Neither left a temporary file behind. */
  CHECK_INT(system("test $(ls -A " HOSTILE " | wc -l) -eq 1"), 0);
  remove(planted);

  mode_t was = umask(022);
  CHECK_INT(exchange_export_to_folder(a, run_a, HOSTILE, written, sizeof written, &err), TS_OK);
  struct stat st;
  CHECK(stat(written, &st) == 0 && (st.st_mode & 0777) == 0640);
  CHECK_INT(exchange_export_file(a, run_a, HOSTILE "/named.jsonl", &err), TS_OK);
  CHECK(stat(HOSTILE "/named.jsonl", &st) == 0 && (st.st_mode & 0777) == 0640);
  umask(was);
  /* The file a user names replaces a link there, never what the link points at. */
  remove(HOSTILE "/named.jsonl");
  write_all(HOSTILE "/target.txt", "kept\n");
  REQUIRE(symlink("target.txt", HOSTILE "/named.jsonl") == 0);
  CHECK_INT(exchange_export_file(a, run_a, HOSTILE "/named.jsonl", &err), TS_OK);
  long size = 0;
  char *kept = read_all(HOSTILE "/target.txt", &size);
  CHECK_STR_EQ(kept, "kept\n");
  free(kept);
  CHECK(lstat(HOSTILE "/named.jsonl", &st) == 0 && S_ISREG(st.st_mode));

  REQUIRE(symlink(HOSTILE, HOSTILE "-link") == 0);
  CHECK_INT(exchange_export_to_folder(a, run_a, HOSTILE "-link", written, sizeof written, &err),
            TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, HOSTILE "-link is a symbolic link: refused");
  CHECK_INT(exchange_export_to_folder(a, run_a, HOSTILE "-link/", written, sizeof written, &err),
            TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "is a symbolic link: refused");
  CHECK_INT(exchange_export_file(a, run_a, HOSTILE "-link/run.jsonl", &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, HOSTILE "-link is a symbolic link: refused");
  remove(HOSTILE "-link");
}

/* A collector's folder holding a FIFO, a link to /dev/zero, a link to a good file and a line of
   no end beside a good file: the good file is imported, each other is named with why, quickly. */
static void folder_import_skips_what_is_not_a_file(void) {
  ts_err err;
  char written[PLAT_PATH_MAX];
  fresh_hostile_folder();
  CHECK_INT(exchange_export_to_folder(a, run_a, HOSTILE, written, sizeof written, &err), TS_OK);
  REQUIRE(mkfifo(HOSTILE "/a-fifo.jsonl", 0666) == 0);
  REQUIRE(symlink("/dev/zero", HOSTILE "/b-zero.jsonl") == 0);
  REQUIRE(symlink(written + strlen(HOSTILE) + 1, HOSTILE "/c-link.jsonl") == 0);
  /* 17 MiB without a newline. */
  FILE *f = fopen(HOSTILE "/d-long.jsonl", "wb");
  REQUIRE(f != NULL);
  for (int i = 0; i < 17 * 1024; i++)
    fputs("                                                                                    "
          "                                                                                    "
          "                                                                                    "
          "                                                                                    "
          "                                                                                    "
          "                                                                                    "
          "                                                                                    "
          "                                                                                    "
          "                                                                                    "
          "                                                                                    "
          "                                                                                    "
          "                                                                                    "
          "                                                                 ",
          f);
  fclose(f);
  remove_db(DB_B);
  store *b = NULL;
  REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
  named_outcomes o = {0, ""};
  int files = 0;
  alarm(20);
  CHECK_INT(exchange_import_path(b, HOSTILE, name_outcome, &o, &files, &err), TS_OK);
  alarm(0);
  CHECK_INT(files, 5);
  CHECK_INT(o.imported, 1);
  CHECK_STR_CONTAINS(o.refused,
                     HOSTILE "/a-fifo.jsonl: " HOSTILE
                             "/a-fifo.jsonl is a FIFO (named pipe): refused (accepted: a "
                             "regular file)");
  CHECK_STR_CONTAINS(o.refused,
                     HOSTILE "/b-zero.jsonl: " HOSTILE "/b-zero.jsonl is a symbolic link: refused");
  CHECK_STR_CONTAINS(o.refused,
                     HOSTILE "/c-link.jsonl: " HOSTILE "/c-link.jsonl is a symbolic link: refused");
  CHECK_STR_CONTAINS(o.refused, HOSTILE "/d-long.jsonl:1: a line longer than 16 MiB");
  CHECK_INT(raw_query(DB_B, "SELECT count(*) FROM run"), 1);
  /* One file named: the same checks. */
  exchange_import_result result;
  CHECK_INT(exchange_import_file(b, HOSTILE "/b-zero.jsonl", &result, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "is a symbolic link: refused");
  /* A folder that is a link is refused whole. */
  REQUIRE(symlink(HOSTILE, HOSTILE "-link") == 0);
  CHECK_INT(exchange_import_path(b, HOSTILE "-link", name_outcome, &o, &files, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, HOSTILE "-link is a symbolic link: refused");
  remove(HOSTILE "-link");
  store_close(b);
}
#endif

#ifdef _WIN32
/* The Unix path of a path on Wine's Z: drive (the Linux root); "" for any other path. */
static void unix_path_of(const char *path, char *out, size_t len) {
  char full[MAX_PATH];
  DWORD n = GetFullPathNameA(path, sizeof full, full, NULL);
  out[0] = '\0';
  if (n == 0 || n >= sizeof full || (full[0] != 'Z' && full[0] != 'z') || full[1] != ':')
    return;
  snprintf(out, len, "%s", full + 2);
  for (char *p = out; *p; p++)
    if (*p == '\\')
      *p = '/';
}

/* Starts `sh -c command` on Wine's Unix side (Wine starts a Unix program named by its path): what
   another user of a share could plant there. 0 when it could not be started. Wine neither waits
   for such a program nor gives its exit code: callers wait for what it does (until_entries). */
static int unix_sh(const char *command) {
  char narrow[2048];
  wchar_t line[2048];
  snprintf(narrow, sizeof narrow, "sh -c \"%s\"", command);
  if (!MultiByteToWideChar(CP_UTF8, 0, narrow, -1, line, 2048))
    return 0;
  STARTUPINFOW si = {.cb = sizeof si};
  PROCESS_INFORMATION pi;
  if (!CreateProcessW(L"Z:\\bin\\sh", line, NULL, NULL, FALSE, 0, NULL, NULL, &si, &pi))
    return 0;
  CloseHandle(pi.hProcess);
  CloseHandle(pi.hThread);
  return 1;
}

static int count_name(void *ctx, const char *name) {
  (void)name;
  ++*(int *)ctx;
  return 0;
}

static int entries_of(const char *folder) {
  int n = 0;
  ts_err err;
  CHECK_INT(plat_list_folder(folder, count_name, &n, &err), TS_OK);
  return n;
}

/* Runs command (unix_sh), then waits up to 20 s for the folder to hold `expected` entries; 1 when
   it does. */
static int unix_sh_until(const char *command, const char *folder, int expected) {
  if (!unix_sh(command))
    return 0;
  for (int i = 0; i < 200 && entries_of(folder) != expected; i++)
    plat_sleep_ns(100 * TS_NS_PER_MS);
  return entries_of(folder) == expected;
}

/* The Windows half's checks under Wine, with what another user planted from the Unix side: a
   FIFO is a named pipe to Wine and a Unix link to /dev/zero a device, so both are refused at the
   export's final name (naming it, without waiting, leaving no temporary file) and skipped by the
   folder import, whose good file is still imported; a named pipe and a device named as the file
   to import are refused; temporary files get random names. What Wine cannot show: it presents a
   Unix link to a file as the file itself and one to a folder as the folder when opened (no
   reparse point), and CreateSymbolicLinkW creates nothing, so the refusals of reparse points
   (links and junctions) are shown by the native tests of the POSIX half only. */
static void wine_refuses_what_others_planted(void) {
  if (!plat_wine_version()) {
    fprintf(stderr, "  skipped: planting a FIFO needs Wine's Unix side\n");
    return;
  }
  ts_err err;
  char folder[PLAT_PATH_MAX], command[PLAT_PATH_MAX * 3], name[96], written[PLAT_PATH_MAX];
  REQUIRE(plat_mkdir_p(HOSTILE, &err) == TS_OK);
  unix_path_of(HOSTILE, folder, sizeof folder);
  REQUIRE(folder[0] != '\0');
  snprintf(command, sizeof command, "rm -rf %s/* %s/.[!.]*", folder, folder);
  REQUIRE(unix_sh_until(command, HOSTILE, 0));
  CHECK_INT(exchange_file_name(a, run_a, name, sizeof name, &err), TS_OK);

  for (int i = 0; i < 2; i++) {
    snprintf(command, sizeof command, "%s %s/%s", i ? "ln -s /dev/zero" : "mkfifo", folder, name);
    REQUIRE(unix_sh_until(command, HOSTILE, 1));
    uint64_t began = plat_clock_ns();
    CHECK_INT(exchange_export_to_folder(a, run_a, HOSTILE, written, sizeof written, &err),
              TS_EINVAL);
    CHECK_STR_CONTAINS(err.text, name);
    CHECK_STR_CONTAINS(err.text, "is a named pipe or a device: refused (accepted: a regular file)");
    CHECK(plat_clock_ns() - began < 10 * TS_NS_PER_S);
    CHECK_INT(entries_of(HOSTILE), 1); /* what was planted, and no temporary file */
    snprintf(command, sizeof command, "rm -f %s/%s", folder, name);
    REQUIRE(unix_sh_until(command, HOSTILE, 0));
  }

  CHECK_INT(exchange_export_to_folder(a, run_a, HOSTILE, written, sizeof written, &err), TS_OK);
  snprintf(command, sizeof command, "mkfifo %s/a-fifo.jsonl && ln -s /dev/zero %s/b-zero.jsonl",
           folder, folder);
  REQUIRE(unix_sh_until(command, HOSTILE, 3));
  remove_db(DB_B);
  store *b = NULL;
  REQUIRE(store_open(&b, DB_B, &err) == TS_OK);
  named_outcomes o = {0, ""};
  int files = 0;
  CHECK_INT(exchange_import_path(b, HOSTILE, name_outcome, &o, &files, &err), TS_OK);
  CHECK_INT(files, 3);
  CHECK_INT(o.imported, 1);
  CHECK_STR_CONTAINS(o.refused, "a-fifo.jsonl is a named pipe or a device: refused");
  CHECK_STR_CONTAINS(o.refused, "b-zero.jsonl is a named pipe or a device: refused");

  /* A named pipe and a device named as the file: refused before anything is read. */
  HANDLE pipe = CreateNamedPipeW(L"\\\\.\\pipe\\threadsoup-test-exchange", PIPE_ACCESS_DUPLEX, 0, 1,
                                 4096, 4096, 0, NULL);
  CHECK(pipe != INVALID_HANDLE_VALUE);
  exchange_import_result result;
  CHECK_INT(exchange_import_file(b, "\\\\.\\pipe\\threadsoup-test-exchange", &result, &err),
            TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "is a named pipe or a device: refused");
  CloseHandle(pipe);
  CHECK_INT(exchange_import_file(b, "NUL", &result, &err), TS_EINVAL);
  CHECK_STR_CONTAINS(err.text, "NUL is a named pipe or a device: refused");
  store_close(b);

  /* Temporary files: a new random name each, never one that is there. */
  plat_folder *d = NULL;
  char first[64], second[64];
  FILE *f1 = NULL, *f2 = NULL;
  REQUIRE(plat_folder_open(HOSTILE, &d, &err) == TS_OK);
  CHECK_INT(plat_folder_create_temp(d, ".t", first, sizeof first, &f1, &err), TS_OK);
  CHECK_INT(plat_folder_create_temp(d, ".t", second, sizeof second, &f2, &err), TS_OK);
  CHECK(strcmp(first, second) != 0);
  CHECK_INT((int)strlen(first), (int)strlen(".t.0123456789abcdef.tmp"));
  if (f1)
    fclose(f1);
  if (f2)
    fclose(f2);
  plat_folder_remove(d, first);
  plat_folder_remove(d, second);
  plat_folder_close(d);
}
#endif

int main(int argc, char **argv) {
  doc_path = argc > 1 ? argv[1] : "docs/schema.md";
  make_run();
  RUN_CASE(the_format_is_documented);
  RUN_CASE(round_trip_gives_the_same_reports);
  RUN_CASE(damaged_and_foreign_files_change_nothing);
  RUN_CASE(odd_first_lines_are_refused);
  RUN_CASE(mutated_files_are_refused_or_imported);
  RUN_CASE(export_to_a_missing_folder_names_it);
  RUN_CASE(folders_export_and_import);
  RUN_CASE(forged_twins_are_conflicts);
  RUN_CASE(imported_runs_stay_inert);
  RUN_CASE(plan_export_to_writes_the_file);
#ifndef _WIN32
  RUN_CASE(export_refuses_what_others_planted);
  RUN_CASE(folder_import_skips_what_is_not_a_file);
#else
  RUN_CASE(wine_refuses_what_others_planted);
#endif
  store_close(a);
  return check_summary();
}

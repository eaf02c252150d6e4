/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* fuzz_import.c - libFuzzer target: any bytes imported as a run export file into one database
   are stored or refused (TS_EINVAL naming the file), never crashed on; a refusal leaves the row
   counts as they were. */
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../service/src/exchange/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static store *db;
static char db_path[64], file_path[64];

/* Every row an import writes, through a connection of its own. */
static long long rows(void) {
  sqlite3 *c;
  sqlite3_stmt *st;
  long long n = -1;
  if (sqlite3_open_v2(db_path, &c, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
      sqlite3_prepare_v2(c,
                         "SELECT (SELECT count(*) FROM run) + (SELECT count(*) FROM trial) + "
                         "(SELECT count(*) FROM trial_metric) + (SELECT count(*) FROM run_doctor) "
                         "+ (SELECT count(*) FROM quiet_journal)",
                         -1, &st, NULL) == SQLITE_OK) {
    if (sqlite3_step(st) == SQLITE_ROW)
      n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
  }
  sqlite3_close(c);
  return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ts_err err;
  if (!db) {
    snprintf(db_path, sizeof db_path, "fuzz_import_%d.db", (int)getpid());
    snprintf(file_path, sizeof file_path, "fuzz_import_%d.jsonl", (int)getpid());
    remove(db_path);
    if (store_open(&db, db_path, &err) != TS_OK)
      __builtin_trap();
  }
  FILE *f = fopen(file_path, "wb");
  if (!f)
    __builtin_trap();
  fwrite(data, 1, size, f);
  fclose(f);
  long long before = rows();
  exchange_import_result r;
  int rc = exchange_import_file(db, file_path, &r, &err);
  if (rc != TS_OK && (rc != TS_EINVAL || strncmp(err.text, file_path, strlen(file_path)) != 0 ||
                      rows() != before)) {
    fprintf(stderr, "rc %d: %s\n", rc, err.text);
    __builtin_trap();
  }
  return 0;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* testdb.h - database helpers shared by the unit tests: remove a test database with its WAL
   files, and read one number through a separate connection, as another reader sees it. */
#ifndef THREADSOUP_TESTDB_H
#define THREADSOUP_TESTDB_H

#include <sqlite3.h>
#include <stdio.h>

static inline void remove_db(const char *path) {
  char extra[256];
  remove(path);
  snprintf(extra, sizeof extra, "%s-wal", path);
  remove(extra);
  snprintf(extra, sizeof extra, "%s-shm", path);
  remove(extra);
}

/* The first column of the first row; -1000 for NULL, -999 when the query fails. */
static inline long long raw_query(const char *path, const char *sql) {
  sqlite3 *db;
  sqlite3_stmt *st;
  long long v = -999;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
      sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
    if (sqlite3_step(st) == SQLITE_ROW)
      v = sqlite3_column_type(st, 0) == SQLITE_NULL ? -1000 : sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return v;
}

#endif

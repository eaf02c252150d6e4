/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* import.h - `threadsoup import`: run export files (export.h writes them) read, checked and
   stored, one transaction per file (docs/schema.md). */
#ifndef THREADSOUP_EXCHANGE_IMPORT_H
#define THREADSOUP_EXCHANGE_IMPORT_H

#include <stdint.h>

#include "../store/store.h"
#include "threadsoup/err.h"

typedef struct exchange_import_result {
  int64_t run_id; /* in the importing database */
  int already;    /* 1: its uid was there already, with the same contents; nothing was stored */
  /* 1: its uid was there already with other trials or run facts (a forged or altered copy, or the
     run resumed since): the stored run is kept as it was and nothing was stored */
  int conflict;
  char stored_from[1024]; /* already or conflict: the stored run's file; "" if measured here */
  char uid[40];
  int trials;
} exchange_import_result;

/* The largest export file imported (read line by line: memory is one line's, not the file's). */
#define EXCHANGE_IMPORT_MAX_BYTES (256LL << 20)

/* Imports one export file in one transaction, record by record. A damaged or foreign file is
   refused (TS_EINVAL) with the file, the line and the reason, and the database is left
   unchanged; so is a file named threadsoup-run-UID.jsonl (or -N.jsonl) that carries another run.
   Only a regular file is read (a symbolic link, a FIFO or a device is refused, never followed or
   waited on), up to EXCHANGE_IMPORT_MAX_BYTES, stopping at its first line past 16 MiB. */
int exchange_import_file(store *db, const char *path, exchange_import_result *result, ts_err *err);

/* Imports `path`: one file, or each export file of a folder (*.jsonl, not hidden: a file still
   being written starts with '.') in name order, each in its own transaction; fn is told the
   outcome of each (rc TS_OK: imported, already there or in conflict; else refused, err says why)
   and *files how many there were; a folder that is a symbolic link is refused, and each entry that
   is not a regular file is refused on its own (the others are still imported). TS_OK unless the
   folder cannot be read. */
int exchange_import_path(store *db, const char *path,
                         void (*fn)(void *ctx, const char *file, int rc,
                                    const exchange_import_result *result, const ts_err *err),
                         void *ctx, int *files, ts_err *err);

#endif

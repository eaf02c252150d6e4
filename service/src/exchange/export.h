/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* export.h - runs carried between databases (machines): one self-describing JSON-lines file
   per run, written by `threadsoup export` (and a plan's export-to) and read back by import.h's
   functions (docs/schema.md). */
#ifndef THREADSOUP_EXCHANGE_EXPORT_H
#define THREADSOUP_EXCHANGE_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../store/store.h"
#include "threadsoup/err.h"

/* The "format" and "version" of the header line; a reader refuses a newer version. */
#define EXCHANGE_FORMAT "threadsoup-run"
#define EXCHANGE_VERSION 1

/* Writes the run as an export file to out: header, records, trailer. */
int exchange_export_stream(store *db, int64_t run_id, FILE *out, ts_err *err);

/* "threadsoup-run-<uid>.jsonl", the name of the run's file in a folder. */
int exchange_file_name(store *db, int64_t run_id, char *name, size_t len, ts_err *err);

/* Writes the run's file to `path` (replacing it), through a temporary file beside it renamed at
   the end, so a reader never sees half a file. */
int exchange_export_file(store *db, int64_t run_id, const char *path, ts_err *err);

/* Writes the run's file into `folder` as threadsoup-run-<uid>.jsonl, atomically (a temporary
   file in the folder, then renamed). An existing file of that name is never overwritten: when it
   holds the same bytes nothing is written; when it differs (the run was resumed since) the file
   is named threadsoup-run-<uid>-2.jsonl, -3, ... `written` gets the path of the file. */
int exchange_export_to_folder(store *db, int64_t run_id, const char *folder, char *written,
                              size_t written_len, ts_err *err);

/* Writes an export file's bytes to out: a stored run's (exchange_export_stream), or one read
   from elsewhere (the service's `export` request). */
typedef int (*exchange_writer)(void *ctx, FILE *out, ts_err *err);

/* exchange_export_file and exchange_export_to_folder for bytes from `write`: `name` is the
   file's name in the folder, threadsoup-run-<uid>.jsonl. */
int exchange_write_file(exchange_writer write, void *ctx, const char *path, ts_err *err);
int exchange_write_to_folder(exchange_writer write, void *ctx, const char *name, const char *folder,
                             char *written, size_t written_len, ts_err *err);

/* folder + the platform's separator (unless it ends with one) + name. */
void exchange_join_path(const char *folder, const char *name, char *out, size_t len);

#endif

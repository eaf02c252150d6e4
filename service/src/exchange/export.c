/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* export.c - writes a stored run as its export file: a header line, one JSON object per stored
   row (the store's records), and a trailer line that lets a reader tell a cut file. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "threadsoup/json_write.h"
#include "threadsoup/plat.h"
#include "threadsoup/version.h"

/* Numbers are written so that reading them back gives the same value: whole numbers as they are,
   doubles with 17 significant digits (always with a '.' or exponent, so a double stays a double,
   -0.0 included). JSON has no NaN or infinity: they are written null (the database holds NULL
   for what was not measured, so they do not occur there). */
static void write_value(FILE *out, const store_value *v) {
  char number[40];
  switch (v->type) {
  case STORE_VALUE_INT:
    fprintf(out, "%" PRId64, v->i);
    break;
  case STORE_VALUE_REAL:
    if (!isfinite(v->d)) {
      fputs("null", out);
      break;
    }
    snprintf(number, sizeof number, "%.17g", v->d);
    fputs(number, out);
    if (!strpbrk(number, ".e"))
      fputs(".0", out);
    break;
  case STORE_VALUE_TEXT:
    ts_json_string(out, v->text);
    break;
  default:
    fputs("null", out);
  }
}

typedef struct export_ctx {
  FILE *out;
  int records;
  int trials;
} export_ctx;

static int write_record(void *ctx, const store_record *rec) {
  export_ctx *x = ctx;
  fputs("{\"record\":", x->out);
  ts_json_string(x->out, store_record_kind_name(rec->kind));
  for (int i = 0; i < rec->count; i++) {
    fputc(',', x->out);
    ts_json_string(x->out, rec->values[i].name);
    fputc(':', x->out);
    write_value(x->out, &rec->values[i]);
  }
  fputs("}\n", x->out);
  x->records++;
  x->trials += rec->kind == STORE_RECORD_TRIAL;
  return 0;
}

int exchange_export_stream(store *db, int64_t run_id, FILE *out, ts_err *err) {
  store_run_row *run = malloc(sizeof *run);
  if (!run)
    return ts_err_set(err, TS_ENOMEM, "no memory to export run %lld", (long long)run_id);
  int rc = store_run_get(db, run_id, run, err);
  if (rc == TS_OK) {
    /* No time of export in the header: the same run exported twice gives the same bytes, so a
       folder export can tell a file it already wrote. */
    fprintf(out, "{\"format\":\"%s\",\"version\":%d,\"threadsoup\":", EXCHANGE_FORMAT,
            EXCHANGE_VERSION);
    ts_json_string(out, TS_VERSION);
    fputs(",\"uid\":", out);
    ts_json_string(out, run->uid);
    fputs("}\n", out);
    export_ctx x = {out, 0, 0};
    rc = store_run_export(db, run_id, write_record, &x, err);
    if (rc == TS_OK)
      fprintf(out, "{\"end\":true,\"trials\":%d,\"records\":%d}\n", x.trials, x.records);
  }
  free(run);
  if (rc == TS_OK && ferror(out))
    rc = ts_err_set(err, TS_EOS, "cannot write the export of run %lld", (long long)run_id);
  return rc;
}

int exchange_file_name(store *db, int64_t run_id, char *name, size_t len, ts_err *err) {
  store_run_row *run = malloc(sizeof *run);
  if (!run)
    return ts_err_set(err, TS_ENOMEM, "no memory to export run %lld", (long long)run_id);
  int rc = store_run_get(db, run_id, run, err);
  if (rc == TS_OK)
    snprintf(name, len, "threadsoup-run-%s.jsonl", run->uid);
  free(run);
  return rc;
}

/* exchange_writer of a stored run: ctx is a db_run. */
typedef struct db_run {
  store *db;
  int64_t run_id;
} db_run;

static int write_db_run(void *ctx, FILE *out, ts_err *err) {
  db_run *x = ctx;
  return exchange_export_stream(x->db, x->run_id, out, err);
}

/* Writes the export to a new temporary file of d, its name in temp (a random one nobody could
   have placed ahead, readable by owner and group only: the plan's command lines are in it);
   removed on failure. */
static int write_new(exchange_writer write, void *ctx, plat_folder *d, const char *prefix,
                     char *temp, size_t temp_len, ts_err *err) {
  FILE *f = NULL;
  int rc = plat_folder_create_temp(d, prefix, temp, temp_len, &f, err);
  if (rc != TS_OK)
    return rc;
  rc = write(ctx, f, err);
  if (fclose(f) != 0 && rc == TS_OK) {
    char shown[PLAT_PATH_MAX];
    plat_folder_path(d, temp, shown, sizeof shown);
    rc = ts_err_set(err, TS_EOS, "cannot write %s: %s", shown, strerror(errno));
  }
  if (rc != TS_OK)
    plat_folder_remove(d, temp);
  return rc;
}

int exchange_write_file(exchange_writer write, void *ctx, const char *path, ts_err *err) {
  /* Said up front, naming the user's path rather than the temporary file beside it. */
  char folder[PLAT_PATH_MAX];
  plat_path_dirname(path, folder, sizeof folder);
  size_t n = strlen(path);
  int ends_as_folder = n > 0 && (path[n - 1] == '/' || path[n - 1] == plat_path_separator());
  if (ends_as_folder || (folder[0] && !plat_is_folder(folder)))
    return ts_err_set(err, TS_EINVAL,
                      "cannot write %s: there is no folder %s (accepted: a file in an existing "
                      "folder, or an existing folder)",
                      path, ends_as_folder ? path : folder);
  const char *base = path + strlen(folder);
  while (*base == '/' || *base == plat_path_separator())
    base++;
  plat_folder *d = NULL;
  int rc = plat_folder_open(folder, &d, err);
  if (rc != TS_OK)
    return rc;
  char temp[128];
  rc = write_new(write, ctx, d, ".threadsoup-export", temp, sizeof temp, err);
  if (rc == TS_OK) {
    /* The user named this file: it is replaced (the entry, never what a link there points at). */
    plat_folder_remove(d, base);
    rc = plat_folder_rename_new(d, temp, base, err);
    if (rc != TS_OK)
      plat_folder_remove(d, temp);
  }
  plat_folder_close(d);
  return rc;
}

/* Whether the files a and b of d hold the same bytes: TS_OK when they do, TS_EINVAL when they
   differ; b not a regular file (a FIFO or a link planted at an export's name) refused. */
static int same_bytes(plat_folder *d, const char *a, const char *b, ts_err *err) {
  FILE *fa = NULL, *fb = NULL;
  int rc = plat_folder_open_regular(d, b, &fb, err);
  if (rc == TS_OK)
    rc = plat_folder_open_regular(d, a, &fa, err);
  if (rc != TS_OK) {
    if (fb)
      fclose(fb);
    return rc == TS_EINVAL ? TS_EOS : rc; /* TS_EINVAL means "differ" to the caller */
  }
  int same = 1;
  while (same) {
    int ca = fgetc(fa), cb = fgetc(fb);
    same = ca == cb;
    if (ca == EOF)
      break;
  }
  fclose(fa);
  fclose(fb);
  return same ? TS_OK : TS_EINVAL;
}

void exchange_join_path(const char *folder, const char *name, char *out, size_t len) {
  size_t n = strlen(folder);
  int has_sep = n > 0 && (folder[n - 1] == '/' || folder[n - 1] == plat_path_separator());
  snprintf(out, len, "%s%s%s", folder, has_sep ? "" : (plat_path_separator() == '/' ? "/" : "\\"),
           name);
}

int exchange_write_to_folder(exchange_writer write, void *ctx, const char *name, const char *folder,
                             char *written, size_t written_len, ts_err *err) {
  char base[80], temp[128], numbered[128];
  if (written_len)
    written[0] = '\0';
  if (!plat_is_folder(folder))
    return ts_err_set(err, TS_EINVAL, "%s is not a folder (give an existing folder)", folder);
  snprintf(base, sizeof base, "%.*s", (int)(strlen(name) - strlen(".jsonl")), name);
  plat_folder *d = NULL;
  int rc = plat_folder_open(folder, &d, err);
  if (rc != TS_OK)
    return rc;
  /* The temporary file starts with '.': a collector importing the folder skips it. */
  rc = write_new(write, ctx, d, ".threadsoup-export", temp, sizeof temp, err);
  if (rc != TS_OK) {
    plat_folder_close(d);
    return rc;
  }
  int refused = 0; /* something not a regular file at a name: no further name is tried */
  for (int n = 1; n <= 1000 && !refused; n++) {
    if (n == 1)
      snprintf(numbered, sizeof numbered, "%s", name);
    else
      snprintf(numbered, sizeof numbered, "%s-%d.jsonl", base, n);
    rc = plat_folder_rename_new(d, temp, numbered, err);
    if (rc == TS_EINVAL) {
      ts_err why;
      int same = same_bytes(d, temp, numbered, &why);
      if (same == TS_OK) {
        plat_folder_remove(d, temp); /* written before, byte for byte */
        rc = TS_OK;
      } else if (same != TS_EINVAL) {
        rc = ts_err_set(err, TS_EINVAL, "%s", why.text);
        refused = 1;
      }
    }
    if (rc != TS_EINVAL)
      break;
  }
  if (rc == TS_EINVAL && !refused)
    rc = ts_err_set(err, TS_EINVAL, "%s: 1000 different files of run %s are there already", folder,
                    base);
  if (rc == TS_OK)
    plat_folder_path(d, numbered, written, written_len);
  else
    plat_folder_remove(d, temp);
  plat_folder_close(d);
  return rc;
}

int exchange_export_file(store *db, int64_t run_id, const char *path, ts_err *err) {
  db_run x = {db, run_id};
  return exchange_write_file(write_db_run, &x, path, err);
}

int exchange_export_to_folder(store *db, int64_t run_id, const char *folder, char *written,
                              size_t written_len, ts_err *err) {
  char name[96];
  if (written_len)
    written[0] = '\0';
  if (!plat_is_folder(folder))
    return ts_err_set(err, TS_EINVAL, "%s is not a folder (give an existing folder)", folder);
  int rc = exchange_file_name(db, run_id, name, sizeof name, err);
  db_run x = {db, run_id};
  return rc == TS_OK
             ? exchange_write_to_folder(write_db_run, &x, name, folder, written, written_len, err)
             : rc;
}

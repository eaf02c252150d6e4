/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* import.c - reads a run's export file and stores it record by record in one transaction, so
   memory is one line's, not the file's, and a refused file leaves the database as it was. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "import.h"
#include "threadsoup/json_read.h"
#include "threadsoup/plat.h"
#include "threadsoup/version.h"

typedef struct import_state {
  const char *path;
  const char *imported_at;
  store *db;
  ts_err *err;
  store_import *im;  /* the run being stored, from its run record on */
  store_record *rec; /* the record of the current line, pointing into its JSON value */
  int records;
  int trials;
  int ended; /* the line number of the trailer, 0 before it */
  char header_uid[40];
  char uid[40];
} import_state;

/* "FILE:LINE: reason" with the reason in err's text already, or a new one. */
static int refuse(import_state *st, int line, const char *reason) {
  char text[sizeof st->err->text];
  snprintf(text, sizeof text, "%s", reason);
  return ts_err_set(st->err, TS_EINVAL, "%s:%d: %s; nothing was imported from it", st->path, line,
                    text);
}

/* The uid the file's name gives, as export names files: threadsoup-run-UID.jsonl, or
   threadsoup-run-UID-N.jsonl for a later copy; "" for any other name. */
static void uid_of_name(const char *path, char *uid, size_t len) {
  static const char prefix[] = "threadsoup-run-";
  const char *name = path;
  for (const char *c = path; *c; c++)
    if (*c == '/' || *c == '\\')
      name = c + 1;
  uid[0] = '\0';
  if (strncmp(name, prefix, sizeof prefix - 1) != 0)
    return;
  const char *id = name + sizeof prefix - 1, *rest = id + strspn(id, "0123456789abcdef");
  if (rest - id != 32 || len <= 32)
    return;
  if (rest[0] == '-' && rest[1] >= '1' && rest[1] <= '9')
    rest += 1 + strspn(rest + 1, "0123456789");
  if (strcmp(rest, ".jsonl") == 0)
    snprintf(uid, len, "%.32s", id);
}

/* A file named for one run that carries another is refused: it would shadow the run it names. */
static int check_named_uid(import_state *st, int line, const char *uid, const char *where) {
  char named[40], reason[400];
  uid_of_name(st->path, named, sizeof named);
  if (!named[0] || strcmp(named, uid) == 0)
    return TS_OK;
  snprintf(reason, sizeof reason,
           "the file's name says run %s and its %s says run %.40s (a file named "
           "threadsoup-run-UID.jsonl holds run UID)",
           named, where, uid);
  return refuse(st, line, reason);
}

static int read_header(import_state *st, const ts_json_value *v) {
  const ts_json_value *format = ts_json_get(v, "format");
  if (!format || format->type != TS_JSON_STRING || strcmp(format->text, EXCHANGE_FORMAT) != 0)
    return refuse(st, 1,
                  "not a ThreadSoup run export: its first line has no \"format\":\"" EXCHANGE_FORMAT
                  "\"");
  const ts_json_value *version = ts_json_get(v, "version");
  if (!version || version->type != TS_JSON_NUMBER || !version->is_integer || version->integer < 1)
    return refuse(st, 1, "the header's \"version\" is not a whole number from 1");
  if (version->integer > EXCHANGE_VERSION) {
    char reason[256];
    snprintf(reason, sizeof reason,
             "written by a newer ThreadSoup: format version %lld, and ThreadSoup " TS_VERSION
             " reads version %d; upgrade ThreadSoup to import it",
             (long long)version->integer, EXCHANGE_VERSION);
    return refuse(st, 1, reason);
  }
  const ts_json_value *uid = ts_json_get(v, "uid");
  if (uid && uid->type == TS_JSON_STRING) {
    snprintf(st->header_uid, sizeof st->header_uid, "%s", uid->text);
    return check_named_uid(st, 1, st->header_uid, "header");
  }
  return TS_OK;
}

static int read_trailer(import_state *st, int line, const ts_json_value *v) {
  const ts_json_value *trials = ts_json_get(v, "trials"), *records = ts_json_get(v, "records");
  char reason[160];
  if (!trials || !trials->is_integer || (records && !records->is_integer))
    return refuse(st, line, "the trailer has no whole number \"trials\"");
  if (trials->integer != st->trials || (records && records->integer != st->records)) {
    snprintf(reason, sizeof reason,
             "the trailer counts %lld trials and %lld records, the file holds %d and %d",
             (long long)trials->integer, records ? (long long)records->integer : -1LL, st->trials,
             st->records);
    return refuse(st, line, reason);
  }
  st->ended = line;
  return TS_OK;
}

/* Turns one record line into st->rec (pointing into v) and stores it: the run record starts the
   run's transaction, every later record joins it. */
static int read_record(import_state *st, int line, const ts_json_value *v) {
  const ts_json_value *kind = ts_json_get(v, "record");
  int k = kind && kind->type == TS_JSON_STRING ? store_record_kind_parse(kind->text) : -1;
  if (k < 0)
    return refuse(st, line,
                  "a line that is neither a record (\"record\": run, doctor, quiet, trial or "
                  "metric) nor the trailer ({\"end\":true,...})");
  store_record *rec = st->rec;
  memset(rec, 0, sizeof *rec);
  rec->kind = (store_record_kind)k;
  char reason[256];
  for (size_t i = 0; i < v->count; i++) {
    const ts_json_member *m = &v->members[i];
    if (strcmp(m->key, "record") == 0)
      continue;
    if (rec->count == STORE_RECORD_MAX_VALUES)
      return refuse(st, line, "a record with more fields than any kind has");
    store_value *out = &rec->values[rec->count++];
    out->name = m->key;
    switch (m->value->type) {
    case TS_JSON_NULL:
      out->type = STORE_VALUE_NULL;
      break;
    case TS_JSON_NUMBER:
      out->type = m->value->is_integer ? STORE_VALUE_INT : STORE_VALUE_REAL;
      out->i = m->value->integer;
      out->d = m->value->number;
      break;
    case TS_JSON_STRING:
      if (strlen(m->value->text) != m->value->text_len) {
        snprintf(reason, sizeof reason, "the field '%.64s' holds \\u0000", m->key);
        return refuse(st, line, reason);
      }
      out->type = STORE_VALUE_TEXT;
      out->text = m->value->text;
      break;
    default:
      snprintf(reason, sizeof reason,
               "the field '%.64s' is not a string, a number or null (accepted in a record)",
               m->key);
      return refuse(st, line, reason);
    }
  }
  if (store_record_check(rec, st->err) != TS_OK)
    return refuse(st, line, st->err->text);
  int rc = TS_OK;
  if (rec->kind == STORE_RECORD_RUN && !st->im) {
    for (int i = 0; i < rec->count; i++)
      if (strcmp(rec->values[i].name, "uid") == 0)
        snprintf(st->uid, sizeof st->uid, "%s", rec->values[i].text);
    if (st->header_uid[0] && strcmp(st->uid, st->header_uid) != 0)
      return refuse(st, line, "the run's uid is not the one the header names");
    if ((rc = check_named_uid(st, line, st->uid, "run record")) != TS_OK)
      return rc;
    rc = store_import_begin(st->db, rec, st->path, st->imported_at, &st->im, st->err);
  } else if (!st->im) {
    rc = ts_err_set(st->err, TS_EINVAL,
                    "a %s record before the run record (the run record comes first, after the "
                    "header)",
                    store_record_kind_name(rec->kind));
  } else {
    rc = store_import_add(st->im, rec, st->err);
  }
  if (rc != TS_OK)
    return rc == TS_EINVAL || rc == TS_ESTORE ? refuse(st, line, st->err->text) : rc;
  st->records++;
  st->trials += rec->kind == STORE_RECORD_TRIAL;
  return TS_OK;
}

/* Reads one line (without its \n or \r\n) into *buf; 0 at the end of the file, -1 without
   memory. A line past TS_JSON_MAX_TEXT stops the reading there (*too_long): a file of no newlines
   (a link to /dev/zero) is not read on to its end. */
static int read_line(FILE *f, char **buf, size_t *cap, size_t *len, int *too_long) {
  size_t n = 0;
  int c;
  *too_long = 0;
  if (!*buf) { /* an empty first line still needs room for its '\0' */
    if (!(*buf = malloc(4096)))
      return -1;
    *cap = 4096;
  }
  while ((c = fgetc(f)) != EOF && c != '\n') {
    if (n + 1 >= *cap) {
      if (*cap >= TS_JSON_MAX_TEXT) {
        *too_long = 1;
        break;
      }
      size_t more = *cap ? *cap * 2 : 4096;
      char *b = realloc(*buf, more);
      if (!b) {
        *too_long = 1;
        break;
      }
      *buf = b;
      *cap = more;
    }
    (*buf)[n++] = (char)c;
  }
  if (c == EOF && n == 0)
    return 0;
  if (n > 0 && (*buf)[n - 1] == '\r')
    n--;
  (*buf)[n] = '\0';
  *len = n;
  return 1;
}

/* Reads and stores the file line by line; each line's JSON is freed once its record is stored. */
static int read_file(import_state *st, FILE *f) {
  char *buf = NULL;
  size_t cap = 0, len = 0;
  int line = 0, too_long = 0, rc = TS_OK;
  int got;
  long long bytes = 0;
  while (rc == TS_OK && (got = read_line(f, &buf, &cap, &len, &too_long)) != 0) {
    line++;
    bytes += (long long)len + 1;
    if (bytes > EXCHANGE_IMPORT_MAX_BYTES) {
      rc = refuse(st, line, "a file larger than 256 MiB (accepted: an export file up to 256 MiB)");
      break;
    }
    if (got < 0) {
      rc = ts_err_set(st->err, TS_ENOMEM, "no memory to read %s", st->path);
      break;
    }
    if (st->ended) {
      rc = refuse(st, line, "more lines after the trailer");
      break;
    }
    if (too_long) {
      rc = refuse(st, line, "a line longer than 16 MiB");
      break;
    }
    ts_json_value *v = NULL;
    if (ts_json_parse(buf, len, &v, st->err) != TS_OK) {
      char reason[600];
      snprintf(reason, sizeof reason, "%s: %s",
               line == 1 ? "not a ThreadSoup run export (not JSON)" : "not JSON", st->err->text);
      rc = refuse(st, line, reason);
      break;
    }
    const ts_json_value *end = ts_json_get(v, "end");
    if (v->type != TS_JSON_OBJECT)
      rc = refuse(st, line,
                  line == 1 ? "not a ThreadSoup run export (a JSON object per line)"
                            : "not a JSON object");
    else if (line == 1)
      rc = read_header(st, v);
    else if (end && end->type == TS_JSON_TRUE)
      rc = read_trailer(st, line, v);
    else
      rc = read_record(st, line, v);
    ts_json_free(v);
  }
  free(buf);
  if (rc == TS_OK && line == 0)
    rc = refuse(st, 1, "an empty file, not a ThreadSoup run export");
  else if (rc == TS_OK && !st->ended)
    rc = refuse(st, line + 1,
                "the file ends without its trailer line {\"end\":true,...}: it is truncated");
  else if (rc == TS_OK && !st->im)
    rc = refuse(st, st->ended, "no run record");
  return rc;
}

/* Imports the open file f (path names it in messages), and closes it. */
static int import_open_file(store *db, const char *path, FILE *f, exchange_import_result *result,
                            ts_err *err) {
  char now[32];
  plat_utc_timestamp(now, sizeof now);
  import_state st;
  memset(&st, 0, sizeof st);
  st.path = path;
  st.imported_at = now;
  st.db = db;
  st.err = err;
  st.rec = malloc(sizeof *st.rec);
  int rc = st.rec ? read_file(&st, f) : ts_err_set(err, TS_ENOMEM, "no memory to read %s", path);
  fclose(f);
  free(st.rec);
  if (rc != TS_OK) {
    store_import_abort(st.im);
    return rc;
  }
  store_import_result stored;
  rc = store_import_end(st.im, &stored, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "%s", path);
  result->run_id = stored.run_id;
  result->already = stored.outcome == STORE_IMPORT_SAME;
  result->conflict = stored.outcome == STORE_IMPORT_CONFLICT;
  snprintf(result->stored_from, sizeof result->stored_from, "%s", stored.stored_from);
  snprintf(result->uid, sizeof result->uid, "%s", st.uid);
  result->trials = st.trials;
  return TS_OK;
}

int exchange_import_file(store *db, const char *path, exchange_import_result *result, ts_err *err) {
  memset(result, 0, sizeof *result);
  FILE *f = NULL;
  int rc = plat_open_regular(path, &f, err);
  return rc == TS_OK ? import_open_file(db, path, f, result, err) : rc;
}

typedef struct name_list {
  char **names;
  int count, cap;
  int failed;
} name_list;

static int collect_name(void *ctx, const char *name) {
  name_list *l = ctx;
  size_t n = strlen(name);
  if (name[0] == '.' || n < 6 || strcmp(name + n - 6, ".jsonl") != 0)
    return 0;
  if (l->count == l->cap) {
    int more = l->cap ? l->cap * 2 : 32;
    char **names = realloc(l->names, (size_t)more * sizeof *names);
    if (!names)
      return l->failed = 1;
    l->names = names;
    l->cap = more;
  }
  if (!(l->names[l->count] = malloc(n + 1)))
    return l->failed = 1;
  memcpy(l->names[l->count++], name, n + 1);
  return 0;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int exchange_import_path(store *db, const char *path,
                         void (*fn)(void *ctx, const char *file, int rc,
                                    const exchange_import_result *result, const ts_err *err),
                         void *ctx, int *files, ts_err *err) {
  exchange_import_result result;
  ts_err file_err;
  *files = 0;
  if (!plat_is_folder(path)) {
    *files = 1;
    int rc = exchange_import_file(db, path, &result, &file_err);
    fn(ctx, path, rc, &result, &file_err);
    return TS_OK;
  }
  plat_folder *d = NULL;
  int rc = plat_folder_open(path, &d, err);
  if (rc != TS_OK)
    return rc;
  name_list l = {NULL, 0, 0, 0};
  rc = plat_list_folder(path, collect_name, &l, err);
  if (rc == TS_OK && l.failed)
    rc = ts_err_set(err, TS_ENOMEM, "no memory to list the folder %s", path);
  if (rc == TS_OK && l.count > 1)
    qsort(l.names, (size_t)l.count, sizeof *l.names, compare_names);
  for (int i = 0; rc == TS_OK && i < l.count; i++) {
    /* Each file opened in the folder opened above: a link or a FIFO named *.jsonl is refused
       (named, with why) and the next file is read. */
    char file[PLAT_PATH_MAX];
    plat_folder_path(d, l.names[i], file, sizeof file);
    FILE *f = NULL;
    memset(&result, 0, sizeof result);
    int file_rc = plat_folder_open_regular(d, l.names[i], &f, &file_err);
    if (file_rc == TS_OK)
      file_rc = import_open_file(db, file, f, &result, &file_err);
    fn(ctx, file, file_rc, &result, &file_err);
  }
  plat_folder_close(d);
  *files = l.count;
  for (int i = 0; i < l.count; i++)
    free(l.names[i]);
  free(l.names);
  return rc;
}

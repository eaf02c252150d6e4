/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* exchange.c - `threadsoup export` and `threadsoup import`: stored runs carried between
   databases (machines) as one file per run (docs/schema.md). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../exchange/export.h"
#include "../exchange/import.h"
#include "cli.h"
#include "threadsoup/call.h"
#include "threadsoup/plat.h"
#include "threadsoup/utf8.h"

/* Export reads a database that must exist; import may start a new one. */
static int open_db(const char *db_path, int create, char *path, size_t len, store **s,
                   ts_err *err) {
  int rc = cli_resolve_db_path(db_path, path, len, err);
  if (rc != TS_OK)
    return rc;
  return create ? store_open(s, path, err) : store_open_existing(s, path, err);
}

typedef struct export_all {
  store *db;
  const char *folder;
  int written;
  int rc;
  ts_err *err;
} export_all;

static int export_one_to_folder(void *ctx, int64_t run_id) {
  export_all *x = ctx;
  char written[PLAT_PATH_MAX];
  x->rc = exchange_export_to_folder(x->db, run_id, x->folder, written, sizeof written, x->err);
  if (x->rc != TS_OK)
    return 1;
  printf("%s\n", written);
  x->written++;
  return 0;
}

/* exchange_writer of an export already read from the service into a temporary file. */
static int copy_export(void *ctx, FILE *out, ts_err *err) {
  FILE *in = ctx;
  char chunk[8192];
  rewind(in);
  for (size_t n; (n = fread(chunk, 1, sizeof chunk, in)) > 0;)
    if (fwrite(chunk, 1, n, out) != n)
      return ts_err_set(err, TS_EOS, "cannot write the export");
  return TS_OK;
}

/* threadsoup-run-<uid>.jsonl from the export's header line, whose uid must be letters, digits
   and dashes (it becomes a file name). */
static int file_name_of(FILE *in, char *name, size_t len, ts_err *err) {
  char header[512];
  rewind(in);
  const char *uid = fgets(header, sizeof header, in) ? strstr(header, ",\"uid\":\"") : NULL;
  size_t n = 0;
  if (uid) {
    uid += strlen(",\"uid\":\"");
    while (uid[n] && (isalnum((unsigned char)uid[n]) || uid[n] == '-'))
      n++;
  }
  if (!uid || n == 0 || n > 64 || uid[n] != '"')
    return ts_err_set(err, TS_EFAILED, "the service's export has no run uid in its header");
  snprintf(name, len, "threadsoup-run-%.*s.jsonl", (int)n, uid);
  return TS_OK;
}

/* export RUN --service: the service's export of the run, read in pages into a temporary file,
   then written as export --db writes it (stdout, a file replaced, or a folder never overwritten).
 */
static int export_by_service(const char *socket, long run_id, const char *output, int to_folder) {
  static proto_message request, reply;
  ts_err err;
  FILE *in = NULL;
  call_link *link = call_link_new();
  int rc = plat_temp_file(&in, &err);
  if (rc == TS_OK)
    rc = link ? call_link_connect(link, socket, &err)
              : ts_err_set(&err, TS_ENOMEM, "no memory for the service connection");
  if (rc == TS_OK)
    rc = call_export_pages(link, run_id, in, &request, &reply, &err);
  call_link_free(link);
  char written[PLAT_PATH_MAX], name[96];
  if (rc == TS_OK && to_folder) {
    rc = file_name_of(in, name, sizeof name, &err);
    if (rc == TS_OK)
      rc = exchange_write_to_folder(copy_export, in, name, output, written, sizeof written, &err);
    if (rc == TS_OK)
      printf("%s\n", written);
  } else if (rc == TS_OK && output) {
    rc = exchange_write_file(copy_export, in, output, &err);
    if (rc == TS_OK)
      printf("%s\n", output);
  } else if (rc == TS_OK) {
    rc = copy_export(in, stdout, &err);
  }
  if (in)
    fclose(in);
  return rc == TS_OK ? CLI_EXIT_OK : cli_fail(&err);
}

static int export_main(int argc, char **argv) {
  cli_args a;
  cli_args_init(&a, argc, argv, "export");
  const char *db_path = NULL, *run_text = NULL, *output = NULL, *socket = NULL;
  int use_service = 0;
  ts_err err;
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    if (a.word && !run_text)
      run_text = a.word;
    else if (a.word)
      rc = ts_err_set(&err, TS_EUSAGE, "export takes one RUN, got '%s' and '%s'", run_text, a.word);
    else if (cli_args_is(&a, "--db"))
      rc = cli_args_value(&a, "a database file path", &db_path, &err);
    else if (cli_args_is(&a, "--output"))
      rc = cli_args_value(&a, "a file path or an existing folder", &output, &err);
    else if (cli_args_is(&a, "--service"))
      use_service = 1;
    else if (cli_args_is(&a, "--socket"))
      rc = cli_args_value(&a, "the service's socket or pipe", &socket, &err);
    else
      rc = ts_err_set(&err, TS_EUSAGE, "export: unknown option '%s'", a.name);
    if (rc != TS_OK)
      return cli_usage_error(&cli_export_command, err.text);
  }
  if (!run_text)
    return cli_usage_error(&cli_export_command,
                           "export needs a RUN, latest or all (threadsoup history lists runs)");
  int all = strcmp(run_text, "all") == 0;
  long run_id = 0;
  if (!all && cli_parse_run(run_text, "RUN", &run_id, &err) != TS_OK)
    return cli_usage_error(&cli_export_command, err.text);
  int to_folder = output && plat_is_folder(output);
  if (use_service || socket) {
    if (db_path)
      return cli_usage_error(&cli_export_command,
                             "export --service reads the service's database: drop --db (or "
                             "drop --service to read a database file)");
    if (all)
      return cli_usage_error(&cli_export_command,
                             "export all --service is not offered: export each run with export "
                             "RUN --service (threadsoup history --service lists them)");
    if (run_id == 0)
      return cli_usage_error(&cli_export_command,
                             "export --service needs a run id (threadsoup history --service "
                             "lists them)");
    return export_by_service(socket, run_id, output, to_folder);
  }
  if (all && !to_folder)
    return cli_usage_error(&cli_export_command,
                           "export all writes one file per run: give --output an existing folder");

  char path[PLAT_PATH_MAX];
  store *s = NULL;
  if (open_db(db_path, 0, path, sizeof path, &s, &err) != TS_OK)
    return cli_fail(&err);
  int rc = TS_OK;
  if (all) {
    export_all x = {s, output, 0, TS_OK, &err};
    rc = store_run_ids(s, export_one_to_folder, &x, &err);
    if (rc == TS_OK)
      rc = x.rc;
    if (rc == TS_OK && x.written == 0)
      fprintf(stderr, "threadsoup: there are no runs in %s; nothing was written\n", path);
  } else {
    int64_t id;
    rc = cli_resolve_run(s, run_id, path, &id, &err);
    char written[PLAT_PATH_MAX];
    if (rc == TS_OK && to_folder) {
      rc = exchange_export_to_folder(s, id, output, written, sizeof written, &err);
      if (rc == TS_OK)
        printf("%s\n", written);
    } else if (rc == TS_OK && output) {
      rc = exchange_export_file(s, id, output, &err);
      if (rc == TS_OK)
        printf("%s\n", output);
    } else if (rc == TS_OK) {
      rc = exchange_export_stream(s, id, stdout, &err);
    }
  }
  store_close(s);
  return rc == TS_OK ? CLI_EXIT_OK : cli_fail(&err);
}

const cli_command cli_export_command = {
    .name = "export",
    .synopsis = "export RUN|latest|all [--output FILE|FOLDER] [--db PATH | --service [--socket S]]",
    .summary = "write stored runs to files another machine's database can import",
    .help = "\nWrites each run as one file of JSON lines (its plan, machine, trials, metrics,\n"
            "machine checks and quiet-mode entry; docs/schema.md describes the format).\n"
            "Without --output one run goes to stdout; all needs --output FOLDER.\n"
            "\noptions:\n"
            "  --output FILE    write the run to FILE (replaced) and print its path\n"
            "  --output FOLDER  an existing folder: write threadsoup-run-<uid>.jsonl there for\n"
            "                   each run and print each path; a file already there is never\n"
            "                   overwritten (the same bytes: left as is; others: -2, -3, ...)\n"
            "  --db PATH        database file (default as for run)\n"
            "  --service        export a run of the service's database (the runs of\n"
            "                   run --service and of schedules), read from the service; give\n"
            "                   a run id (not latest or all: export all --service is refused)\n"
            "  --socket S       the service's socket or pipe (implies --service)\n",
    .main = export_main,
};

/* ---- import --------------------------------------------------------------------------------- */

typedef struct import_totals {
  int imported, already, conflicts, refused;
} import_totals;

static void print_outcome(void *ctx, const char *file, int rc, const exchange_import_result *r,
                          const ts_err *err) {
  import_totals *t = ctx;
  char shown[PLAT_PATH_MAX * 4];
  if (rc != TS_OK) {
    cli_fail(err);
    t->refused++;
  } else if (r->already) {
    printf("%s: run %s already there (run %lld); skipped\n",
           ts_utf8_printable(file, shown, sizeof shown), r->uid, (long long)r->run_id);
    t->already++;
  } else if (r->conflict) {
    char first[PLAT_PATH_MAX * 4];
    fprintf(stderr,
            "%s: CONFLICT: run %s is already here as run %lld (%s%s), and this file's trials or "
            "run facts differ; run %lld is kept as it was and nothing was imported from this "
            "file\n",
            ts_utf8_printable(file, shown, sizeof shown), r->uid, (long long)r->run_id,
            r->stored_from[0] ? "imported from " : "measured on this machine",
            ts_utf8_printable(r->stored_from, first, sizeof first), (long long)r->run_id);
    t->conflicts++;
  } else {
    printf("%s: imported as run %lld (uid %s, %d trials)\n",
           ts_utf8_printable(file, shown, sizeof shown), (long long)r->run_id, r->uid, r->trials);
    t->imported++;
  }
}

static int import_main(int argc, char **argv) {
  cli_args a;
  cli_args_init(&a, argc, argv, "import");
  const char *db_path = NULL;
  ts_err err;
  int given = 0;
  /* Options first, so --db is known before any file is read. */
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    if (a.word)
      given++;
    else if (cli_args_is(&a, "--db"))
      rc = cli_args_value(&a, "a database file path", &db_path, &err);
    else
      rc = ts_err_set(&err, TS_EUSAGE, "import: unknown option '%s'", a.name);
    if (rc != TS_OK)
      return cli_usage_error(&cli_import_command, err.text);
  }
  if (!given)
    return cli_usage_error(&cli_import_command, "import needs a FILE or FOLDER to import");
  char path[PLAT_PATH_MAX];
  store *s = NULL;
  if (open_db(db_path, 1, path, sizeof path, &s, &err) != TS_OK)
    return cli_fail(&err);
  import_totals t = {0, 0, 0, 0};
  cli_args_init(&a, argc, argv, "import");
  while (cli_args_next(&a)) {
    if (a.name) {
      const char *ignored;
      cli_args_value(&a, "", &ignored, &err); /* --db's value, read above */
      continue;
    }
    int files = 0;
    if (exchange_import_path(s, a.word, print_outcome, &t, &files, &err) != TS_OK) {
      cli_fail(&err);
      t.refused++;
    } else if (files == 0) {
      printf("%s: no export files (*.jsonl) in this folder\n", a.word);
    }
  }
  store_close(s);
  printf("%d imported, %d already there, %d in conflict, %d refused\n", t.imported, t.already,
         t.conflicts, t.refused);
  return t.refused || t.conflicts ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

const cli_command cli_import_command = {
    .name = "import",
    .synopsis = "import FILE|FOLDER... [--db PATH]",
    .summary = "add runs exported on other machines (threadsoup export) to the database",
    .help = "\nImports each export file, and each *.jsonl file of each FOLDER, in one transaction\n"
            "per file. A run already in the database (the same uid) with the same trials and\n"
            "run facts is skipped and reported \"already there\"; with other contents (a forged\n"
            "or altered copy) it is a CONFLICT naming both files: the stored run is kept and\n"
            "nothing is imported from the file. A file named threadsoup-run-UID.jsonl must hold\n"
            "run UID. Machine ids and host names are as the files say. A damaged or foreign file "
            "(cut short, of a newer format version,\n"
            "not ThreadSoup's, a bad line) is refused with its line and the reason, and changes\n"
            "nothing; the other files are still imported. The run keeps where it came from\n"
            "(the file's path and the time of the import).\n"
            "\noptions:\n"
            "  --db PATH   database file (default as for run)\n"
            "\nExit code 0 when no file was refused or in conflict, 1 otherwise.\n",
    .main = import_main,
};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* history.c - `threadsoup history`: the runs kept in the database, newest first, with how far
   each got - survives reboots, since it is all in SQLite. */
#include <stdio.h>
#include <string.h>

#include "../store/store.h"
#include "cli.h"
#include "threadsoup/call.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/proto.h"
#include "threadsoup/utf8.h"

/* The line under an imported run's row: measured elsewhere, read here as data only. */
static void print_imported(const char *from, const char *at) {
  char shown_from[2560], shown_at[128];
  printf("%6s  imported from %s on %s\n", "",
         ts_utf8_printable(from, shown_from, sizeof shown_from),
         ts_utf8_printable(at, shown_at, sizeof shown_at));
}

/* Plan names, times and details may hold any bytes (stored before every path checked them, or
   imported): printed through the printable filter, so no control or bidi character reaches the
   terminal. */
static int print_run(void *ctx, const store_run_row *r) {
  (void)ctx;
  char started[160], name[256], detail[2560];
  printf("%6lld  %-24s %-12s %-11s %5d/%-5d %s\n", (long long)r->id,
         ts_utf8_printable(r->started_at, started, sizeof started),
         ts_utf8_printable(r->plan_name, name, sizeof name), store_run_status_name(r->status),
         r->trials_done, r->trials_total,
         ts_utf8_printable(r->status_detail, detail, sizeof detail));
  if (r->imported_from[0])
    print_imported(r->imported_from, r->imported_at);
  return 0;
}

static int history_main(int argc, char **argv) {
  cli_args a;
  cli_args_init(&a, argc, argv, "history");
  const char *db_path = NULL, *limit_text = NULL, *socket = NULL;
  int use_service = 0;
  ts_err err;
  long limit = 20;
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    if (a.word)
      rc = ts_err_set(&err, TS_EUSAGE, "history: unexpected argument '%s'", a.word);
    else if (cli_args_is(&a, "--db"))
      rc = cli_args_value(&a, "a database file path", &db_path, &err);
    else if (cli_args_is(&a, "--service"))
      use_service = 1;
    else if (cli_args_is(&a, "--socket"))
      rc = cli_args_value(&a, "the service's socket or pipe", &socket, &err);
    else if (cli_args_is(&a, "--limit"))
      rc = cli_args_value(&a, "a whole number from 1 to 100000", &limit_text, &err);
    else
      rc = ts_err_set(&err, TS_EUSAGE, "history: unknown option '%s'", a.name);
    if (rc != TS_OK)
      return cli_usage_error(&cli_history_command, err.text);
  }
  if (limit_text && ts_parse_long(limit_text, 1, 100000, "--limit", &limit, &err) != TS_OK)
    return cli_usage_error(&cli_history_command, err.text);
  if (use_service || socket) {
    static proto_message request, reply;
    proto_init(&request, PROTO_REQUEST, "history");
    proto_addf(&request, &err, "limit", "%ld", limit > 200 ? 200 : limit);
    if (call_service(socket, &request, &reply, &err) != TS_OK)
      return cli_fail(&err);
    if (reply.kind == PROTO_ERROR)
      return cli_service_refused(&reply);
    printf("%6s  %-24s %-12s %-11s %11s %s\n", "run", "started (UTC)", "plan", "status",
           "done/trials", "detail");
    for (int i = 0; i < reply.field_count; i++) {
      const char *value = proto_value(&reply, i);
      if (strcmp(reply.fields[i].key, "imported") == 0) {
        /* "ID|WHEN|FILE", after its run's row */
        const char *when = strchr(value, '|'), *from = when ? strchr(when + 1, '|') : NULL;
        char at[40];
        if (from) {
          snprintf(at, sizeof at, "%.*s", (int)(from - when - 1), when + 1);
          print_imported(from + 1, at);
        }
        continue;
      }
      if (strcmp(reply.fields[i].key, "run") != 0)
        continue;
      char id[16], at[40], name[256], status[16], counts[32];
      char shown_at[160], shown_name[256], shown_detail[2560];
      if (sscanf(value, "%15[^|]|%39[^|]|%255[^|]|%15[^|]|%31[^|]", id, at, name, status, counts) <
          5)
        continue;
      /* The detail is the sixth column, the rest of the row: it may hold '|' itself. */
      const char *detail = value;
      for (int bars = 0; detail && bars < 5; bars++)
        detail = strchr(detail, '|') ? strchr(detail, '|') + 1 : NULL;
      ts_utf8_fprintf_printable(
          stdout, "%6s  %-24s %-12s %-11s %11s %s\n", id,
          ts_utf8_printable(at, shown_at, sizeof shown_at),
          ts_utf8_printable(name, shown_name, sizeof shown_name), status, counts,
          ts_utf8_printable(detail ? detail : "", shown_detail, sizeof shown_detail));
    }
    return CLI_EXIT_OK;
  }
  char path[PLAT_PATH_MAX];
  store *s = NULL;
  if (cli_resolve_db_path(db_path, path, sizeof path, &err) != TS_OK)
    return cli_fail(&err);
  int open_rc = store_open_existing(&s, path, &err);
  /* The default database before the first run: nothing to list, which is not an error. */
  if (open_rc == TS_EUSAGE && !db_path && !plat_file_exists(path)) {
    printf("no runs yet (no database at %s; threadsoup run makes it)\n", path);
    return CLI_EXIT_OK;
  }
  if (open_rc != TS_OK)
    return cli_fail(&err);
  printf("%6s  %-24s %-12s %-11s %11s %s\n", "run", "started (UTC)", "plan", "status",
         "done/trials", "detail");
  int rc = store_runs(s, (int)limit, print_run, NULL, &err);
  store_close(s);
  return rc == TS_OK ? CLI_EXIT_OK : cli_fail(&err);
}

const cli_command cli_history_command = {
    .name = "history",
    .synopsis = "history [--db PATH | --service [--socket ADDRESS]] [--limit N]",
    .summary = "list the runs kept in the database, newest first",
    .help = "\noptions:\n"
            "  --db PATH   database file (default as for run)\n"
            "  --limit N   how many runs (1 to 100000, default 20)\n"
            "  --service   ask the running service (its database); --socket ADDRESS names it\n",
    .main = history_main,
};

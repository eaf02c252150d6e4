/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* history.c - `threadsoup history`: the runs kept in the database, newest first (by start time),
   with the machine each was measured on and how far each got - survives reboots, since it is all
   in SQLite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../store/store.h"
#include "cli.h"
#include "threadsoup/call.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/proto.h"
#include "threadsoup/utf8.h"

/* One run as the table shows it, from the database or from the service's reply. */
typedef struct history_line {
  char id[24], started[40], host[128], plan[256], status[16], counts[32];
  char detail[600], imported_from[512], imported_at[40];
  int scheduled;
} history_line;

/* The marks under the table explain: which of them the listed runs used. */
typedef struct history_marks {
  int imported, scheduled;
} history_marks;

/* A run's mark beside its number: I imported from an export file, S started by a schedule. */
static const char *mark_of(const history_line *l) {
  return l->imported_from[0] ? "I" : l->scheduled ? "S" : "";
}

static void print_header(void) {
  printf("%6s %1s %-24s %-16s %-12s %-11s %11s %s\n", "run", "", "started (UTC)", "host", "plan",
         "status", "done/trials", "detail");
}

/* Stored text may hold any bytes (stored before every path checked them, or imported): printed
   through the printable filter, so no control or bidi character reaches the terminal. */
static void print_line(const history_line *l, history_marks *marks) {
  char started[160], host[512], plan[1024], detail[2560], from[2560], at[160];
  ts_utf8_fprintf_printable(stdout, "%6s %1s %-24s %-16s %-12s %-11s %11s %s\n", l->id, mark_of(l),
                            ts_utf8_printable(l->started, started, sizeof started),
                            ts_utf8_printable(l->host, host, sizeof host),
                            ts_utf8_printable(l->plan, plan, sizeof plan), l->status, l->counts,
                            ts_utf8_printable(l->detail, detail, sizeof detail));
  if (l->imported_from[0])
    printf("%6s   imported from %s on %s\n", "",
           ts_utf8_printable(l->imported_from, from, sizeof from),
           ts_utf8_printable(l->imported_at, at, sizeof at));
  marks->imported |= l->imported_from[0] != 0;
  marks->scheduled |= !l->imported_from[0] && l->scheduled;
}

/* Under the table: what its marks mean, for the marks it used. */
static void print_marks(const history_marks *marks) {
  if (marks->imported)
    printf("I: imported from an export file (data only: never resumed or added "
           "to)\n");
  if (marks->scheduled)
    printf("S: started by a schedule (threadsoup schedule list)\n");
}

static int print_run(void *ctx, const store_run_row *r) {
  history_line *l = calloc(1, sizeof *l);
  if (!l)
    return 1;
  snprintf(l->id, sizeof l->id, "%lld", (long long)r->id);
  snprintf(l->started, sizeof l->started, "%s", r->started_at);
  snprintf(l->host, sizeof l->host, "%s", r->host);
  snprintf(l->plan, sizeof l->plan, "%s", r->plan_name);
  snprintf(l->status, sizeof l->status, "%s", store_run_status_name(r->status));
  snprintf(l->counts, sizeof l->counts, "%5d/%-5d", r->trials_done, r->trials_total);
  snprintf(l->detail, sizeof l->detail, "%s", r->status_detail);
  snprintf(l->imported_from, sizeof l->imported_from, "%s", r->imported_from);
  snprintf(l->imported_at, sizeof l->imported_at, "%s", r->imported_at);
  l->scheduled = r->schedule_id != 0;
  print_line(l, ctx);
  free(l);
  return 0;
}

/* The field `key` of the reply ("ID|REST") when it belongs to run `id`: REST, else NULL. */
static const char *field_of_run(const proto_message *reply, int i, const char *key,
                                const char *id) {
  const char *value = proto_value(reply, i), *bar = strchr(value, '|');
  if (strcmp(reply->fields[i].key, key) != 0 || !bar || strlen(id) != (size_t)(bar - value) ||
      strncmp(value, id, (size_t)(bar - value)) != 0)
    return NULL;
  return bar + 1;
}

/* The service's reply: each `run` row, then its `host` (where it changes), `scheduled` and
   `imported` fields. */
static void print_reply(const proto_message *reply, history_marks *marks) {
  history_line *l = calloc(1, sizeof *l);
  char host[sizeof l->host] = ""; /* the service sends a host where it changes */
  int pending = 0;
  for (int i = 0; l && i <= reply->field_count; i++) {
    int row = i < reply->field_count && strcmp(reply->fields[i].key, "run") == 0;
    if (pending && (row || i == reply->field_count)) {
      print_line(l, marks);
      pending = 0;
    }
    if (i == reply->field_count)
      break;
    const char *rest;
    if (row) {
      const char *value = proto_value(reply, i);
      memset(l, 0, sizeof *l);
      snprintf(l->host, sizeof l->host, "%s", host);
      if (sscanf(value, "%23[^|]|%39[^|]|%255[^|]|%15[^|]|%31[^|]", l->id, l->started, l->plan,
                 l->status, l->counts) < 5)
        continue;
      /* The detail is the sixth column, the rest of the row: it may hold '|' itself. */
      const char *detail = value;
      for (int bars = 0; detail && bars < 5; bars++)
        detail = strchr(detail, '|') ? strchr(detail, '|') + 1 : NULL;
      snprintf(l->detail, sizeof l->detail, "%s", detail ? detail : "");
      pending = 1;
    } else if (pending && (rest = field_of_run(reply, i, "host", l->id)) != NULL) {
      snprintf(host, sizeof host, "%s", rest);
      snprintf(l->host, sizeof l->host, "%s", rest);
    } else if (pending && field_of_run(reply, i, "scheduled", l->id)) {
      l->scheduled = 1;
    } else if (pending && (rest = field_of_run(reply, i, "imported", l->id)) != NULL) {
      /* "WHEN|FILE" */
      const char *from = strchr(rest, '|');
      if (from) {
        snprintf(l->imported_at, sizeof l->imported_at, "%.*s", (int)(from - rest), rest);
        snprintf(l->imported_from, sizeof l->imported_from, "%s", from + 1);
      }
    }
  }
  free(l);
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
    history_marks marks = {0, 0};
    print_header();
    print_reply(&reply, &marks);
    print_marks(&marks);
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
  history_marks marks = {0, 0};
  print_header();
  int rc = store_runs(s, (int)limit, print_run, &marks, &err);
  store_close(s);
  if (rc == TS_OK)
    print_marks(&marks);
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

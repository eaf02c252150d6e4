/* history.c - `threadsoup history`: the runs kept in the database, newest first, with how far
   each got - survives reboots, since it is all in SQLite. */
#include <stdio.h>
#include <string.h>

#include "../store/store.h"
#include "cli.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"

static int print_run(void *ctx, const store_run_row *r) {
  (void)ctx;
  printf("%6lld  %-24s %-12s %-11s %5d/%-5d %s\n", (long long)r->id, r->started_at, r->plan_name,
         r->status, r->trials_done, r->trials_total, r->status_detail);
  return 0;
}

static int history_main(int argc, char **argv) {
  cli_args a;
  cli_args_init(&a, argc, argv, "history");
  const char *db_path = NULL, *limit_text = NULL;
  ts_err err;
  long limit = 20;
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    if (a.word)
      rc = ts_err_set(&err, TS_EUSAGE, "history: unexpected argument '%s'", a.word);
    else if (cli_args_is(&a, "--db"))
      rc = cli_args_value(&a, "a database file path", &db_path, &err);
    else if (cli_args_is(&a, "--limit"))
      rc = cli_args_value(&a, "a whole number from 1 to 100000", &limit_text, &err);
    else
      rc = ts_err_set(&err, TS_EUSAGE, "history: unknown option '%s'", a.name);
    if (rc != TS_OK)
      return cli_usage_error(&cli_history_command, err.text);
  }
  if (limit_text && parse_long(limit_text, 1, 100000, "--limit", &limit, &err) != TS_OK)
    return cli_usage_error(&cli_history_command, err.text);
  char path[PLAT_PATH_MAX];
  store *s = NULL;
  if (cli_resolve_db_path(db_path, path, sizeof path, &err) != TS_OK ||
      store_open(&s, path, &err) != TS_OK)
    return cli_fail(&err);
  printf("%6s  %-24s %-12s %-11s %11s %s\n", "run", "started (UTC)", "plan", "status", "done/trials",
         "detail");
  int rc = store_runs(s, (int)limit, print_run, NULL, &err);
  store_close(s);
  return rc == TS_OK ? CLI_EXIT_OK : cli_fail(&err);
}

const cli_command cli_history_command = {
    .name = "history",
    .synopsis = "history [--db PATH] [--limit N]",
    .summary = "list the runs kept in the database, newest first",
    .help = "\noptions:\n"
            "  --db PATH   database file (default as for run)\n"
            "  --limit N   how many runs (1 to 100000, default 20)\n",
    .main = history_main,
};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* record.c - `threadsoup record`: stores a score measured by hand (CPU-Z's window, a game's FPS
   counter, any tool that cannot be scripted) as a trial, beside the measured ones. */
#include <stdio.h>
#include <string.h>

#include "../engine/engine.h"
#include "../store/store.h"
#include "cli.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"

typedef struct record_options {
  const char *db_path;
  const char *run;
  const char *bench;
  const char *condition;
  const char *score;
  const char *unit;
} record_options;

static int read_options(int argc, char **argv, record_options *o, ts_err *err) {
  cli_args a;
  cli_args_init(&a, argc, argv, "record");
  memset(o, 0, sizeof *o);
  static const struct {
    const char *name;
    size_t offset;
    const char *accepted;
  } options[] = {
      {"--db", offsetof(record_options, db_path), "a database file path"},
      {"--run", offsetof(record_options, run), "a run number, or new"},
      {"--bench", offsetof(record_options, bench), "a benchmark name such as cpuz-single"},
      {"--condition", offsetof(record_options, condition), "a condition such as sleep:5000"},
      {"--score", offsetof(record_options, score), "a number"},
      {"--unit", offsetof(record_options, unit), "a unit such as points"},
  };
  while (cli_args_next(&a)) {
    if (a.word)
      return ts_err_set(err, TS_EUSAGE, "record: unexpected argument '%s'", a.word);
    size_t i = 0;
    while (i < sizeof options / sizeof options[0] && !cli_args_is(&a, options[i].name))
      i++;
    if (i == sizeof options / sizeof options[0])
      return ts_err_set(err, TS_EUSAGE, "record: unknown option '%s'", a.name);
    const char **field = (const char **)((char *)o + options[i].offset);
    int rc = cli_args_value(&a, options[i].accepted, field, err);
    if (rc != TS_OK)
      return rc;
  }
  static const char *const required[] = {"--run", "--bench", "--condition", "--score"};
  const char *given[] = {o->run, o->bench, o->condition, o->score};
  for (size_t i = 0; i < 4; i++)
    if (!given[i])
      return ts_err_set(err, TS_EUSAGE, "record needs %s", required[i]);
  return TS_OK;
}

static int record_main(int argc, char **argv) {
  record_options o;
  ts_err err;
  load_spec condition;
  double score;
  int64_t run_id = 0;
  long run_number = 0;
  if (read_options(argc, argv, &o, &err) != TS_OK ||
      (strcmp(o.run, "new") != 0 &&
       ts_parse_long(o.run, 1, 2147483647L, "--run", &run_number, &err) != TS_OK) ||
      ts_parse_name(o.bench, "--bench", &err) != TS_OK ||
      (o.unit && ts_parse_name(o.unit, "--unit", &err) != TS_OK) ||
      load_spec_parse(o.condition, &condition, &err) != TS_OK ||
      ts_parse_double(o.score, 0, 1e15, "--score", &score, &err) != TS_OK)
    return cli_usage_error(&cli_record_command, err.text);

  char db_path[PLAT_PATH_MAX], at[32];
  store *s = NULL;
  if (cli_resolve_db_path(o.db_path, db_path, sizeof db_path, &err) != TS_OK ||
      store_open(&s, db_path, &err) != TS_OK)
    return cli_fail(&err);
  plat_utc_timestamp(at, sizeof at);
  int rc = TS_OK;
  if (run_number == 0) {
    plat_sysinfo sys;
    plat_sysinfo_read(&sys);
    store_run_info info = store_run_info_here(&sys, "manual", "name = manual\n", 0, at);
    rc = store_run_create_manual(s, &info, &run_id, &err);
  } else {
    run_id = run_number;
  }
  int64_t trial_id = 0;
  if (rc == TS_OK)
    rc = store_score_record(s, run_id, condition.text, o.bench, score, o.unit, at, &trial_id, &err);
  store_close(s);
  if (rc != TS_OK)
    return cli_fail(&err);
  printf("recorded %s = %g%s%s under %s as trial %lld of run %lld in %s\n", o.bench, score,
         o.unit ? " " : "", o.unit ? o.unit : "", condition.text, (long long)trial_id,
         (long long)run_id, db_path);
  return CLI_EXIT_OK;
}

const cli_command cli_record_command = {
    .name = "record",
    .synopsis =
        "record --run RUN|new --bench NAME --condition COND --score X [--unit U] [--db PATH]",
    .summary = "store a score measured by hand (e.g. CPU-Z's window) as a trial",
    .help = "\noptions:\n"
            "  --run RUN|new     the run to add to (threadsoup history), or new for a new run\n"
            "  --bench NAME      what measured it, e.g. cpuz-single (no spaces or commas)\n"
            "  --condition COND  the load it ran under: baseline, sleep:5000, …\n"
            "  --score X         the score: 0, or a number from 1e-9 to 1e15 (higher is faster)\n"
            "  --unit U          its unit, e.g. points\n"
            "  --db PATH         database file (default as for run)\n",
    .main = record_main,
};

/* run.c - `threadsoup run`: runs an experiment in the foreground, storing every trial as it
   completes, then prints the table of results. */
#include <stdio.h>
#include <string.h>

#include "../experiment/experiment.h"
#include "../report/report.h"
#include "cli.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"

typedef struct run_options {
  const char *plan_name;
  const char *db_path;
  const char *conditions;
  const char *benches;
  const char *reps;
  const char *settle;
  const char *work_scale;
  const char *seed;
} run_options;

static int read_options(int argc, char **argv, run_options *o, ts_err *err) {
  cli_args a;
  cli_args_init(&a, argc, argv, "run");
  memset(o, 0, sizeof *o);
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    if (a.word) {
      if (o->plan_name)
        return ts_err_set(err, TS_EUSAGE, "run takes one PLAN, got '%s' and '%s'", o->plan_name,
                          a.word);
      o->plan_name = a.word;
    } else if (cli_args_is(&a, "--db")) {
      rc = cli_args_value(&a, "a database file path", &o->db_path, err);
    } else if (cli_args_is(&a, "--conditions")) {
      rc = cli_args_value(&a, "a list such as baseline,sleep:1500", &o->conditions, err);
    } else if (cli_args_is(&a, "--bench")) {
      rc = cli_args_value(&a, "a list such as builtin-st", &o->benches, err);
    } else if (cli_args_is(&a, "--reps")) {
      rc = cli_args_value(&a, "a whole number from 1 to 1000", &o->reps, err);
    } else if (cli_args_is(&a, "--settle")) {
      rc = cli_args_value(&a, "a duration such as 500ms or 2s", &o->settle, err);
    } else if (cli_args_is(&a, "--work-scale")) {
      rc = cli_args_value(&a, "a number from 0.001 to 1000", &o->work_scale, err);
    } else if (cli_args_is(&a, "--seed")) {
      rc = cli_args_value(&a, "a whole number", &o->seed, err);
    } else {
      return ts_err_set(err, TS_EUSAGE, "run: unknown option '%s'", a.name);
    }
    if (rc != TS_OK)
      return rc;
  }
  return TS_OK;
}

static int build_plan(const run_options *o, plan *p, uint64_t *seed, ts_err *err) {
  int rc = plan_preset(o->plan_name ? o->plan_name : plan_default_preset(), p, err);
  if (rc == TS_OK && o->conditions)
    rc = plan_set_conditions(p, o->conditions, err);
  if (rc == TS_OK && o->benches)
    rc = plan_set_benches(p, o->benches, err);
  /* A preset whose conditions or benchmarks were replaced is no longer that preset. */
  if (rc == TS_OK && (o->conditions || o->benches))
    snprintf(p->name, sizeof p->name, "custom");
  if (rc == TS_OK && o->reps)
    rc = parse_long(o->reps, 1, PLAN_MAX_REPS, "--reps", &p->reps, err);
  if (rc == TS_OK && o->settle)
    rc = parse_duration(o->settle, 0, 3600000000000ull, "--settle", &p->settle_ns, err);
  if (rc == TS_OK && o->work_scale)
    rc = parse_double(o->work_scale, 0.001, 1000, "--work-scale", &p->work_scale, err);
  if (rc == TS_OK && o->seed) {
    long v;
    rc = parse_long(o->seed, 0, 2147483647L, "--seed", &v, err);
    *seed = (uint64_t)v;
  } else if (rc == TS_OK) {
    *seed = plat_clock_ns() ^ ((uint64_t)plat_self_pid() << 32);
  }
  return rc;
}

static int resolve_db_path(const char *given, char *path, size_t len, ts_err *err) {
  if (given) {
    snprintf(path, len, "%s", given);
  } else {
    char dir[PLAT_PATH_MAX];
    int rc = plat_user_data_dir(dir, sizeof dir, err);
    if (rc != TS_OK)
      return rc;
    snprintf(path, len, "%s%cthreadsoup.db", dir, plat_path_separator());
  }
  char dir[PLAT_PATH_MAX];
  plat_path_dirname(path, dir, sizeof dir);
  return dir[0] ? plat_mkdir_p(dir, err) : TS_OK;
}

static void on_run_started(void *ctx, int64_t run_id, int total) {
  (void)ctx;
  printf("run %lld: %d trials, each stored as it completes\n", (long long)run_id, total);
  fflush(stdout);
}

static void on_trial_done(void *ctx, const experiment_progress *pr) {
  (void)ctx;
  double elapsed = (double)pr->elapsed_ns / 1e9;
  double left = elapsed / pr->done * (pr->total - pr->done);
  printf("[%*d/%d] %-24s %-12s %10.2f %-10s threads %6ld   %4.0fs elapsed, ~%.0fs left\n",
         pr->total >= 100 ? 3 : 2, pr->done, pr->total, pr->condition, pr->bench, pr->score,
         pr->unit, pr->process_threads, elapsed, left);
  fflush(stdout);
}

static void print_presets(void) {
  char presets[2048];
  plan_preset_help(presets, sizeof presets);
  printf("\nPLAN is a preset (default %s):\n%s", plan_default_preset(), presets);
}

static int run_main(int argc, char **argv) {
  run_options o;
  plan p;
  uint64_t seed = 0;
  ts_err err;
  ts_err_clear(&err);
  if (read_options(argc, argv, &o, &err) != TS_OK || build_plan(&o, &p, &seed, &err) != TS_OK)
    return cli_usage_error(&cli_run_command, err.text);

  char db_path[PLAT_PATH_MAX];
  store *s = NULL;
  if (resolve_db_path(o.db_path, db_path, sizeof db_path, &err) != TS_OK ||
      store_open(&s, db_path, &err) != TS_OK ||
      plat_interrupt_install(&err) != TS_OK) {
    store_close(s);
    return cli_fail(&err);
  }

  printf("ThreadSoup experiment '%s': %d condition(s) x %d benchmark(s) x %ld repetition(s), "
         "seed %llu\ndatabase: %s\n",
         p.name, p.condition_count, p.bench_count, p.reps, (unsigned long long)seed, db_path);
  experiment_observer observer = {on_run_started, on_trial_done, NULL};
  int64_t run_id = 0;
  int rc = experiment_run(s, &p, seed, &observer, &run_id, &err);
  ts_err report_err;
  if (run_id && report_text(s, run_id, &p, stdout, &report_err) != TS_OK)
    fprintf(stderr, "threadsoup: %s\n", report_err.text);
  store_close(s);
  if (rc == TS_EINTERRUPTED) {
    fprintf(stderr, "threadsoup: run %lld interrupted; its finished trials are kept in %s\n",
            (long long)run_id, db_path);
    return CLI_EXIT_FAILURE;
  }
  if (rc != TS_OK)
    return cli_fail(&err);
  printf("\nrun %lld finished; stored in %s\n", (long long)run_id, db_path);
  return CLI_EXIT_OK;
}

const cli_command cli_run_command = {
    .name = "run",
    .synopsis = "run [PLAN] [options]",
    .summary = "run an experiment in the foreground and store every trial",
    .help = "\noptions:\n"
            "  --db PATH            database file (default: the per-user data folder,\n"
            "                       ~/.local/share/threadsoup/threadsoup.db or\n"
            "                       %LOCALAPPDATA%\\ThreadSoup\\threadsoup.db)\n"
            "  --conditions LIST    comma-separated conditions: baseline, sleep:COUNT[@INTERVAL],\n"
            "                       or scenarios joined with '+'\n"
            "  --bench LIST         comma-separated benchmarks: builtin-st\n"
            "  --reps N             repetition blocks, 1 to 1000\n"
            "  --settle DURATION    wait after the load starts, e.g. 500ms, 2s (0s to 1h)\n"
            "  --work-scale X       multiply the built-in benchmark's work (0.001 to 1000)\n"
            "  --seed N             order the trials from this seed (default: from the clock)\n",
    .more_help = print_presets,
    .main = run_main,
};

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* run.c - `threadsoup run`: runs an experiment in the foreground (or resumes one), storing every
   trial as it completes, then prints the report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../experiment/estimate.h"
#include "../experiment/experiment.h"
#include "../quiet/quiet.h"
#include "../report/report.h"
#include "cli.h"
#include "threadsoup/call.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/proto.h"
#include "threadsoup/units.h"
#include "threadsoup/utf8.h"

#define RUN_MAX_SETTINGS 32

typedef struct run_options {
  const char *plan_name;
  const char *db_path;
  const char *seed;
  const char *resume;
  int use_service;
  int estimate;   /* --estimate: say what the plan can detect and how long it takes, then exit */
  int background; /* --background: the preset background */
  const char *socket;
  int setting_count;
  char keys[RUN_MAX_SETTINGS][32];
  const char *values[RUN_MAX_SETTINGS];
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
    } else if (cli_args_is(&a, "--seed")) {
      rc = cli_args_value(&a, "a whole number", &o->seed, err);
    } else if (cli_args_is(&a, "--service")) {
      o->use_service = 1;
    } else if (cli_args_is(&a, "--estimate")) {
      o->estimate = 1;
    } else if (cli_args_is(&a, "--background")) {
      o->background = 1;
    } else if (cli_args_is(&a, "--socket")) {
      rc = cli_args_value(&a, "the service's socket or pipe", &o->socket, err);
    } else if (cli_args_is(&a, "--resume")) {
      rc = cli_args_value(&a, "a run number (threadsoup history lists them)", &o->resume, err);
    } else if (cli_args_is(&a, "--stop-when-decided") && !a.inline_value &&
               !(a.index < a.argc &&
                 (strcmp(a.argv[a.index], "on") == 0 || strcmp(a.argv[a.index], "off") == 0))) {
      /* A flag as well as a setting: alone it means on. */
      if (o->setting_count == RUN_MAX_SETTINGS)
        return ts_err_set(err, TS_EUSAGE, "run: too many options");
      snprintf(o->keys[o->setting_count], sizeof o->keys[0], "stop-when-decided");
      o->values[o->setting_count++] = "on";
    } else if (strncmp(a.name, "--", 2) == 0 && strlen(a.name) > 2) {
      /* Every plan setting is also an option: --reps 10, --precision 0.5%, --7zip PATH … */
      if (o->setting_count == RUN_MAX_SETTINGS)
        return ts_err_set(err, TS_EUSAGE, "run: too many options");
      if (!plan_is_setting(a.name + 2))
        return ts_err_set(err, TS_EUSAGE, "run: unknown option '%s'", a.name);
      snprintf(o->keys[o->setting_count], sizeof o->keys[0], "%s", a.name + 2);
      rc = cli_args_value(&a, "see threadsoup run --help", &o->values[o->setting_count], err);
      o->setting_count++;
    } else {
      return ts_err_set(err, TS_EUSAGE, "run: unknown option '%s'", a.name);
    }
    if (rc != TS_OK)
      return rc;
  }
  if ((o->use_service || o->socket) && o->db_path)
    return ts_err_set(err, TS_EUSAGE, "run %s uses the service's database: drop --db",
                      o->use_service ? "--service" : "--socket");
  if (o->estimate && o->resume)
    return ts_err_set(err, TS_EUSAGE,
                      "run --estimate estimates a plan before it runs: it takes no --resume");
  if (o->background && o->plan_name)
    return ts_err_set(err, TS_EUSAGE,
                      "run --background runs the preset background: it takes no PLAN (got '%s')",
                      o->plan_name);
  if (o->background)
    o->plan_name = "background";
  if (o->resume && (o->plan_name || o->setting_count || o->seed))
    return ts_err_set(err, TS_EUSAGE,
                      "run --resume RUN continues a stored plan: it takes no PLAN or settings");
  return TS_OK;
}

/* "5 block(s)", "5 block(s) or more" (precision adds blocks), "5 block(s) or more, as many as
   end within 80s" (reps is a time). */
static void blocks_words(const plan *p, long blocks, char *buf, size_t len) {
  char fill[32] = "";
  if (p->fill_ns)
    ts_format_duration(p->fill_ns, fill, sizeof fill);
  snprintf(buf, len, "%ld block(s)%s%s%s", blocks,
           p->fill_ns || p->precision_pct != 0 ? " or more" : "",
           p->fill_ns ? ", as many as end within " : "", fill);
}

static int build_plan(const run_options *o, plan *p, uint64_t *seed, ts_err *err) {
  const char *name = o->plan_name ? o->plan_name : plan_default_preset();
  int rc = !plan_is_preset(name) && plat_file_exists(name) ? plan_read_file(name, p, err)
                                                           : plan_preset(name, p, err);
  int replaced = 0;
  for (int i = 0; rc == TS_OK && i < o->setting_count; i++) {
    if (!plan_is_setting(o->keys[i])) {
      rc = ts_err_set(err, TS_EUSAGE, "run: unknown option '--%s'", o->keys[i]);
      break;
    }
    rc = plan_set(p, o->keys[i], o->values[i], err);
    size_t key_len = strlen(o->keys[i]);
    if (rc != TS_OK && strncmp(err->text, o->keys[i], key_len) == 0 &&
        strlen(err->text) + 2 < sizeof err->text) {
      /* "reps: …" from the plan reads "--reps: …" on the command line. */
      memmove(err->text + 2, err->text, strlen(err->text) + 1);
      memcpy(err->text, "--", 2);
    }
    replaced |= strcmp(o->keys[i], "conditions") == 0 || strcmp(o->keys[i], "bench") == 0;
  }
  /* A preset whose conditions or benchmarks were replaced is no longer that preset. */
  if (rc == TS_OK && replaced && plan_is_preset(p->name))
    snprintf(p->name, sizeof p->name, "custom");
  if (rc == TS_OK)
    rc = plan_check(p, err);
  if (rc == TS_OK && o->seed) {
    rc = ts_parse_u64(o->seed, "--seed", seed, err);
  } else if (rc == TS_OK) {
    *seed = plat_clock_ns() ^ ((uint64_t)plat_self_pid() << 32);
  }
  return rc;
}

int cli_resolve_db_path(const char *given, char *path, size_t len, ts_err *err) {
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

static void on_run_started(void *ctx, int64_t run_id, int pending, int total) {
  (void)ctx;
  printf("run %lld: %d of %d trials to run, each stored as it completes\n", (long long)run_id,
         pending, total);
  fflush(stdout);
}

static void on_trial_done(void *ctx, const experiment_progress *pr) {
  (void)ctx;
  double elapsed = (double)pr->elapsed_ns / TS_NS_PER_S;
  double left = elapsed / pr->done * (pr->total - pr->done);
  /* A trial without a census (every third one, where the census is costly) has no count: "-". */
  char threads[24] = "-";
  if (pr->process_threads >= 0)
    snprintf(threads, sizeof threads, "%ld", pr->process_threads);
  /* Names come from a plan file or, resumed, the database: through the printable filter. */
  ts_utf8_fprintf_printable(
      stdout, "[%*d/%d] %-26s %-12s %10.2f %-9s threads %6s  %4.0fs elapsed, ~%.0fs left%s%s%s\n",
      pr->total >= 100 ? 3 : 2, pr->done, pr->total, pr->condition, pr->bench, pr->score, pr->unit,
      threads, elapsed, left, pr->block == 0 ? "  (warm-up)" : "",
      pr->warnings ? "  warning: " : "", pr->warnings ? pr->warnings : "");
  fflush(stdout);
}

static void on_note(void *ctx, const char *text) {
  (void)ctx;
  ts_utf8_fprintf_printable(stdout, "%s\n", text);
  fflush(stdout);
}

/* Prints the estimate's line for each benchmark (with what it stands on when `basis`). */
static void print_estimate(const estimate *e, const plan *p, int basis) {
  char line[600];
  for (int i = 0; i < e->bench_count; i++) {
    if (basis && estimate_basis(e, i, line, sizeof line))
      printf("%s\n", line);
    estimate_line(e, p, i, line, sizeof line);
    printf("%s\n", line);
  }
  fflush(stdout);
}

/* run --estimate: the estimate from history; benchmarks without history first get a pilot (a few
   blocks of the reference condition and one other, stored as a run named estimate-pilot, so it
   becomes history). */
static int run_estimate(store *s, const plan *p, uint64_t seed, ts_err *err) {
  estimate e;
  int rc = estimate_plan(s, p, NULL, &e, err);
  plan pilot;
  estimate_pilot_plan(p, &pilot);
  pilot.bench_count = 0;
  for (int i = 0; rc == TS_OK && i < e.bench_count; i++)
    if (!e.benches[i].have_history)
      snprintf(pilot.benches[pilot.bench_count++], sizeof pilot.benches[0], "%s", p->benches[i]);
  if (rc == TS_OK && pilot.bench_count > 0) {
    char names[PLAN_MAX_BENCHES * (PLAN_BENCH_MAX + 2)] = "";
    for (int i = 0; i < pilot.bench_count; i++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
               pilot.benches[i]);
    char conditions[2 * 130] = "";
    for (int c = 0; c < pilot.condition_count; c++)
      snprintf(conditions + strlen(conditions), sizeof conditions - strlen(conditions), "%s%s",
               c ? " and " : "", pilot.conditions[c].text);
    printf("no history of %s on this machine (host %s, work scale %g) yet: a pilot measures %ld "
           "block(s) of %s for each first, stored as a run of plan '%s'\n",
           names, e.host, p->work_scale, pilot.reps, conditions, pilot.name);
    fflush(stdout);
    experiment_observer observer = {NULL, on_trial_done, NULL, NULL, NULL};
    int64_t pilot_id = 0;
    rc = experiment_run(s, &pilot, seed, &observer, NULL, &pilot_id, err);
    if (rc == TS_OK) {
      printf("pilot run %lld finished\n", (long long)pilot_id);
      rc = estimate_plan(s, p, NULL, &e, err);
    }
  }
  if (rc != TS_OK)
    return rc;
  char blocks[96];
  blocks_words(p, e.blocks, blocks, sizeof blocks);
  printf("estimate for plan '%s' (%d condition(s) x %d benchmark(s) x %s, settle %.3g s):\n",
         p->name, p->condition_count, p->bench_count, blocks, e.settle_s);
  print_estimate(&e, p, 1);
  return TS_OK;
}

/* run --service: the plan is read and checked here (plan files are the user's), the service gets
   its text and runs it. */
static int run_by_service(const run_options *o, const plan *p, uint64_t seed, long resume_id) {
  static proto_message request, reply;
  ts_err err;
  if (o->estimate) {
    /* From the service's database; no pilot (that would be a run of the service's). */
    char text[PLAN_FORMAT_MAX];
    plan_format(p, text, sizeof text);
    proto_init(&request, PROTO_REQUEST, "run-estimate");
    proto_add(&request, "plan", text, &err);
  } else if (resume_id) {
    proto_init(&request, PROTO_REQUEST, "run-resume");
    proto_addf(&request, &err, "run", "%ld", resume_id);
  } else {
    char text[PLAN_FORMAT_MAX];
    plan_format(p, text, sizeof text);
    proto_init(&request, PROTO_REQUEST, "run-start");
    proto_add(&request, "plan", text, &err);
    if (o->seed)
      proto_addf(&request, &err, "seed", "%llu", (unsigned long long)seed);
  }
  if (call_service(o->socket, &request, &reply, &err) != TS_OK)
    return cli_fail(&err);
  if (reply.kind == PROTO_ERROR)
    return cli_service_refused(&reply);
  const char *expected = proto_get(&reply, "estimate");
  if (o->estimate) {
    printf("estimate for plan '%s' from the service's database:\n%s\n", p->name,
           expected ? expected : "");
    return CLI_EXIT_OK;
  }
  const char *run = proto_get(&reply, "run");
  if (expected && expected[0])
    printf("%s\n", expected);
  /* Every hint names the database it means: the service's, so each command carries --service
     (and the socket when one was given). */
  char service[PLAT_PATH_MAX + 16];
  if (o->socket)
    snprintf(service, sizeof service, "--socket '%s'", o->socket);
  else
    snprintf(service, sizeof service, "--service");
  printf("run %s %s by the service (in the service's database); follow it with threadsoup "
         "status%s%s, threadsoup history %s, threadsoup report %s %s\n",
         run ? run : "?", resume_id ? "resumed" : "started", o->socket ? " " : "",
         o->socket ? service : "", service, run ? run : "RUN", service);
  return CLI_EXIT_OK;
}

/* Quiet mode left on in this database by a foreground run that no longer runs (killed, or its
   console closed before it could restore everything) is restored before anything else. */
static void recover_quiet(store *s) {
  quiet_outcome out;
  ts_err err;
  int rc = quiet_recover_orphan(s, plat_quiet_system(), NULL, &out, &err);
  if (rc != TS_OK)
    fprintf(stderr, "threadsoup: %s\n", err.text);
  else if (out.text[0])
    printf("%s\n", out.text);
}

/* Programs a freeze left frozen when a foreground run and its guardian both died are thawed
   before anything else. */
static void thaw_left(store *s) {
  char said[1024];
  ts_err err;
  if (experiment_thaw_left(s, said, sizeof said, &err) != TS_OK)
    fprintf(stderr, "threadsoup: %s\n", err.text);
  else if (said[0])
    printf("%s\n", said);
}

static int run_main(int argc, char **argv) {
  run_options o;
  plan p;
  uint64_t seed = 0;
  ts_err err;
  ts_err_clear(&err);
  if (read_options(argc, argv, &o, &err) != TS_OK ||
      (!o.resume && build_plan(&o, &p, &seed, &err) != TS_OK))
    return cli_usage_error(&cli_run_command, err.text);
  long resume_id = 0;
  if (o.resume && ts_parse_long(o.resume, 1, 2147483647L, "--resume", &resume_id, &err) != TS_OK)
    return cli_usage_error(&cli_run_command, err.text);
  if (o.use_service || o.socket)
    return run_by_service(&o, &p, seed, resume_id);

  char db_path[PLAT_PATH_MAX];
  store *s = NULL;
  if (cli_resolve_db_path(o.db_path, db_path, sizeof db_path, &err) != TS_OK ||
      store_open(&s, db_path, &err) != TS_OK || plat_interrupt_install(&err) != TS_OK) {
    store_close(s);
    return cli_fail(&err);
  }
  recover_quiet(s);
  thaw_left(s);
  if (o.estimate) {
    int rc = run_estimate(s, &p, seed, &err);
    store_close(s);
    if (rc == TS_EINTERRUPTED) {
      fprintf(stderr, "threadsoup: the pilot was interrupted; its finished trials are kept\n");
      return CLI_EXIT_FAILURE;
    }
    return rc == TS_OK ? CLI_EXIT_OK : cli_fail(&err);
  }
  experiment_observer observer = {on_run_started, on_trial_done, on_note, NULL, NULL};
  int64_t run_id = resume_id;
  int rc;
  /* A closed console waits (bounded) for the run to restore quiet mode on its way out. */
  plat_interrupt_hold();
  if (o.resume) {
    /* A run that is not there is said at once, with no report around it. */
    store_run_row *row = malloc(sizeof *row);
    rc = row ? store_run_get(s, resume_id, row, &err)
             : ts_err_set(&err, TS_ENOMEM, "no memory to read run %ld", resume_id);
    free(row);
    if (rc != TS_OK) {
      store_close(s);
      return cli_fail(&err);
    }
    printf("ThreadSoup: resuming run %ld\ndatabase: %s\n", resume_id, db_path);
    rc = experiment_resume(s, resume_id, &observer, NULL, &p, &err);
  } else {
    /* freeze:background: the programs that wake most now, by name, are what the run stores. */
    char said[1024] = "";
    if (plan_expand_background(&p, NULL, said, sizeof said, &err) != TS_OK) {
      store_close(s);
      return cli_fail(&err);
    }
    printf("%s", said);
    char blocks[96];
    blocks_words(&p, p.reps, blocks, sizeof blocks);
    printf("ThreadSoup experiment '%s': %d condition(s) x %d benchmark(s) x %s, seed %llu "
           "(--seed %llu repeats this order)\ndatabase: %s\n",
           p.name, p.condition_count, p.bench_count, blocks, (unsigned long long)seed,
           (unsigned long long)seed, db_path);
    /* What this plan can detect, from this machine's history: before it starts, at no cost. */
    estimate e;
    ts_err estimate_err;
    if (estimate_plan(s, &p, NULL, &e, &estimate_err) == TS_OK)
      print_estimate(&e, &p, 0);
    else
      fprintf(stderr, "threadsoup: no estimate: %s\n", estimate_err.text);
    rc = experiment_run(s, &p, seed, &observer, NULL, &run_id, &err);
  }
  ts_err report_err;
  /* A refused resume (finished, typed in, imported) ran nothing: no report. */
  if (run_id && rc != TS_EUSAGE && rc != TS_EDENIED &&
      report_text(s, run_id, &p, stdout, &report_err) != TS_OK)
    fprintf(stderr, "threadsoup: %s\n", report_err.text);
  store_close(s);
  plat_interrupt_settled();
  if (rc == TS_EINTERRUPTED) {
    fprintf(stderr,
            "threadsoup: run %lld interrupted; its finished trials are kept in %s (continue it "
            "with: threadsoup run --resume %lld%s%s%s)\n",
            (long long)run_id, db_path, (long long)run_id, o.db_path ? " --db '" : "",
            o.db_path ? db_path : "", o.db_path ? "'" : "");
    return CLI_EXIT_FAILURE;
  }
  if (rc != TS_OK)
    return cli_fail(&err);
  printf("\nrun %lld finished; stored in %s\n", (long long)run_id, db_path);
  return CLI_EXIT_OK;
}

/* The plan settings' options and the presets, from their tables in plan.c. */
static void print_settings_and_presets(void) {
  static char text[16384];
  plan_settings_help(text, sizeof text);
  printf("\nplan settings (each is also an option, --KEY VALUE; see docs/plans.md):\n%s", text);
  plan_preset_help(text, sizeof text);
  printf("\nPLAN is a preset (default %s) or a plan file (docs/plans.md):\n%s",
         plan_default_preset(), text);
}

const cli_command cli_run_command = {
    .name = "run",
    .synopsis = "run [PRESET|PLAN-FILE] [options] [--stop-when-decided] [--service] [--estimate] | "
                "run --background [options] | run --resume RUN [--service]",
    .summary = "run an experiment in the foreground and store every trial",
    .help = "\noptions:\n"
            "  --db PATH               database file (default: the per-user data folder,\n"
            "                          ~/.local/share/threadsoup/threadsoup.db or\n"
            "                          %LOCALAPPDATA%\\ThreadSoup\\threadsoup.db)\n"
            "  --seed N                order the trials from this seed, 0 to 18446744073709551615\n"
            "                          as runs print it (default: from the clock)\n"
            "  --resume RUN            continue an interrupted run where it stopped (not one\n"
            "                          imported from an export file)\n"
            "  --service               have the service run it (it keeps running when this\n"
            "                          program ends); --socket ADDRESS names the service\n"
            "  --estimate              print what the plan can detect and how long it takes, from\n"
            "                          this machine's earlier runs (a short pilot run first when\n"
            "                          there are none), and exit without running the plan; with\n"
            "                          --service from the service's runs, without a pilot\n"
            "  --background            what do my background programs cost? the preset\n"
            "                          background: a baseline, each of the 5 programs that wake\n"
            "                          most (a 2 s census as the run starts, leaving out what the\n"
            "                          freeze rules refuse) frozen alone, and all of them\n"
            "                          together\n"
            "  --stop-when-decided     stop before the planned blocks once every comparison is\n"
            "                          decided at its group-sequential boundary (the plan\n"
            "                          setting stop-when-decided = on; see docs/methodology.md)\n"
            "\nWithout PLAN the run starts from the quick preset and each --KEY VALUE changes\n"
            "only what it names (run --conditions ... keeps quick's reps, settle and quiet\n"
            "gate); the whole plan is stored with the run and printed in its report.\n",
    .more_help = print_settings_and_presets,
    .main = run_main,
};

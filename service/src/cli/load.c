/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* load.c - `threadsoup load`: runs load in the foreground until Ctrl+C, SIGTERM or --for, printing
   what was created and, once a second, the census of the load as the OS sees it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../engine/like.h"
#include "cli.h"
#include "threadsoup/buf.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"
#include "threadsoup/utf8.h"

typedef struct load_options {
  load_spec spec;
  uint64_t for_ns; /* 0: until interrupted */
  int quiet;
} load_options;

static int read_options(int argc, char **argv, load_options *o, ts_err *err) {
  return cli_parse_load(argc, argv, "load", &o->spec, &o->for_ns, &o->quiet, NULL, err);
}

int cli_parse_load(int argc, char **argv, const char *command, load_spec *spec, uint64_t *for_ns,
                   int *quiet, const char **socket, ts_err *err) {
  cli_args a;
  cli_args_init(&a, argc, argv, command);
  load_options options;
  load_options *o = &options;
  memset(o, 0, sizeof *o);
  load_part *part = NULL;
  int want_scenario = 1; /* at the start and after '+' */
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    if (a.word && strcmp(a.word, "+") == 0) {
      if (want_scenario)
        return ts_err_set(err, TS_EUSAGE, "%s: '+' must stand between two scenarios", command);
      want_scenario = 1;
      continue;
    }
    if (a.word) {
      if (!want_scenario)
        return ts_err_set(err, TS_EUSAGE,
                          "%s: unexpected '%s' (join scenarios with ' + ', e.g. sleep "
                          "--count 5000 + procs --count 100)",
                          command, a.word);
      /* A full condition ("sleep:5000+procs:10") or a bare scenario name with options to come. */
      load_spec parsed;
      if (strchr(a.word, ':') || strchr(a.word, '+')) {
        rc = load_spec_parse(a.word, &parsed, err);
        if (rc != TS_OK)
          return rc;
        for (int i = 0; i < parsed.part_count; i++) {
          if (o->spec.part_count == LOAD_MAX_PARTS)
            return ts_err_set(err, TS_EUSAGE, "%s: at most %d scenarios at once", command,
                              LOAD_MAX_PARTS);
          o->spec.parts[o->spec.part_count++] = parsed.parts[i];
        }
      } else {
        if (o->spec.part_count == LOAD_MAX_PARTS)
          return ts_err_set(err, TS_EUSAGE, "%s: at most %d scenarios at once", command,
                            LOAD_MAX_PARTS);
        rc = load_part_init(&o->spec.parts[o->spec.part_count], a.word, err);
        if (rc != TS_OK)
          return rc;
        o->spec.part_count++;
      }
      part = &o->spec.parts[o->spec.part_count - 1];
      want_scenario = 0;
      continue;
    }
    if (socket && cli_args_is(&a, "--socket")) {
      rc = cli_args_value(&a, "the service's socket or pipe", socket, err);
    } else if (for_ns && cli_args_is(&a, "--for")) {
      const char *v;
      rc = cli_args_value(&a, "a duration such as 30s or 5m", &v, err);
      if (rc == TS_OK)
        rc = ts_parse_duration(v, TS_NS_PER_MS, 31 * TS_NS_PER_DAY, "--for", &o->for_ns, err);
    } else if (quiet && cli_args_is(&a, "--quiet")) {
      o->quiet = 1;
    } else {
      /* --KEY sets the option KEY of the scenario before it; any scenario's option is known
         here, and one its scenario does not take is refused by load_part_set, naming both. */
      const load_option *option =
          strncmp(a.name, "--", 2) == 0 ? load_option_find(NULL, a.name + 2) : NULL;
      if (!option)
        return ts_err_set(err, TS_EUSAGE, "%s: unknown option '%s'", command, a.name);
      if (!part)
        return ts_err_set(err, TS_EUSAGE, "%s: %s must follow a scenario name", command, a.name);
      const char *key = option->name, *v = NULL;
      if (option->kind != LOAD_OPTION_FLAG || a.inline_value)
        rc = cli_args_value(&a, "see threadsoup load --help", &v, err);
      if (rc == TS_OK)
        rc = load_part_set(part, key, v, err);
    }
    if (rc != TS_OK)
      return rc;
  }
  if (o->spec.part_count == 0)
    return ts_err_set(err, TS_EUSAGE, "%s: which scenario? (threadsoup load list shows them)",
                      command);
  if (want_scenario)
    return ts_err_set(err, TS_EUSAGE, "%s: a scenario must follow '+'", command);
  int rc = load_spec_format(&o->spec, err);
  *spec = o->spec;
  if (for_ns)
    *for_ns = o->for_ns;
  if (quiet)
    *quiet = o->quiet;
  return rc;
}

static void print_scenarios(void) {
  char options[2048];
  for (size_t i = 0; scenario_table[i]; i++) {
    const scenario_def *sc = scenario_table[i];
    const char *why = sc->unavailable_reason ? sc->unavailable_reason() : NULL;
    printf("%-6s %s%s%s\n", sc->name, sc->help, why ? " [unavailable here: " : "", why ? why : "");
    printf("       options:");
    const load_option *o;
    for (size_t j = 0; (o = load_option_at(sc, j)) != NULL; j++)
      printf(" --%s%s", o->name,
             strcmp(o->name, "count") == 0 && sc->count_per_cpu ? " (default: one per CPU)" : "");
    printf("\n");
  }
  load_options_help(options, sizeof options);
  printf("\noption values:\n%s", options);
}

/* The state tally as "15000 S (sleeping), 1 R (running)". */
static void format_states(const plat_process_census *c, char *buf, size_t len) {
  ts_buf states = ts_buf_on(buf, len);
  for (int i = 0; i < c->state_count; i++)
    ts_buf_itemf(&states, ", ", "%ld %s", c->states[i].threads, c->states[i].name);
}

typedef struct census_sample {
  uint64_t at_ns;
  uint64_t context_switches;
  uint64_t cpu_ns;
} census_sample;

/* One line of the once-a-second census; the census's own CPU time is measured and shown. */

static void print_census(const load_options *o, census_sample *prev, uint64_t started_ns) {
  uint64_t census_cpu = plat_thread_cpu_ns();
  uint64_t process_cpu = plat_process_cpu_ns();
  plat_process_census self;
  ts_err err;
  if (plat_census_process(plat_self_pid(), &self, &err) != TS_OK) {
    printf("census failed: %s\n", err.text);
    return;
  }
  long children = load_spec_processes(&o->spec) ? load_count_children() : 0;
  census_cpu = plat_thread_cpu_ns() - census_cpu;
  uint64_t now = plat_clock_ns();
  double dt = (double)(now - prev->at_ns) / TS_NS_PER_S;
  double switches = (double)(self.context_switches - prev->context_switches) / dt;
  /* The load's CPU: the whole process's, less what this census spent. */
  double cpu = ((double)process_cpu - (double)prev->cpu_ns) / TS_NS_PER_S / dt * 100.0;
  long load_threads = load_spec_threads(&o->spec);
  char states[512];
  format_states(&self, states, sizeof states);
  printf("%5.0fs  threads %ld [%s]", (double)(now - started_ns) / TS_NS_PER_S, self.threads,
         states);
  if (load_spec_processes(&o->spec))
    printf("  child processes %ld", children);
  printf("  switches/s %.0f", switches);
  if (load_threads > 0)
    printf(" (%.2f per thread)", switches / (double)load_threads);
  printf("  load CPU %.1f%%  census %.1f ms CPU\n", cpu < 0 ? 0 : cpu,
         (double)census_cpu / TS_NS_PER_MS);
  fflush(stdout);
  prev->at_ns = now;
  prev->context_switches = self.context_switches;
  prev->cpu_ns = plat_process_cpu_ns();
}

/* For sleepers: the resolution asked for and obtained, the OS's timer resolution and how late a
   1 ms sleep of that resolution ends, measured once (a few ms; 0.1 s on a default Windows). */
static void print_timers(const load_spec *spec, const load *l) {
  int sleepers = 0;
  for (int i = 0; i < spec->part_count; i++)
    sleepers |= spec->parts[i].scenario->timers != NULL;
  if (!sleepers)
    return;
  plat_resolution asked = load_spec_resolution(spec), ignored, obtained;
  char note[160] = "";
  load_timer_state(l, &ignored, &obtained, note, sizeof note);
  load_timer_probe probe;
  ts_err err;
  if (load_timer_probe_run(load_spec_resolution(spec), 7, &probe, &err) != TS_OK) {
    printf("timers: asked %s; the timer probe failed: %s\n", plat_resolution_name(asked), err.text);
    return;
  }
  /* The sleepers of a POSIX load set their slack as they start: the probe's thread, made the
     same way, says what they get. */
  obtained = note[0] ? PLAT_RESOLUTION_DEFAULT : probe.obtained;
  printf("timers: asked %s, obtained %s", plat_resolution_name(asked),
         plat_resolution_name(obtained));
  char resolution[24], late[24];
  ts_format_microseconds(probe.info.current_us, resolution, sizeof resolution);
  ts_format_microseconds(probe.overshoot_us, late, sizeof late);
  if (probe.info.current_us >= 0)
    printf("; timer resolution %s (%s)", resolution, probe.info.source);
  if (probe.overshoot_us >= 0)
    printf("; 1 ms sleeps end %s late (median of 7)", late);
  if (note[0] || probe.note[0])
    printf("; %s%s%s", note, note[0] && probe.note[0] ? ": " : "", probe.note);
  printf("\n");
}

/* ---- load sleep --like: the threads of a real program ---------------------------------------- */

typedef struct like_options {
  const char *like;   /* PID or name */
  uint64_t window_ns; /* how long it is watched */
  int print_only;     /* print the spec, run nothing */
} like_options;

/* Whether the arguments ask for --like (then they are read by read_like_options). */
static int wants_like(int argc, char **argv) {
  for (int i = 0; i < argc; i++)
    if (strcmp(argv[i], "--like") == 0 || strncmp(argv[i], "--like=", 7) == 0)
      return 1;
  return 0;
}

/* sleep --like PID|NAME [--window DURATION] [--print-only] [--for DURATION] [--quiet] */
static int read_like_options(int argc, char **argv, load_options *o, like_options *like,
                             ts_err *err) {
  cli_args a;
  cli_args_init(&a, argc, argv, "load");
  memset(o, 0, sizeof *o);
  memset(like, 0, sizeof *like);
  like->window_ns = LIKE_DEFAULT_WINDOW_NS;
  int scenario = 0;
  while (cli_args_next(&a)) {
    int rc = TS_OK;
    const char *v;
    if (a.word) {
      if (scenario || strcmp(a.word, "sleep") != 0)
        return ts_err_set(err, TS_EUSAGE,
                          "load: --like makes its own load and takes one word, sleep, not '%s' "
                          "(threadsoup load sleep --like PID|NAME)",
                          a.word);
      scenario = 1;
    } else if (cli_args_is(&a, "--like")) {
      rc = cli_args_value(&a, "a process ID or an executable's name", &like->like, err);
    } else if (cli_args_is(&a, "--window")) {
      rc = cli_args_value(&a, "a duration such as 2s", &v, err);
      if (rc == TS_OK)
        rc = ts_parse_duration(v, LIKE_MIN_WINDOW_NS, LIKE_MAX_WINDOW_NS, "--window",
                               &like->window_ns, err);
    } else if (cli_args_is(&a, "--print-only")) {
      like->print_only = 1;
    } else if (cli_args_is(&a, "--for")) {
      rc = cli_args_value(&a, "a duration such as 30s or 5m", &v, err);
      if (rc == TS_OK)
        rc = ts_parse_duration(v, TS_NS_PER_MS, 31 * TS_NS_PER_DAY, "--for", &o->for_ns, err);
    } else if (cli_args_is(&a, "--quiet")) {
      o->quiet = 1;
    } else {
      return ts_err_set(err, TS_EUSAGE,
                        "load: '%s' does not go with --like (accepted: --window, --print-only, "
                        "--for, --quiet)",
                        a.name);
    }
    if (rc != TS_OK)
      return rc;
  }
  if (!scenario)
    return ts_err_set(err, TS_EUSAGE,
                      "load: --like follows the scenario sleep (threadsoup load sleep --like "
                      "PID|NAME)");
  return TS_OK;
}

static int run_load(const load_options *o);

/* Watches the process, prints what it saw and the load that does the same, and runs that. */
static int like_main(int argc, char **argv) {
  load_options o;
  like_options like;
  ts_err err;
  if (read_like_options(argc, argv, &o, &like, &err) != TS_OK)
    return cli_usage_error(&cli_load_command, err.text);
  if (plat_interrupt_install(&err) != TS_OK)
    return cli_fail(&err);
  like_target target;
  like_result result;
  if (like_find(like.like, &target, &err) != TS_OK ||
      like_observe(&target, like.window_ns, &result, &err) != TS_OK)
    return cli_fail(&err);
  char seen[512];
  like_describe(&target, &result, like.window_ns, seen, sizeof seen);
  /* The name is the watched process's, any user's choice: printed through the filter. */
  ts_utf8_fprintf_printable(stdout, "%s\n", seen);
  if (result.class_count == 0)
    printf("no thread of it switched in the window, so the load only waits (under Wine the census "
           "never sees a switch)\n");
  ts_utf8_fprintf_printable(stdout, "like: %s\n", result.spec.text);
  fflush(stdout);
  if (like.print_only)
    return CLI_EXIT_OK;
  o.spec = result.spec;
  return run_load(&o);
}

static int load_main(int argc, char **argv) {
  if (argc >= 1 && strcmp(argv[0], "list") == 0) {
    if (argc > 1)
      return cli_usage_error(&cli_load_command, "load list takes no arguments");
    print_scenarios();
    return CLI_EXIT_OK;
  }
  if (wants_like(argc, argv))
    return like_main(argc, argv);
  load_options o;
  ts_err err;
  if (read_options(argc, argv, &o, &err) != TS_OK)
    return cli_usage_error(&cli_load_command, err.text);
  if (plat_interrupt_install(&err) != TS_OK)
    return cli_fail(&err);
  return run_load(&o);
}

/* Runs the load until --for, Ctrl+C or SIGTERM, with the census once a second unless quiet. */
static int run_load(const load_options *opts) {
  load_options o = *opts;
  ts_err err;
  long threads_before = plat_process_thread_count(plat_self_pid(), &err);
  uint64_t t0 = plat_clock_ns();
  load *l;
  if (load_start(&o.spec, NULL, &l, &err) != TS_OK) {
    if (err.code == TS_EINTERRUPTED)
      fprintf(stderr, "threadsoup: %s; everything created was stopped\n", err.text);
    return cli_fail(&err);
  }
  uint64_t started = plat_clock_ns();
  char awake_state[300];
  plat_stay_awake *awake =
      plat_stay_awake_begin("ThreadSoup runs a load", awake_state, sizeof awake_state);
  printf("load %s: %ld threads and %ld processes created in %.2f s; stop with Ctrl+C%s\n",
         o.spec.text, load_spec_threads(&o.spec), load_spec_processes(&o.spec),
         (double)(started - t0) / TS_NS_PER_S, o.for_ns ? " or after --for" : "");
  printf("stay awake: %s\n", awake_state);
  print_timers(&o.spec, l);
  fflush(stdout);

  census_sample prev = {started, 0, plat_process_cpu_ns()};
  plat_process_census self;
  if (plat_census_process(plat_self_pid(), &self, &err) == TS_OK)
    prev.context_switches = self.context_switches;
  uint64_t end = o.for_ns ? started + o.for_ns : UINT64_MAX;
  /* Quiet: one blocking wait until the end. Otherwise one wake-up a second for the census. */
  for (uint64_t tick = started + TS_NS_PER_S;;) {
    uint64_t now = plat_clock_ns();
    uint64_t until = o.quiet || tick > end ? end : tick;
    if (now >= end || (until > now && plat_interrupt_wait(until - now)))
      break;
    if (plat_clock_ns() >= end)
      break;
    if (!o.quiet) {
      print_census(&o, &prev, started);
      tick += TS_NS_PER_S;
    }
  }
  uint64_t t1 = plat_clock_ns();
  load_stop(l);
  plat_stay_awake_end(awake);
  uint64_t t2 = plat_clock_ns();
  /* A joined thread may still be listed for a moment; give the OS up to half a second. */
  long threads_after = plat_process_thread_count(plat_self_pid(), &err);
  for (int i = 0; i < 50 && threads_after > threads_before; i++) {
    plat_sleep_ns(10 * TS_NS_PER_MS);
    threads_after = plat_process_thread_count(plat_self_pid(), &err);
  }
  printf("stopped in %.2f s; threads of this process: %ld before, %ld after",
         (double)(t2 - t1) / TS_NS_PER_S, threads_before, threads_after);
  if (load_spec_processes(&o.spec))
    printf("; child processes left: %ld", load_count_children());
  printf("\n");
  return CLI_EXIT_OK;
}

/* The scenarios and their options come from their rows; the command's own options are here. */
static void print_help(void) {
  char names[256];
  scenario_names(names, sizeof names);
  printf("\nSCENARIO is a name (%s) followed by its options, or a\n"
         "condition such as sleep:5000@500ms+procs:100 or burn:10%%@20ms. 'threadsoup load\n"
         "list' shows them.\n"
         "\noptions of a scenario (each applies to the scenario before it) [the scenarios that\n"
         "take it]:\n",
         names);
  /* Each option once, where it first appears, with every scenario that takes it. */
  for (size_t s = 0; scenario_table[s]; s++) {
    const load_option *o;
    for (size_t i = 0; (o = load_option_at(scenario_table[s], i)) != NULL; i++) {
      int seen = 0;
      for (size_t t = 0; t < s && !seen; t++)
        seen = load_option_find(scenario_table[t], o->name) != NULL;
      if (seen)
        continue;
      char takers[256];
      ts_buf list = ts_buf_on(takers, sizeof takers);
      for (size_t t = 0; scenario_table[t]; t++)
        if (load_option_find(scenario_table[t], o->name))
          ts_buf_itemf(&list, ", ", "%s%s", scenario_table[t]->name,
                       strcmp(o->name, "count") == 0 && scenario_table[t]->count_per_cpu
                           ? " (default: one per logical CPU)"
                           : "");
      printf("  --%s [%s]\n        %s\n", o->name, takers, o->help);
    }
  }
  printf("\noptions of the command:\n"
         "  --for DURATION       stop after this time, e.g. 30s, 5m\n"
         "  --quiet              no census lines (the controller then never wakes up)\n"
         "\nload sleep --like PID|NAME [--window DURATION] [--print-only] [--for DURATION]\n"
         "  watches a running process (a PID, or its executable's exact name) for the window\n"
         "  (default 2s), counts each thread's context switches and runs as many sleepers at\n"
         "  the same rates, and waiters for threads that never woke, e.g.\n"
         "  sleep:4@100ms+sleep:1@1s+wait:18:event. --print-only prints that load and exits.\n");
}

const cli_command cli_load_command = {
    .name = "load",
    .synopsis = "load SCENARIO [options] [+ SCENARIO [options]]... [--for DURATION] [--quiet]",
    .summary = "run load in the foreground until Ctrl+C, SIGTERM or --for",
    .help = "",
    .more_help = print_help,
    .main = load_main,
};

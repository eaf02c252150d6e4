/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* bench.h - the benchmark registry: each benchmark is one file exporting one bench_def and one
   line in bench_table (bench.c). */
#ifndef THREADSOUP_BENCH_H
#define THREADSOUP_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "threadsoup/err.h"
#include "threadsoup/plat.h"

#define BENCH_MAX_SUBSCORES 8

typedef struct bench_subscore {
  const char *name; /* static string, e.g. "integer" */
  double score;     /* work units per second for that kernel */
} bench_subscore;

typedef struct bench_result {
  double score;     /* higher is faster */
  const char *unit; /* static string, e.g. "rounds/s" */
  double seconds;   /* wall time of the measured part */
  int subscore_count;
  bench_subscore subscores[BENCH_MAX_SUBSCORES];
  /* Where it ran: what became of the power-throttling opt-out of its threads or its program
     ("off", "unsupported", "n/a" or why not; "" when the benchmark did not say, and then the
     calling thread's answer is stored), and the core classes its threads ran on (see
     plat_core_classes_of; "" for a program, whose threads we cannot follow). */
  char power_throttling[PLAT_BENCH_TEXT_MAX];
  char core_classes[PLAT_BENCH_TEXT_MAX];
} bench_result;

/* A benchmark's setting: a plan key and --KEY option of its own (7zip = PATH, command = CMD),
   text of at most BENCH_SETTING_MAX - 1 bytes, "" when not given. The kind says what the text is,
   and so whether giving it makes a plan run programs. */
#define BENCH_SETTING_MAX 512
#define BENCH_SETTINGS_MAX 8 /* settings of all benchmarks together (a test checks the table) */

typedef enum bench_setting_kind {
  BENCH_SETTING_PATH,    /* the benchmark's program: it runs there though a search finds none */
  BENCH_SETTING_COMMAND, /* a command line the benchmark runs */
  BENCH_SETTING_PATTERN, /* a regular expression read by the benchmark */
  BENCH_SETTING_CHOICE,  /* one of the row's `choices` words */
} bench_setting_kind;

/* Benchmarks may list the same row (builtin-st and builtin-mt share `process`): a plan then holds
   one setting, which each of them is handed. */
typedef struct bench_setting {
  const char *key;
  bench_setting_kind kind;
  const char *help;
  const char *choices; /* BENCH_SETTING_CHOICE: the words accepted, "|"-separated */
  const char *dflt;    /* BENCH_SETTING_CHOICE: the word a plan that does not say holds */
} bench_setting;

/* What --help calls a kind's value ("PATH"), and what its text is ("a path"). */
const char *bench_setting_value_name(bench_setting_kind kind);
const char *bench_setting_forms(bench_setting_kind kind);
/* Whether a setting of this kind, given, makes whoever runs the plan run programs. */
int bench_setting_runs_programs(bench_setting_kind kind);

/* What a run is asked for. `arg` is the text after the name's colon ("builtin-mt:4" gives "4"),
   or NULL. `work_scale` multiplies the fixed amount of work (1.0 = the documented amount).
   `settings` holds the texts of the benchmark's own settings in its rows' order ("" or NULL when
   not given); NULL when none is given. The other fields come from the plan and may be 0 or
   NULL. */
typedef struct bench_args {
  const char *arg;
  double work_scale;
  const char *const *settings;
  uint64_t timeout_ns;       /* external tools: kill after this long (0: the benchmark's default) */
  const plat_cancel *cancel; /* external tools: killed when raised (NULL: on the interrupt) */
} bench_args;

/* The text of setting `i` of a run's settings, or NULL when it is not given. Inline, since the
   benchmarks' files call it and bench.c, which lists them, must not be called back. */
static inline const char *bench_args_setting(const bench_args *args, size_t i) {
  const char *v = args->settings ? args->settings[i] : NULL;
  return v && *v ? v : NULL;
}

typedef struct bench_def {
  const char *name;
  const char *help;
  const char *forms; /* how a plan names it when it takes an argument: "7zip[:N]"; NULL: name */
  /* NULL when the benchmark can run here, otherwise a static sentence saying why not. */
  const char *(*unavailable_reason)(void);
  /* Validates `arg` before any trial runs; NULL means the benchmark takes no argument. */
  int (*check_arg)(const char *arg, ts_err *err);
  int (*run)(const bench_args *args, bench_result *out, ts_err *err);
  /* Its settings, ending with a row whose key is NULL; NULL when it has none. */
  const bench_setting *settings;
  /* NULL, or a check of a plan that lists it, once every setting is read: `settings` as in
     bench_args. It refuses what the benchmark cannot run without (command: a command line). */
  int (*check_plan)(const char *const *settings, ts_err *err);
  /* 1: listing it makes whoever runs the plan run programs (a command benchmark). */
  int runs_programs;
  /* NULL, or the run in this very process of a benchmark whose `run` starts a child process of
     our own program for it: `threadsoup bench-child` (bench_child_main) calls this. */
  int (*run_here)(const bench_args *args, bench_result *out, ts_err *err);
  /* NULL, or whether a run with these settings works inside ThreadSoup's own process (the
     built-in benchmarks with process = same): its CPU time and context switches would then be
     counted as the load's, so the load's figures are taken before it. */
  int (*in_our_process)(const bench_args *args);
} bench_def;

extern const bench_def *const bench_table[];

/* Finds a benchmark by the part of `spec` before ':'; sets *arg to the part after it or NULL.
   Refuses an unknown name, a benchmark that cannot run here, and an argument it does not take. */
const bench_def *bench_find(const char *spec, const char **arg, ts_err *err);
/* The same with the settings a plan gives it (as in bench_args): a benchmark that a search does
   not find here still runs from a program path its settings give. */
const bench_def *bench_find_with(const char *spec, const char *const *settings, const char **arg,
                                 ts_err *err);
/* The benchmark `spec` names (the part before ':'), whether or not it can run; NULL: none. */
const bench_def *bench_named(const char *spec);
/* The number of settings a benchmark has. */
size_t bench_setting_count(const bench_def *b);

#endif

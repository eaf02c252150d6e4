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

/* What a run is asked for. `arg` is the text after the name's colon ("builtin-mt:4" gives "4"),
   or NULL. `work_scale` multiplies the fixed amount of work (1.0 = the documented amount). The
   other fields come from the plan or the command line and may be NULL. */
typedef struct bench_args {
  const char *arg;
  double work_scale;
  const char *tool_path;     /* --7zip PATH, --cpuz PATH: where the external tool is */
  const char *command_line;  /* command: the command to run */
  const char *score_regex;   /* command: a regular expression whose first group is the score */
  uint64_t timeout_ns;       /* external tools: kill after this long (0: the benchmark's default) */
  const plat_cancel *cancel; /* external tools: killed when raised (NULL: on the interrupt) */
} bench_args;

typedef struct bench_def {
  const char *name;
  const char *help;
  /* NULL when the benchmark can run here, otherwise a static sentence saying why not. */
  const char *(*unavailable_reason)(void);
  /* Validates `arg` before any trial runs; NULL means the benchmark takes no argument. */
  int (*check_arg)(const char *arg, ts_err *err);
  int (*run)(const bench_args *args, bench_result *out, ts_err *err);
} bench_def;

extern const bench_def *const bench_table[];

/* Finds a benchmark by the part of `spec` before ':'; sets *arg to the part after it or NULL. */
const bench_def *bench_find(const char *spec, const char **arg, ts_err *err);

#endif

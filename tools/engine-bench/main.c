/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* main.c - threadsoup-bench: checks the load engine's speed and memory targets as ratios against
   floors measured in the same run, and prints one table of them (never a timed test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_bench.h"

static const char usage[] =
    "usage: threadsoup-bench [SUB-COMMAND...] [options]\n"
    "\n"
    "sub-commands (default: all, in this order):\n"
    "  threads     1-2: creating and stopping COUNT sleepers, memory per thread, census cost\n"
    "  wakeups     3:   CPU and context switches per wake-up over --seconds\n"
    "  procs       4:   PROC-COUNT idle processes: creation, memory, teardown\n"
    "  controller  5:   wake-ups of `threadsoup load`'s main thread while a load runs\n"
    "  linearity   6:   figures 1-3 at 1,000, 5,000, 15,000 and 30,000 threads\n"
    "  noise       7:   builtin-st's run-to-run variation against 7-Zip's (--reps runs each)\n"
    "  aa          8:   the A/A experiment (preset aa) must find no measurable effect\n"
    "  all         every one of them\n"
    "\n"
    "options:\n"
    "  --reps N              creation runs per side for 1-2 (default 9)\n"
    "  --proc-reps N         creation runs per side for 4 (default 5)\n"
    "  --seconds S           wake-up window of 3 (default 30)\n"
    "  --linear-seconds S    wake-up window per size in 6 (default 10)\n"
    "  --controller-seconds S  window of 5 (default 10)\n"
    "  --count N             threads of 1-3 and 5 (default 15000)\n"
    "  --proc-count N        processes of 4 (default 2000: the ratio in about a minute)\n"
    "  --raise-map-count     let 6 raise vm.max_map_count to 262144 (restored after)\n"
    "\n"
    "Every target is a ratio to a floor measured in the same run; a missed target is marked\n"
    "MISSED and the exit status stays 0.\n";

typedef void (*bench_fn)(const bench_options *o);

static const struct {
  const char *name;
  bench_fn fn;
} sub_commands[] = {{"threads", bench_threads},
                    {"wakeups", bench_wakeups},
                    {"procs", bench_procs},
                    {"controller", bench_controller},
                    {"linearity", bench_linearity},
                    {"noise", bench_noise},
                    {"aa", bench_aa}};
#define SUB_COMMANDS (int)(sizeof sub_commands / sizeof sub_commands[0])

static int usage_error(const char *what) {
  fprintf(stderr, "threadsoup-bench: unknown sub-command or option '%s'\n\n%s", what, usage);
  return 2;
}

/* A numeric option's value as a double within [min, max]. */
static int number_option(const char *name, const char *text, double min, double max, double *out) {
  char *end;
  double v = text ? strtod(text, &end) : 0;
  if (!text || end == text || *end || v < min || v > max) {
    fprintf(stderr, "threadsoup-bench: %s needs a number from %g to %g\n\n%s", name, min, max,
            usage);
    return -1;
  }
  *out = v;
  return 0;
}

int main(int argc, char **argv) {
  /* Hidden: the fresh processes each measurement runs in. */
  if (argc > 1 && strcmp(argv[1], "__threads") == 0)
    return child_threads_main(argc - 1, argv + 1);
  if (argc > 1 && strcmp(argv[1], "__procs") == 0)
    return child_procs_main(argc - 1, argv + 1);

  bench_options o;
  memset(&o, 0, sizeof o);
  o.reps = 9;
  o.proc_reps = 5;
  o.count = 15000;
  o.proc_count = 2000;
  o.interval_ms = 500;
  o.seconds = 30;
  o.linear_seconds = 10;
  o.controller_seconds = 10;
  int chosen[SUB_COMMANDS] = {0}, any = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    double d;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      printf("%s", usage);
      return 0;
    } else if (strcmp(a, "--reps") == 0) {
      if (number_option(a, v, 1, 32, &d))
        return 2;
      o.reps = (int)d, i++;
    } else if (strcmp(a, "--proc-reps") == 0) {
      if (number_option(a, v, 1, 32, &d))
        return 2;
      o.proc_reps = (int)d, i++;
    } else if (strcmp(a, "--seconds") == 0) {
      if (number_option(a, v, 1, 3600, &d))
        return 2;
      o.seconds = d, i++;
    } else if (strcmp(a, "--linear-seconds") == 0) {
      if (number_option(a, v, 1, 3600, &d))
        return 2;
      o.linear_seconds = d, i++;
    } else if (strcmp(a, "--controller-seconds") == 0) {
      if (number_option(a, v, 1, 3600, &d))
        return 2;
      o.controller_seconds = d, i++;
    } else if (strcmp(a, "--count") == 0) {
      if (number_option(a, v, 100, 100000, &d))
        return 2;
      o.count = (long)d, i++;
    } else if (strcmp(a, "--proc-count") == 0) {
      if (number_option(a, v, 100, 100000, &d))
        return 2;
      o.proc_count = (long)d, i++;
    } else if (strcmp(a, "--raise-map-count") == 0) {
      o.raise_map_count = 1;
    } else if (strcmp(a, "all") == 0) {
      for (int j = 0; j < SUB_COMMANDS; j++)
        chosen[j] = 1;
      any = 1;
    } else {
      int found = 0;
      for (int j = 0; j < SUB_COMMANDS; j++)
        if (strcmp(a, sub_commands[j].name) == 0)
          chosen[j] = found = any = 1;
      if (!found)
        return usage_error(a);
    }
  }
  if (!any)
    for (int j = 0; j < SUB_COMMANDS; j++)
      chosen[j] = 1;

  ts_err err;
  if (plat_program_dir(o.dir, sizeof o.dir, &err) != TS_OK) {
    fprintf(stderr, "threadsoup-bench: %s\n", err.text);
    return 1;
  }
  /* Re-run by full path from /proc/self/exe's folder, so a PATH lookup cannot pick another copy. */
  snprintf(o.self, sizeof o.self, "%s/threadsoup-bench", o.dir);

  plat_sysinfo info;
  plat_sysinfo_read(&info);
  double started = now_s();
  for (int j = 0; j < SUB_COMMANDS; j++)
    if (chosen[j])
      sub_commands[j].fn(&o);
  printf("threadsoup-bench on %s: %s, %s, %d logical CPUs\n", info.host, info.os, info.cpu,
         info.logical_cpus);
  table_print(now_s() - started);
  return 0;
}

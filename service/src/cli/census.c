/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* census.c - `threadsoup census`: what this machine runs now - processes, threads, handles,
   context switches per second, the run queue - and which processes wake up most, the list the
   experiment wished for to find background programs worth removing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"
#include "threadsoup/utf8.h"

typedef struct census_options {
  uint64_t interval_ns;
  long top;
} census_options;

static int read_options(int argc, char **argv, census_options *o, ts_err *err) {
  cli_args a;
  cli_args_init(&a, argc, argv, "census");
  o->interval_ns = TS_NS_PER_S;
  o->top = 10;
  while (cli_args_next(&a)) {
    const char *v;
    int rc;
    if (a.word)
      return ts_err_set(err, TS_EUSAGE, "census: unexpected argument '%s'", a.word);
    if (cli_args_is(&a, "--interval")) {
      rc = cli_args_value(&a, "a duration from 100ms to 1m", &v, err);
      if (rc == TS_OK)
        rc = ts_parse_duration(v, 100 * TS_NS_PER_MS, TS_NS_PER_MIN, "--interval", &o->interval_ns,
                               err);
    } else if (cli_args_is(&a, "--top")) {
      rc = cli_args_value(&a, "a whole number from 0 to 1000", &v, err);
      if (rc == TS_OK)
        rc = ts_parse_long(v, 0, 1000, "--top", &o->top, err);
    } else {
      return ts_err_set(err, TS_EUSAGE, "census: unknown option '%s'", a.name);
    }
    if (rc != TS_OK)
      return rc;
  }
  return TS_OK;
}

typedef struct process_rate {
  const plat_process_census *now;
  double switches_per_s;
  double cpu_percent;
} process_rate;

static int by_switches_descending(const void *a, const void *b) {
  double x = ((const process_rate *)a)->switches_per_s,
         y = ((const process_rate *)b)->switches_per_s;
  return (x < y) - (x > y);
}

/* The same process in the earlier list: same pid and same name (a pid may be reused). */
static const plat_process_census *find_earlier(const plat_process_census *list, long count,
                                               const plat_process_census *p) {
  for (long i = 0; i < count; i++)
    if (list[i].pid == p->pid && strcmp(list[i].name, p->name) == 0)
      return &list[i];
  return NULL;
}

static int census_main(int argc, char **argv) {
  census_options o;
  ts_err err;
  if (read_options(argc, argv, &o, &err) != TS_OK)
    return cli_usage_error(&cli_census_command, err.text);

  plat_census m0, m1;
  plat_process_census *l0 = NULL, *l1 = NULL;
  long n0 = 0, n1 = 0;
  uint64_t cost0 = plat_thread_cpu_ns();
  uint64_t t0 = plat_clock_ns();
  int rc = plat_census_machine(&m0, &err);
  if (rc == TS_OK)
    rc = plat_census_processes(&l0, &n0, &err);
  uint64_t cost = plat_thread_cpu_ns() - cost0;
  if (rc == TS_OK) {
    plat_sleep_ns(o.interval_ns);
    cost0 = plat_thread_cpu_ns();
    rc = plat_census_machine(&m1, &err);
    if (rc == TS_OK)
      rc = plat_census_processes(&l1, &n1, &err);
    cost += plat_thread_cpu_ns() - cost0;
  }
  uint64_t t1 = plat_clock_ns();
  if (rc != TS_OK) {
    free(l0);
    free(l1);
    return cli_fail(&err);
  }
  double dt = (double)(t1 - t0) / TS_NS_PER_S;
  printf("processes  %ld\nthreads    %ld\n", m1.processes, m1.threads);
  if (m1.handles >= 0)
    printf("handles    %ld\n", m1.handles);
  printf("run queue  %ld (threads running or ready now)\n", m1.run_queue);
  if (m1.context_switches >= m0.context_switches && m1.context_switches > 0)
    printf("context switches/s  %.0f (over %.1f s)\n",
           (double)(m1.context_switches - m0.context_switches) / dt, dt);
  else
    printf("context switches/s  unknown (this system does not report them)\n");

  process_rate *rates = calloc((size_t)(n1 > 0 ? n1 : 1), sizeof *rates);
  long rated = 0;
  for (long i = 0; rates && i < n1; i++) {
    const plat_process_census *before = find_earlier(l0, n0, &l1[i]);
    if (!before || l1[i].context_switches < before->context_switches)
      continue; /* new, or a pid reused: no rate yet */
    rates[rated].now = &l1[i];
    rates[rated].switches_per_s = (double)(l1[i].context_switches - before->context_switches) / dt;
    rates[rated].cpu_percent =
        l1[i].cpu_ns >= before->cpu_ns
            ? (double)(l1[i].cpu_ns - before->cpu_ns) / TS_NS_PER_S / dt * 100
            : 0;
    rated++;
  }
  if (rates && o.top > 0) {
    qsort(rates, (size_t)rated, sizeof *rates, by_switches_descending);
    printf("\nwho wakes up most (context switches per second over %.1f s):\n", dt);
    printf("  %10s %8s %8s %7s  %s\n", "switches/s", "pid", "threads", "CPU %", "name");
    /* A process's name is whatever its owner chose, any user's: escaped as one name (a line
       break in it too), so nothing in it reaches the terminal. */
    char shown[PLAT_PROCESS_NAME_MAX * 4];
    for (long i = 0; i < rated && i < o.top; i++)
      ts_utf8_fprintf_printable(stdout, "  %10.0f %8ld %8ld %7.1f  %s\n", rates[i].switches_per_s,
                                rates[i].now->pid, rates[i].now->threads, rates[i].cpu_percent,
                                ts_utf8_printable(rates[i].now->name, shown, sizeof shown));
  }
  printf("\n(this census cost %.1f ms of CPU)\n", (double)cost / TS_NS_PER_MS);
  free(rates);
  free(l0);
  free(l1);
  return CLI_EXIT_OK;
}

const cli_command cli_census_command = {
    .name = "census",
    .synopsis = "census [--interval DURATION] [--top N]",
    .summary = "count processes, threads, handles, context switches; list who wakes up most",
    .help = "\noptions:\n"
            "  --interval DURATION  time between the two samples rates come from (100ms to 1m,\n"
            "                       default 1s)\n"
            "  --top N              how many processes to list by context switches (0 to 1000,\n"
            "                       default 10)\n",
    .main = census_main,
};

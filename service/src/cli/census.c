/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* census.c - `threadsoup census`: what this machine runs now - processes, threads, handles,
   context switches per second, the run queue - and which processes wake up most, the list the
   experiment wished for to find background programs worth removing; with --cost, what each of
   them costs a benchmark, as this machine's cost model predicts it and as freezing it measured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../report/program_costs.h"
#include "cli.h"
#include "threadsoup/call.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"
#include "threadsoup/utf8.h"

typedef struct census_options {
  uint64_t interval_ns;
  long top;
  int cost;            /* --cost */
  const char *db_path; /* --db; NULL: the default database */
  int service;         /* --service: --cost reads the service's database */
  const char *socket;  /* --socket; NULL: the service's default address */
} census_options;

static int read_options(int argc, char **argv, census_options *o, ts_err *err) {
  cli_args a;
  cli_args_init(&a, argc, argv, "census");
  o->interval_ns = TS_NS_PER_S;
  o->top = 10;
  o->cost = 0;
  o->db_path = NULL;
  o->service = 0;
  o->socket = NULL;
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
    } else if (cli_args_is(&a, "--cost")) {
      o->cost = 1;
      rc = TS_OK;
    } else if (cli_args_is(&a, "--db")) {
      rc = cli_args_value(&a, "a database file path", &o->db_path, err);
    } else if (cli_args_is(&a, "--service")) {
      o->service = 1;
      rc = TS_OK;
    } else if (cli_args_is(&a, "--socket")) {
      o->service = 1;
      rc = cli_args_value(&a, "the service's socket or pipe", &o->socket, err);
    } else {
      return ts_err_set(err, TS_EUSAGE, "census: unknown option '%s'", a.name);
    }
    if (rc != TS_OK)
      return rc;
  }
  if (o->db_path && !o->cost)
    return ts_err_set(err, TS_EUSAGE,
                      "census: --db is read only with --cost (accepted: census --top N --cost "
                      "--db PATH)");
  if (o->service && !o->cost)
    return ts_err_set(err, TS_EUSAGE,
                      "census: --service is read only with --cost (accepted: census --top N "
                      "--cost --service [--socket S])");
  if (o->service && o->db_path)
    return ts_err_set(err, TS_EUSAGE,
                      "census: --cost --service reads the service's database: drop --db (or drop "
                      "--service to read a database file)");
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

/* ---- --cost: what the machine's cost model predicts, and what freezing measured -------------- */

/* What --cost reads: a database file, or the service's own through the protocol. */
typedef struct census_costs {
  store *s;                /* the database file; NULL: none yet, or the service's */
  report_program_costs pc; /* from the database file */
  call_link *link;         /* --service: connected before the census */
  char source[REPORT_PROGRAM_COSTS_SOURCE_MAX];
} census_costs;

static void census_costs_free(census_costs *cc) {
  report_program_costs_free(&cc->pc);
  store_close(cc->s);
  call_link_free(cc->link);
}

/* Opens the database and computes the latest cost run's model and the newest freeze runs; with
   --service, connects to the service instead, so that one not running is said before the
   census's wait. A database that is not there yet holds no cost run: said, not an error. */
static int census_costs_load(const census_options *o, census_costs *cc, ts_err *err) {
  char path[PLAT_PATH_MAX];
  memset(cc, 0, sizeof *cc);
  if (o->service) {
    cc->link = call_link_new();
    int rc = cc->link ? call_link_connect(cc->link, o->socket, err)
                      : ts_err_set(err, TS_ENOMEM, "no memory for the service connection");
    return rc == TS_OK ? TS_OK : ts_err_prefix(err, "census --cost --service");
  }
  int rc = cli_resolve_db_path(o->db_path, path, sizeof path, err);
  if (rc != TS_OK)
    return rc;
  rc = store_open_existing(&cc->s, path, err);
  if (rc == TS_EUSAGE && !o->db_path && !plat_file_exists(path)) {
    cc->s = NULL;
    rc = report_program_costs_load(NULL, path, &cc->pc, err);
  } else if (rc == TS_OK) {
    rc = report_program_costs_load(cc->s, NULL, &cc->pc, err);
  }
  if (rc == TS_OK)
    report_program_costs_source(&cc->pc, cc->source, sizeof cc->source);
  return rc;
}

/* The service's `program-costs` request answers at most this many programs at a time. */
#define CENSUS_COSTS_PER_REQUEST 100

/* The predicted and measured columns of programs [0, count) of `rates`, asked of the service in
   requests of CENSUS_COSTS_PER_REQUEST programs; its `source` into cc->source. */
static int costs_from_service(census_costs *cc, const process_rate *rates, long count,
                              char (*predicted)[REPORT_PROGRAM_COST_MAX],
                              char (*measured)[REPORT_PROGRAM_COST_MAX], ts_err *err) {
  static proto_message request, reply;
  char shown[PLAT_PROCESS_NAME_MAX * 4];
  for (long first = 0; first < count; first += CENSUS_COSTS_PER_REQUEST) {
    long last = first + CENSUS_COSTS_PER_REQUEST < count ? first + CENSUS_COSTS_PER_REQUEST : count;
    proto_init(&request, PROTO_REQUEST, "program-costs");
    for (long i = first; i < last; i++)
      proto_addf(&request, err, "program", "%.0f %ld %s", rates[i].switches_per_s,
                 rates[i].now->threads, ts_utf8_printable(rates[i].now->name, shown, sizeof shown));
    int rc = call_link_request(cc->link, &request, &reply, err);
    if (rc != TS_OK)
      return ts_err_prefix(err, "census --cost --service");
    if (reply.kind == PROTO_ERROR)
      return ts_err_set(err, TS_EFAILED, "census --cost --service: the service refused: %s",
                        call_refusal_text(&reply));
    const char *source = proto_get(&reply, "source");
    snprintf(cc->source, sizeof cc->source, "%s", source ? source : "cost: not said");
    long i = first;
    for (int f = 0; f < reply.field_count && i < last; f++) {
      if (strcmp(reply.fields[f].key, "cost") != 0)
        continue;
      const char *value = proto_value(&reply, f), *bar = strchr(value, '|');
      snprintf(predicted[i], REPORT_PROGRAM_COST_MAX, "%.*s", bar ? (int)(bar - value) : 0, value);
      snprintf(measured[i], REPORT_PROGRAM_COST_MAX, "%s", bar ? bar + 1 : value);
      i++;
    }
    if (i != last)
      return ts_err_set(err, TS_EFAILED,
                        "census --cost --service: the service answered %ld of %ld programs",
                        i - first, last - first);
  }
  return TS_OK;
}

static int census_main(int argc, char **argv) {
  census_options o;
  ts_err err;
  if (read_options(argc, argv, &o, &err) != TS_OK)
    return cli_usage_error(&cli_census_command, err.text);
  /* The database first: a damaged one fails before the census's wait. */
  census_costs cc;
  memset(&cc, 0, sizeof cc);
  if (o.cost && census_costs_load(&o, &cc, &err) != TS_OK)
    return cli_fail(&err);

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
    census_costs_free(&cc);
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

  char(*predicted)[REPORT_PROGRAM_COST_MAX] = NULL, (*measured)[REPORT_PROGRAM_COST_MAX] = NULL;
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
    long shown_count = rated < o.top ? rated : o.top;
    if (o.cost) {
      predicted = calloc((size_t)(shown_count > 0 ? shown_count : 1), sizeof *predicted);
      measured = calloc((size_t)(shown_count > 0 ? shown_count : 1), sizeof *measured);
      if (!predicted || !measured)
        rc = ts_err_set(&err, TS_ENOMEM, "census: no memory for the costs");
      for (long i = 0; rc == TS_OK && !o.service && i < shown_count; i++)
        report_program_costs_columns(&cc.pc, rates[i].now->name, rates[i].switches_per_s,
                                     rates[i].now->threads, predicted[i], measured[i]);
      if (rc == TS_OK && o.service)
        rc = costs_from_service(&cc, rates, shown_count, predicted, measured, &err);
      if (rc != TS_OK)
        goto done;
      printf("\n%s\n", cc.source);
    }
    printf("\nwho wakes up most (context switches per second over %.1f s):\n", dt);
    if (o.cost)
      printf("  %10s %8s %8s %7s  %-24s %-40s %s\n", "switches/s", "pid", "threads", "CPU %",
             "predicted cost %", "measured cost %", "name");
    else
      printf("  %10s %8s %8s %7s  %s\n", "switches/s", "pid", "threads", "CPU %", "name");
    /* A process's name is whatever its owner chose, any user's: escaped as one name (a line
       break in it too), so nothing in it reaches the terminal. */
    char shown[PLAT_PROCESS_NAME_MAX * 4], costs[2 * REPORT_PROGRAM_COST_MAX + 8];
    for (long i = 0; i < shown_count; i++) {
      costs[0] = '\0';
      if (o.cost)
        snprintf(costs, sizeof costs, "%-24s %-40s ", predicted[i], measured[i]);
      ts_utf8_fprintf_printable(stdout, "  %10.0f %8ld %8ld %7.1f  %s%s\n", rates[i].switches_per_s,
                                rates[i].now->pid, rates[i].now->threads, rates[i].cpu_percent,
                                costs, ts_utf8_printable(rates[i].now->name, shown, sizeof shown));
    }
  }
  printf("\n(this census cost %.1f ms of CPU)\n", (double)cost / TS_NS_PER_MS);
done:
  free(predicted);
  free(measured);
  free(rates);
  free(l0);
  free(l1);
  census_costs_free(&cc);
  return rc == TS_OK ? CLI_EXIT_OK : cli_fail(&err);
}

const cli_command cli_census_command = {
    .name = "census",
    .synopsis = "census [--interval DURATION] [--top N] [--cost [--db PATH | --service [--socket "
                "S]]]",
    .summary = "count processes, threads, handles, context switches; list who wakes up most",
    .help = "\noptions:\n"
            "  --interval DURATION  time between the two samples rates come from (100ms to 1m,\n"
            "                       default 1s)\n"
            "  --top N              how many processes to list by context switches (0 to 1000,\n"
            "                       default 10)\n"
            "  --cost               beside each, what it costs a benchmark in %: predicted by\n"
            "                       this machine's cost model (the database's latest finished\n"
            "                       run of the cost preset) from its wake-ups and threads, and\n"
            "                       measured where a run froze it alone (freeze:NAME)\n"
            "  --db PATH            the database --cost reads (default as for run)\n"
            "  --service            --cost reads the service's database (the runs of run\n"
            "                       --service and of schedules), through the service\n"
            "  --socket S           the service's socket or pipe (implies --service)\n",
    .main = census_main,
};

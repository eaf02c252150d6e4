/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* census.c - `threadsoup census`: what this machine runs now - processes, threads, handles,
   context switches per second, the run queue - and which processes wake up most, the list the
   experiment wished for to find background programs worth removing; with --cost, what each of
   them costs a benchmark, as this machine's cost model predicts it and as freezing it measured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../experiment/estimate.h"
#include "../report/cost.h"
#include "../report/data.h"
#include "../report/freeze.h"
#include "cli.h"
#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"
#include "threadsoup/utf8.h"

typedef struct census_options {
  uint64_t interval_ns;
  long top;
  int cost;            /* --cost */
  const char *db_path; /* --db; NULL: the default database */
} census_options;

static int read_options(int argc, char **argv, census_options *o, ts_err *err) {
  cli_args a;
  cli_args_init(&a, argc, argv, "census");
  o->interval_ns = TS_NS_PER_S;
  o->top = 10;
  o->cost = 0;
  o->db_path = NULL;
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
  return TS_OK;
}

/* ---- --cost: what the machine's cost model predicts, and what freezing measured -------------- */

#define CENSUS_FREEZE_RUNS 10 /* the newest runs that froze programs, searched for a program */

typedef struct census_costs {
  store *s;
  report_data *cost_run; /* the latest cost run, computed; NULL: none */
  report_cost *model;
  char no_model[300];                           /* why nothing is predicted; "" when a model is */
  report_data *freeze_runs[CENSUS_FREEZE_RUNS]; /* newest first */
  int freeze_run_count;
  int64_t freeze_ids[CENSUS_FREEZE_RUNS];
} census_costs;

static int collect_freeze_run(void *ctx, const store_run_row *row) {
  census_costs *cc = ctx;
  if (!row->imported_from[0] && strstr(row->plan_text, "freeze:"))
    cc->freeze_ids[cc->freeze_run_count++] = row->id;
  return cc->freeze_run_count == CENSUS_FREEZE_RUNS;
}

/* How long the cost preset takes here, in words: from this machine's history when it has some. */
static void cost_run_time(store *s, char *buf, size_t len) {
  plan p;
  estimate e;
  ts_err err;
  if (plan_preset("cost", &p, &err) == TS_OK && s &&
      estimate_plan(s, &p, NULL, &e, &err) == TS_OK && e.all_timed) {
    double seconds[ESTIMATE_RANGE];
    for (int end = 0; end < ESTIMATE_RANGE; end++)
      seconds[end] = estimate_plan_seconds(&e, &p, p.reps, end);
    char words[160];
    estimate_range_words(seconds, words, sizeof words);
    snprintf(buf, len, "%s on this machine", words);
    return;
  }
  snprintf(buf, len,
           "%d conditions x %ld blocks of builtin-st; `threadsoup run cost --estimate` says how "
           "long on this machine",
           p.condition_count, p.reps);
}

static void census_costs_free(census_costs *cc) {
  report_data_free(cc->cost_run);
  free(cc->model);
  for (int i = 0; i < cc->freeze_run_count; i++)
    report_data_free(cc->freeze_runs[i]);
  store_close(cc->s);
}

/* Opens the database, computes the latest cost run's model and reads the newest freeze runs. A
   database that is not there yet holds no cost run: said, not an error. */
static int census_costs_load(const census_options *o, census_costs *cc, ts_err *err) {
  char path[PLAT_PATH_MAX], time[400];
  memset(cc, 0, sizeof *cc);
  int rc = cli_resolve_db_path(o->db_path, path, sizeof path, err);
  if (rc != TS_OK)
    return rc;
  rc = store_open_existing(&cc->s, path, err);
  if (rc == TS_EUSAGE && !o->db_path && !plat_file_exists(path)) {
    cost_run_time(NULL, time, sizeof time);
    snprintf(cc->no_model, sizeof cc->no_model,
             "no cost run yet (no database at %s): `threadsoup run cost` measures this machine's "
             "cost model (%s)",
             path, time);
    cc->s = NULL;
    return TS_OK;
  }
  int64_t cost_id = 0;
  if (rc == TS_OK)
    rc = report_latest_cost_run(cc->s, 0, &cost_id, err);
  if (rc == TS_OK && cost_id == 0) {
    cost_run_time(cc->s, time, sizeof time);
    snprintf(cc->no_model, sizeof cc->no_model,
             "no cost run in this database: `threadsoup run cost` measures this machine's cost "
             "model (%s)",
             time);
  }
  if (rc == TS_OK && cost_id != 0)
    rc = report_data_load(cc->s, cost_id, NULL, REPORT_WITH_RUN | REPORT_WITH_STATS, &cc->cost_run,
                          err);
  if (rc == TS_OK && cc->cost_run && !(cc->model = report_cost_compute(cc->cost_run)))
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the cost model");
  if (rc == TS_OK)
    rc = store_runs(cc->s, 100000, collect_freeze_run, cc, err);
  for (int i = 0; rc == TS_OK && i < cc->freeze_run_count; i++)
    rc = report_data_load(cc->s, cc->freeze_ids[i], NULL, REPORT_WITH_RUN | REPORT_WITH_STATS,
                          &cc->freeze_runs[i], err);
  if (rc != TS_OK) {
    census_costs_free(cc); /* the runs not read yet are NULL */
    memset(cc, 0, sizeof *cc);
  }
  return rc;
}

/* "2.00 (1.75 to 2.25)": a cost and its interval in %. */
static void cost_cell(double v, double low, double high, char *buf, size_t len) {
  snprintf(buf, len, "%.2f (%.2f to %.2f)", v, low, high);
  for (char *minus_zero; (minus_zero = strstr(buf, "-0.00")) != NULL;)
    memmove(minus_zero, minus_zero + 1, strlen(minus_zero));
}

/* The predicted and measured columns of one program. */
static void cost_columns(const census_costs *cc, const char *name, double switches_per_s,
                         long threads, char *predicted, char *measured, size_t len) {
  report_program_cost pc;
  report_program_cost_of(cc->model, 0, (const report_data *const *)cc->freeze_runs,
                         cc->freeze_run_count, cc->cost_run ? cc->cost_run->benches[0] : NULL, name,
                         switches_per_s, threads >= 0 ? (double)threads : -1, &pc);
  snprintf(predicted, len, "-");
  snprintf(measured, len, "-");
  if (pc.predicted)
    cost_cell(pc.cost, pc.low, pc.high, predicted, len);
  if (!pc.cell)
    return;
  double v, low, high;
  char numbers[96];
  report_freeze_finding f = report_freeze_cost_of(pc.cell, &v, &low, &high);
  if (!isfinite(v)) {
    snprintf(measured, len, "too few trials, run %lld", (long long)pc.run);
    return;
  }
  cost_cell(v, low, high, numbers, sizeof numbers);
  snprintf(measured, len, "%s%s run %lld", numbers,
           f == REPORT_FREEZE_COSTS     ? " costs,"
           : f == REPORT_FREEZE_NOTHING ? " nothing,"
           : f == REPORT_FREEZE_HELPS   ? " frozen slower,"
                                        : " unsure,",
           (long long)pc.run);
}

/* What the predictions stand on: the cost run and its coefficients, or why there are none. */
static void print_cost_source(const census_costs *cc) {
  if (!cc->model) {
    printf("\ncost: %s\n", cc->no_model);
    return;
  }
  char shown[256], line[600];
  report_freeze_model_text(cc->cost_run->run_id, cc->model, 0, line, sizeof line);
  printf("\ncost on %s in %% (how much slower the benchmark runs with the program running): %s\n"
         "  predicted: the program's wake-ups' share plus its threads' (the intervals' ends "
         "added); measured: where a freeze run froze it alone\n",
         ts_utf8_printable(cc->cost_run->benches[0], shown, sizeof shown), line);
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
    if (o.cost)
      print_cost_source(&cc);
    printf("\nwho wakes up most (context switches per second over %.1f s):\n", dt);
    if (o.cost)
      printf("  %10s %8s %8s %7s  %-24s %-40s %s\n", "switches/s", "pid", "threads", "CPU %",
             "predicted cost %", "measured cost %", "name");
    else
      printf("  %10s %8s %8s %7s  %s\n", "switches/s", "pid", "threads", "CPU %", "name");
    /* A process's name is whatever its owner chose, any user's: escaped as one name (a line
       break in it too), so nothing in it reaches the terminal. */
    char shown[PLAT_PROCESS_NAME_MAX * 4], predicted[96], measured[96], costs[200];
    for (long i = 0; i < rated && i < o.top; i++) {
      costs[0] = '\0';
      if (o.cost) {
        cost_columns(&cc, rates[i].now->name, rates[i].switches_per_s, rates[i].now->threads,
                     predicted, measured, sizeof predicted);
        snprintf(costs, sizeof costs, "%-24s %-40s ", predicted, measured);
      }
      ts_utf8_fprintf_printable(stdout, "  %10.0f %8ld %8ld %7.1f  %s%s\n", rates[i].switches_per_s,
                                rates[i].now->pid, rates[i].now->threads, rates[i].cpu_percent,
                                costs, ts_utf8_printable(rates[i].now->name, shown, sizeof shown));
    }
  }
  printf("\n(this census cost %.1f ms of CPU)\n", (double)cost / TS_NS_PER_MS);
  free(rates);
  free(l0);
  free(l1);
  census_costs_free(&cc);
  return CLI_EXIT_OK;
}

const cli_command cli_census_command = {
    .name = "census",
    .synopsis = "census [--interval DURATION] [--top N] [--cost [--db PATH]]",
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
            "  --db PATH            the database --cost reads (default as for run)\n",
    .main = census_main,
};

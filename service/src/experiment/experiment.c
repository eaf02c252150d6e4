/* experiment.c - runs a plan trial by trial: load up, settle, census, benchmark, load down,
   commit. */
#include "experiment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/bench.h"
#include "threadsoup/plat.h"
#include "threadsoup/version.h"

/* splitmix64: small, fast, and the same sequence on every platform for a given seed. */
static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void experiment_order(const plan *p, uint64_t seed, int *order) {
  int per_block = p->condition_count * p->bench_count;
  uint64_t state = seed;
  for (long b = 0; b < p->reps; b++) {
    int *block = order + b * per_block;
    for (int i = 0; i < per_block; i++)
      block[i] = i;
    /* Fisher-Yates: each block in its own random order, so drift over time cannot line up with
       one condition and pose as its effect. */
    for (int i = per_block - 1; i > 0; i--) {
      int j = (int)(next_random(&state) % (uint64_t)(i + 1));
      int t = block[i];
      block[i] = block[j];
      block[j] = t;
    }
  }
}

typedef struct trial_context {
  store *s;
  const plan *p;
  const load_spec *condition;
  const char *bench_spec;
  int64_t trial_id;
} trial_context;

/* Runs one trial and commits its result. Returns TS_EINTERRUPTED when interrupted while settling
   (the trial stays pending, to be run again on resume). */
static int run_trial(const trial_context *t, experiment_progress *progress, ts_err *err) {
  char started_at[32], finished_at[32];
  plat_utc_timestamp(started_at, sizeof started_at);

  const char *arg;
  const bench_def *bench = bench_find(t->bench_spec, &arg, err);
  if (!bench)
    return err->code;

  load *l = NULL;
  int rc = load_start(t->condition, &l, err);
  if (rc != TS_OK)
    return rc;
  if (plat_interrupt_wait(t->p->settle_ns)) {
    load_stop(l);
    return ts_err_set(err, TS_EINTERRUPTED, "interrupted");
  }

  /* The census runs before the measured part, never during it. */
  ts_err census_err;
  plat_census machine = {-1, -1, -1, -1, 0};
  plat_census_machine(&machine, &census_err);
  long process_threads = plat_process_thread_count(plat_self_pid(), &census_err);

  bench_args args = {arg, t->p->work_scale};
  bench_result result;
  memset(&result, 0, sizeof result);
  rc = bench->run(&args, &result, err);
  load_stop(l);
  plat_utc_timestamp(finished_at, sizeof finished_at);
  if (rc != TS_OK)
    return rc;

  store_metric metrics[BENCH_MAX_SUBSCORES];
  for (int i = 0; i < result.subscore_count; i++) {
    metrics[i].name = result.subscores[i].name;
    metrics[i].value = result.subscores[i].score;
  }
  store_trial_result r = {
      .started_at = started_at,
      .finished_at = finished_at,
      .score = result.score,
      .unit = result.unit,
      .seconds = result.seconds,
      .process_threads = process_threads,
      .machine_processes = machine.processes,
      .machine_threads = machine.threads,
      .metric_count = result.subscore_count,
      .metrics = metrics,
  };
  rc = store_trial_finish(t->s, t->trial_id, &r, err);
  if (rc != TS_OK)
    return rc;
  progress->score = result.score;
  progress->unit = result.unit;
  progress->process_threads = process_threads;
  return TS_OK;
}

int experiment_run(store *s, const plan *p, uint64_t seed, const experiment_observer *observer,
                   int64_t *run_id, ts_err *err) {
  *run_id = 0;
  int total = plan_trial_count(p);
  int per_block = p->condition_count * p->bench_count;
  if (total <= 0)
    return ts_err_set(err, TS_EUSAGE, "the plan has no trials: it needs at least one condition, "
                                      "one benchmark and one repetition");
  int *order = malloc((size_t)total * sizeof *order);
  store_trial_plan *trials = calloc((size_t)total, sizeof *trials);
  if (!order || !trials) {
    free(order);
    free(trials);
    return ts_err_set(err, TS_ENOMEM, "no memory for %d trials", total);
  }
  experiment_order(p, seed, order);
  for (int k = 0; k < total; k++) {
    trials[k].seq = k + 1;
    trials[k].block = k / per_block + 1;
    trials[k].condition = p->conditions[order[k] / p->bench_count].text;
    trials[k].bench = p->benches[order[k] % p->bench_count];
  }

  char plan_text[8192];
  char started_at[32];
  plan_format(p, plan_text, sizeof plan_text);
  plat_utc_timestamp(started_at, sizeof started_at);
  plat_sysinfo sys;
  plat_sysinfo_read(&sys);
  store_run_info info = {p->name, plan_text, seed, started_at, sys.host, sys.os,
                         sys.cpu, sys.logical_cpus, TS_VERSION};
  int rc = store_run_begin(s, &info, trials, total, run_id, err);
  if (rc == TS_OK && observer && observer->run_started)
    observer->run_started(observer->ctx, *run_id, total);

  uint64_t began = plat_clock_ns();
  int done = 0;
  for (int k = 0; rc == TS_OK && k < total; k++) {
    if (plat_interrupted()) {
      rc = ts_err_set(err, TS_EINTERRUPTED, "interrupted");
      break;
    }
    trial_context t = {s, p, &p->conditions[order[k] / p->bench_count],
                       p->benches[order[k] % p->bench_count], trials[k].id};
    experiment_progress progress = {*run_id, k + 1, total, t.condition->text, t.bench_spec, 0,
                                    "", -1, 0};
    rc = run_trial(&t, &progress, err);
    if (rc == TS_OK) {
      done++;
      progress.elapsed_ns = plat_clock_ns() - began;
      if (observer && observer->trial_done)
        observer->trial_done(observer->ctx, &progress);
    } else if (rc != TS_EINTERRUPTED && rc != TS_ESTORE) {
      char finished_at[32];
      ts_err ignored;
      plat_utc_timestamp(finished_at, sizeof finished_at);
      ts_err_prefix(err, "trial %d (%s, %s)", k + 1, t.condition->text, t.bench_spec);
      store_trial_fail(s, t.trial_id, finished_at, err->text, &ignored);
    }
  }

  if (*run_id) {
    char finished_at[32], detail[600];
    ts_err end_err;
    plat_utc_timestamp(finished_at, sizeof finished_at);
    const char *status = rc == TS_OK ? "finished" : rc == TS_EINTERRUPTED ? "interrupted" : "failed";
    snprintf(detail, sizeof detail, "%d of %d trials done%s%s", done, total,
             rc == TS_OK ? "" : "; ", rc == TS_OK ? "" : err->text);
    int end_rc = store_run_end(s, *run_id, status, detail, finished_at, &end_err);
    if (rc == TS_OK && end_rc != TS_OK) {
      *err = end_err;
      rc = end_rc;
    }
  }
  free(order);
  free(trials);
  return rc;
}

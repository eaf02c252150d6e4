/* experiment.h - runs a plan: stores every trial as pending, then runs them in interleaved blocks,
   committing each result before the next trial begins. The CLI and the service run this code. */
#ifndef THREADSOUP_EXPERIMENT_H
#define THREADSOUP_EXPERIMENT_H

#include <stdint.h>

#include "../store/store.h"
#include "plan.h"

typedef struct experiment_progress {
  int64_t run_id;
  int done;  /* trials finished, this one included */
  int total;
  const char *condition;
  const char *bench;
  double score;
  const char *unit;
  long process_threads; /* threads of this process during the trial, counted by the OS */
  uint64_t elapsed_ns;  /* since the run began */
} experiment_progress;

typedef struct experiment_observer {
  void (*run_started)(void *ctx, int64_t run_id, int total);
  void (*trial_done)(void *ctx, const experiment_progress *progress);
  void *ctx;
} experiment_observer;

/* Runs the plan with trials ordered from `seed`. Returns TS_OK when every trial is done,
   TS_EINTERRUPTED after an interrupt (the run is marked interrupted, finished trials kept), or
   the error that stopped it (the run is marked failed). *run_id is set as soon as it exists. */
int experiment_run(store *s, const plan *p, uint64_t seed, const experiment_observer *observer,
                   int64_t *run_id, ts_err *err);

/* The trial order: block by block, every condition × benchmark once per block in an order drawn
   from `seed`. order[k] = condition index * bench_count + bench index of trial k. */
void experiment_order(const plan *p, uint64_t seed, int *order);

#endif

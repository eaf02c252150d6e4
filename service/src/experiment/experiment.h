/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* experiment.h - runs a plan: stores every trial as pending, then runs them in interleaved blocks,
   committing each result before the next trial begins; resumes interrupted runs. The CLI and the
   service run this same code. */
#ifndef THREADSOUP_EXPERIMENT_H
#define THREADSOUP_EXPERIMENT_H

#include <stdint.h>

#include "threadsoup/units.h"
#include "../store/store.h"
#include "../plan/plan.h"

typedef struct experiment_progress {
  int64_t run_id;
  int done;  /* trials finished in this sitting, this one included */
  int total; /* trials to run in this sitting (grows with adaptive blocks) */
  int seq;   /* the trial's place in the run */
  int block; /* 0 = warm-up */
  const char *condition;
  const char *bench;
  double score;
  const char *unit;
  long process_threads; /* threads of this process during the trial, counted by the OS */
  const char *warnings; /* NULL, or e.g. the quiet gate timed out */
  uint64_t elapsed_ns;  /* since this sitting began */
} experiment_progress;

typedef struct experiment_observer {
  void (*run_started)(void *ctx, int64_t run_id, int pending, int total);
  void (*trial_done)(void *ctx, const experiment_progress *progress);
  /* Adaptive repetitions: a block was added, or the precision was met or the budget spent. */
  void (*note)(void *ctx, const char *text);
  void *ctx;
  /* Who the run is for: a freeze freezes only what the rules let this client of the service
     freeze (plat_ipc_peer, or what a schedule or a stored run knows of it); NULL: this process's
     own user (a foreground run). */
  const plat_peer *asker;
} experiment_observer;

/* A trial during which the machine slept this long or longer is measured again, at most this
   many times in all; below it, the difference is the noise of two clock readings. */
#define EXPERIMENT_ASLEEP_NOTICED_NS (1000 * TS_NS_PER_MS)
#define EXPERIMENT_ASLEEP_ATTEMPTS 3
/* A trial the OS failed (TS_EOS: a thread or a program it would not start, a call it refused) is
   measured this many times in all before the run stops on it: such a refusal can pass (Wine's
   CreateProcess fails now and then with "Internal error" on a flooded machine), and an unattended
   run should not end on one. A benchmark that ran and failed (TS_EBENCH) is not tried again. */
#define EXPERIMENT_REFUSED_ATTEMPTS 2

/* The time asleep between two readings of plat_suspended_ns, or 0 when it is below
   EXPERIMENT_ASLEEP_NOTICED_NS (or the readings go backwards). */
uint64_t experiment_time_asleep(uint64_t suspended_before, uint64_t suspended_after);

/* Stores a new run of the plan with all its trials pending, ordered from `seed`. */
int experiment_start(store *s, const plan *p, uint64_t seed, int64_t *run_id, ts_err *err);
/* Runs the pending trials of a run in order (then adaptive blocks when the plan asks for a
   precision). TS_OK when all are done; TS_EINTERRUPTED after the process interrupt or `cancel`
   (the run's own stop request; NULL: the interrupt alone) was raised (the run is marked
   interrupted, finished trials kept); otherwise the error that stopped it (run marked failed). */
int experiment_continue(store *s, int64_t run_id, const plan *p, uint64_t seed,
                        const experiment_observer *observer, const plat_cancel *cancel,
                        ts_err *err);
/* start + continue. *run_id is set as soon as the run exists. */
int experiment_run(store *s, const plan *p, uint64_t seed, const experiment_observer *observer,
                   const plat_cancel *cancel, int64_t *run_id, ts_err *err);
/* TS_OK when `row` is a run that may be resumed here; else why not, with nothing written: a
   finished run (TS_EUSAGE), scores typed in by hand (TS_EUSAGE), or a run imported from another
   machine's file (TS_EDENIED: its plan is data, never run here, and this machine's trials must
   not mix with the measuring machine's). */
int experiment_resumable(const store_run_row *row, ts_err *err);
/* Continues an interrupted, failed or killed run where it stopped (experiment_resumable first): its
   plan and order come from the database; finished trials are never run again. *p gets the run's
   plan. */
int experiment_resume(store *s, int64_t run_id, const experiment_observer *observer,
                      const plat_cancel *cancel, plan *p, ts_err *err);

/* Before a condition that freezes programs starts its load: forgets what this process's previous
   trial froze (its load has been stopped) and records what this one will freeze (thaw.c). */
int experiment_freeze_note(store *s, const load_spec *condition, const plat_peer *asker,
                           ts_err *err);
/* After the last trial's load has been stopped: forgets what this process froze. */
void experiment_freeze_forget(store *s);
/* At a start of ThreadSoup: thaws what a ThreadSoup that no longer runs left frozen and forgets it;
   `said` gets what was thawed ("" when nothing was). */
int experiment_thaw_left(store *s, char *said, size_t len, ts_err *err);

/* The trial order of a block: every condition x benchmark once, in an order drawn from `state`.
   order[k] = condition index * bench_count + bench index. */
void experiment_block_order(const plan *p, uint64_t *state, int *order);

#endif

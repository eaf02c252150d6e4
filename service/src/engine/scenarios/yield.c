/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* yield.c - the yield scenario: N threads that busy-loop on yield, checking a stop flag (--check,
   the experiment's mode 1) or not (mode 2). It burns CPU: it is the load that must show up. */
#include <stdatomic.h>
#include <stdlib.h>

#include "../engine.h"

typedef struct yield_params {
  int check; /* 1: the loop checks the stop flag (mode 1) */
} yield_params;
_Static_assert(sizeof(yield_params) <= LOAD_PARAMS_MAX, "yield_params fits in a load_part");

static const load_option yield_options[] = {
    LOAD_FLAG("check", yield_params, check,
              "the loop checks the stop flag (mode 1); without it, mode 2"),
    LOAD_OPTIONS_END,
};

typedef struct yield_group yield_group;

typedef struct yield_slot {
  plat_thread thread;
  yield_group *group;
} yield_slot;

struct yield_group {
  atomic_int stop;
  load_part part;
  long started;
  plat_stacks *stacks; /* the threads' stacks, freed after the last join */
  yield_slot slots[];
};

static void yield_thread(void *arg) {
  yield_slot *slot = arg;
  yield_group *group = slot->group;
  load_thread_begin(&group->part);
  if (LOAD_PARAMS(&group->part, yield_params)->check) {
    while (!atomic_load_explicit(&group->stop, memory_order_relaxed))
      plat_yield();
  } else {
    /* Mode 2 never looks at a flag: it is ended from outside (yield_stop). */
    plat_thread_allow_cancel();
    for (;;)
      plat_yield();
  }
}

static void yield_stop(void *instance) {
  yield_group *group = instance;
  if (!group)
    return;
  atomic_store(&group->stop, 1);
  for (long i = 0; i < group->started; i++) {
    if (!load_slot_started(&group->slots[i]))
      continue;
    if (LOAD_PARAMS(&group->part, yield_params)->check)
      plat_thread_join(group->slots[i].thread);
    else
      plat_thread_cancel_and_join(group->slots[i].thread);
  }
  plat_stacks_free(group->stacks);
  free(group);
}

static int yield_start(const load_part *part, const plat_cancel *cancel, void **instance,
                       ts_err *err) {
  *instance = NULL;
  yield_group *group = calloc(1, sizeof *group + (size_t)part->count * sizeof(yield_slot));
  if (!group)
    return ts_err_set(err, TS_ENOMEM, "yield: no memory for %ld threads", part->count);
  atomic_init(&group->stop, 0);
  group->part = *part;
  for (long i = 0; i < part->count; i++)
    group->slots[i].group = group;
  int rc = load_start_threads(part, cancel, group->slots, sizeof(yield_slot), yield_thread,
                              &group->stacks, &group->started, err);
  if (rc != TS_OK) {
    yield_stop(group);
    return rc;
  }
  *instance = group;
  return TS_OK;
}

const scenario_def scenario_yield = {
    .name = "yield",
    .help = "COUNT threads busy-looping on yield (the experiment's modes 1 with --check, 2 "
            "without); BURNS CPU: every thread is always ready to run",
    .options = yield_options,
    .engine_options = LOAD_THREAD_OPTIONS,
    .start = yield_start,
    .stop = yield_stop,
};

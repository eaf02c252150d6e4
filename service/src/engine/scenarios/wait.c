/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* wait.c - the wait scenario: N threads that wait forever and are never woken until the load
   stops; each kind is a different kernel wait (the experiment's modes 4 and 5, and more). */
#include <stdlib.h>

#include "../engine.h"

/* Kinds in option order; "join" is built here from threads joining each other, the others are
   platform wait objects. */
static const char *const wait_kinds[] = {"event", "condvar", "address", "channel",
                                         "join",  "iocp",    NULL};
enum { KIND_JOIN = 4 };
static const plat_wait_kind plat_kind_of[] = {PLAT_WAIT_EVENT,   PLAT_WAIT_CONDVAR,
                                              PLAT_WAIT_ADDRESS, PLAT_WAIT_CHANNEL,
                                              PLAT_WAIT_EVENT,   PLAT_WAIT_QUEUE};

typedef struct wait_params {
  int kind; /* an index into wait_kinds */
} wait_params;
_Static_assert(sizeof(wait_params) <= LOAD_PARAMS_MAX, "wait_params fits in a load_part");

static const load_option wait_options[] = {
    LOAD_CHOICE("kind", LOAD_PLACE_KIND, wait_params, kind, wait_kinds, "event",
                "what the threads wait on: event (default), condvar, address, channel, join, "
                "iocp"),
    LOAD_OPTIONS_END,
};

static int kind_of(const load_part *part) { return LOAD_PARAMS(part, wait_params)->kind; }

typedef struct wait_group wait_group;

typedef struct wait_slot {
  plat_thread thread;
  wait_group *group;
} wait_slot;

struct wait_group {
  load_part part;
  plat_waitpoint *waitpoint;
  long started;
  plat_stacks *stacks; /* the threads' stacks, freed after the last join */
  wait_slot slots[];
};

static void wait_thread(void *arg) {
  wait_slot *slot = arg;
  wait_group *group = slot->group;
  load_thread_begin(&group->part);
  long index = (long)(slot - group->slots);
  if (kind_of(&group->part) == KIND_JOIN && index + 1 < group->part.count) {
    /* A chain: thread i waits in join on thread i+1; the last one waits on the waitpoint. Threads
       are started last to first, so i+1 exists before i does. */
    plat_thread_join(group->slots[index + 1].thread);
    return;
  }
  plat_waitpoint_wait(group->waitpoint, index);
}

static void wait_stop(void *instance) {
  wait_group *group = instance;
  if (!group)
    return;
  if (group->waitpoint)
    plat_waitpoint_release(group->waitpoint);
  if (kind_of(&group->part) == KIND_JOIN) {
    /* Only the head of the chain is ours to join; each link joined the next. */
    if (group->started > 0)
      plat_thread_join(group->slots[group->part.count - group->started].thread);
  } else {
    for (long i = 0; i < group->started; i++)
      if (load_slot_started(&group->slots[i]))
        plat_thread_join(group->slots[i].thread);
  }
  plat_waitpoint_destroy(group->waitpoint);
  plat_stacks_free(group->stacks);
  free(group);
}

static int wait_start(const load_part *part, const plat_cancel *cancel, void **instance,
                      ts_err *err) {
  *instance = NULL;
  wait_group *group = calloc(1, sizeof *group + (size_t)part->count * sizeof(wait_slot));
  if (!group)
    return ts_err_set(err, TS_ENOMEM, "wait: no memory for %ld threads", part->count);
  group->part = *part;
  for (long i = 0; i < part->count; i++)
    group->slots[i].group = group;
  int rc = plat_waitpoint_create(&group->waitpoint, plat_kind_of[kind_of(part)], part->count, err);
  if (rc != TS_OK) {
    free(group);
    return ts_err_prefix(err, "wait:%s", wait_kinds[kind_of(part)]);
  }
  if (kind_of(part) == KIND_JOIN) {
    /* Last to first, counting `started` as the length of the chain's tail. */
    uint64_t began = plat_clock_ns();
    for (long i = part->count - 1; i >= 0 && rc == TS_OK; i--) {
      long made = part->count - 1 - i;
      if (load_ramp_pause(part, cancel, began, made))
        rc = ts_err_set(err, TS_EINTERRUPTED, "wait: interrupted after %ld of %ld threads", made,
                        part->count);
      else if ((rc = plat_thread_start(&group->slots[i].thread, part->stack_bytes, wait_thread,
                                       &group->slots[i], err)) != TS_OK)
        ts_err_prefix(err, "wait: created %ld of %ld threads, then stopped them all", made,
                      part->count);
      else
        group->started = made + 1;
    }
  } else {
    rc = load_start_threads(part, cancel, group->slots, sizeof(wait_slot), wait_thread,
                            &group->stacks, &group->started, err);
  }
  if (rc != TS_OK) {
    wait_stop(group);
    return rc;
  }
  *instance = group;
  return TS_OK;
}

const scenario_def scenario_wait = {
    .name = "wait",
    .help = "COUNT threads that wait forever and are never woken; KIND: event (Windows event, "
            "Wait:UserRequest; POSIX condition variable), condvar (condition variable), address "
            "(WaitOnAddress or futex, Wait:WrAlertByThreadId), channel (blocking pipe read), "
            "join (each joins the next), iocp (completion port, Wait:WrQueue; epoll on Linux)",
    .options = wait_options,
    .engine_options = LOAD_THREAD_OPTIONS,
    .start = wait_start,
    .stop = wait_stop,
};

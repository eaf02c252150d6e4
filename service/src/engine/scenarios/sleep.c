/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sleep.c - the sleep scenario: N threads that each sleep an interval in a loop with the OS's plain
   sleep, the experiment's mode 3 (Windows: Wait:DelayExecution; Linux: hrtimer_nanosleep), or
   with high-resolution timers (/resolution=high); a stop wakes them at once rather than after an
   interval. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine.h"
#include "threadsoup/units.h"

/* The sleep options, where its rows keep them in a part. */
typedef struct sleep_params {
  uint64_t interval_ns;
  int phase;      /* PHASE_* */
  int timer;      /* TIMER_* */
  int resolution; /* a plat_resolution */
} sleep_params;
_Static_assert(sizeof(sleep_params) <= LOAD_PARAMS_MAX, "sleep_params fits in a load_part");

static const char *const phase_names[] = {"spread", "sync", NULL};
enum { PHASE_SPREAD, PHASE_SYNC };
static const char *const timer_names[] = {"relative", "absolute", NULL};
enum { TIMER_RELATIVE, TIMER_ABSOLUTE };
/* In plat_resolution's order. */
static const char *const resolution_names[] = {"default", "high", NULL};

static const load_option sleep_options[] = {
    LOAD_DURATION("interval", LOAD_PLACE_AT, sleep_params, interval_ns, (double)TS_NS_PER_MS,
                  (double)TS_NS_PER_HOUR, "500ms",
                  "sleep time between wake-ups, 1ms to 1h (default 500ms)"),
    LOAD_CHOICE("phase", LOAD_PLACE_OPTION, sleep_params, phase, phase_names, "spread",
                "spread (default: first wake-ups evenly over one interval) or sync"),
    LOAD_CHOICE("timer", LOAD_PLACE_OPTION, sleep_params, timer, timer_names, "relative",
                "relative (default: sleep the interval) or absolute (deadlines)"),
    LOAD_CHOICE("resolution", LOAD_PLACE_OPTION, sleep_params, resolution, resolution_names,
                "default",
                "default (the OS's plain sleep, 15.6 ms ticks on Windows) or high "
                "(high-resolution timers)"),
    LOAD_OPTIONS_END,
};

typedef struct sleep_group sleep_group;

/* One per thread; plat_thread first, as load_start_threads requires. */
typedef struct sleep_slot {
  plat_thread thread;
  sleep_group *group;
  plat_sleeper sleeper; /* its timer: made before the thread starts, freed after it is joined */
  atomic_int done;      /* set by the thread as it ends: no more wakes needed */
} sleep_slot;

struct sleep_group {
  atomic_int stop;
  load_part part;
  uint64_t epoch_ns;         /* the time all phases count from */
  long started;              /* threads running, to be joined */
  plat_stacks *stacks;       /* the threads' stacks, freed after the last join */
  atomic_long entered;       /* threads past plat_sleeper_enter */
  atomic_long obtained_high; /* of those, the ones with a high-resolution timer */
  sleep_slot slots[];
};

static void sleep_thread(void *arg) {
  sleep_slot *slot = arg;
  sleep_group *group = slot->group;
  const load_part *part = &group->part;
  const sleep_params *params = LOAD_PARAMS(part, sleep_params);
  load_thread_begin(part);
  plat_sleeper *sleeper = &slot->sleeper;
  ts_err ignored; /* a refused timer slack leaves obtained at default, which is counted */
  plat_sleeper_enter(sleeper, &ignored);
  if (sleeper->obtained == PLAT_RESOLUTION_HIGH)
    atomic_fetch_add(&group->obtained_high, 1);
  atomic_fetch_add(&group->entered, 1);
  uint64_t interval = params->interval_ns;
  /* spread: thread i first wakes i/N into the interval, so N sleepers wake at an even pace and
     the cost cannot be mistaken for a burst. sync: all wake together, the worst case. */
  uint64_t index = (uint64_t)(slot - group->slots);
  uint64_t offset = params->phase == PHASE_SPREAD ? interval * index / (uint64_t)part->count : 0;
  if (params->timer == TIMER_ABSOLUTE) {
    /* Deadlines from a shared epoch: no drift, and phases stay where they were put. */
    uint64_t deadline = group->epoch_ns + offset + interval;
    while (!atomic_load_explicit(&group->stop, memory_order_relaxed)) {
      plat_sleeper_sleep_until_ns(sleeper, deadline);
      deadline += interval;
    }
  } else {
    /* Relative, as the original: sleep(interval), so each period also holds the time it took to
       wake up and loop. */
    if (offset > 0)
      plat_sleeper_sleep_ns(sleeper, offset);
    while (!atomic_load_explicit(&group->stop, memory_order_relaxed))
      plat_sleeper_sleep_ns(sleeper, interval);
  }
  atomic_store(&slot->done, 1);
}

static void sleep_stop(void *instance) {
  sleep_group *group = instance;
  if (!group)
    return;
  atomic_store(&group->stop, 1);
  /* Each sleeper is woken instead of waiting out its interval. */
  load_wake_and_join(group->slots, sizeof(sleep_slot), offsetof(sleep_slot, done), group->started);
  for (long i = 0; i < group->part.count; i++)
    plat_sleeper_free(&group->slots[i].sleeper);
  plat_stacks_free(group->stacks);
  free(group);
}

static void sleep_timers(void *instance, long *asked_high, long *obtained_high) {
  const sleep_group *group = instance;
  *asked_high = *obtained_high = 0;
  if (!group || LOAD_PARAMS(&group->part, sleep_params)->resolution != PLAT_RESOLUTION_HIGH)
    return;
  /* Threads not yet past their first step (a ramp still creating them) are not counted. */
  *asked_high = atomic_load(&group->entered);
  *obtained_high = atomic_load(&group->obtained_high);
}

static int sleep_start(const load_part *part, const plat_cancel *cancel, void **instance,
                       ts_err *err) {
  *instance = NULL;
  sleep_group *group = calloc(1, sizeof *group + (size_t)part->count * sizeof(sleep_slot));
  if (!group)
    return ts_err_set(err, TS_ENOMEM, "sleep: no memory for %ld threads", part->count);
  atomic_init(&group->stop, 0);
  group->part = *part;
  group->epoch_ns = plat_clock_ns();
  atomic_init(&group->entered, 0);
  atomic_init(&group->obtained_high, 0);
  /* Each sleeper's timer is made here, before any thread starts, so that a machine without
     high-resolution timers is known at once: its sleepers then sleep the default way and are
     counted as such (reported, never silently downgraded). Any other refusal stops the load. */
  plat_resolution asked = (plat_resolution)LOAD_PARAMS(part, sleep_params)->resolution;
  plat_resolution want = asked;
  for (long i = 0; i < part->count; i++) {
    group->slots[i].group = group;
    atomic_init(&group->slots[i].done, 0);
    int rc = plat_sleeper_init(&group->slots[i].sleeper, want, err);
    if (rc == TS_EUNSUPPORTED) {
      want = PLAT_RESOLUTION_DEFAULT; /* the rest would be refused the same way */
    } else if (rc != TS_OK) {
      ts_err_prefix(err, "sleep: sleeper %ld of %ld", i + 1, part->count);
      sleep_stop(group);
      return rc;
    }
    group->slots[i].sleeper.asked = asked;
  }
  int rc = load_start_threads(part, cancel, group->slots, sizeof(sleep_slot), sleep_thread,
                              &group->stacks, &group->started, err);
  if (rc != TS_OK) {
    sleep_stop(group);
    return rc;
  }
  *instance = group;
  return TS_OK;
}

static plat_resolution sleep_resolution(const load_part *part) {
  return (plat_resolution)LOAD_PARAMS(part, sleep_params)->resolution;
}

/* Each thread wakes once per interval. */
static double sleep_wakeups_per_s(const load_part *part) {
  return (double)part->count * (double)TS_NS_PER_S /
         (double)LOAD_PARAMS(part, sleep_params)->interval_ns;
}

const scenario_def scenario_sleep = {
    .name = "sleep",
    .help = "COUNT threads that each sleep INTERVAL in a loop (default 500ms): one wake-up and "
            "one context switch per thread per interval (the experiment's mode 3)",
    .options = sleep_options,
    .engine_options = LOAD_THREAD_OPTIONS,
    .start = sleep_start,
    .stop = sleep_stop,
    .timers = sleep_timers,
    .resolution = sleep_resolution,
    .wakeups_per_s = sleep_wakeups_per_s,
};

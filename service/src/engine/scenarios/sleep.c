/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sleep.c - the sleep scenario: N threads that each sleep an interval in a loop with the OS's plain
   sleep, the experiment's mode 3 (Windows: Wait:DelayExecution; Linux: hrtimer_nanosleep); a
   stop wakes them at once rather than after an interval. */
#include <stdatomic.h>
#include <stdlib.h>

#include "../engine.h"
#include "threadsoup/units.h"

typedef struct sleep_group sleep_group;

/* One per thread; plat_thread first, as load_start_threads requires. */
typedef struct sleep_slot {
  plat_thread thread;
  sleep_group *group;
  atomic_int done; /* set by the thread as it ends: no more wakes needed */
} sleep_slot;

struct sleep_group {
  atomic_int stop;
  load_part part;
  uint64_t epoch_ns; /* the time all phases count from */
  long started;      /* threads running, to be joined */
  sleep_slot slots[];
};

static void sleep_thread(void *arg) {
  sleep_slot *slot = arg;
  sleep_group *group = slot->group;
  const load_part *part = &group->part;
  load_thread_begin(part);
  plat_sleep_wakeable_enable();
  uint64_t interval = part->interval_ns;
  /* spread: thread i first wakes i/N into the interval, so N sleepers wake at an even pace and
     the cost cannot be mistaken for a burst. sync: all wake together, the worst case. */
  uint64_t index = (uint64_t)(slot - group->slots);
  uint64_t offset = part->phase == LOAD_PHASE_SPREAD ? interval * index / (uint64_t)part->count : 0;
  if (part->timer == LOAD_TIMER_ABSOLUTE) {
    /* Deadlines from a shared epoch: no drift, and phases stay where they were put. */
    uint64_t deadline = group->epoch_ns + offset + interval;
    while (!atomic_load_explicit(&group->stop, memory_order_relaxed)) {
      plat_sleep_until_ns_wakeable(deadline);
      deadline += interval;
    }
  } else {
    /* Relative, as the original: sleep(interval), so each period also holds the time it took to
       wake up and loop. */
    if (offset > 0)
      plat_sleep_ns_wakeable(offset);
    while (!atomic_load_explicit(&group->stop, memory_order_relaxed))
      plat_sleep_ns_wakeable(interval);
  }
  atomic_store(&slot->done, 1);
}

static void sleep_stop(void *instance) {
  sleep_group *group = instance;
  if (!group)
    return;
  atomic_store(&group->stop, 1);
  /* Each sleeper is woken (a signal on POSIX, an APC on Windows) instead of waiting out its
     interval. A signal that lands between a thread's look at the flag and its sleep is lost: such
     a thread is woken again, until every thread has ended (an APC is never lost: one round). */
  for (int round = 0;; round++) {
    long left = 0;
    for (long i = 0; i < group->started; i++)
      if (!atomic_load(&group->slots[i].done) && !plat_thread_wake(&group->slots[i].thread))
        left++;
    if (left == 0)
      break;
    plat_sleep_ns((round < 20 ? 1 : 20) * TS_NS_PER_MS);
  }
  for (long i = 0; i < group->started; i++)
    plat_thread_join(group->slots[i].thread);
  free(group);
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
  for (long i = 0; i < part->count; i++) {
    group->slots[i].group = group;
    atomic_init(&group->slots[i].done, 0);
  }
  int rc = load_start_threads(part, cancel, group->slots, sizeof(sleep_slot), sleep_thread,
                              &group->started, err);
  if (rc != TS_OK) {
    sleep_stop(group);
    return rc;
  }
  *instance = group;
  return TS_OK;
}

const scenario_def scenario_sleep = {
    .name = "sleep",
    .help = "COUNT threads that each sleep INTERVAL in a loop (default 500ms): one wake-up and "
            "one context switch per thread per interval (the experiment's mode 3)",
    .options = LOAD_OPT_INTERVAL | LOAD_OPT_PHASE | LOAD_OPT_TIMER | LOAD_THREAD_OPTIONS,
    .default_interval_ns = 500 * TS_NS_PER_MS,
    .start = sleep_start,
    .stop = sleep_stop,
};

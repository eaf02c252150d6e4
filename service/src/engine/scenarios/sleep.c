/* sleep.c - the sleep scenario: N threads that each sleep an interval in a loop with the OS's plain
   sleep, the experiment's mode 3 (Windows: Wait:DelayExecution). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "../engine.h"
#include "threadsoup/plat.h"

typedef struct sleep_group sleep_group;

/* One per thread: the handle, and the way back to the shared settings. */
typedef struct sleep_slot {
  plat_thread thread;
  sleep_group *group;
} sleep_slot;

struct sleep_group {
  atomic_int stop;
  uint64_t interval_ns;
  long count;   /* threads asked for */
  long started; /* threads running, to be joined */
  sleep_slot slots[];
};

static void sleep_thread(void *arg) {
  sleep_slot *slot = arg;
  sleep_group *group = slot->group;
  /* Spread the first wake-ups evenly over one interval, so N sleepers wake N times per interval
     at an even pace instead of in one burst that would make the cost look like contention. */
  uint64_t index = (uint64_t)(slot - group->slots);
  uint64_t offset = group->interval_ns * index / (uint64_t)group->count;
  if (offset > 0)
    plat_sleep_ns(offset);
  while (!atomic_load_explicit(&group->stop, memory_order_relaxed))
    plat_sleep_ns(group->interval_ns);
}

static void sleep_stop(void *instance) {
  sleep_group *group = instance;
  if (!group)
    return;
  atomic_store(&group->stop, 1);
  /* Each thread sees the flag at its next wake-up: joining takes at most one interval. */
  for (long i = 0; i < group->started; i++)
    plat_thread_join(group->slots[i].thread);
  free(group);
}

static int sleep_start(const load_part *part, void **instance, ts_err *err) {
  *instance = NULL;
  sleep_group *group = calloc(1, sizeof *group + (size_t)part->count * sizeof(sleep_slot));
  if (!group)
    return ts_err_set(err, TS_ENOMEM, "sleep: no memory for %ld threads", part->count);
  atomic_init(&group->stop, 0);
  group->interval_ns = part->interval_ns;
  group->count = part->count;
  for (long i = 0; i < part->count; i++) {
    group->slots[i].group = group;
    int rc = plat_thread_start(&group->slots[i].thread, part->stack_bytes, sleep_thread,
                               &group->slots[i], err);
    if (rc != TS_OK) {
      ts_err_prefix(err, "sleep: created %ld of %ld threads, then stopped them all", i,
                    part->count);
      sleep_stop(group);
      return rc;
    }
    group->started = i + 1;
  }
  *instance = group;
  return TS_OK;
}

const scenario_def scenario_sleep = {
    .name = "sleep",
    .help = "COUNT threads that each sleep INTERVAL in a loop (default 500ms): one wake-up and "
            "one context switch per thread per interval",
    .takes_interval = 1,
    .default_interval_ns = 500000000ull,
    .start = sleep_start,
    .stop = sleep_stop,
};

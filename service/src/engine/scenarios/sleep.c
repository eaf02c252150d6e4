/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sleep.c - the sleep scenario: N threads that each sleep an interval in a loop with the OS's plain
   sleep, the experiment's mode 3 (Windows: Wait:DelayExecution; Linux: hrtimer_nanosleep), or
   with high-resolution timers (/resolution=high); a stop wakes them at once rather than after an
   interval. Also the probe that measures what a sleeper of either resolution gets. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine.h"
#include "threadsoup/units.h"

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
  atomic_long entered;       /* threads past plat_sleeper_enter */
  atomic_long obtained_high; /* of those, the ones with a high-resolution timer */
  sleep_slot slots[];
};

static void sleep_thread(void *arg) {
  sleep_slot *slot = arg;
  sleep_group *group = slot->group;
  const load_part *part = &group->part;
  load_thread_begin(part);
  plat_sleeper *sleeper = &slot->sleeper;
  ts_err ignored; /* a refused timer slack leaves obtained at default, which is counted */
  plat_sleeper_enter(sleeper, &ignored);
  if (sleeper->obtained == PLAT_RESOLUTION_HIGH)
    atomic_fetch_add(&group->obtained_high, 1);
  atomic_fetch_add(&group->entered, 1);
  uint64_t interval = part->interval_ns;
  /* spread: thread i first wakes i/N into the interval, so N sleepers wake at an even pace and
     the cost cannot be mistaken for a burst. sync: all wake together, the worst case. */
  uint64_t index = (uint64_t)(slot - group->slots);
  uint64_t offset = part->phase == LOAD_PHASE_SPREAD ? interval * index / (uint64_t)part->count : 0;
  if (part->timer == LOAD_TIMER_ABSOLUTE) {
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
  free(group);
}

static void sleep_timers(void *instance, long *asked_high, long *obtained_high) {
  const sleep_group *group = instance;
  *asked_high = *obtained_high = 0;
  if (!group || group->part.resolution != PLAT_RESOLUTION_HIGH)
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
  plat_resolution want = part->resolution;
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
    group->slots[i].sleeper.asked = part->resolution;
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

/* ---- the probe ---- */

#define PROBE_MAX_SAMPLES 64

typedef struct probe_context {
  plat_resolution want;
  int samples;
  load_timer_probe *out;
  int rc;
  ts_err err;
} probe_context;

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* A sleeper of its own, made as the load's are, on a thread of its own (Linux's timer slack
   belongs to the thread: the caller's is left alone). */
static void probe_thread(void *arg) {
  probe_context *c = arg;
  load_timer_probe *out = c->out;
  plat_sleeper sleeper;
  ts_err why;
  int rc = plat_sleeper_init(&sleeper, c->want, &why);
  if (rc == TS_EUNSUPPORTED) {
    snprintf(out->note, sizeof out->note, "%s", why.text);
  } else if (rc != TS_OK) {
    c->rc = rc;
    c->err = why;
    return;
  }
  sleeper.asked = c->want;
  if (plat_sleeper_enter(&sleeper, &why) != TS_OK && !out->note[0])
    snprintf(out->note, sizeof out->note, "%s", why.text);
  out->obtained = sleeper.obtained;
  if (plat_timer_resolution(&out->info, &why) != TS_OK && !out->note[0])
    snprintf(out->note, sizeof out->note, "timer resolution not known: %s", why.text);
  double late[PROBE_MAX_SAMPLES];
  int n = 0;
  for (int i = 0; i < c->samples && i < PROBE_MAX_SAMPLES; i++) {
    uint64_t t0 = plat_clock_ns();
    if (plat_sleeper_sleep_ns(&sleeper, TS_NS_PER_MS))
      continue; /* woken by something else: not a timer's lateness */
    uint64_t took = plat_clock_ns() - t0;
    late[n++] = took > TS_NS_PER_MS ? (double)(took - TS_NS_PER_MS) / 1e3 : 0;
  }
  if (n > 0) {
    qsort(late, (size_t)n, sizeof late[0], compare_double);
    out->overshoot_us = n % 2 ? late[n / 2] : (late[n / 2 - 1] + late[n / 2]) / 2;
  }
  plat_sleeper_free(&sleeper);
}

int load_timer_probe_run(plat_resolution resolution, int samples, load_timer_probe *out,
                         ts_err *err) {
  memset(out, 0, sizeof *out);
  out->obtained = PLAT_RESOLUTION_DEFAULT;
  out->info.current_us = out->info.finest_us = out->info.coarsest_us = out->info.slack_us = -1;
  out->overshoot_us = -1;
  probe_context c = {resolution, samples, out, TS_OK, {0}};
  uint64_t t0 = plat_clock_ns();
  plat_thread thread;
  int rc = plat_thread_start(&thread, 0, probe_thread, &c, err);
  if (rc != TS_OK)
    return rc;
  plat_thread_join(thread);
  out->cost_ns = plat_clock_ns() - t0;
  if (c.rc != TS_OK) {
    *err = c.err;
    return c.rc;
  }
  return TS_OK;
}

const scenario_def scenario_sleep = {
    .name = "sleep",
    .help = "COUNT threads that each sleep INTERVAL in a loop (default 500ms): one wake-up and "
            "one context switch per thread per interval (the experiment's mode 3)",
    .options = LOAD_OPT_INTERVAL | LOAD_OPT_PHASE | LOAD_OPT_TIMER | LOAD_OPT_RESOLUTION |
               LOAD_THREAD_OPTIONS,
    .default_interval_ns = 500 * TS_NS_PER_MS,
    .start = sleep_start,
    .stop = sleep_stop,
    .timers = sleep_timers,
};

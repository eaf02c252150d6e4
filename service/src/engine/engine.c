/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* engine.c - starts and stops the parts of a load spec as one load, with the thread helpers
   scenarios share (ramp, priority, wake and join). */
#include "engine.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/units.h"

struct load {
  int part_count;
  const scenario_def *scenarios[LOAD_MAX_PARTS];
  void *instances[LOAD_MAX_PARTS];
};

/* ---- running ---- */

int load_ramp_pause(const load_part *part, const plat_cancel *cancel, uint64_t started_ns,
                    long index) {
  if (part->ramp_ns == 0 || index == 0)
    return plat_cancelled(cancel);
  /* Item i is due at i/count of the ramp: a deadline, so slow creations do not add up. */
  uint64_t due =
      started_ns + (uint64_t)((double)part->ramp_ns * (double)index / (double)part->count);
  uint64_t now = plat_clock_ns();
  return due > now ? plat_cancel_wait(cancel, due - now) : plat_cancelled(cancel);
}

void load_wake_and_join(void *slots, size_t slot_size, size_t done_offset, long started) {
  /* A signal that lands between a thread's look at its flag and its sleep (or while it runs) is
     lost: such a thread is woken again, until every thread has ended (an APC is kept until the
     next alertable wait: one round). */
  for (int round = 0;; round++) {
    long left = 0;
    for (long i = 0; i < started; i++) {
      char *slot = (char *)slots + (size_t)i * slot_size;
      if (load_slot_started(slot) && !atomic_load((atomic_int *)(void *)(slot + done_offset)) &&
          !plat_thread_wake((const plat_thread *)(void *)slot))
        left++;
    }
    if (left == 0)
      break;
    plat_sleep_ns((round < 20 ? 1 : 20) * TS_NS_PER_MS);
  }
  for (long i = 0; i < started; i++) {
    char *slot = (char *)slots + (size_t)i * slot_size;
    if (load_slot_started(slot))
      plat_thread_join(*(plat_thread *)(void *)slot);
  }
}

int load_slot_started(const void *slot) { return ((const plat_thread *)slot)->handle != 0; }

void load_thread_begin(const load_part *part) {
  ts_err ignored; /* checked before any thread started: see check_priority */
  plat_thread_set_priority((plat_priority)part->priority, &ignored);
}

/* ---- a crew: a load's threads or processes started side by side ---- */

/* One load_crew_run shared by its members: each claims the next item until all are claimed or
   one item fails. */
typedef struct load_crew {
  long count;
  load_crew_item item;
  void *ctx;
  atomic_long next;   /* the next item to claim */
  atomic_int stopped; /* set by the first member whose item fails */
  plat_mutex lock;    /* rc and err: the first failure's */
  int rc;
  ts_err err;
} load_crew;

static void crew_member(void *arg) {
  load_crew *crew = arg;
  ts_err err;
  while (!atomic_load(&crew->stopped)) {
    long i = atomic_fetch_add(&crew->next, 1);
    if (i >= crew->count)
      break;
    int rc = crew->item(crew->ctx, i, &err);
    if (rc != TS_OK) {
      plat_mutex_lock(&crew->lock);
      if (crew->rc == TS_OK) {
        crew->rc = rc;
        crew->err = err;
      }
      atomic_store(&crew->stopped, 1);
      plat_mutex_unlock(&crew->lock);
    }
  }
}

int load_crew_run(long count, int members, load_crew_item item, void *ctx, long *claimed,
                  ts_err *err) {
  load_crew crew = {.count = count, .item = item, .ctx = ctx, .rc = TS_OK};
  atomic_init(&crew.next, 0);
  atomic_init(&crew.stopped, 0);
  plat_mutex_init(&crew.lock);
  /* The calling thread is a member; a helper the OS refuses leaves its share to the others. */
  plat_thread helpers[LOAD_CREW_MAX];
  int helping = 0;
  ts_err helper_err;
  while (helping < members - 1 && helping < LOAD_CREW_MAX &&
         plat_thread_start(&helpers[helping], LOAD_CREW_STACK_BYTES, crew_member, &crew,
                           &helper_err) == TS_OK)
    helping++;
  crew_member(&crew);
  for (int i = 0; i < helping; i++)
    plat_thread_join(helpers[i]);
  plat_mutex_destroy(&crew.lock);
  long next = atomic_load(&crew.next);
  *claimed = next < count ? next : count;
  if (crew.rc != TS_OK)
    *err = crew.err;
  return crew.rc;
}

int load_crew_size(long count, long min_per_member) {
  if (count < 2 * min_per_member)
    return 1;
  plat_sysinfo info;
  plat_sysinfo_read(&info);
  long n = count / min_per_member;
  if (n > info.logical_cpus)
    n = info.logical_cpus;
  return n > LOAD_CREW_MAX ? LOAD_CREW_MAX : n < 1 ? 1 : (int)n;
}

/* ---- threads ---- */

/* Each thread start is a clone, its stack's mapping and a first wake-up: 140 us here (a
   paravirtualised VM, where every clone goes through the hypervisor). Two creators, one per
   logical CPU, started 15,000 sleepers 1.3 to 1.5 times as fast as one; fewer than this many
   threads per creator are not worth its own start. */
#define THREADS_PER_CREATOR 256

typedef struct thread_start {
  const load_part *part;
  const plat_cancel *cancel;
  char *slots;
  size_t slot_size;
  plat_thread_fn fn;
  plat_stacks *stacks; /* NULL: each thread gets a stack of its own */
  uint64_t began;
  atomic_long running;
  int interrupted;
} thread_start;

static int start_one_thread(void *ctx, long i, ts_err *err) {
  thread_start *ts = ctx;
  plat_thread *thread = (plat_thread *)(void *)(ts->slots + (size_t)i * ts->slot_size);
  int rc = load_ramp_pause(ts->part, ts->cancel, ts->began, i)
               ? ts_err_set(err, TS_EINTERRUPTED, "interrupted")
           : ts->stacks ? plat_thread_start_on(thread, ts->stacks, (size_t)i, ts->fn, thread, err)
                        : plat_thread_start(thread, ts->part->stack_bytes, ts->fn, thread, err);
  if (rc != TS_OK)
    memset(thread, 0, sizeof *thread); /* a slot without a thread: stopping skips it */
  else
    atomic_fetch_add(&ts->running, 1);
  return rc;
}

int load_start_threads(const load_part *part, const plat_cancel *cancel, void *slots,
                       size_t slot_size, plat_thread_fn fn, plat_stacks **stacks, long *started,
                       ts_err *err) {
  /* One mapping for all the stacks where it can be had; where not, a stack each, as any thread. */
  ts_err no_stacks;
  if (plat_stacks_create((size_t)part->count, part->stack_bytes, stacks, &no_stacks) != TS_OK)
    *stacks = NULL;
  thread_start ts = {.part = part,
                     .cancel = cancel,
                     .slots = slots,
                     .slot_size = slot_size,
                     .fn = fn,
                     .stacks = *stacks,
                     .began = plat_clock_ns()};
  atomic_init(&ts.running, 0);
  /* A ramp paces the creations: one creator keeps its order. */
  int creators = part->ramp_ns > 0 ? 1 : load_crew_size(part->count, THREADS_PER_CREATOR);
  int rc = load_crew_run(part->count, creators, start_one_thread, &ts, started, err);
  long running = atomic_load(&ts.running);
  if (rc == TS_EINTERRUPTED)
    return ts_err_set(err, TS_EINTERRUPTED, "%s: interrupted after %ld of %ld threads",
                      part->scenario->name, running, part->count);
  if (rc != TS_OK)
    return ts_err_prefix(err, "%s: created %ld of %ld threads, then stopped them all",
                         part->scenario->name, running, part->count);
  return TS_OK;
}

typedef struct priority_probe {
  plat_thread thread;
  plat_priority priority;
  int rc;
  ts_err err;
} priority_probe;

static void priority_probe_thread(void *arg) {
  priority_probe *probe = arg;
  probe->rc = plat_thread_set_priority(probe->priority, &probe->err);
}

/* A priority the OS will refuse is refused before any load exists, on a throwaway thread. */
static int check_priority(const load_part *part, ts_err *err) {
  if (part->priority == PLAT_PRIORITY_NORMAL ||
      (part->scenario->engine_options & LOAD_TAKES_PRIORITY) == 0)
    return TS_OK;
  priority_probe probe = {{0}, (plat_priority)part->priority, TS_OK, {0, ""}};
  int rc = plat_thread_start(&probe.thread, 0, priority_probe_thread, &probe, err);
  if (rc != TS_OK)
    return rc;
  plat_thread_join(probe.thread);
  if (probe.rc != TS_OK) {
    *err = probe.err;
    return ts_err_prefix(err, "%s: priority=%s refused", part->scenario->name,
                         load_option_find(NULL, "priority")->names[part->priority]);
  }
  return TS_OK;
}

int load_start(const load_spec *spec, const plat_cancel *cancel, load **out, ts_err *err) {
  return load_start_for(spec, NULL, cancel, out, err);
}

int load_start_for(const load_spec *spec, const plat_peer *asker, const plat_cancel *cancel,
                   load **out, ts_err *err) {
  *out = NULL;
  for (int i = 0; i < spec->part_count; i++) {
    const scenario_def *sc = spec->parts[i].scenario;
    const char *why = sc->unavailable_reason ? sc->unavailable_reason() : NULL;
    if (why)
      return ts_err_set(err, TS_EUNSUPPORTED, "scenario '%s' cannot run here: %s", sc->name, why);
    int rc = check_priority(&spec->parts[i], err);
    if (rc != TS_OK)
      return rc;
  }
  load *l = calloc(1, sizeof *l);
  if (!l)
    return ts_err_set(err, TS_ENOMEM, "no memory to start load '%s'", spec->text);
  for (int i = 0; i < spec->part_count; i++) {
    load_part part = spec->parts[i];
    part.asker = asker;
    int rc = part.scenario->start(&part, cancel, &l->instances[i], err);
    if (rc != TS_OK) {
      load_stop(l);
      return rc;
    }
    l->scenarios[i] = part.scenario;
    l->part_count = i + 1;
  }
  *out = l;
  return TS_OK;
}

void load_stop(load *l) {
  if (!l)
    return;
  /* Last started, first stopped, like a stack of resources. */
  for (int i = l->part_count - 1; i >= 0; i--)
    l->scenarios[i]->stop(l->instances[i]);
  free(l);
}

void load_timer_state(const load *l, plat_resolution *asked, plat_resolution *obtained, char *note,
                      size_t len) {
  long asked_high = 0, obtained_high = 0;
  for (int i = 0; l && i < l->part_count; i++)
    if (l->scenarios[i]->timers) {
      long a = 0, o = 0;
      l->scenarios[i]->timers(l->instances[i], &a, &o);
      asked_high += a;
      obtained_high += o;
    }
  *asked = asked_high > 0 ? PLAT_RESOLUTION_HIGH : PLAT_RESOLUTION_DEFAULT;
  *obtained = asked_high > 0 && obtained_high == asked_high ? PLAT_RESOLUTION_HIGH
                                                            : PLAT_RESOLUTION_DEFAULT;
  if (note && len > 0) {
    note[0] = '\0';
    if (obtained_high < asked_high)
      snprintf(note, len,
               "high timer resolution: %ld of %ld sleepers got it, the rest sleep at the "
               "system's resolution",
               obtained_high, asked_high);
  }
}

long load_count_children(void) { return load_count_children_of(plat_self_pid(), NULL); }

long load_count_children_of(long parent, const char *name) {
  plat_process_census *list;
  long count = 0, children = 0;
  ts_err err;
  if (plat_census_processes(&list, &count, &err) != TS_OK)
    return -1;
  for (long i = 0; i < count; i++)
    children += list[i].parent_pid == parent && (!name || strstr(list[i].name, name));
  free(list);
  return children;
}

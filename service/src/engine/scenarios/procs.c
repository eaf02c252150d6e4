/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* procs.c - the procs scenario: N processes that wait forever (the experiment's mode 6, which
   took a batch file starting 15,000 copies). Each is threadsoup-idle, bound to our life: nothing
   survives us, even a kill -9 (see plat child.c). */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "../engine.h"
#include "threadsoup/units.h"

/* A refusal can be momentary: on Windows a scanner holding the new image open, anywhere a brief
   peak of processes or memory. So a refused child is tried again twice, after 50 and 250 ms,
   before the load gives up; a third refusal is the machine's limit, reported as such. */
static int spawn_patiently(plat_child_group *group, ts_err *err) {
  static const uint64_t pauses_ns[] = {50 * TS_NS_PER_MS, 250 * TS_NS_PER_MS};
  int rc = plat_child_group_spawn(group, err);
  for (size_t i = 0; rc == TS_EOS && i < sizeof pauses_ns / sizeof pauses_ns[0]; i++) {
    plat_sleep_ns(pauses_ns[i]);
    rc = plat_child_group_spawn(group, err);
  }
  if (rc == TS_EOS)
    ts_err_prefix(err, "3 attempts in 0.3 s");
  return rc;
}

/* Threads that start the children side by side when no ramp paces them. On Linux each waits in
   posix_spawn until its child has exec'd, so one thread left the other cores idle and took 1.5 to
   2.5 times as long as a fork loop (the floor threadsoup-bench procs measures); four keep both
   cores of a small machine exec'ing. Windows starts them one at a time in the group (its
   creation does not wait for the child), so there the crew changes nothing. */
#define CREW_THREADS 4
#define CREW_MIN_COUNT 64               /* fewer children are not worth a thread */
#define CREW_STACK_BYTES (256u * 1024u) /* CreateProcessW and posix_spawn: a wide margin */

typedef struct procs_crew {
  plat_child_group *group;
  const plat_cancel *cancel;
  long count;
  atomic_long next;   /* the next child to start */
  atomic_int stopped; /* set by the first thread that fails or sees the cancel */
  plat_mutex lock;    /* rc and err, the first failure's */
  int rc;
  ts_err err;
} procs_crew;

static void crew_stop(procs_crew *crew, int rc, const ts_err *err) {
  plat_mutex_lock(&crew->lock);
  if (crew->rc == TS_OK) {
    crew->rc = rc;
    crew->err = *err;
  }
  atomic_store(&crew->stopped, 1);
  plat_mutex_unlock(&crew->lock);
}

static void crew_main(void *arg) {
  procs_crew *crew = arg;
  ts_err err;
  while (!atomic_load(&crew->stopped) && atomic_fetch_add(&crew->next, 1) < crew->count) {
    int rc = plat_cancelled(crew->cancel) ? ts_err_set(&err, TS_EINTERRUPTED, "interrupted")
                                          : spawn_patiently(crew->group, &err);
    if (rc != TS_OK)
      crew_stop(crew, rc, &err);
  }
}

/* Starts the group's children on CREW_THREADS threads (fewer if the OS refuses a thread: the
   others do the work); the first failure or the cancel stops them all. */
static int spawn_with_crew(plat_child_group *group, long count, const plat_cancel *cancel,
                           ts_err *err) {
  procs_crew crew = {.group = group, .cancel = cancel, .count = count, .rc = TS_OK};
  atomic_init(&crew.next, 0);
  atomic_init(&crew.stopped, 0);
  plat_mutex_init(&crew.lock);
  plat_thread threads[CREW_THREADS];
  int started = 0;
  ts_err thread_err;
  while (started < CREW_THREADS && plat_thread_start(&threads[started], CREW_STACK_BYTES, crew_main,
                                                     &crew, &thread_err) == TS_OK)
    started++;
  if (started == 0)
    crew_main(&crew); /* no thread to spare: this one does it all */
  for (int i = 0; i < started; i++)
    plat_thread_join(threads[i]);
  plat_mutex_destroy(&crew.lock);
  if (crew.rc != TS_OK)
    *err = crew.err;
  return crew.rc;
}

static int procs_start(const load_part *part, const plat_cancel *cancel, void **instance,
                       ts_err *err) {
  *instance = NULL;
  char dir[PLAT_PATH_MAX], name[64], program[PLAT_PATH_MAX + 80];
  int rc = plat_program_dir(dir, sizeof dir, err);
  if (rc != TS_OK)
    return rc;
  plat_program_name("threadsoup-idle", name, sizeof name);
  snprintf(program, sizeof program, "%s%c%s", dir, plat_path_separator(), name);
  plat_child_group *group;
  rc = plat_child_group_create(&group, program, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "procs");
  uint64_t began = plat_clock_ns();
  if (part->ramp_ns == 0 && part->count >= CREW_MIN_COUNT) {
    rc = spawn_with_crew(group, part->count, cancel, err);
  } else {
    for (long i = 0; rc == TS_OK && i < part->count; i++)
      rc = load_ramp_pause(part, cancel, began, i) ? TS_EINTERRUPTED : spawn_patiently(group, err);
  }
  if (rc != TS_OK) {
    long created = plat_child_group_count(group);
    if (rc == TS_EINTERRUPTED)
      ts_err_set(err, TS_EINTERRUPTED, "procs: interrupted after %ld of %ld processes", created,
                 part->count);
    else
      ts_err_prefix(err, "procs: created %ld of %ld processes, then stopped them all", created,
                    part->count);
    plat_child_group_destroy(group);
    return rc;
  }
  *instance = group;
  return TS_OK;
}

static void procs_stop(void *instance) { plat_child_group_destroy(instance); }

const scenario_def scenario_procs = {
    .name = "procs",
    .help = "COUNT processes that wait forever (threadsoup-idle, the experiment's mode 6); they "
            "end with ThreadSoup, even when it is killed",
    .engine_options = LOAD_TAKES_RAMP,
    .creates_processes = 1,
    .start = procs_start,
    .stop = procs_stop,
};

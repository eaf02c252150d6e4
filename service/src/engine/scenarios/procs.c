/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* procs.c - the procs scenario: N processes that wait forever (the experiment's mode 6, which
   took a batch file starting 15,000 copies). Each is threadsoup-idle, bound to our life: nothing
   survives us, even a kill -9 (see plat child.c). */
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

/* The children are started side by side (load_crew_run) when no ramp paces them. On Linux each
   spawner waits in posix_spawn until its child has exec'd, so one thread left the other cores
   idle and took 1.5 to 2.5 times as long as a fork loop (the floor threadsoup-bench procs
   measures); four keep both cores of a small machine exec'ing. Windows starts them one at a time
   in the group (its creation does not wait for the child), so there the crew changes nothing. */
#define CREW_MEMBERS LOAD_CREW_MAX
#define CREW_MIN_COUNT 64 /* fewer children are not worth a thread */

typedef struct procs_start_ctx {
  const load_part *part;
  const plat_cancel *cancel;
  plat_child_group *group;
  uint64_t began;
} procs_start_ctx;

static int spawn_one(void *ctx, long i, ts_err *err) {
  procs_start_ctx *c = ctx;
  return load_ramp_pause(c->part, c->cancel, c->began, i)
             ? ts_err_set(err, TS_EINTERRUPTED, "interrupted")
             : spawn_patiently(c->group, err);
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
  procs_start_ctx ctx = {.part = part, .cancel = cancel, .group = group, .began = plat_clock_ns()};
  int members = part->ramp_ns == 0 && part->count >= CREW_MIN_COUNT ? CREW_MEMBERS : 1;
  long claimed;
  rc = load_crew_run(part->count, members, spawn_one, &ctx, &claimed, err);
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

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
  for (long i = 0; i < part->count; i++) {
    if (load_ramp_pause(part, cancel, began, i))
      rc = ts_err_set(err, TS_EINTERRUPTED, "procs: interrupted after %ld of %ld processes", i,
                      part->count);
    else
      rc = spawn_patiently(group, err);
    if (rc != TS_OK) {
      if (rc != TS_EINTERRUPTED)
        ts_err_prefix(err, "procs: created %ld of %ld processes, then stopped them all", i,
                      part->count);
      plat_child_group_destroy(group);
      return rc;
    }
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

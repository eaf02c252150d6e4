/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* thaw.c - a freeze's journal around the trials: the programs a condition freezes are recorded
   before its load freezes them and forgotten once they are thawed, and a start of ThreadSoup
   thaws what a crash of both the owner and its guardian left frozen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/freeze.h"
#include "experiment.h"
#include "threadsoup/buf.h"
#include "threadsoup/plat.h"

int experiment_freeze_note(store *s, const load_spec *condition, const plat_peer *asker,
                           ts_err *err) {
  freeze_target targets[FREEZE_TARGET_MAX];
  int count;
  long self = plat_self_pid();
  int rc = store_freeze_forget(s, self, err); /* the previous trial's load has been stopped */
  if (rc == TS_OK)
    rc = freeze_spec_targets(condition, asker, targets, FREEZE_TARGET_MAX, &count, err);
  if (rc != TS_OK || count == 0)
    return rc;
  store_frozen programs[FREEZE_TARGET_MAX];
  for (int i = 0; i < count; i++) {
    programs[i].pid = targets[i].pid;
    snprintf(programs[i].name, sizeof programs[i].name, "%s", targets[i].name);
    programs[i].owner_pid = self;
  }
  char now[32];
  plat_utc_timestamp(now, sizeof now);
  return store_freeze_record(s, programs, count, now, err);
}

void experiment_freeze_forget(store *s) {
  ts_err err;
  store_freeze_forget(s, plat_self_pid(), &err);
}

/* Whether `pid` is a ThreadSoup that still runs (then what it froze is its own to thaw). */
static int owner_alive(long pid) {
  plat_process_census p;
  ts_err err;
  return pid == plat_self_pid() ||
         (plat_census_process(pid, &p, &err) == TS_OK && strncmp(p.name, "threadsoup", 10) == 0);
}

int experiment_thaw_left(store *s, char *said, size_t len, ts_err *err) {
  store_frozen *list;
  int count;
  ts_buf out = ts_buf_on(said, len);
  int rc = store_freeze_list(s, &list, &count, err);
  if (rc != TS_OK)
    return rc;
  long forgotten_owner = -1;
  for (int i = 0; rc == TS_OK && i < count; i++) {
    if (owner_alive(list[i].owner_pid))
      continue;
    plat_process_census p;
    ts_err thaw_err;
    /* A pid used again by another program is not ours to thaw. */
    if (plat_census_process(list[i].pid, &p, &thaw_err) == TS_OK &&
        strcmp(p.name, list[i].name) == 0) {
      if (plat_process_thaw(list[i].pid, &thaw_err) == TS_OK)
        ts_buf_addf(&out, "%sthawed %s (pid %ld), left frozen by ThreadSoup process %ld",
                    out.len ? "; " : "", list[i].name, list[i].pid, list[i].owner_pid);
      else
        ts_buf_addf(&out, "%scould not thaw %s (pid %ld): %s", out.len ? "; " : "", list[i].name,
                    list[i].pid, thaw_err.text);
    }
    if (list[i].owner_pid != forgotten_owner) {
      rc = store_freeze_forget(s, list[i].owner_pid, err);
      forgotten_owner = list[i].owner_pid;
    }
  }
  free(list);
  return rc;
}

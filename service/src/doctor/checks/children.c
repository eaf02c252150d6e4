/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* children.c - the children check: 10 idle children started as `load procs` starts them, every
   new process counted. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../checks.h"
#include "../probe.h"
#include "threadsoup/units.h"

#define CHILDREN 10

void doctor_judge_children(long started, long ours, long hosts, long others, doctor_finding *out) {
  int holds = ours == started && hosts == 0;
  doctor_set(out, holds ? DOCTOR_OK : DOCTOR_FAIL, (double)ours,
             holds   ? ""
             : hosts ? "each idle child got a console host: procs loads and their census count "
                       "twice the processes; use a build that starts children without a console"
                     : "the OS did not show one new process per idle child: the procs "
                       "scenario's counts would be wrong here; report this machine's OS",
             "%ld idle children started: %ld new processes of ours, %ld console hosts "
             "(conhost.exe); %ld other new processes on the machine meanwhile, not ours",
             started, ours, hosts, others);
}

static int listed(const plat_process_census *list, long n, const plat_process_census *p) {
  for (long i = 0; i < n; i++)
    if (list[i].pid == p->pid && strcmp(list[i].name, p->name) == 0)
      return 1;
  return 0;
}

static void check_children(const doctor_context *ctx, doctor_finding *out) {
  (void)ctx;
  char dir[PLAT_PATH_MAX], name[64], program[PLAT_PATH_MAX + 80];
  ts_err err;
  if (plat_program_dir(dir, sizeof dir, &err) != TS_OK) {
    doctor_set(out, DOCTOR_SKIP, NAN, err.text, "the idle child program was not found");
    return;
  }
  plat_program_name("threadsoup-idle", name, sizeof name);
  snprintf(program, sizeof program, "%s%c%s", dir, plat_path_separator(), name);
  if (!plat_file_exists(program)) {
    doctor_set(out, DOCTOR_SKIP, NAN, "install threadsoup-idle beside threadsoup",
               "%s is not there: no idle children to start", program);
    return;
  }
  plat_process_census *before = NULL, *after = NULL;
  long n_before = 0, n_after = 0;
  plat_child_group *group = NULL;
  int rc = plat_census_processes(&before, &n_before, &err);
  if (rc == TS_OK)
    rc = plat_child_group_create(&group, program, &err);
  long started = 0;
  while (rc == TS_OK && started < CHILDREN && (rc = plat_child_group_spawn(group, &err)) == TS_OK)
    started++;
  if (rc == TS_OK) {
    plat_sleep_ns(TS_NS_PER_S); /* a console host comes a moment after its client */
    rc = plat_census_processes(&after, &n_after, &err);
  }
  if (group)
    plat_child_group_destroy(group);
  if (rc != TS_OK) {
    doctor_set(out, DOCTOR_FAIL, NAN, "see the error; `threadsoup load procs --count 10` shows it",
               "could not start and count %d idle children: %s", CHILDREN, err.text);
    free(before);
    free(after);
    return;
  }
  long self = plat_self_pid(), ours = 0, hosts = 0, others = 0;
  for (long i = 0; i < n_after; i++) {
    const plat_process_census *p = &after[i];
    if (listed(before, n_before, p))
      continue;
    int host = strcmp(p->name, "conhost.exe") == 0 || strcmp(p->name, "CONHOST.EXE") == 0;
    int child_of_child = 0;
    for (long j = 0; j < n_after; j++)
      if (after[j].pid == p->parent_pid && after[j].parent_pid == self)
        child_of_child = 1;
    if (host)
      hosts++;
    else if (p->parent_pid == self || child_of_child)
      ours++;
    else
      others++;
  }
  doctor_judge_children(started, ours, hosts, others, out);
  free(before);
  free(after);
}

const doctor_check doctor_check_children = {
    "children", "each idle child is one process, without a console host", DOCTOR_SLOW,
    check_children};

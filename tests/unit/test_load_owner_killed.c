/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_load_owner_killed.c - load never outlives its owner: `threadsoup load` with child
   processes and threads is killed without warning (kill -9, TerminateProcess), and every child
   process it made must be gone soon after, as the OS process list shows. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

#ifdef __linux__
#include <sys/prctl.h>
#include <sys/wait.h>
#endif

static const char *threadsoup_exe;

/* Pids of the live children of `parent` named like `name`. */
static long children_of(long parent, const char *name, long *pids, long max) {
  plat_process_census *list;
  long count = 0, n = 0;
  ts_err err;
  if (plat_census_processes(&list, &count, &err) != TS_OK)
    return -1;
  for (long i = 0; i < count; i++)
    if (list[i].parent_pid == parent && strstr(list[i].name, name) && n < max)
      pids[n++] = list[i].pid;
  free(list);
  return n;
}

static long still_alive(const long *pids, long n) {
  plat_process_census *list;
  long count = 0, alive = 0;
  ts_err err;
  if (plat_census_processes(&list, &count, &err) != TS_OK)
    return -1;
  for (long i = 0; i < count; i++)
    for (long j = 0; j < n; j++)
      if (list[i].pid == pids[j])
        alive++;
  free(list);
  return alive;
}

static void reap_adopted_orphans(void) {
#ifdef __linux__
  /* As subreaper we inherit the orphans; reap them so they do not linger as zombies. */
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
#endif
}

static void children_die_with_killed_owner(void) {
#ifdef __linux__
  prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
  const char *argv[] = {threadsoup_exe, "load",    "procs", "--count", "100", "+",
                        "sleep",        "--count", "200",   "--quiet", NULL};
  plat_proc owner;
  ts_err err;
  CHECK_INT(plat_proc_spawn(&owner, argv, &err), TS_OK);
  long pids[200];
  long n = 0;
  for (int i = 0; i < 300 && n < 100; i++) {
    plat_sleep_ns(100 * TS_NS_PER_MS);
    n = children_of(owner.pid, "threadsoup-idle", pids, 200);
  }
  CHECK_INT(n, 100);
  CHECK_INT(plat_proc_kill(&owner, &err), TS_OK);
  int code = 0;
  CHECK_INT(plat_proc_wait(&owner, &code, &err), TS_OK);
  CHECK_INT(code, 137);
  long alive = n;
  for (int i = 0; i < 100 && alive > 0; i++) {
    plat_sleep_ns(100 * TS_NS_PER_MS);
    reap_adopted_orphans();
    alive = still_alive(pids, n);
  }
  CHECK_INT(alive, 0);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_load_owner_killed PATH-TO-threadsoup\n");
    return 2;
  }
  threadsoup_exe = argv[1];
  RUN_CASE(children_die_with_killed_owner);
  return check_summary();
}

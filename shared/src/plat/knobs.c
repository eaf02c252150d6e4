/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* fault.c - injected OS refusals for tests, shared by both platform halves (as SQLite injects
   faults in its OS layer): the paths that run when the OS refuses a thread or a process are
   tested without exhausting a machine. */
#include "threadsoup/plat.h"

#include <stdatomic.h>

/* Per site: calls numbered from 0 since the last plat_fault_inject; calls whose number lies in
   [first_refused, end_refused) are refused. first_refused < 0 means injection is off. */
typedef struct fault_window {
  atomic_long calls;
  atomic_long first_refused;
  atomic_long end_refused; /* < 0: no end */
} fault_window;

static fault_window windows[PLAT_FAULT_SITES] = {
    [PLAT_FAULT_THREAD_START] = {0, -1, -1},
    [PLAT_FAULT_CHILD_SPAWN] = {0, -1, -1},
    [PLAT_FAULT_CHILD_LOST] = {0, -1, -1},
    [PLAT_FAULT_HIRES_TIMER] = {0, -1, -1},
};

void plat_fault_inject(plat_fault_site site, long successes, long refusals) {
  fault_window *w = &windows[site];
  atomic_store(&w->first_refused, -1); /* off while the window moves */
  atomic_store(&w->calls, 0);
  atomic_store(&w->end_refused, refusals < 0 ? -1 : successes + refusals);
  atomic_store(&w->first_refused, successes < 0 ? -1 : successes);
}

int plat_fault_due(plat_fault_site site) {
  fault_window *w = &windows[site];
  long first = atomic_load(&w->first_refused);
  if (first < 0)
    return 0;
  long call = atomic_fetch_add(&w->calls, 1);
  long end = atomic_load(&w->end_refused);
  return call >= first && (end < 0 || call < end);
}

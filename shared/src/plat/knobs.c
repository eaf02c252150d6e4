/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* knobs.c - the one table of test knobs, shared by both platform halves (as SQLite's OS layer
   keeps its overridable system calls in one table): injected OS refusals, recorded data instead
   of the OS's, a test's registry key instead of the real one, a shorter wait. Tests set a row;
   the code that meets the OS reads it. */
#include "threadsoup/plat_knobs.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdio.h>

#include "threadsoup/plat.h"

typedef enum knob_kind { KNOB_REFUSALS, KNOB_TEXT, KNOB_NUMBER } knob_kind;

typedef struct knob_row {
  const char *name;
  knob_kind kind;
  atomic_int set; /* 0: off, the code meets the real OS */
  /* KNOB_REFUSALS: calls numbered from 0 since the last plat_fault_inject; calls whose number
     lies in [first_refused, end_refused) are refused. */
  atomic_long calls;
  atomic_long first_refused;
  atomic_long end_refused; /* < 0: no end */
  atomic_long number;      /* KNOB_NUMBER */
  char text[PLAT_PATH_MAX];
} knob_row;

static knob_row knobs[PLAT_KNOBS] = {
    [PLAT_FAULT_THREAD_START] = {.name = "refuse-thread-start", .kind = KNOB_REFUSALS},
    [PLAT_FAULT_CHILD_SPAWN] = {.name = "refuse-child-spawn", .kind = KNOB_REFUSALS},
    [PLAT_FAULT_CHILD_LOST] = {.name = "refuse-child-lost", .kind = KNOB_REFUSALS},
    [PLAT_FAULT_HIRES_TIMER] = {.name = "refuse-hires-timer", .kind = KNOB_REFUSALS},
    [PLAT_FAULT_SUSPEND] = {.name = "suspend-seen", .kind = KNOB_REFUSALS},
    [PLAT_FAULT_WAKE_TIMER] = {.name = "refuse-wake-timer", .kind = KNOB_REFUSALS},
    [PLAT_KNOB_CENSUS_SOURCE] = {.name = "census-source", .kind = KNOB_TEXT},
    [PLAT_KNOB_UPDATE_KEY] = {.name = "update-key", .kind = KNOB_TEXT},
    [PLAT_KNOB_UPDATE_SIGNAL_ROOT] = {.name = "update-signal-root", .kind = KNOB_TEXT},
    [PLAT_KNOB_TIMER_COARSEST] = {.name = "timer-coarsest", .kind = KNOB_NUMBER},
    [PLAT_KNOB_TIMER_FINEST] = {.name = "timer-finest", .kind = KNOB_NUMBER},
    [PLAT_KNOB_TIMER_CURRENT] = {.name = "timer-current", .kind = KNOB_NUMBER},
    [PLAT_KNOB_QUIET_CONFIRM_WAIT_MS] = {.name = "quiet-confirm-wait-ms", .kind = KNOB_NUMBER},
    [PLAT_KNOB_INHIBIT_PROGRAM] = {.name = "inhibit-program", .kind = KNOB_TEXT},
    [PLAT_KNOB_ASLEEP_S] = {.name = "asleep-s", .kind = KNOB_NUMBER},
    [PLAT_KNOB_MACHINE_BUSY_PERMILLE] = {.name = "machine-busy-permille", .kind = KNOB_NUMBER},
};

const char *plat_knob_name(plat_knob knob) {
  return (unsigned)knob < PLAT_KNOBS ? knobs[knob].name : "unknown knob";
}

void plat_knob_reset(plat_knob knob) { atomic_store(&knobs[knob].set, 0); }

int plat_knob_is_set(plat_knob knob) { return atomic_load(&knobs[knob].set); }

void plat_knob_set_text(plat_knob knob, const char *text) {
  knob_row *k = &knobs[knob];
  assert(k->kind == KNOB_TEXT);
  atomic_store(&k->set, 0);
  if (text) {
    snprintf(k->text, sizeof k->text, "%s", text);
    atomic_store(&k->set, 1);
  }
}

const char *plat_knob_text(plat_knob knob) {
  return atomic_load(&knobs[knob].set) ? knobs[knob].text : NULL;
}

void plat_knob_set_number(plat_knob knob, long value) {
  knob_row *k = &knobs[knob];
  assert(k->kind == KNOB_NUMBER);
  atomic_store(&k->number, value);
  atomic_store(&k->set, 1);
}

long plat_knob_number(plat_knob knob, long otherwise) {
  return atomic_load(&knobs[knob].set) ? atomic_load(&knobs[knob].number) : otherwise;
}

void plat_fault_inject(plat_fault_site site, long successes, long refusals) {
  knob_row *k = &knobs[site];
  assert(k->kind == KNOB_REFUSALS);
  atomic_store(&k->set, 0); /* off while the window moves */
  if (successes < 0)
    return;
  atomic_store(&k->calls, 0);
  atomic_store(&k->end_refused, refusals < 0 ? -1 : successes + refusals);
  atomic_store(&k->first_refused, successes);
  atomic_store(&k->set, 1);
}

int plat_fault_due(plat_fault_site site) {
  knob_row *k = &knobs[site];
  if (!atomic_load(&k->set))
    return 0;
  long call = atomic_fetch_add(&k->calls, 1);
  long first = atomic_load(&k->first_refused);
  long end = atomic_load(&k->end_refused);
  return call >= first && (end < 0 || call < end);
}

int plat_machine_busy_injected(uint64_t now_ns, uint64_t *busy_ns, uint64_t *total_ns) {
  long permille = plat_knob_number(PLAT_KNOB_MACHINE_BUSY_PERMILLE, -1);
  if (permille < 0)
    return 0;
  /* One CPU's time since the clock's start, of which the knob's share was busy. */
  *total_ns = now_ns;
  *busy_ns = (uint64_t)((double)now_ns * (double)(permille > 1000 ? 1000 : permille) / 1000);
  return 1;
}

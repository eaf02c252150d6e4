/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* spin_probe.h - the doctor's spin against the clock burn counts its spin on: one loop for both
   halves of doctor.c, which differ only in which two clocks they read. */
#ifndef THREADSOUP_PLAT_SPIN_PROBE_H
#define THREADSOUP_PLAT_SPIN_PROBE_H

#include <stdint.h>

/* Two reads a step further apart than this on the wall clock mean the thread did not run
   throughout (preempted, or an interrupt's handler): a step of the loop takes a few µs at most. */
#define PLAT_SPIN_GAP_NS 20000u

/* Reads the wall clock (ns) and the thread's clock (in its own units: ns, or cycles); 0 when
   the thread clock cannot be read. */
typedef int (*plat_spin_read_fn)(void *arg, uint64_t *wall_ns, uint64_t *thread_count);

typedef struct plat_spin_sums {
  uint64_t wall_ns; /* the whole spin */
  uint64_t ran_ns;  /* the wall time of the steps the thread ran through */
  uint64_t counted; /* the thread clock's advance over those steps, in its units */
  long gaps;        /* steps left out */
} plat_spin_sums;

/* Spins, reading both clocks each step, until the thread has run `run_ns` (steps of at most
   PLAT_SPIN_GAP_NS) or `cap_ns` of wall time has passed; steps longer than that are left out of
   both clocks. 0 when a read failed. */
int plat_spin_probe(plat_spin_read_fn read, void *arg, uint64_t run_ns, uint64_t cap_ns,
                    plat_spin_sums *out);

#endif

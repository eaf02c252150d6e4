/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* spin_probe.c - the doctor's spin against burn's clock, counted only where the thread ran
   (see spin_probe.h). */
#include "spin_probe.h"

#include <string.h>

int plat_spin_probe(plat_spin_read_fn read, void *arg, uint64_t run_ns, uint64_t cap_ns,
                    plat_spin_sums *out) {
  memset(out, 0, sizeof *out);
  uint64_t w0, c0;
  if (!read(arg, &w0, &c0))
    return 0;
  uint64_t w = w0, c = c0, pending_w = 0, pending_c = 0;
  int pending = 0;
  /* A preempted thread's clock stops while the wall clock goes on: comparing the two over the
     whole spin would measure the machine's load, not the clock. Only steps the thread ran
     through are compared. A step is counted once the next one shows no gap: a preemption
     between a step's two reads puts the thread's resumed time (the switch back in, the rest of
     the read) in that step but its wall time in the next, so the step before a gap goes too. */
  while (out->ran_ns < run_ns && w - w0 < cap_ns) {
    uint64_t w1, c1;
    if (!read(arg, &w1, &c1))
      return 0;
    uint64_t dw = w1 > w ? w1 - w : 0, dc = c1 > c ? c1 - c : 0;
    if (dw <= PLAT_SPIN_GAP_NS) {
      if (pending) {
        out->ran_ns += pending_w;
        out->counted += pending_c;
      }
      pending = 1;
      pending_w = dw;
      pending_c = dc;
    } else {
      pending = 0;
      out->gaps++;
    }
    w = w1;
    c = c1;
  }
  out->wall_ns = w - w0;
  return 1;
}

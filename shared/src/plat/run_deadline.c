/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* run_deadline.c - when a command run by plat_proc_run must end (see run_deadline.h). */
#include "run_deadline.h"

#include "threadsoup/plat.h"
#include "threadsoup/units.h"

int plat_run_must_stop(const plat_cancel *cancel, uint64_t started, uint64_t timeout_ns,
                       unsigned long *wait_ms) {
  if (plat_cancelled(cancel))
    return TS_EINTERRUPTED;
  if (timeout_ns) {
    uint64_t elapsed = plat_clock_ns() - started;
    if (elapsed >= timeout_ns)
      return TS_EBENCH;
    /* Rounded up: a wait cut short would only spin once more before the deadline. */
    uint64_t left_ms = (timeout_ns - elapsed + TS_NS_PER_MS - 1) / TS_NS_PER_MS;
    if (left_ms < *wait_ms)
      *wait_ms = (unsigned long)left_ms;
  }
  return 0;
}

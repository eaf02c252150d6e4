/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* run_deadline.h - when a command run by plat_proc_run must end: one rule for both halves of
   proc.c, which differ only in how they wait. */
#ifndef THREADSOUP_PLAT_RUN_DEADLINE_H
#define THREADSOUP_PLAT_RUN_DEADLINE_H

#include <stdint.h>

#include "threadsoup/plat.h"

/* TS_EINTERRUPTED after Ctrl+C or `cancel` (may be NULL) was raised, TS_EBENCH when `timeout_ns`
   (0 = none) has passed since `started` (plat_clock_ns), else 0 with *wait_ms cut to the time
   left. */
int plat_run_must_stop(const plat_cancel *cancel, uint64_t started, uint64_t timeout_ns,
                       unsigned long *wait_ms);

#endif

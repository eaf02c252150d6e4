/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* like.h - a load like a real program: how many threads a process has and how often each wakes,
   observed through the census, turned into sleepers and waiters at the same rates. */
#ifndef THREADSOUP_LIKE_H
#define THREADSOUP_LIKE_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "threadsoup/err.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

#define LIKE_MAX_CLASSES 6                       /* sleep classes; a wait part may follow */
#define LIKE_DEFAULT_WINDOW_NS (2 * TS_NS_PER_S) /* how long a process is watched */
#define LIKE_MIN_WINDOW_NS (100 * TS_NS_PER_MS)  /* a shorter window sees too few wake-ups */
#define LIKE_MAX_WINDOW_NS (10 * TS_NS_PER_MIN)

/* Threads that woke at about one rate. */
typedef struct like_class {
  long threads;
  uint64_t interval_ns; /* time between wake-ups, 2 significant digits, at least 1 ms */
} like_class;

/* What a window of observation found, and the load that does the same. */
typedef struct like_result {
  long threads; /* every thread seen at the end of the window */
  long waiters; /* threads that did not switch in the window */
  int class_count;
  like_class classes[LIKE_MAX_CLASSES]; /* fastest first */
  load_spec spec;                       /* sleep:N@I+…+wait:M */
} like_result;

/* The process to imitate. */
typedef struct like_target {
  long pid;
  char name[PLAT_PROCESS_NAME_MAX];
} like_target;

/* Pure: each thread's context switches over window_ns (count of them) become rate classes and the
   load spec. A thread's interval is window_ns / switches; sorted, a new class begins where an
   interval is more than 1.25 times the one before or twice the class's first, and each class
   takes its median interval; the closest neighbouring classes (by ratio) merge until at most
   LIKE_MAX_CLASSES remain. Threads without a switch are waiters. */
int like_group(const uint64_t *switches, long count, uint64_t window_ns, like_result *out,
               ts_err *err);

/* Finds the process `what` names: a PID, or an executable's name (plat_process_name_matches).
   Refuses this process itself, a PID that is not positive, no match and more than one match
   (listing their PIDs). */
int like_find(const char *what, like_target *out, ts_err *err);

/* Counts each thread's switches over window_ns (two censuses; threads that start meanwhile count
   all theirs) and groups them. Ends early with TS_EINTERRUPTED on the process interrupt; fails
   when the process ends during the window. */
int like_observe(const like_target *target, uint64_t window_ns, like_result *out, ts_err *err);

/* "process 1234 (foo): 23 threads in 2 s; 4 wake every ~100ms, 1 every ~1s, 18 waited". */
void like_describe(const like_target *target, const like_result *r, uint64_t window_ns, char *buf,
                   size_t len);

#endif

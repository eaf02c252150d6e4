/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* time.c (POSIX) - clocks, timestamps and the plain sleep the sleep scenario is made of. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "threadsoup/units.h"

uint64_t plat_clock_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * TS_NS_PER_S + (uint64_t)ts.tv_nsec;
}

void plat_sleep_ns(uint64_t ns) {
  struct timespec want = {(time_t)(ns / TS_NS_PER_S), (long)(ns % TS_NS_PER_S)};
  struct timespec left;
  /* A signal may cut the sleep short; finish the rest so the interval stays what was asked. */
  while (nanosleep(&want, &left) != 0 && errno == EINTR)
    want = left;
}

void plat_sleep_until_ns(uint64_t deadline_ns) {
  struct timespec when = {(time_t)(deadline_ns / TS_NS_PER_S), (long)(deadline_ns % TS_NS_PER_S)};
  /* Absolute: a signal or a late wake-up does not shift the next deadline (no drift). */
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, NULL) == EINTR) {
  }
}

int plat_local_time(int64_t t, struct tm *out) {
  time_t tt = (time_t)t;
  return localtime_r(&tt, out) != NULL;
}

void plat_utc_timestamp(char *buf, size_t len) {
  struct timespec ts;
  struct tm tm;
  clock_gettime(CLOCK_REALTIME, &ts);
  gmtime_r(&ts.tv_sec, &tm);
  snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
           tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)(ts.tv_nsec / TS_NS_PER_MS));
}

uint64_t plat_process_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * TS_NS_PER_S + (uint64_t)ts.tv_nsec;
}

uint64_t plat_thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * TS_NS_PER_S + (uint64_t)ts.tv_nsec;
}

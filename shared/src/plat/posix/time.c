/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* time.c (POSIX) - clocks, timestamps, the sleeps the sleep scenario is made of (plain, or with a
   1 ns timer slack for high resolution) and the timer resolution the kernel gives a thread. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

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

/* The signal plat_thread_wake sends: SIGURG, as Go's runtime does for the same purpose. It is
   ignored by default (a stray one harms no thread) and, unlike a realtime signal, does not queue:
   wakes repeated while a thread blocks it leave one pending signal, not one each. */
#define WAKE_SIGNAL SIGURG

static void wake_signal_handler(int signo) { (void)signo; /* only to end the sleep: EINTR */ }

static pthread_once_t wake_handler_once = PTHREAD_ONCE_INIT;

/* Installs the empty handler once: an ignored signal would not end a sleep. No SA_RESTART: an
   interrupted sleep returns EINTR (nanosleep does either way). */
static void install_wake_handler(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = wake_signal_handler;
  sigemptyset(&sa.sa_mask);
  sigaction(WAKE_SIGNAL, &sa, NULL);
}

void plat_sleep_wakeable_enable(void) {
  pthread_once(&wake_handler_once, install_wake_handler);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, WAKE_SIGNAL);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

int plat_sleep_ns_wakeable(uint64_t ns) {
  struct timespec want = {(time_t)(ns / TS_NS_PER_S), (long)(ns % TS_NS_PER_S)};
  return nanosleep(&want, NULL) != 0 && errno == EINTR;
}

int plat_sleep_until_ns_wakeable(uint64_t deadline_ns) {
  struct timespec when = {(time_t)(deadline_ns / TS_NS_PER_S), (long)(deadline_ns % TS_NS_PER_S)};
  return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, NULL) == EINTR;
}

int plat_thread_wake(const plat_thread *thread) {
  pthread_once(&wake_handler_once, install_wake_handler);
  pthread_kill((pthread_t)thread->handle, WAKE_SIGNAL);
  return 0; /* a signal that lands before the sleep begins is spent on nothing */
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

uint64_t plat_thread_spin_ns(void) { return plat_thread_cpu_ns(); }

/* ---- timer resolution ---- */

const char *plat_resolution_name(plat_resolution r) {
  return r == PLAT_RESOLUTION_HIGH ? "high" : "default";
}

int plat_sleeper_init(plat_sleeper *s, plat_resolution want, ts_err *err) {
  (void)err;
  /* Linux's high-resolution timers need no object: the thread's timer slack, set in enter. */
  s->asked = want;
  s->obtained = PLAT_RESOLUTION_DEFAULT;
  s->timer = NULL;
  return TS_OK;
}

int plat_sleeper_enter(plat_sleeper *s, ts_err *err) {
  plat_sleep_wakeable_enable();
  if (s->asked != PLAT_RESOLUTION_HIGH)
    return TS_OK; /* default: the slack the thread inherited, untouched (as the original) */
#ifdef PR_SET_TIMERSLACK
  /* The kernel lets a sleep end up to the timer slack late, to batch wake-ups (50 us unless
     inherited otherwise); 1 ns is the least it takes (0 means "back to the default"). */
  if (plat_fault_due(PLAT_FAULT_HIRES_TIMER))
    return ts_err_set(err, TS_EOS, "cannot set the sleeper's timer slack to 1 ns: %s",
                      strerror(EPERM));
  if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL) != 0)
    return ts_err_set(err, TS_EOS, "cannot set the sleeper's timer slack to 1 ns: %s",
                      strerror(errno));
  s->obtained = PLAT_RESOLUTION_HIGH;
  return TS_OK;
#else
  return ts_err_set(err, TS_EUNSUPPORTED, "this system has no timer slack to lower");
#endif
}

int plat_sleeper_sleep_ns(plat_sleeper *s, uint64_t ns) {
  (void)s; /* the same nanosleep: the slack belongs to the thread */
  return plat_sleep_ns_wakeable(ns);
}

int plat_sleeper_sleep_until_ns(plat_sleeper *s, uint64_t deadline_ns) {
  (void)s;
  return plat_sleep_until_ns_wakeable(deadline_ns);
}

void plat_sleeper_free(plat_sleeper *s) { s->timer = NULL; }

int plat_timer_resolution(plat_timer_info *out, ts_err *err) {
  out->current_us = out->finest_us = out->coarsest_us = out->slack_us = -1;
  snprintf(out->source, sizeof out->source, "clock_getres(CLOCK_MONOTONIC), PR_GET_TIMERSLACK");
  struct timespec res;
  if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
    return ts_err_set(err, TS_EUNSUPPORTED, "clock_getres(CLOCK_MONOTONIC) failed: %s",
                      strerror(errno));
  out->finest_us = ((double)res.tv_sec * 1e9 + (double)res.tv_nsec) / 1e3;
  out->current_us = out->finest_us;
#ifdef PR_GET_TIMERSLACK
  int slack = prctl(PR_GET_TIMERSLACK, 0UL, 0UL, 0UL, 0UL);
  if (slack >= 0) {
    out->slack_us = (double)slack / 1e3;
    if (out->slack_us > out->current_us)
      out->current_us = out->slack_us;
  }
#endif
  return TS_OK;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* wake.c (POSIX) - a timer that wakes a suspended Linux machine for the next schedule: a timerfd
   on CLOCK_REALTIME_ALARM, which the kernel programs into the RTC when the machine suspends. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "threadsoup/plat_knobs.h"
#include "threadsoup/units.h"

struct plat_wake_timer {
  int fd;
  int armed; /* timerfd_gettime of a disarmed alarm timer still gives the old time left */
};

plat_wake_timer *plat_wake_timer_open(char *state, size_t len) {
  int fd = -1, error = EPERM;
  if (!plat_fault_due(PLAT_FAULT_WAKE_TIMER)) {
    fd = timerfd_create(CLOCK_REALTIME_ALARM, TFD_CLOEXEC | TFD_NONBLOCK);
    error = errno;
  }
  if (fd < 0) {
    /* EPERM: the process lacks CAP_WAKE_ALARM (a service not run as root); EINVAL or ENODEV:
       the kernel has no alarm timers (no RTC that can wake, as in many containers). */
    snprintf(state, len, "n/a: %s (timerfd on CLOCK_REALTIME_ALARM: %s)",
             error == EPERM ? "this process may not wake the machine: it needs root or "
                              "CAP_WAKE_ALARM"
                            : "this machine has no alarm timer that can wake it",
             strerror(error));
    return NULL;
  }
  plat_wake_timer *t = calloc(1, sizeof *t);
  if (!t) {
    close(fd);
    snprintf(state, len, "n/a: no memory");
    return NULL;
  }
  t->fd = fd;
  snprintf(state, len, "ready");
  return t;
}

int plat_wake_timer_arm(plat_wake_timer *t, int64_t due_unix, ts_err *err) {
  struct itimerspec at;
  memset(&at, 0, sizeof at);
  /* 0 would disarm the timer: a due time at the epoch is simply one already passed. */
  at.it_value.tv_sec = due_unix > 0 ? (time_t)due_unix : 1;
  if (timerfd_settime(t->fd, TFD_TIMER_ABSTIME, &at, NULL) != 0)
    return ts_err_set(err, TS_EOS, "cannot arm the wake timer for %lld: %s", (long long)due_unix,
                      strerror(errno));
  t->armed = 1;
  return TS_OK;
}

void plat_wake_timer_cancel(plat_wake_timer *t) {
  if (!t)
    return;
  struct itimerspec off;
  memset(&off, 0, sizeof off);
  timerfd_settime(t->fd, 0, &off, NULL);
  t->armed = 0;
}

void plat_wake_timer_close(plat_wake_timer *t) {
  if (!t)
    return;
  plat_wake_timer_cancel(t);
  close(t->fd);
  free(t);
}

int64_t plat_wake_timer_due(const plat_wake_timer *t) {
  struct itimerspec left;
  if (!t || !t->armed || timerfd_gettime(t->fd, &left) != 0)
    return 0;
  if (left.it_value.tv_sec == 0 && left.it_value.tv_nsec == 0)
    return 0;
  /* The kernel gives the time left; the due time is now plus that, to the nearest second. */
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  int64_t due_ns = ((int64_t)now.tv_sec + left.it_value.tv_sec) * (int64_t)TS_NS_PER_S +
                   now.tv_nsec + left.it_value.tv_nsec;
  return (due_ns + (int64_t)TS_NS_PER_S / 2) / (int64_t)TS_NS_PER_S;
}

int plat_wake_timer_wait(plat_wake_timer *t, uint64_t timeout_ns) {
  struct pollfd p = {t->fd, POLLIN, 0};
  uint64_t ms = (timeout_ns + TS_NS_PER_MS - 1) / TS_NS_PER_MS;
  if (poll(&p, 1, ms > 2147483647u ? 2147483647 : (int)ms) != 1)
    return 0;
  uint64_t expirations = 0;
  return read(t->fd, &expirations, sizeof expirations) == (ssize_t)sizeof expirations;
}

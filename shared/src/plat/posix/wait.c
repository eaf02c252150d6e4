/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* wait.c (POSIX) - objects that many threads block on forever, each kind a different kernel wait:
   condition variables, futexes, pipes and epoll. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

struct plat_waitpoint {
  plat_wait_kind kind;
  atomic_int released;
  pthread_mutex_t mutex; /* EVENT, CONDVAR */
  pthread_cond_t cond;
  int pipe_fds[2]; /* CHANNEL: every waiter reads the same pipe; closing [1] ends them all */
  int epoll_fd;    /* QUEUE: every waiter waits in epoll_wait for the eventfd */
  int event_fd;
};

static int os_error(ts_err *err, const char *what) {
  return ts_err_set(err, TS_EOS, "cannot create %s: %s", what, strerror(errno));
}

int plat_waitpoint_create(plat_waitpoint **out, plat_wait_kind kind, long waiters, ts_err *err) {
  (void)waiters; /* one shared object serves any number of waiters here */
  plat_waitpoint *wp = calloc(1, sizeof *wp);
  if (!wp)
    return ts_err_set(err, TS_ENOMEM, "no memory for a waitpoint");
  wp->kind = kind;
  wp->pipe_fds[0] = wp->pipe_fds[1] = wp->epoll_fd = wp->event_fd = -1;
  atomic_init(&wp->released, 0);
  int rc = TS_OK;
  switch (kind) {
  case PLAT_WAIT_EVENT:
  case PLAT_WAIT_CONDVAR:
    pthread_mutex_init(&wp->mutex, NULL);
    pthread_cond_init(&wp->cond, NULL);
    break;
  case PLAT_WAIT_ADDRESS:
    break;
  case PLAT_WAIT_CHANNEL:
    if (pipe2(wp->pipe_fds, O_CLOEXEC) != 0)
      rc = os_error(err, "a pipe");
    break;
  case PLAT_WAIT_QUEUE: {
    wp->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    wp->event_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    struct epoll_event ev = {.events = EPOLLIN, .data = {.fd = wp->event_fd}};
    if (wp->epoll_fd < 0 || wp->event_fd < 0 ||
        epoll_ctl(wp->epoll_fd, EPOLL_CTL_ADD, wp->event_fd, &ev) != 0)
      rc = os_error(err, "an epoll set");
    break;
  }
  }
  if (rc != TS_OK) {
    plat_waitpoint_destroy(wp);
    return rc;
  }
  *out = wp;
  return TS_OK;
}

void plat_waitpoint_wait(plat_waitpoint *wp, long index) {
  (void)index;
  switch (wp->kind) {
  case PLAT_WAIT_EVENT:
  case PLAT_WAIT_CONDVAR:
    pthread_mutex_lock(&wp->mutex);
    while (!atomic_load(&wp->released))
      pthread_cond_wait(&wp->cond, &wp->mutex);
    pthread_mutex_unlock(&wp->mutex);
    break;
  case PLAT_WAIT_ADDRESS:
    /* The futex word is `released`: sleep while it is 0. */
    while (!atomic_load(&wp->released))
      syscall(SYS_futex, &wp->released, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
    break;
  case PLAT_WAIT_CHANNEL: {
    char byte;
    /* read returns 0 once the write end is closed: that is the release. */
    while (read(wp->pipe_fds[0], &byte, 1) != 0 && !atomic_load(&wp->released)) {
    }
    break;
  }
  case PLAT_WAIT_QUEUE: {
    struct epoll_event ev;
    /* Level-triggered: the kernel passes the wake-up on from one waiter to the next. */
    while (!atomic_load(&wp->released))
      epoll_wait(wp->epoll_fd, &ev, 1, -1);
    break;
  }
  }
}

void plat_waitpoint_release(plat_waitpoint *wp) {
  atomic_store(&wp->released, 1);
  switch (wp->kind) {
  case PLAT_WAIT_EVENT:
  case PLAT_WAIT_CONDVAR:
    pthread_mutex_lock(&wp->mutex);
    pthread_cond_broadcast(&wp->cond);
    pthread_mutex_unlock(&wp->mutex);
    break;
  case PLAT_WAIT_ADDRESS:
    syscall(SYS_futex, &wp->released, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
    break;
  case PLAT_WAIT_CHANNEL:
    if (wp->pipe_fds[1] >= 0) {
      close(wp->pipe_fds[1]);
      wp->pipe_fds[1] = -1;
    }
    break;
  case PLAT_WAIT_QUEUE: {
    uint64_t one = 1;
    if (write(wp->event_fd, &one, sizeof one) < 0) {
      /* the counter is already non-zero: readable, which is all we need */
    }
    break;
  }
  }
}

void plat_waitpoint_destroy(plat_waitpoint *wp) {
  if (!wp)
    return;
  if (wp->kind == PLAT_WAIT_EVENT || wp->kind == PLAT_WAIT_CONDVAR) {
    pthread_cond_destroy(&wp->cond);
    pthread_mutex_destroy(&wp->mutex);
  }
  int fds[] = {wp->pipe_fds[0], wp->pipe_fds[1], wp->epoll_fd, wp->event_fd};
  for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
    if (fds[i] >= 0)
      close(fds[i]);
  free(wp);
}

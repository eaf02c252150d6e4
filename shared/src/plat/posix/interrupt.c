/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* interrupt.c (POSIX) - turns SIGINT and SIGTERM into a flag and a readable pipe, so waits end at
   once on Ctrl+C without any polling timer; cancel tokens are the same for one job. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "threadsoup/units.h"

/* Signal handlers can only reach static state; this is all of it. */
static struct {
  volatile sig_atomic_t raised;
  int pipe_fds[2];
  int installed;
} interrupt_state = {0, {-1, -1}, 0};

static void interrupt_signal(int signo) {
  (void)signo;
  int saved = errno;
  interrupt_state.raised = 1;
  /* The pipe is never drained: once raised, every later wait returns at once. */
  if (write(interrupt_state.pipe_fds[1], "!", 1) < 0) {
    /* full pipe: already readable, nothing to do */
  }
  errno = saved;
}

int plat_interrupt_install(ts_err *err) {
  if (interrupt_state.installed)
    return TS_OK;
  if (pipe2(interrupt_state.pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0)
    return ts_err_set(err, TS_EOS, "cannot create the interrupt pipe: %s", strerror(errno));
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = interrupt_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  interrupt_state.installed = 1;
  return TS_OK;
}

int plat_interrupted(void) { return interrupt_state.raised != 0; }

/* Waits up to ns for the interrupt pipe or `extra_fd` (-1: none) to become readable, or `flag` to
   be set; 1 when one of them was. */
static int wait_readable(int extra_fd, const atomic_int *flag, uint64_t ns) {
  /* Saturate: "wait forever" is UINT64_MAX, which must not wrap into a deadline in the past. */
  uint64_t start = plat_clock_ns();
  uint64_t deadline = ns > UINT64_MAX - start ? UINT64_MAX : start + ns;
  for (;;) {
    if (interrupt_state.raised || (flag && atomic_load(flag)))
      return 1;
    uint64_t now = plat_clock_ns();
    if (now >= deadline)
      return 0;
    /* Round up so a sub-millisecond remainder does not spin. */
    uint64_t left_ms = (deadline - now + TS_NS_PER_MS - 1) / TS_NS_PER_MS;
    struct pollfd pfd[2] = {{interrupt_state.pipe_fds[0], POLLIN, 0}, {extra_fd, POLLIN, 0}};
    nfds_t count = extra_fd >= 0 ? 2 : 1;
    if (!interrupt_state.installed) {
      pfd[0] = pfd[1];
      count = extra_fd >= 0 ? 1 : 0;
    }
    int rc = poll(pfd, count, left_ms > 2000000000u ? 2000000000 : (int)left_ms);
    if (rc > 0)
      return 1;
  }
}

int plat_interrupt_wait(uint64_t ns) {
  if (!interrupt_state.installed) {
    plat_sleep_ns(ns);
    return 0;
  }
  return wait_readable(-1, NULL, ns);
}

struct plat_cancel {
  atomic_int raised;
  int pipe_fds[2]; /* written once when raised, never drained: later waits return at once */
};

int plat_cancel_create(plat_cancel **out, ts_err *err) {
  plat_cancel *c = calloc(1, sizeof *c);
  if (!c)
    return ts_err_set(err, TS_ENOMEM, "no memory for a cancel token");
  if (pipe2(c->pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    int saved = errno;
    free(c);
    return ts_err_set(err, TS_EOS, "cannot create a cancel token's pipe: %s", strerror(saved));
  }
  atomic_init(&c->raised, 0);
  *out = c;
  return TS_OK;
}

void plat_cancel_destroy(plat_cancel *c) {
  if (!c)
    return;
  close(c->pipe_fds[0]);
  close(c->pipe_fds[1]);
  free(c);
}

void plat_cancel_raise(plat_cancel *c) {
  if (c && !atomic_exchange(&c->raised, 1) && write(c->pipe_fds[1], "!", 1) < 0) {
    /* cannot fail on a new non-blocking pipe; the flag alone still ends the next wait */
  }
}

int plat_cancelled(const plat_cancel *c) {
  return plat_interrupted() || (c && atomic_load(&c->raised));
}

int plat_cancel_wait(const plat_cancel *c, uint64_t ns) {
  if (!c)
    return plat_interrupt_wait(ns);
  return wait_readable(c->pipe_fds[0], &c->raised, ns);
}

void plat_interrupt_raise(void) { interrupt_signal(0); }

void plat_interrupt_reset(void) {
  char drain[64];
  interrupt_state.raised = 0;
  if (interrupt_state.installed)
    while (read(interrupt_state.pipe_fds[0], drain, sizeof drain) > 0) {
    }
}

/* SIGHUP (the terminal closed) only raises the interrupt: nothing ends the process meanwhile, so
   the program restores quiet mode on its way out and nothing needs holding. */
void plat_interrupt_hold(void) {}

void plat_interrupt_settled(void) {}

void plat_interrupt_as_service(void) {}

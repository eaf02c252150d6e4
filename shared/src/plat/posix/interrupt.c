/* interrupt.c (POSIX) - turns SIGINT and SIGTERM into a flag and a readable pipe, so waits end at
   once on Ctrl+C without any polling timer. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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

int plat_interrupt_wait(uint64_t ns) {
  if (!interrupt_state.installed) {
    plat_sleep_ns(ns);
    return 0;
  }
  /* Saturate: "wait forever" is UINT64_MAX, which must not wrap into a deadline in the past. */
  uint64_t start = plat_clock_ns();
  uint64_t deadline = ns > UINT64_MAX - start ? UINT64_MAX : start + ns;
  for (;;) {
    if (interrupt_state.raised)
      return 1;
    uint64_t now = plat_clock_ns();
    if (now >= deadline)
      return 0;
    /* Round up so a sub-millisecond remainder does not spin. */
    uint64_t left_ms = (deadline - now + TS_NS_PER_MS - 1) / TS_NS_PER_MS;
    struct pollfd pfd = {interrupt_state.pipe_fds[0], POLLIN, 0};
    int rc = poll(&pfd, 1, left_ms > 2000000000u ? 2000000000 : (int)left_ms);
    if (rc > 0)
      return 1;
  }
}

void plat_interrupt_raise(void) { interrupt_signal(0); }

void plat_interrupt_reset(void) {
  char drain[64];
  interrupt_state.raised = 0;
  if (interrupt_state.installed)
    while (read(interrupt_state.pipe_fds[0], drain, sizeof drain) > 0) {
    }
}

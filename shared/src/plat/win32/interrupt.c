/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* interrupt.c (Windows) - turns Ctrl+C, Ctrl+Break and console close into a flag and an event, so
   waits end at once without any polling timer; cancel tokens are the same for one job. */
#include "threadsoup/plat.h"

#include "threadsoup/units.h"
#include "win32.h"

#include <stdlib.h>

/* The console handler runs on a thread of its own and can only reach static state. */
static struct {
  volatile LONG raised;
  HANDLE event;
  HANDLE settled;        /* manual reset; reset while the program has something to restore */
  volatile LONG service; /* plat_interrupt_as_service */
} interrupt_state;

static BOOL WINAPI interrupt_console_handler(DWORD type) {
  switch (type) {
  case CTRL_C_EVENT:
  case CTRL_BREAK_EVENT:
    plat_interrupt_raise();
    return TRUE;
  case CTRL_LOGOFF_EVENT:
  case CTRL_SHUTDOWN_EVENT:
    /* A service gets these for every user's logoff and at shutdown; the SCM's controls are its
       way to stop. */
    if (InterlockedCompareExchange(&interrupt_state.service, 0, 0))
      return FALSE;
    /* fall through */
  case CTRL_CLOSE_EVENT:
    plat_interrupt_raise();
    /* Returning lets Windows end the process: first give the program, which is interrupted now,
       its chance to restore quiet mode, within the close's allowance of about 5 s. */
    if (interrupt_state.settled)
      WaitForSingleObject(interrupt_state.settled, PLAT_CLOSE_ALLOWANCE_MS);
    return TRUE;
  default:
    return FALSE;
  }
}

void plat_interrupt_hold(void) {
  if (interrupt_state.settled)
    ResetEvent(interrupt_state.settled);
}

void plat_interrupt_settled(void) {
  if (interrupt_state.settled)
    SetEvent(interrupt_state.settled);
}

void plat_interrupt_as_service(void) { InterlockedExchange(&interrupt_state.service, 1); }

int plat_interrupt_install(ts_err *err) {
  if (interrupt_state.event)
    return TS_OK;
  /* Manual reset: once raised, every later wait returns at once. */
  interrupt_state.event = CreateEventW(NULL, TRUE, FALSE, NULL);
  /* Set: nothing to wait for until a program holds it. */
  interrupt_state.settled = CreateEventW(NULL, TRUE, TRUE, NULL);
  if (!interrupt_state.event)
    return ts_err_set(err, TS_EOS, "cannot create the interrupt event (error %lu)",
                      (unsigned long)GetLastError());
  SetConsoleCtrlHandler(interrupt_console_handler, TRUE);
  return TS_OK;
}

int plat_interrupted(void) { return InterlockedCompareExchange(&interrupt_state.raised, 0, 0); }

/* Waits up to ns for the interrupt event or `extra` (NULL: none), or for `flag` to be set; 1 when
   one of them was. */
static int wait_signalled(HANDLE extra, volatile LONG *flag, uint64_t ns) {
  /* Saturate: "wait forever" is UINT64_MAX, which must not wrap into a deadline in the past. */
  uint64_t start = plat_clock_ns();
  uint64_t deadline = ns > UINT64_MAX - start ? UINT64_MAX : start + ns;
  HANDLE handles[2];
  DWORD count = 0;
  if (interrupt_state.event)
    handles[count++] = interrupt_state.event;
  if (extra)
    handles[count++] = extra;
  for (;;) {
    if (plat_interrupted() || (flag && InterlockedCompareExchange(flag, 0, 0)))
      return 1;
    uint64_t now = plat_clock_ns();
    if (now >= deadline)
      return 0;
    uint64_t left_ms = (deadline - now + TS_NS_PER_MS - 1) / TS_NS_PER_MS;
    DWORD wait = left_ms > 0xFFFFFFFEu ? 0xFFFFFFFEu : (DWORD)left_ms;
    if (count == 0) {
      Sleep(wait);
      continue;
    }
    DWORD rc = WaitForMultipleObjects(count, handles, FALSE, wait);
    if (rc < WAIT_OBJECT_0 + count)
      return 1;
  }
}

int plat_interrupt_wait(uint64_t ns) {
  if (!interrupt_state.event) {
    plat_sleep_ns(ns);
    return 0;
  }
  return wait_signalled(NULL, NULL, ns);
}

struct plat_cancel {
  volatile LONG raised;
  HANDLE event; /* manual reset, set once when raised: later waits return at once */
};

int plat_cancel_create(plat_cancel **out, ts_err *err) {
  plat_cancel *c = calloc(1, sizeof *c);
  if (!c)
    return ts_err_set(err, TS_ENOMEM, "no memory for a cancel token");
  c->event = CreateEventW(NULL, TRUE, FALSE, NULL);
  if (!c->event) {
    DWORD code = GetLastError();
    free(c);
    return ts_err_set(err, TS_EOS, "cannot create a cancel token's event (error %lu)",
                      (unsigned long)code);
  }
  *out = c;
  return TS_OK;
}

void plat_cancel_destroy(plat_cancel *c) {
  if (!c)
    return;
  CloseHandle(c->event);
  free(c);
}

void plat_cancel_raise(plat_cancel *c) {
  if (!c)
    return;
  InterlockedExchange(&c->raised, 1);
  SetEvent(c->event);
}

int plat_cancelled(const plat_cancel *c) {
  return plat_interrupted() || (c && InterlockedCompareExchange((volatile LONG *)&c->raised, 0, 0));
}

int plat_cancel_wait(const plat_cancel *c, uint64_t ns) {
  if (!c)
    return plat_interrupt_wait(ns);
  return wait_signalled(c->event, (volatile LONG *)&c->raised, ns);
}

void plat_interrupt_raise(void) {
  InterlockedExchange(&interrupt_state.raised, 1);
  if (interrupt_state.event)
    SetEvent(interrupt_state.event);
}

void plat_interrupt_reset(void) {
  InterlockedExchange(&interrupt_state.raised, 0);
  if (interrupt_state.event)
    ResetEvent(interrupt_state.event);
}

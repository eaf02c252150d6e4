/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* wake.c (Windows) - a timer that wakes a sleeping PC for the next schedule: a waitable timer
   set for an absolute UTC time with fResume, which Windows honours where the power plan's "Allow
   wake timers" and the firmware let it. */
#include "threadsoup/plat.h"

#include <stdio.h>
#include <stdlib.h>

#include "threadsoup/plat_knobs.h"
#include "threadsoup/units.h"
#include "win32.h"

struct plat_wake_timer {
  HANDLE timer;
  int64_t due; /* the time last armed: Windows does not give it back */
};

/* 100 ns intervals between 1601-01-01 (FILETIME) and 1970-01-01. */
#define FILETIME_UNIX_EPOCH 116444736000000000LL

plat_wake_timer *plat_wake_timer_open(char *state, size_t len) {
  if (plat_fault_due(PLAT_FAULT_WAKE_TIMER)) {
    snprintf(state, len, "n/a: this process may not wake the machine (injected)");
    return NULL;
  }
  plat_wake_timer *t = calloc(1, sizeof *t);
  if (!t) {
    snprintf(state, len, "n/a: no memory");
    return NULL;
  }
  /* Manual reset: the timer stays signalled once its time has passed, so a test or a waiter
     that looks late still sees it fired. */
  t->timer = CreateWaitableTimerExW(NULL, NULL, CREATE_WAITABLE_TIMER_MANUAL_RESET,
                                    TIMER_MODIFY_STATE | SYNCHRONIZE);
  if (!t->timer) {
    char text[200];
    win32_error_text(GetLastError(), text, sizeof text);
    snprintf(state, len, "n/a: CreateWaitableTimerExW failed: %s", text);
    free(t);
    return NULL;
  }
  snprintf(state, len, "ready");
  return t;
}

int plat_wake_timer_arm(plat_wake_timer *t, int64_t due_unix, ts_err *err) {
  /* A positive due time is absolute, in UTC: it is not pushed back by the time asleep, as a
     relative one is since Windows 8. */
  LARGE_INTEGER at;
  at.QuadPart = FILETIME_UNIX_EPOCH + (due_unix > 0 ? due_unix : 1) * 10000000LL;
  SetLastError(NO_ERROR);
  if (!SetWaitableTimer(t->timer, &at, 0, NULL, NULL, TRUE)) {
    char text[200];
    win32_error_text(GetLastError(), text, sizeof text);
    t->due = 0;
    return ts_err_set(err, TS_EOS, "cannot arm the wake timer: SetWaitableTimer failed: %s", text);
  }
  t->due = due_unix;
  /* Set, but the machine cannot be woken by it (SetWaitableTimer's documentation). */
  if (GetLastError() == ERROR_NOT_SUPPORTED)
    return ts_err_set(err, TS_EUNSUPPORTED,
                      "this PC cannot wake by timer (SetWaitableTimer: ERROR_NOT_SUPPORTED): "
                      "a schedule due while it sleeps runs when it wakes");
  return TS_OK;
}

void plat_wake_timer_cancel(plat_wake_timer *t) {
  if (!t)
    return;
  CancelWaitableTimer(t->timer);
  t->due = 0;
}

void plat_wake_timer_close(plat_wake_timer *t) {
  if (!t)
    return;
  CancelWaitableTimer(t->timer);
  CloseHandle(t->timer);
  free(t);
}

int64_t plat_wake_timer_due(const plat_wake_timer *t) {
  if (!t || t->due == 0 || WaitForSingleObject(t->timer, 0) == WAIT_OBJECT_0)
    return 0;
  return t->due;
}

int plat_wake_timer_wait(plat_wake_timer *t, uint64_t timeout_ns) {
  uint64_t ms = (timeout_ns + TS_NS_PER_MS - 1) / TS_NS_PER_MS;
  return WaitForSingleObject(t->timer, ms >= INFINITE ? INFINITE - 1 : (DWORD)ms) == WAIT_OBJECT_0;
}

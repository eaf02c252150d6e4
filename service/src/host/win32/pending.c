/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* pending.c (Windows) - the checkpoint reporter of pending.h: one thread per pending start or
   stop, waiting on an event with a timeout (no timer, no thread at all while the service runs or
   is idle). */
#include "pending.h"

void host_pending_init(host_pending *p, host_pending_report report) {
  ZeroMemory(p, sizeof *p);
  InitializeSRWLock(&p->lock);
  p->report = report;
  p->interval_ms = HOST_PENDING_INTERVAL_MS;
  p->wait_hint_ms = HOST_PENDING_WAIT_HINT_MS;
  p->cap_ms = HOST_PENDING_CAP_MS;
}

typedef struct reporter_args {
  host_pending *p;
  HANDLE done;
  unsigned long state;
  ULONGLONG started_ms;
} reporter_args;

/* Until `done` is set: a checkpoint every interval, for at most cap_ms since the begin. */
static DWORD WINAPI reporter(LPVOID arg) {
  reporter_args a = *(reporter_args *)arg;
  HeapFree(GetProcessHeap(), 0, arg);
  while (WaitForSingleObject(a.done, a.p->interval_ms) == WAIT_TIMEOUT) {
    if (GetTickCount64() - a.started_ms >= a.p->cap_ms)
      break; /* stuck: let the checkpoint stand still, as a hung service's would */
    a.p->report(a.state, a.p->wait_hint_ms);
  }
  return 0;
}

/* Stops the running reporter; the lock is held. */
static void stop_reporter(host_pending *p) {
  if (!p->thread)
    return;
  SetEvent(p->done);
  WaitForSingleObject(p->thread, INFINITE);
  CloseHandle(p->thread);
  CloseHandle(p->done);
  p->thread = p->done = NULL;
  p->state = 0;
}

void host_pending_begin(host_pending *p, unsigned long state) {
  AcquireSRWLockExclusive(&p->lock);
  if (p->thread && p->state == state) {
    ReleaseSRWLockExclusive(&p->lock);
    return;
  }
  stop_reporter(p);
  p->report(state, p->wait_hint_ms);
  p->state = state;
  p->started_ms = GetTickCount64();
  reporter_args *a = HeapAlloc(GetProcessHeap(), 0, sizeof *a);
  p->done = CreateEventW(NULL, TRUE, FALSE, NULL);
  if (a && p->done) {
    *a = (reporter_args){p, p->done, state, p->started_ms};
    p->thread = CreateThread(NULL, 64 * 1024, reporter, a, STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
  }
  /* Without a thread the one report above stands: the SCM waits its wait hint, as before. */
  if (!p->thread) {
    if (a)
      HeapFree(GetProcessHeap(), 0, a);
    if (p->done)
      CloseHandle(p->done);
    p->done = NULL;
  }
  ReleaseSRWLockExclusive(&p->lock);
}

void host_pending_end(host_pending *p) {
  AcquireSRWLockExclusive(&p->lock);
  stop_reporter(p);
  ReleaseSRWLockExclusive(&p->lock);
}

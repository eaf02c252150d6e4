/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* wait.c (Windows) - objects that many threads block on forever, each kind a different kernel wait
   as Process Explorer shows it: an event (Wait:UserRequest), a condition variable and
   WaitOnAddress (Wait:WrAlertByThreadId), a pipe read, an I/O completion port (Wait:WrQueue). */
#include "threadsoup/plat.h"

#include <stdlib.h>

#include "win32.h"

struct plat_waitpoint {
  plat_wait_kind kind;
  long waiters;
  volatile LONG released;
  HANDLE event; /* EVENT */
  SRWLOCK lock; /* CONDVAR */
  CONDITION_VARIABLE cond;
  HANDLE port; /* QUEUE */
  /* CHANNEL: a pipe per waiter, since synchronous reads of one pipe handle queue up behind each
     other in the I/O manager instead of each waiting in the pipe. */
  HANDLE *pipe_read;
  HANDLE *pipe_write;
};

static int os_error(ts_err *err, const char *what) {
  char text[256];
  win32_error_text(GetLastError(), text, sizeof text);
  return ts_err_set(err, TS_EOS, "cannot create %s: %s", what, text);
}

int plat_waitpoint_create(plat_waitpoint **out, plat_wait_kind kind, long waiters, ts_err *err) {
  plat_waitpoint *wp = calloc(1, sizeof *wp);
  if (!wp)
    return ts_err_set(err, TS_ENOMEM, "no memory for a waitpoint");
  wp->kind = kind;
  wp->waiters = waiters;
  int rc = TS_OK;
  switch (kind) {
  case PLAT_WAIT_EVENT:
    wp->event = CreateEventW(NULL, TRUE, FALSE, NULL);
    if (!wp->event)
      rc = os_error(err, "an event");
    break;
  case PLAT_WAIT_CONDVAR:
    InitializeSRWLock(&wp->lock);
    InitializeConditionVariable(&wp->cond);
    break;
  case PLAT_WAIT_ADDRESS:
    break;
  case PLAT_WAIT_CHANNEL:
    wp->pipe_read = calloc((size_t)waiters, sizeof(HANDLE));
    wp->pipe_write = calloc((size_t)waiters, sizeof(HANDLE));
    if (!wp->pipe_read || !wp->pipe_write) {
      rc = ts_err_set(err, TS_ENOMEM, "no memory for %ld pipes", waiters);
      break;
    }
    for (long i = 0; i < waiters && rc == TS_OK; i++)
      if (!CreatePipe(&wp->pipe_read[i], &wp->pipe_write[i], NULL, 1))
        rc = os_error(err, "a pipe");
    break;
  case PLAT_WAIT_QUEUE:
    wp->port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, NULL, 0, 1);
    if (!wp->port)
      rc = os_error(err, "an I/O completion port");
    break;
  }
  if (rc != TS_OK) {
    plat_waitpoint_destroy(wp);
    return rc;
  }
  *out = wp;
  return TS_OK;
}

void plat_waitpoint_wait(plat_waitpoint *wp, long index) {
  switch (wp->kind) {
  case PLAT_WAIT_EVENT:
    WaitForSingleObject(wp->event, INFINITE);
    break;
  case PLAT_WAIT_CONDVAR:
    AcquireSRWLockExclusive(&wp->lock);
    while (!wp->released)
      SleepConditionVariableSRW(&wp->cond, &wp->lock, INFINITE, 0);
    ReleaseSRWLockExclusive(&wp->lock);
    break;
  case PLAT_WAIT_ADDRESS: {
    LONG zero = 0;
    while (!InterlockedCompareExchange(&wp->released, 0, 0))
      WaitOnAddress(&wp->released, &zero, sizeof zero, INFINITE);
    break;
  }
  case PLAT_WAIT_CHANNEL: {
    char byte;
    DWORD got;
    /* Fails with ERROR_BROKEN_PIPE once the write end is closed: that is the release. */
    while (ReadFile(wp->pipe_read[index], &byte, 1, &got, NULL) && got > 0) {
    }
    break;
  }
  case PLAT_WAIT_QUEUE: {
    DWORD bytes;
    ULONG_PTR key;
    OVERLAPPED *overlapped;
    GetQueuedCompletionStatus(wp->port, &bytes, &key, &overlapped, INFINITE);
    break;
  }
  }
}

void plat_waitpoint_release(plat_waitpoint *wp) {
  InterlockedExchange(&wp->released, 1);
  switch (wp->kind) {
  case PLAT_WAIT_EVENT:
    SetEvent(wp->event);
    break;
  case PLAT_WAIT_CONDVAR:
    AcquireSRWLockExclusive(&wp->lock);
    ReleaseSRWLockExclusive(&wp->lock);
    WakeAllConditionVariable(&wp->cond);
    break;
  case PLAT_WAIT_ADDRESS:
    WakeByAddressAll((void *)&wp->released);
    break;
  case PLAT_WAIT_CHANNEL:
    for (long i = 0; i < wp->waiters; i++)
      if (wp->pipe_write[i]) {
        CloseHandle(wp->pipe_write[i]);
        wp->pipe_write[i] = NULL;
      }
    break;
  case PLAT_WAIT_QUEUE:
    /* One packet per waiter: a completion port wakes exactly one thread per packet. */
    for (long i = 0; i < wp->waiters; i++)
      PostQueuedCompletionStatus(wp->port, 0, 0, NULL);
    break;
  }
}

void plat_waitpoint_destroy(plat_waitpoint *wp) {
  if (!wp)
    return;
  if (wp->event)
    CloseHandle(wp->event);
  if (wp->port)
    CloseHandle(wp->port);
  for (long i = 0; i < wp->waiters; i++) {
    if (wp->pipe_read && wp->pipe_read[i])
      CloseHandle(wp->pipe_read[i]);
    if (wp->pipe_write && wp->pipe_write[i])
      CloseHandle(wp->pipe_write[i]);
  }
  free(wp->pipe_read);
  free(wp->pipe_write);
  free(wp);
}

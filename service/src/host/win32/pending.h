/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* pending.h (Windows) - the service's checkpoints while it starts or stops: a thread that exists
   only while the service is START_PENDING or STOP_PENDING and reports an advancing checkpoint
   with an honest wait hint, so the Service Control Manager (and `threadsoup service start|stop`)
   see progress through slow work such as restoring quiet mode. The status call is a parameter:
   the host passes SetServiceStatus, a test passes a recorder (the test boundary of the host). */
#ifndef THREADSOUP_HOST_PENDING_H
#define THREADSOUP_HOST_PENDING_H

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

/* A checkpoint at least this often while pending... */
#define HOST_PENDING_INTERVAL_MS 2000
/* ...each promising the next within this wait hint (the SERVICE_STATUS contract)... */
#define HOST_PENDING_WAIT_HINT_MS 10000
/* ...for at most this long: a start or stop stuck longer stops advancing, and the SCM (and the
   CLI) may then treat it as hung. */
#define HOST_PENDING_CAP_MS (5 * 60 * 1000)

/* Called with state (SERVICE_START_PENDING or SERVICE_STOP_PENDING) and a wait hint; it
   increments the checkpoint itself (report_status in host.c). */
typedef void (*host_pending_report)(unsigned long state, unsigned long wait_hint_ms);

typedef struct host_pending {
  host_pending_report report;
  unsigned long interval_ms, wait_hint_ms, cap_ms;
  /* Private to pending.c. */
  SRWLOCK lock; /* guards thread, done and state against begin and end from other threads */
  HANDLE thread, done;
  unsigned long state;
  ULONGLONG started_ms;
} host_pending;

/* Sets the defaults above and the report function; no thread yet. */
void host_pending_init(host_pending *p, host_pending_report report);
/* Reports `state` at once and starts the reporter thread; when one already runs for the same
   state it only goes on (a stop asked for twice), for another state it is replaced. Safe from
   any thread. */
void host_pending_begin(host_pending *p, unsigned long state);
/* Ends the reporter and waits until it has made its last report: after this returns, nothing
   reports until the next begin. Safe to call when none runs. */
void host_pending_end(host_pending *p);

#endif

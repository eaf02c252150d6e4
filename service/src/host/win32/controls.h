/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* controls.h (Windows) - the Service Control Manager's controls the service accepts and what
   each one asks of the server, as one table (controls.c) the control handler looks up: the test
   boundary of the handler, since Windows lets no program send power or time-change controls
   (ControlService takes only the standard stop, pause and interrogate codes and user codes
   128-255). */
#ifndef THREADSOUP_HOST_CONTROLS_H
#define THREADSOUP_HOST_CONTROLS_H

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

/* What the server is asked to do. */
typedef enum host_control_action {
  HOST_CONTROL_NOTHING, /* answered NO_ERROR, nothing to do (interrogate, other power events) */
  HOST_CONTROL_STOP,    /* server_request_stop */
  HOST_CONTROL_CLOCK    /* server_clock_changed: the scheduler reads the clock again */
} host_control_action;

/* A row matches every event type of its control. */
#define HOST_ANY_EVENT ((DWORD)-1)

typedef struct host_control {
  DWORD control; /* SERVICE_CONTROL_… */
  DWORD event;   /* the handler's dwEventType (PBT_… for power events), or HOST_ANY_EVENT */
  DWORD accept;  /* the SERVICE_ACCEPT_… bit that makes the SCM send it (0: always sent) */
  host_control_action action;
  const char *why; /* for the server's log and a stopped run's reason */
} host_control;

/* The first row for `control` and `event`, or NULL: the handler answers
   ERROR_CALL_NOT_IMPLEMENTED. */
const host_control *host_control_find(DWORD control, DWORD event);
/* The SERVICE_ACCEPT_… bits of every row, for a running service's status. */
DWORD host_controls_accepted(void);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* power.h (Windows) - suspend and resume notifications for the service run in a console
   (`threadsoup service run --console`): the SCM sends the service its power controls
   (controls.c), a console process gets none, so it registers for them itself. What a
   notification does is the controls table's, as for the service; host_power_event is the test
   boundary that a test delivers a resume through. */
#ifndef THREADSOUP_HOST_POWER_H
#define THREADSOUP_HOST_POWER_H

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <stddef.h>

#include "controls.h"

/* Where suspend and resume notifications are registered for (Windows 8 and later). */
#define HOST_POWER_LIBRARY L"powrprof.dll"

/* Called with the controls table's `why` when a notification asks the server to read the clock
   again: on the notification's own thread, so it must not block. */
typedef void host_power_sink(const char *why);

/* powerbase.h's DEVICE_NOTIFY_SUBSCRIBE_PARAMETERS, which MinGW's headers lack, under a name of
   our own. */
typedef struct host_power_subscription {
  ULONG(CALLBACK *callback)(PVOID context, ULONG type, PVOID setting);
  PVOID context;
} host_power_subscription;

typedef struct host_power {
  host_power_sink *sink;
  HMODULE library;
  HANDLE registration;                  /* HPOWERNOTIFY; NULL while not registered */
  host_power_subscription subscription; /* Windows keeps a pointer to it while registered */
} host_power;

/* Registers for suspend and resume notifications with `library`'s (HOST_POWER_LIBRARY)
   PowerRegisterSuspendResumeNotification, looked up at run time; 1 when registered. 0 when this
   system cannot tell a console process of them: `why` then says "no power events in console
   mode on this system" and what was missing. The sink is also what host_power_event calls. */
int host_power_open(host_power *p, const wchar_t *library, host_power_sink *sink, char *why,
                    size_t len);
/* Unregisters (nothing to do when not registered); the sink is not called after it returns. */
void host_power_close(host_power *p);
/* What one notification of `type` (PBT_APMSUSPEND, PBT_APMRESUMEAUTOMATIC,
   PBT_APMRESUMESUSPEND) does: the controls table's action for a power event of that type, the
   sink called when it is HOST_CONTROL_CLOCK. */
host_control_action host_power_event(host_power *p, ULONG type);

#endif

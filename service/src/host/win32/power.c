/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* power.c (Windows) - suspend and resume notifications for the service run in a console
   (power.h): a resume wakes the scheduler as the service's resume control does. */
#include "power.h"

#include <stdio.h>
#include <string.h>

#include <winsvc.h>

/* powerbase.h's DEVICE_NOTIFY_CALLBACK: the recipient is a subscription (a callback and its
   context), not a window. */
#define HOST_POWER_NOTIFY_CALLBACK 2

typedef DWORD(WINAPI *register_fn)(DWORD flags, HANDLE recipient, HANDLE *registration);
typedef DWORD(WINAPI *unregister_fn)(HANDLE registration);

host_control_action host_power_event(host_power *p, ULONG type) {
  /* The same rows as the service's SERVICE_CONTROL_POWEREVENT: a resume, automatic (a wake timer
     with nobody at the PC) or with a user back, makes the scheduler read the clock again; a
     suspend needs nothing. */
  const host_control *row = host_control_find(SERVICE_CONTROL_POWEREVENT, type);
  if (!row)
    return HOST_CONTROL_NOTHING;
  if (row->action == HOST_CONTROL_CLOCK && p->sink)
    p->sink(row->why);
  return row->action;
}

/* Called by Windows on a thread of its own for each suspend and resume. */
static ULONG CALLBACK on_suspend_resume(PVOID context, ULONG type, PVOID setting) {
  (void)setting;
  host_power_event(context, type);
  return ERROR_SUCCESS;
}

/* The function `name` of p's library, as a pointer of the caller's type (memcpy: a
   function-pointer cast without -Wcast-function-type). */
static int look_up(const host_power *p, const char *name, void *fn, size_t size) {
  FARPROC proc = GetProcAddress(p->library, name);
  memcpy(fn, &proc, size);
  return proc != NULL;
}

int host_power_open(host_power *p, const wchar_t *library, host_power_sink *sink, char *why,
                    size_t len) {
  memset(p, 0, sizeof *p);
  p->sink = sink;
  why[0] = '\0';
  /* From the system folder only: a DLL of that name beside the program is not loaded. */
  p->library = LoadLibraryExW(library, NULL, LOAD_LIBRARY_SEARCH_SYSTEM32);
  if (!p->library) {
    snprintf(why, len,
             "no power events in console mode on this system: %ls cannot be loaded (error %lu)",
             library, (unsigned long)GetLastError());
    return 0;
  }
  register_fn subscribe;
  if (!look_up(p, "PowerRegisterSuspendResumeNotification", &subscribe, sizeof subscribe)) {
    snprintf(why, len,
             "no power events in console mode on this system: %ls has no "
             "PowerRegisterSuspendResumeNotification (Windows 8 and later)",
             library);
    host_power_close(p);
    return 0;
  }
  p->subscription.callback = on_suspend_resume;
  p->subscription.context = p;
  HANDLE registration = NULL;
  DWORD rc = subscribe(HOST_POWER_NOTIFY_CALLBACK, &p->subscription, &registration);
  if (rc != ERROR_SUCCESS || !registration) {
    snprintf(why, len,
             "no power events in console mode on this system: "
             "PowerRegisterSuspendResumeNotification failed (error %lu)",
             (unsigned long)rc);
    host_power_close(p);
    return 0;
  }
  p->registration = registration;
  return 1;
}

void host_power_close(host_power *p) {
  unregister_fn unsubscribe;
  if (p->registration &&
      look_up(p, "PowerUnregisterSuspendResumeNotification", &unsubscribe, sizeof unsubscribe))
    unsubscribe(p->registration);
  p->registration = NULL;
  if (p->library)
    FreeLibrary(p->library);
  p->library = NULL;
}

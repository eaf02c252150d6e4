/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* controls.c (Windows) - the table of the Service Control Manager's controls the service accepts
   and what each asks of the server (controls.h). */
#include "controls.h"

#include <winsvc.h>

/* Waits do not count time asleep since Windows 8, so the scheduler learns of a resume and of a
   clock set by hand from these controls, and reads the clock again. A resume after a wake timer
   with nobody at the PC is PBT_APMRESUMEAUTOMATIC alone; PBT_APMRESUMESUSPEND follows when a
   user is back. The other power events (suspend, power source) need nothing and are answered
   NO_ERROR, which also grants a suspend query. */
static const host_control controls[] = {
    {SERVICE_CONTROL_STOP, HOST_ANY_EVENT, SERVICE_ACCEPT_STOP, HOST_CONTROL_STOP,
     "the service was stopped"},
    {SERVICE_CONTROL_PRESHUTDOWN, HOST_ANY_EVENT, SERVICE_ACCEPT_PRESHUTDOWN, HOST_CONTROL_STOP,
     "Windows is shutting down"},
    {SERVICE_CONTROL_SHUTDOWN, HOST_ANY_EVENT, SERVICE_ACCEPT_SHUTDOWN, HOST_CONTROL_STOP,
     "Windows is shutting down"},
    {SERVICE_CONTROL_INTERROGATE, HOST_ANY_EVENT, 0, HOST_CONTROL_NOTHING, "interrogated"},
    {SERVICE_CONTROL_POWEREVENT, PBT_APMRESUMEAUTOMATIC, SERVICE_ACCEPT_POWEREVENT,
     HOST_CONTROL_CLOCK, "the machine woke from sleep"},
    {SERVICE_CONTROL_POWEREVENT, PBT_APMRESUMESUSPEND, SERVICE_ACCEPT_POWEREVENT,
     HOST_CONTROL_CLOCK, "the machine woke from sleep and a user is back"},
    {SERVICE_CONTROL_POWEREVENT, HOST_ANY_EVENT, SERVICE_ACCEPT_POWEREVENT, HOST_CONTROL_NOTHING,
     "a power event"},
    {SERVICE_CONTROL_TIMECHANGE, HOST_ANY_EVENT, SERVICE_ACCEPT_TIMECHANGE, HOST_CONTROL_CLOCK,
     "the system time was set"},
};

#define CONTROL_COUNT (sizeof controls / sizeof controls[0])

const host_control *host_control_find(DWORD control, DWORD event) {
  for (size_t i = 0; i < CONTROL_COUNT; i++)
    if (controls[i].control == control &&
        (controls[i].event == HOST_ANY_EVENT || controls[i].event == event))
      return &controls[i];
  return NULL;
}

DWORD host_controls_accepted(void) {
  DWORD bits = 0;
  for (size_t i = 0; i < CONTROL_COUNT; i++)
    bits |= controls[i].accept;
  return bits;
}

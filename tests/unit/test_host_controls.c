/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_host_controls.c (Windows) - the service's control handler at its test boundary (controls.h):
   a resume from sleep (automatic, as after a wake timer, or with a user back) and a time change
   wake the scheduler, a suspend and other power events are only answered, the stops stop, an
   unknown control is not implemented, and the running service accepts power and time-change
   controls besides the stops. */
#include "check.h"
#include "controls.h"

#include <winsvc.h>

static void expect(DWORD control, DWORD event, host_control_action action) {
  const host_control *row = host_control_find(control, event);
  REQUIRE(row != NULL);
  CHECK_INT(row->action, action);
  CHECK(row->why != NULL && row->why[0] != '\0');
}

static void resumes_and_time_changes_wake_the_scheduler(void) {
  expect(SERVICE_CONTROL_POWEREVENT, PBT_APMRESUMEAUTOMATIC, HOST_CONTROL_CLOCK);
  expect(SERVICE_CONTROL_POWEREVENT, PBT_APMRESUMESUSPEND, HOST_CONTROL_CLOCK);
  expect(SERVICE_CONTROL_TIMECHANGE, 0, HOST_CONTROL_CLOCK);
  CHECK_STR_CONTAINS(host_control_find(SERVICE_CONTROL_POWEREVENT, PBT_APMRESUMEAUTOMATIC)->why,
                     "woke");
}

static void other_power_events_are_only_answered(void) {
  expect(SERVICE_CONTROL_POWEREVENT, PBT_APMSUSPEND, HOST_CONTROL_NOTHING);
  expect(SERVICE_CONTROL_POWEREVENT, PBT_APMPOWERSTATUSCHANGE, HOST_CONTROL_NOTHING);
  expect(SERVICE_CONTROL_POWEREVENT, PBT_POWERSETTINGCHANGE, HOST_CONTROL_NOTHING);
  expect(SERVICE_CONTROL_INTERROGATE, 0, HOST_CONTROL_NOTHING);
}

static void stops_stop_and_the_rest_is_not_implemented(void) {
  expect(SERVICE_CONTROL_STOP, 0, HOST_CONTROL_STOP);
  expect(SERVICE_CONTROL_PRESHUTDOWN, 0, HOST_CONTROL_STOP);
  expect(SERVICE_CONTROL_SHUTDOWN, 0, HOST_CONTROL_STOP);
  CHECK_STR_EQ(host_control_find(SERVICE_CONTROL_STOP, 0)->why, "the service was stopped");
  CHECK(host_control_find(SERVICE_CONTROL_PAUSE, 0) == NULL);
  CHECK(host_control_find(SERVICE_CONTROL_SESSIONCHANGE, 0) == NULL);
  CHECK(host_control_find(200, 0) == NULL);
}

static void the_running_service_accepts_them(void) {
  DWORD accepted = host_controls_accepted();
  CHECK_INT(accepted, SERVICE_ACCEPT_STOP | SERVICE_ACCEPT_PRESHUTDOWN | SERVICE_ACCEPT_SHUTDOWN |
                          SERVICE_ACCEPT_POWEREVENT | SERVICE_ACCEPT_TIMECHANGE);
}

int main(void) {
  RUN_CASE(resumes_and_time_changes_wake_the_scheduler);
  RUN_CASE(other_power_events_are_only_answered);
  RUN_CASE(stops_stop_and_the_rest_is_not_implemented);
  RUN_CASE(the_running_service_accepts_them);
  return check_summary();
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_awake.c - the machine kept awake: the hold taken and released (Windows: the power
   request; Linux: the inhibitor child, with a stand-in for systemd-inhibit, gone after the release
   and when its owner dies), the real systemd-logind lock where there is one, and the time asleep
   that only grows. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_doctor.h"
#include "threadsoup/plat_knobs.h"

#ifndef _WIN32
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "threadsoup/units.h"

/* Behaves as systemd-inhibit does once logind grants the lock: it runs the command. */
#define FAKE_INHIBIT "awake_fake_inhibit.sh"

static void write_fake_inhibit(void) {
  FILE *f = fopen(FAKE_INHIBIT, "w");
  REQUIRE(f != NULL);
  fputs("#!/bin/sh\nwhile [ \"${1#--}\" != \"$1\" ]; do shift; done\nexec \"$@\"\n", f);
  fclose(f);
  REQUIRE(chmod(FAKE_INHIBIT, 0755) == 0);
  plat_knob_set_text(PLAT_KNOB_INHIBIT_PROGRAM, FAKE_INHIBIT);
}

static int ends_within(long pid, int ms) {
  for (int waited = 0; waited < ms; waited += 10) {
    if (!check_proc_running(pid))
      return 1;
    plat_sleep_ns(10 * TS_NS_PER_MS);
  }
  return !check_proc_running(pid);
}

static void the_inhibitor_lives_as_long_as_the_hold(void) {
  write_fake_inhibit();
  char state[300];
  plat_stay_awake *hold = plat_stay_awake_begin("test", state, sizeof state);
  CHECK_STR_EQ(state, "held");
  REQUIRE(hold != NULL);
  long pid = plat_stay_awake_pid(hold);
  CHECK(pid > 0);
  CHECK(check_proc_running(pid));
  plat_stay_awake_end(hold);
  CHECK(!check_proc_running(pid));
  plat_knob_set_text(PLAT_KNOB_INHIBIT_PROGRAM, NULL);
}

/* An owner killed hard still ends the lock: the inhibitor's input is the owner's lifeline. */
static void the_inhibitor_dies_with_its_owner(void) {
  write_fake_inhibit();
  int report[2];
  REQUIRE(pipe(report) == 0);
  pid_t owner = fork();
  REQUIRE(owner >= 0);
  if (owner == 0) {
    char state[300];
    plat_stay_awake *hold = plat_stay_awake_begin("test", state, sizeof state);
    long pid = plat_stay_awake_pid(hold);
    if (write(report[1], &pid, sizeof pid) != (ssize_t)sizeof pid)
      _exit(2);
    pause(); /* until killed */
    _exit(0);
  }
  close(report[1]);
  long pid = -1;
  CHECK(read(report[0], &pid, sizeof pid) == (ssize_t)sizeof pid);
  close(report[0]);
  REQUIRE(pid > 0);
  CHECK(check_proc_running(pid));
  kill(owner, SIGKILL);
  waitpid(owner, NULL, 0);
  CHECK(ends_within(pid, 5000));
  plat_knob_set_text(PLAT_KNOB_INHIBIT_PROGRAM, NULL);
}

/* With systemd-logind, `systemd-inhibit --list` names the lock while it is held and not after;
   without it (a container, no D-Bus), the hold is "n/a" with logind's words, and no child
   remains. */
static void the_real_logind_lock(void) {
  char state[300];
  plat_stay_awake *hold = plat_stay_awake_begin("test of the lock", state, sizeof state);
  fprintf(stderr, "  systemd-inhibit: %s\n", state);
  if (!hold) {
    CHECK(strncmp(state, "n/a: ", 5) == 0);
    return;
  }
  CHECK_STR_EQ(state, "held");
  char listed[8192];
  size_t n;
  int exit_code;
  ts_err err;
  const char *list[] = {"systemd-inhibit", "--list", "--no-pager", NULL};
  CHECK_INT(
      plat_proc_run(list, NULL, listed, sizeof listed, &n, 10 * TS_NS_PER_S, &exit_code, &err),
      TS_OK);
  CHECK(strstr(listed, "test of the lock") != NULL);
  plat_stay_awake_end(hold);
  CHECK_INT(
      plat_proc_run(list, NULL, listed, sizeof listed, &n, 10 * TS_NS_PER_S, &exit_code, &err),
      TS_OK);
  CHECK(strstr(listed, "test of the lock") == NULL);
}
#else
/* Windows: PowerCreateRequest and PowerSetRequest(PowerRequestSystemRequired) both answer, and
   the request is cleared and closed (what `powercfg /requests` shows is for a real PC). Wine does
   not implement power requests: there the hold is "n/a" with the OS's words, and the run goes
   on without it. */
static void the_power_request_is_held_and_released(void) {
  char state[300];
  plat_stay_awake *hold = plat_stay_awake_begin("test", state, sizeof state);
  fprintf(stderr, "  power request: %s\n", state);
  if (plat_wine_version()) {
    CHECK(hold == NULL);
    CHECK(strncmp(state, "n/a: PowerCreateRequest failed: ", 32) == 0);
    return;
  }
  CHECK_STR_EQ(state, "held");
  CHECK(hold != NULL);
  CHECK(plat_stay_awake_pid(hold) == -1);
  plat_stay_awake_end(hold);
  plat_stay_awake_end(NULL);
}
#endif

/* The time asleep never goes backwards, and an injected suspend shows as a minute more. */
static void time_asleep_grows_only(void) {
  uint64_t a = plat_suspended_ns(), b = plat_suspended_ns();
  CHECK(b + 1000000 >= a); /* two reads of two clocks: microseconds of noise at most */
  plat_fault_inject(PLAT_FAULT_SUSPEND, 0, 1);
  uint64_t c = plat_suspended_ns();
  CHECK(c >= b + 59 * (uint64_t)1000000000);
  CHECK(plat_suspended_ns() < c);
  plat_fault_inject(PLAT_FAULT_SUSPEND, -1, 0);
}

int main(void) {
#ifndef _WIN32
  RUN_CASE(the_inhibitor_lives_as_long_as_the_hold);
  RUN_CASE(the_inhibitor_dies_with_its_owner);
  RUN_CASE(the_real_logind_lock);
#else
  RUN_CASE(the_power_request_is_held_and_released);
#endif
  RUN_CASE(time_asleep_grows_only);
  return check_summary();
}

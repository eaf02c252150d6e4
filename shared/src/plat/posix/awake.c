/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* awake.c (POSIX) - keeping Linux awake while a run or a load is active, through
   systemd-logind's sleep inhibitor held by a child that dies with us, and the time the machine
   spent suspended. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "threadsoup/plat_doctor.h"
#include "threadsoup/plat_knobs.h"
#include "threadsoup/units.h"

extern char **environ;

/* How long logind may take to grant the lock, and the inhibitor to end once released. */
#define INHIBIT_ANSWER_MS 5000
#define INHIBIT_END_MS 2000

/* The command systemd-inhibit runs while it holds the lock: it says so on its output, then
   reads the lifeline (its input) until our end closes - when we release the hold, exit or are
   killed - and so ends the lock with us. */
#define INHIBIT_COMMAND "echo held; exec cat >/dev/null"

struct plat_stay_awake {
  pid_t pid;
  int lifeline; /* our (write) end of the inhibitor's input */
};

/* Waits up to `ms` for the child to end; 1 when it did (and is reaped). */
static int reaped_within(pid_t pid, int ms) {
  for (int waited = 0; waited <= ms; waited += 10) {
    pid_t done = waitpid(pid, NULL, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR))
      return 1;
    plat_sleep_ns(10 * TS_NS_PER_MS);
  }
  return 0;
}

static void end_child(pid_t pid, int lifeline) {
  close(lifeline);
  if (!reaped_within(pid, INHIBIT_END_MS)) {
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
  }
}

/* Reads what the inhibitor prints until "held" appears, it closes its output (it failed) or
   the time runs out; `said` gets its words. 1 when the lock is held. */
static int read_answer(int fd, char *said, size_t len) {
  size_t used = 0;
  said[0] = '\0';
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long elapsed_ms =
        (long)(now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
    if (elapsed_ms >= INHIBIT_ANSWER_MS) {
      snprintf(said, len, "no answer from systemd-logind within %d s", INHIBIT_ANSWER_MS / 1000);
      return 0;
    }
    struct pollfd p = {fd, POLLIN, 0};
    int ready = poll(&p, 1, (int)(INHIBIT_ANSWER_MS - elapsed_ms));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0)
      continue;
    ssize_t n = used + 1 < len ? read(fd, said + used, len - used - 1) : 0;
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    used += (size_t)n;
    said[used] = '\0';
    if (strstr(said, "held\n"))
      return 1;
  }
  said[strcspn(said, "\n")] = '\0';
  return 0;
}

plat_stay_awake *plat_stay_awake_begin(const char *why, char *state, size_t len) {
  char program[PLAT_PATH_MAX];
  const char *injected = plat_knob_text(PLAT_KNOB_INHIBIT_PROGRAM);
  ts_err err;
  if (injected) {
    snprintf(program, sizeof program, "%s", injected);
  } else if (plat_find_program("systemd-inhibit", program, sizeof program, &err) != TS_OK) {
    snprintf(state, len, "n/a: no systemd-inhibit (this system has no systemd-logind)");
    return NULL;
  }
  int lifeline[2], answer[2];
  if (pipe2(lifeline, O_CLOEXEC) != 0) {
    snprintf(state, len, "n/a: cannot create a pipe: %s", strerror(errno));
    return NULL;
  }
  if (pipe2(answer, O_CLOEXEC) != 0) {
    snprintf(state, len, "n/a: cannot create a pipe: %s", strerror(errno));
    close(lifeline[0]);
    close(lifeline[1]);
    return NULL;
  }
  char why_arg[300];
  snprintf(why_arg, sizeof why_arg, "--why=%s", why);
  char *argv[] = {program, "--what=sleep:idle", "--mode=block", "--who=ThreadSoup",
                  why_arg, "/bin/sh",           "-c",           INHIBIT_COMMAND,
                  NULL};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, lifeline[0], 0);
  posix_spawn_file_actions_adddup2(&actions, answer[1], 1);
  posix_spawn_file_actions_adddup2(&actions, answer[1], 2);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  /* Its own process group: a Ctrl+C at the terminal is ours to handle, and the lock must stay
     until we release it. */
  posix_spawnattr_t attrs;
  posix_spawnattr_init(&attrs);
  posix_spawnattr_setpgroup(&attrs, 0);
  posix_spawnattr_setflags(&attrs, POSIX_SPAWN_SETPGROUP);
  pid_t pid;
  int rc = posix_spawn(&pid, program, &actions, &attrs, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attrs);
  close(lifeline[0]);
  close(answer[1]);
  if (rc != 0) {
    snprintf(state, len, "n/a: cannot start %s: %s", program, strerror(rc));
    close(answer[0]);
    close(lifeline[1]);
    return NULL;
  }
  char said[256];
  int held = read_answer(answer[0], said, sizeof said);
  close(answer[0]);
  plat_stay_awake *hold = held ? malloc(sizeof *hold) : NULL;
  if (!hold) {
    end_child(pid, lifeline[1]);
    snprintf(state, len, "n/a: %s%s", held ? "" : "systemd-logind did not grant the lock: ",
             held      ? "no memory"
             : said[0] ? said
                       : "systemd-inhibit failed");
    return NULL;
  }
  hold->pid = pid;
  hold->lifeline = lifeline[1];
  snprintf(state, len, "held");
  return hold;
}

void plat_stay_awake_end(plat_stay_awake *hold) {
  if (!hold)
    return;
  end_child(hold->pid, hold->lifeline);
  free(hold);
}

long plat_stay_awake_pid(const plat_stay_awake *hold) { return hold ? (long)hold->pid : -1; }

static uint64_t clock_read_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * TS_NS_PER_S + (uint64_t)ts.tv_nsec;
}

uint64_t plat_suspended_ns(void) {
  /* CLOCK_MONOTONIC stops while the machine is suspended, CLOCK_BOOTTIME does not. The two
     reads are microseconds apart, which is the noise of a difference of two readings. */
  uint64_t awake = clock_read_ns(CLOCK_MONOTONIC);
  uint64_t since_boot = clock_read_ns(CLOCK_BOOTTIME);
  uint64_t asleep = since_boot > awake ? since_boot - awake : 0;
  return asleep + (plat_fault_due(PLAT_FAULT_SUSPEND) ? 60 * TS_NS_PER_S : 0);
}

/* Linux has no power plan of its own: logind suspends on its IdleAction (off by default) and on
   the desktop's request, and only while it runs. Its seats folder and the system bus are there
   when it does. */
void plat_sleep_facts_read(plat_sleep_facts *out) {
  memset(out, 0, sizeof *out);
  out->ac_sleep_s = out->dc_sleep_s = PLAT_LIMIT_UNKNOWN;
  out->ac_wake_timers = out->dc_wake_timers = out->fast_startup = out->hibernation = -1;
  out->logind =
      access("/run/systemd/seats", F_OK) == 0 && access("/run/dbus/system_bus_socket", F_OK) == 0;
  snprintf(out->why, sizeof out->why, "Linux has no power plan");
}

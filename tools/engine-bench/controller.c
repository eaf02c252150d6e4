/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* controller.c - how often the real `threadsoup load` wakes its controlling thread while a load
   runs, counted from outside through /proc so the measuring costs the measured nothing. */
#define _GNU_SOURCE
#include "engine_bench.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "threadsoup/units.h"

extern char **environ;

/* Threads of a process from /proc/PID/status; -1 once it is gone. */
static long threads_of(pid_t pid) {
  char path[64], buf[4096];
  snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
  if (read_small(AT_FDCWD, path, buf, sizeof buf) <= 0)
    return -1;
  const char *p = strstr(buf, "\nThreads:");
  return p ? strtol(p + 9, NULL, 10) : -1;
}

typedef struct controller_run {
  int ok;
  char error[300];
  double voluntary_per_s, involuntary_per_s, cpu_pct;
} controller_run;

/* Starts `threadsoup load sleep:COUNT@INTERVAL [--quiet]` (its output to /dev/null), waits until
   every thread runs, then counts its main thread's switches over the window. */
static void run_controller(const bench_options *o, int quiet, controller_run *r) {
  char program[PLAT_PATH_MAX + 32], spec[64];
  memset(r, 0, sizeof *r);
  snprintf(program, sizeof program, "%s/threadsoup", o->dir);
  snprintf(spec, sizeof spec, "sleep:%ld@%ldms", o->count, o->interval_ms);
  char *argv[] = {program, "load", spec, quiet ? "--quiet" : NULL, NULL};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid;
  int rc = posix_spawn(&pid, program, &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    snprintf(r->error, sizeof r->error, "cannot start %s: %s", program, strerror(rc));
    return;
  }
  /* Every load thread plus the main one: creation is over and only the steady state is left. */
  double give_up = now_s() + 120;
  long threads;
  while ((threads = threads_of(pid)) >= 0 && threads < o->count + 1 && now_s() < give_up)
    sleep_s(0.05);
  if (threads < o->count + 1) {
    snprintf(r->error, sizeof r->error, "threadsoup load never reached %ld threads (%ld)",
             o->count + 1, threads);
  } else {
    sleep_s(1.5); /* past the first census tick and the creation's aftermath */
    uint64_t v0, nv0, v1, nv1;
    double t0 = now_s();
    int bad = thread_switches(pid, pid, &v0, &nv0);
    double c0 = thread_cpu_ns(pid, pid);
    sleep_s(o->controller_seconds);
    bad |= thread_switches(pid, pid, &v1, &nv1);
    double c1 = thread_cpu_ns(pid, pid);
    double window = now_s() - t0;
    if (bad || c0 < 0 || c1 < 0)
      snprintf(r->error, sizeof r->error, "cannot read the main thread's status");
    else {
      r->ok = 1;
      r->voluntary_per_s = (double)(v1 - v0) / window;
      r->involuntary_per_s = (double)(nv1 - nv0) / window;
      r->cpu_pct = (c1 - c0) / TS_NS_PER_S / window * 100.0;
    }
  }
  kill(pid, SIGTERM); /* as Ctrl+C: the load is stopped and reaped by the program itself */
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

void bench_controller(const bench_options *o) {
  controller_run quiet, census;
  char title[160];
  snprintf(title, sizeof title,
           "5. controller wake-ups: main thread of `threadsoup load sleep:%ld@%ldms` over %.0f s",
           o->count, o->interval_ms, o->controller_seconds);
  progress("%s", title + 3);
  progress("  --quiet");
  run_controller(o, 1, &quiet);
  progress("  with the census each second");
  run_controller(o, 0, &census);
  table_section(title);
  /* A window of W seconds can hold one tick more than W at its edges; that one is allowed. */
  double limit = 1.0 + 1.0 / o->controller_seconds;
  const controller_run *runs[2] = {&quiet, &census};
  static const char *const names[2] = {"--quiet", "census shown"};
  for (int i = 0; i < 2; i++) {
    const controller_run *r = runs[i];
    char measure[80], value[24];
    /* Wake-ups are the voluntary switches; a controller that never sleeps has none, so its CPU
       time is checked too: a thread that only wakes must use next to none. */
    snprintf(measure, sizeof measure, "%s: main-thread wake-ups per second", names[i]);
    format_value(value, sizeof value, 2, r->ok ? r->voluntary_per_s : NAN);
    table_row(measure, value, "-", -1, i == 0 ? "<= 1 (expect 0)" : "<= 1",
              r->ok && r->voluntary_per_s <= limit ? VERDICT_OK : VERDICT_MISSED);
    snprintf(measure, sizeof measure, "%s: main-thread CPU (%% of one core)", names[i]);
    format_value(value, sizeof value, 2, r->ok ? r->cpu_pct : NAN);
    if (i == 0)
      table_row(measure, value, "-", -1, "<= 1 %",
                r->ok && r->cpu_pct <= 1.0 ? VERDICT_OK : VERDICT_MISSED);
    else
      table_row(measure, value, "-", -1, "- (the census)", VERDICT_INFO);
    snprintf(measure, sizeof measure, "%s: main-thread preemptions per second", names[i]);
    format_value(value, sizeof value, 2, r->ok ? r->involuntary_per_s : NAN);
    table_row(measure, value, "-", -1, "-", VERDICT_INFO);
  }
  table_note("wake-ups = voluntary switches of the main thread (/proc/PID/task/PID/status), "
             "CPU from its schedstat, both read from outside; a %.0f s window may catch one "
             "tick more at its edges",
             o->controller_seconds);
  for (int i = 0; i < 2; i++)
    if (!runs[i]->ok)
      table_note("%s: %s", i ? "census" : "--quiet", runs[i]->error);
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_engine_scenarios.c - every scenario creates exactly what it is asked for and leaves
   nothing behind, counted through the OS: threads of this process, child processes by parent id,
   and (on Linux, where the OS reports them) the state the threads wait in. */
#ifdef __linux__
#define _GNU_SOURCE /* signal masks, mkstemp: what the idle children are given is checked */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __linux__
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "check.h"
#include "engine/engine.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

static long os_threads(void) {
  ts_err err;
  return plat_process_thread_count(plat_self_pid(), &err);
}

/* The OS count once it settles: a joined thread may still be listed for a moment, since the
   kernel wakes the joiner before it removes the thread (up to 2 s, then whatever it says). */
static long os_threads_settled(long expected) {
  long n = os_threads();
  for (int i = 0; i < 200 && n != expected; i++) {
    plat_sleep_ns(10 * TS_NS_PER_MS);
    n = os_threads();
  }
  return n;
}

/* Live children of this process named like `name`, as the OS lists them. */
static long os_children(const char *name) { return load_count_children_of(plat_self_pid(), name); }

#ifdef __linux__
/* Threads of this process in the state whose name contains `state` (Linux: from /proc; Wine
   reports no thread states, so Windows states are tested on recorded data instead). */
static long os_threads_in_state(const char *state) {
  plat_process_census self;
  ts_err err;
  if (plat_census_process(plat_self_pid(), &self, &err) != TS_OK)
    return -1;
  long n = 0;
  for (int i = 0; i < self.state_count; i++)
    if (strstr(self.states[i].name, state))
      n += self.states[i].threads;
  return n;
}
#endif

/* Starts `spec`, checks the OS sees exactly `threads` more threads, stops it, checks they are
   gone; returns the load's start error when it should fail. */
static void exact_threads(const char *text, long threads, const char *linux_state) {
  long before = os_threads();
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse(text, &spec, &err), TS_OK);
  load *l = NULL;
  int rc = load_start(&spec, NULL, &l, &err);
  CHECK_INT(rc, TS_OK);
  if (rc != TS_OK) {
    fprintf(stderr, "  %s: %s\n", text, err.text);
    return;
  }
  CHECK_INT(os_threads_settled(before + threads), before + threads);
#ifdef __linux__
  if (linux_state) {
    /* Give every thread time to reach its wait: a fresh thread may still be running. */
    long waiting = 0;
    for (int i = 0; i < 50 && waiting < threads; i++) {
      plat_sleep_ns(20 * TS_NS_PER_MS);
      waiting = os_threads_in_state(linux_state);
    }
    CHECK(waiting >= threads);
  }
#else
  (void)linux_state;
#endif
  load_stop(l);
  CHECK_INT(os_threads_settled(before), before);
}

static void sleep_with_every_timer_and_phase(void) {
  exact_threads("sleep:300@100ms", 300, "S (sleeping)");
  exact_threads("sleep:300@100ms/timer=absolute", 300, "S (sleeping)");
  exact_threads("sleep:300@100ms/phase=sync/timer=absolute", 300, NULL);
  exact_threads("sleep:50@1s/stack=64/priority=low", 50, "S (sleeping)");
}

static void wait_every_kind(void) {
  static const char *const kinds[] = {"event", "condvar", "address", "channel", "join", "iocp"};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    char text[64];
    snprintf(text, sizeof text, "wait:400:%s", kinds[i]);
    fprintf(stderr, "  %s\n", text);
    exact_threads(text, 400, "S (sleeping)");
  }
}

static void yield_with_and_without_check(void) {
  exact_threads("yield:2/check", 2, NULL);
  /* Mode 2 never checks a flag: it must still end when the load stops. */
  exact_threads("yield:2", 2, NULL);
}

static void several_scenarios_at_once(void) {
  exact_threads("sleep:100+wait:100:address+yield:1/check", 201, NULL);
}

static void procs_live_and_die_with_the_load(void) {
  long before = os_children("threadsoup-idle");
  CHECK_INT(before, 0);
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("procs:100+sleep:10", &spec, &err), TS_OK);
  load *l = NULL;
  int rc = load_start(&spec, NULL, &l, &err);
  CHECK_INT(rc, TS_OK);
  if (rc != TS_OK) {
    fprintf(stderr, "  %s\n", err.text);
    return;
  }
  CHECK_INT(os_children("threadsoup-idle"), 100);
  /* They stay: an idle child waits, it does not exit on its own. */
  plat_sleep_ns(300 * TS_NS_PER_MS);
  CHECK_INT(os_children("threadsoup-idle"), 100);
  load_stop(l);
  CHECK_INT(os_children("threadsoup-idle"), 0);
}

#ifdef __linux__
/* A number from the line of /proc/PID/status that starts with `key`, read as hexadecimal (the
   signal masks) or decimal; -1 when absent. */
static long long status_field(long pid, const char *key, int base) {
  char path[64], line[256];
  snprintf(path, sizeof path, "/proc/%ld/status", pid);
  FILE *f = fopen(path, "r");
  long long value = -1;
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, key, strlen(key)) == 0)
      value = strtoll(line + strlen(key), NULL, base);
  if (f)
    fclose(f);
  return value;
}

/* The process group of `pid` (the fifth field of /proc/PID/stat, after the command's ')'). */
static long process_group(long pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose(f);
  buf[n] = '\0';
  const char *p = strrchr(buf, ')');
  long ppid, pgrp;
  char state;
  return p && sscanf(p + 1, " %c %ld %ld", &state, &ppid, &pgrp) == 3 ? pgrp : -1;
}

/* What each idle child holds is what it was given, however the owner stands: fds 0 to 3 only
   (here the owner has an inheritable descriptor open), no blocked signals and SIGINT not
   ignored (the owner blocks SIGUSR1 and ignores SIGINT), and all in one process group of their
   own; enough of them that several threads start them. */
static void idle_children_get_only_their_four_descriptors(void) {
  int inheritable = open("/dev/null", O_RDONLY);
  REQUIRE(inheritable >= 0);
  sigset_t usr1, kept;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, &kept);
  struct sigaction ignore, kept_int;
  memset(&ignore, 0, sizeof ignore);
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &ignore, &kept_int);
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("procs:100", &spec, &err), TS_OK);
  load *l = NULL;
  int rc = load_start(&spec, NULL, &l, &err);
  sigaction(SIGINT, &kept_int, NULL);
  pthread_sigmask(SIG_SETMASK, &kept, NULL);
  close(inheritable);
  CHECK_INT(rc, TS_OK);
  if (rc != TS_OK) {
    fprintf(stderr, "  %s\n", err.text);
    return;
  }
  long self = plat_self_pid(), children = 0, group = -1;
  DIR *proc = opendir("/proc");
  REQUIRE(proc != NULL);
  struct dirent *de;
  while ((de = readdir(proc)) != NULL) {
    long pid = strtol(de->d_name, NULL, 10);
    if (pid <= 0 || status_field(pid, "PPid:", 10) != self)
      continue;
    children++;
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/fd", pid);
    DIR *fds = opendir(path);
    long fd_count = 0, highest = -1;
    struct dirent *fd;
    while (fds && (fd = readdir(fds)) != NULL) {
      if (fd->d_name[0] == '.')
        continue;
      fd_count++;
      long number = strtol(fd->d_name, NULL, 10);
      highest = number > highest ? number : highest;
    }
    if (fds)
      closedir(fds);
    CHECK_INT(fd_count, 4);
    CHECK_INT(highest, 3);
    CHECK(status_field(pid, "SigBlk:", 16) == 0);
    CHECK((status_field(pid, "SigIgn:", 16) & (1LL << (SIGINT - 1))) == 0);
    long pgrp = process_group(pid);
    CHECK(pgrp > 0 && pgrp != process_group(self));
    if (group < 0)
      group = pgrp;
    CHECK_INT(pgrp, group);
  }
  closedir(proc);
  CHECK_INT(children, 100);
  load_stop(l);
  CHECK_INT(os_children("threadsoup-idle"), 0);
}

/* A program that passes the check before the first start but that the OS cannot run (no format
   it knows) is refused at its start, and nothing is left of it. */
static void child_that_cannot_run_is_refused(void) {
  char path[] = "/tmp/threadsoup-not-a-program-XXXXXX";
  int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  CHECK(write(fd, "not a program\n", 14) == 14);
  close(fd);
  chmod(path, 0755);
  plat_child_group *group = NULL;
  ts_err err;
  CHECK_INT(plat_child_group_create(&group, path, &err), TS_OK);
  if (group) {
    CHECK_INT(plat_child_group_spawn(group, &err), TS_EOS);
    CHECK_STR_CONTAINS(err.text, "the OS refused a new process: Exec format error");
    CHECK_INT(plat_child_group_count(group), 0);
    plat_child_group_destroy(group);
  }
  unlink(path);
  CHECK_INT(load_count_children_of(plat_self_pid(), "threadsoup-not-a-program"), 0);
}
#endif

static void ramp_spreads_creation(void) {
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("sleep:50@1s/ramp=500ms", &spec, &err), TS_OK);
  uint64_t t0 = plat_clock_ns();
  load *l = NULL;
  CHECK_INT(load_start(&spec, NULL, &l, &err), TS_OK);
  uint64_t took = plat_clock_ns() - t0;
  /* The 50th thread is due at 49/50 of the ramp. */
  CHECK(took >= 450 * TS_NS_PER_MS);
  load_stop(l);
}

static void refused_thread_in_second_part_stops_first(void) {
  long before = os_threads();
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("wait:100:event+wait:50:join", &spec, &err), TS_OK);
  plat_fault_inject(PLAT_FAULT_THREAD_START, 120, -1);
  load *l = (load *)1;
  int rc = load_start(&spec, NULL, &l, &err);
  plat_fault_inject(PLAT_FAULT_THREAD_START, -1, -1);
  CHECK_INT(rc, TS_EOS);
  CHECK(l == NULL);
  CHECK_STR_CONTAINS(err.text, "wait: created 20 of 50 threads, then stopped them all");
  CHECK_INT(os_threads_settled(before), before);
}

/* `text` (procs:COUNT) with `refusals` injected at `site` after `successes` children: the load
   still starts with exactly `count` children, and none is left after the stop. */
static void procs_count_despite(const char *text, long count, plat_fault_site site, long successes,
                                long refusals) {
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse(text, &spec, &err), TS_OK);
  plat_fault_inject(site, successes, refusals);
  load *l = NULL;
  int rc = load_start(&spec, NULL, &l, &err);
  plat_fault_inject(site, -1, -1);
  CHECK_INT(rc, TS_OK);
  if (rc != TS_OK) {
    fprintf(stderr, "  %s\n", err.text);
    return;
  }
  CHECK_INT(os_children("threadsoup-idle"), count);
  load_stop(l);
  CHECK_INT(os_children("threadsoup-idle"), 0);
}

static void procs_despite(plat_fault_site site, long successes, long refusals) {
  procs_count_despite("procs:20", 20, site, successes, refusals);
}

/* A momentary refusal (two in a row) costs a pause, not the load; also when several threads
   start the children (200: no ramp), each trying again on its own. */
static void refused_process_is_tried_again(void) {
  procs_despite(PLAT_FAULT_CHILD_SPAWN, 7, 2);
  procs_count_despite("procs:200", 200, PLAT_FAULT_CHILD_SPAWN, 150, 2);
}

/* A third refusal in a row is the machine's limit: every child made so far is stopped. With
   several threads starting them, every further start is refused too (refusals < 0), so the
   count made is still exact. */
static void refused_for_good_stops_all(const char *text, long refusals, const char *expected) {
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse(text, &spec, &err), TS_OK);
  plat_fault_inject(PLAT_FAULT_CHILD_SPAWN, 7, refusals);
  load *l = (load *)1;
  int rc = load_start(&spec, NULL, &l, &err);
  plat_fault_inject(PLAT_FAULT_CHILD_SPAWN, -1, -1);
  CHECK_INT(rc, TS_EOS);
  CHECK(l == NULL);
  CHECK_STR_CONTAINS(err.text, expected);
  CHECK_INT(os_children("threadsoup-idle"), 0);
}

static void refused_process_for_good_stops_all(void) {
  refused_for_good_stops_all("procs:20", 3,
                             "procs: created 7 of 20 processes, then stopped them all: 3 attempts "
                             "in 0.3 s: the OS refused a new process");
  refused_for_good_stops_all("procs:200", -1,
                             "procs: created 7 of 200 processes, then stopped them all: 3 "
                             "attempts in 0.3 s: the OS refused a new process");
}

/* A child the OS starts while it reports the start as refused (Wine under load) joins the load
   instead of living on beside a replacement. (Only Windows injects this; elsewhere the same
   counts hold on the ordinary path.) */
static void child_started_despite_refusal_is_adopted(void) {
  procs_despite(PLAT_FAULT_CHILD_LOST, 5, 1);
}

static void options_parse_check_and_print(void) {
  load_spec spec;
  ts_err err;
  CHECK_INT(load_spec_parse("sleep:10@2s/timer=absolute/phase=sync/stack=64/ramp=1s", &spec, &err),
            TS_OK);
  CHECK_STR_CONTAINS(spec.text, "sleep:10@2s/stack=64/ramp=1s/phase=sync/timer=absolute");
  CHECK_INT(load_spec_parse("wait:5", &spec, &err), TS_OK);
  CHECK_STR_CONTAINS(spec.text, "wait:5:event");
  CHECK_INT(load_spec_parse("wait:5:spoon", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "accepted: event, condvar, address, channel, join, iocp");
  CHECK_INT(load_spec_parse("sleep:5:event", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "takes no kind");
  CHECK_INT(load_spec_parse("procs:5/stack=64", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "takes no stack");
  CHECK_INT(load_spec_parse("sleep:5/stack=1", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "out of range");
  CHECK_INT(load_spec_parse("sleep:5/colour=blue", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "unknown option 'colour'");
  CHECK_INT(load_spec_parse("yield:1/check", &spec, &err), TS_OK);
  CHECK_STR_CONTAINS(spec.text, "yield:1/check");
  CHECK_INT(load_spec_parse("sleep:5/priority=urgent", &spec, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "idle, low, normal, high");
}

/* Every option is a row of the engine or of its scenario: found by name, listed in help, in the
   "known" list of an unknown option and in the plan's forms; its default read back as itself and
   left out of the text; refused, by name, by a scenario that does not take it. */
static void every_option_comes_from_its_rows(void) {
  char help[4096], forms[1024];
  load_options_help(help, sizeof help);
  load_spec_forms(forms, sizeof forms);
  for (size_t s = 0; scenario_table[s]; s++) {
    const scenario_def *sc = scenario_table[s];
    load_part part;
    ts_err err;
    char name[64], text[LOAD_TEXT_MAX], again[LOAD_TEXT_MAX];
    fprintf(stderr, "  %s\n", sc->name);
    snprintf(name, sizeof name, "%s:", sc->name);
    CHECK_STR_CONTAINS(forms, name);
    REQUIRE(load_part_init(&part, sc->name, &err) == TS_OK);
    CHECK_INT(load_part_set(&part, "colour", "blue", &err), TS_EUSAGE);
    char unknown[512];
    snprintf(unknown, sizeof unknown, "%s", err.text);
    /* Its first slot given, the part is complete. */
    const load_option *first = load_option_at(sc, 0);
    REQUIRE(first != NULL);
    CHECK_INT(load_part_set(&part, first->name, first->example, &err), TS_OK);
    REQUIRE(load_part_finish(&part, text, sizeof text, &err) == TS_OK);
    const load_option *o;
    for (size_t i = 0; (o = load_option_at(sc, i)) != NULL; i++) {
      CHECK(o->help && o->help[0]);
      CHECK(load_option_kind_name(o->kind)[0]);
      CHECK(load_option_find(sc, o->name) == o);
      CHECK(load_option_find(NULL, o->name) != NULL);
      snprintf(name, sizeof name, "  %s ", o->name);
      CHECK_STR_CONTAINS(help, name);
      snprintf(name, sizeof name, i ? " %s," : "(known: %s", o->name);
      if (load_option_at(sc, i + 1) == NULL)
        snprintf(name, sizeof name, " %s)", o->name);
      CHECK_STR_CONTAINS(unknown, name);
      if (!o->dflt)
        continue;
      /* The default, given again, changes nothing. */
      load_part copy = part;
      CHECK_INT(load_part_set(&copy, o->name, o->dflt, &err), TS_OK);
      REQUIRE(load_part_finish(&copy, again, sizeof again, &err) == TS_OK);
      CHECK(strcmp(text, again) == 0);
      /* Another scenario without it refuses it by name. */
      for (size_t t = 0; scenario_table[t]; t++) {
        if (load_option_find(scenario_table[t], o->name))
          continue;
        load_part other;
        char takes_no[128];
        REQUIRE(load_part_init(&other, scenario_table[t]->name, &err) == TS_OK);
        CHECK_INT(load_part_set(&other, o->name, o->dflt, &err), TS_EUSAGE);
        snprintf(takes_no, sizeof takes_no, "scenario '%s' takes no %s", scenario_table[t]->name,
                 o->name);
        CHECK_STR_CONTAINS(err.text, takes_no);
      }
    }
    /* The text reads back as itself. */
    load_spec spec;
    CHECK_INT(load_spec_parse(text, &spec, &err), TS_OK);
    CHECK(strcmp(spec.text, text) == 0);
  }
}

int main(void) {
  RUN_CASE(options_parse_check_and_print);
  RUN_CASE(every_option_comes_from_its_rows);
  RUN_CASE(sleep_with_every_timer_and_phase);
  RUN_CASE(wait_every_kind);
  RUN_CASE(yield_with_and_without_check);
  RUN_CASE(several_scenarios_at_once);
  RUN_CASE(procs_live_and_die_with_the_load);
#ifdef __linux__
  RUN_CASE(idle_children_get_only_their_four_descriptors);
  RUN_CASE(child_that_cannot_run_is_refused);
#endif
  RUN_CASE(ramp_spreads_creation);
  RUN_CASE(refused_thread_in_second_part_stops_first);
  RUN_CASE(refused_process_is_tried_again);
  RUN_CASE(refused_process_for_good_stops_all);
  RUN_CASE(child_started_despite_refusal_is_adopted);
  return check_summary();
}

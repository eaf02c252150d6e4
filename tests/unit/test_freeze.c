/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_freeze.c - a frozen program is never left frozen: a helper of this test that counts in a
   file is frozen by `threadsoup load freeze:PID`, and counts again after the load ends, after its
   owner is killed without warning, after the freeze's /max, and after a start of ThreadSoup finds
   it in the freeze journal; and each refusal rule refuses what it names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/freeze.h"
#include "experiment/experiment.h"
#include "store/store.h"
#include "testdb.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

static const char *threadsoup_exe;

/* ---- the helper: counts in a file, 100 times a second, until it is killed ---- */

static int helper_main(const char *path) {
  for (long n = 1; n < 2000000000L; n++) { /* 230 days of counting */
    FILE *f = fopen(path, "w");
    if (f) {
      fprintf(f, "%ld\n", n);
      fclose(f);
    }
    plat_sleep_ns(10 * TS_NS_PER_MS);
  }
  return 0;
}

/* The helper's count; -1 while its file is being rewritten. */
static long count_of(const char *path) {
  FILE *f = fopen(path, "r");
  long n = -1;
  if (f) {
    if (fscanf(f, "%ld", &n) != 1)
      n = -1;
    fclose(f);
  }
  return n;
}

/* The count, retried over a rewrite. */
static long count_now(const char *path) {
  long n = -1;
  for (int i = 0; i < 50 && n < 0; i++) {
    n = count_of(path);
    if (n < 0)
      plat_sleep_ns(2 * TS_NS_PER_MS);
  }
  return n;
}

/* Whether the helper counts: its count grows within `within_ms`. */
static int counting(const char *path, int within_ms) {
  long first = count_now(path);
  for (int waited = 0; waited < within_ms; waited += 20) {
    plat_sleep_ns(20 * TS_NS_PER_MS);
    if (count_now(path) > first)
      return 1;
  }
  return 0;
}

static int start_helper(plat_proc *helper, const char *path) {
  char dir[PLAT_PATH_MAX], name[64], program[PLAT_PATH_MAX + 80];
  ts_err err;
  if (plat_program_dir(dir, sizeof dir, &err) != TS_OK)
    return 0;
  plat_program_name("test_freeze", name, sizeof name);
  snprintf(program, sizeof program, "%s%c%s", dir, plat_path_separator(), name);
  remove(path);
  const char *argv[] = {program, "--count", path, NULL};
  if (plat_proc_spawn(helper, argv, &err) != TS_OK)
    return 0;
  return counting(path, 3000);
}

static void end(plat_proc *p) {
  ts_err err;
  int code;
  plat_proc_kill(p, &err);
  plat_proc_wait(p, &code, &err);
}

/* Starts `threadsoup load freeze:PID[/max=…] --for FOR --quiet` and waits until the helper
   stops counting. */
static int start_freezer(plat_proc *owner, const plat_proc *helper, const char *path,
                         const char *extra, const char *for_text) {
  char spec[96];
  snprintf(spec, sizeof spec, "freeze:%ld%s", helper->pid, extra);
  const char *argv[] = {threadsoup_exe, "load", spec, "--for", for_text, "--quiet", NULL};
  ts_err err;
  if (plat_proc_spawn(owner, argv, &err) != TS_OK)
    return 0;
  for (int i = 0; i < 100; i++) {
    plat_sleep_ns(50 * TS_NS_PER_MS);
    if (!counting(path, 300))
      return 1;
  }
  return 0;
}

#ifdef __linux__
/* The kernel's word for the helper: 'T' while stopped. */
static char proc_state(long pid) {
  char path[64], line[128];
  snprintf(path, sizeof path, "/proc/%ld/status", pid);
  FILE *f = fopen(path, "r");
  char state = '?';
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "State:", 6) == 0)
      sscanf(line + 6, " %c", &state);
  if (f)
    fclose(f);
  return state;
}
#endif

static void thawed_when_the_load_ends(void) {
  plat_proc helper, owner;
  const char *path = "freeze-helper-end.txt";
  REQUIRE(start_helper(&helper, path));
  CHECK(start_freezer(&owner, &helper, path, "", "15s"));
  int code = -1;
  ts_err err;
  CHECK_INT(plat_proc_wait(&owner, &code, &err), TS_OK);
  CHECK_INT(code, 0);
  CHECK(counting(path, 1000));
  end(&helper);
  remove(path);
}

static void thawed_when_the_owner_is_killed(void) {
  plat_proc helper, owner;
  const char *path = "freeze-helper-kill.txt";
  REQUIRE(start_helper(&helper, path));
  CHECK(start_freezer(&owner, &helper, path, "", "60s"));
#ifdef __linux__
  CHECK(proc_state(helper.pid) == 'T');
#endif
  ts_err err;
  int code;
  CHECK_INT(plat_proc_kill(&owner, &err), TS_OK);
  plat_proc_wait(&owner, &code, &err);
  CHECK(counting(path, 1000)); /* the guardian thawed it within a second */
#ifdef __linux__
  CHECK(proc_state(helper.pid) != 'T');
#endif
  end(&helper);
  remove(path);
}

static void thawed_after_max(void) {
  plat_proc helper, owner;
  const char *path = "freeze-helper-max.txt";
  REQUIRE(start_helper(&helper, path));
  CHECK(start_freezer(&owner, &helper, path, "/max=10s", "60s"));
  CHECK(counting(path, 11000)); /* by the 10 s deadline, while its owner still runs */
  end(&owner);
  end(&helper);
  remove(path);
}

/* A journal entry whose owner is gone is thawed at the next start; a live owner's is kept. */
static void journal_thaws_what_a_dead_owner_left(void) {
  plat_proc helper, gone;
  const char *path = "freeze-helper-journal.txt", *db = "freeze-journal.db";
  REQUIRE(start_helper(&helper, path));
  const char *argv[] = {threadsoup_exe, "--version", NULL};
  ts_err err;
  int code;
  REQUIRE(plat_proc_spawn(&gone, argv, &err) == TS_OK);
  plat_proc_wait(&gone, &code, &err); /* its pid now names no ThreadSoup */
  remove_db(db);
  store *s;
  REQUIRE(store_open(&s, db, &err) == TS_OK);
  plat_process_census census;
  REQUIRE(plat_census_process(helper.pid, &census, &err) == TS_OK);
  store_frozen rows[2] = {{helper.pid, "", gone.pid}, {helper.pid, "", plat_self_pid()}};
  snprintf(rows[0].name, sizeof rows[0].name, "%s", census.name);
  snprintf(rows[1].name, sizeof rows[1].name, "%s", census.name);
  CHECK_INT(store_freeze_record(s, rows, 2, "2026-01-01T00:00:00Z", &err), TS_OK);
  plat_freeze_how how;
  CHECK_INT(plat_process_freeze(helper.pid, &how, &err), TS_OK);
  CHECK(!counting(path, 300));
  char said[512];
  CHECK_INT(experiment_thaw_left(s, said, sizeof said, &err), TS_OK);
  CHECK_STR_CONTAINS(said, "thawed");
  CHECK(counting(path, 1000));
  store_frozen *left;
  int n;
  CHECK_INT(store_freeze_list(s, &left, &n, &err), TS_OK);
  CHECK_INT(n, 1);
  if (n == 1)
    CHECK_INT(left[0].owner_pid, plat_self_pid());
  free(left);
  store_close(s);
  end(&helper);
  remove(path);
  remove_db(db);
}

/* ---- the rules, one case each ---- */

/* A program of the user's own that no rule refuses; each case changes one fact. */
static freeze_facts allowed(void) {
  freeze_facts f = {.pid = 4242, .name = "rgbhelper.exe", .same_user = 1};
  return f;
}

static void refused_by(freeze_facts f, const char *rule) {
  const freeze_rule *r = freeze_refusal(&f);
  CHECK(r != NULL);
  if (r)
    CHECK_STR_EQ(r->name, rule);
}

static void rules_refuse_each_what_they_name(void) {
  freeze_facts f = allowed();
  CHECK(freeze_refusal(&f) == NULL);
  static const char *const critical[] = {
      "csrss.exe", "wininit", "winlogon.exe", "services.exe",     "lsass.exe", "smss.exe",
      "System",    "init",    "systemd",      "systemd-journald", NULL};
  for (int i = 0; critical[i]; i++) {
    f = allowed();
    f.name = critical[i];
    refused_by(f, "os-critical");
  }
  f = allowed();
  f.pid = 1;
  refused_by(f, "os-critical");
  static const char *const desktop[] = {"dwm.exe",  "explorer.exe", "Xorg",
                                        "Xwayland", "gnome-shell",  NULL};
  for (int i = 0; desktop[i]; i++) {
    f = allowed();
    f.name = desktop[i];
    refused_by(f, "desktop");
  }
  f = allowed();
  f.name = "sshd";
  refused_by(f, "remote-access");
  f = allowed();
  f.is_ours = 1;
  refused_by(f, "threadsoup");
  f = allowed();
  f.name = "threadsoup-tray.exe";
  refused_by(f, "threadsoup");
  f = allowed();
  f.is_above_us = 1;
  refused_by(f, "our-terminal");
  static const char *const security[] = {"MsMpEng.exe", "NisSrv.exe", "SecurityHealthService.exe",
                                         "avp.exe",     "clamd",      NULL};
  for (int i = 0; security[i]; i++) {
    f = allowed();
    f.name = security[i];
    refused_by(f, "security");
  }
  f = allowed();
  f.same_user = 0;
  f.member_only = 1;
  f.privileged = 1;
  refused_by(f, "own-programs-only");
  f = allowed();
  f.same_user = 0;
  refused_by(f, "another-user");
  f.privileged = 1; /* root or an elevated administrator may */
  CHECK(freeze_refusal(&f) == NULL);
  f = allowed();
  f.name = "notsystemd"; /* a prefix entry matches names it begins, not names it ends */
  CHECK(freeze_refusal(&f) == NULL);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--count") == 0)
    return helper_main(argv[2]);
  if (argc != 2) {
    fprintf(stderr, "usage: test_freeze PATH-TO-threadsoup\n");
    return 2;
  }
  threadsoup_exe = argv[1];
  RUN_CASE(rules_refuse_each_what_they_name);
  RUN_CASE(thawed_when_the_load_ends);
  RUN_CASE(thawed_when_the_owner_is_killed);
  RUN_CASE(thawed_after_max);
  RUN_CASE(journal_thaws_what_a_dead_owner_left);
  return check_summary();
}

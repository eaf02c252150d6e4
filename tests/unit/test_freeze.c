/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_freeze.c - a frozen program is never left frozen: a helper of this test that counts in a
   file is frozen by `threadsoup load freeze:PID`, and counts again after the load ends, after its
   owner is killed without warning, after the freeze's /max, and after a start of ThreadSoup finds
   it in the freeze journal; and each refusal rule refuses what it names. */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L /* kill, fork, setuid, symlink beside C11 */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
#include <sddl.h>
#else
#include <signal.h>   /* kill: the helper of another user */
#include <sys/stat.h> /* chmod: a folder the member may write */
#include <sys/wait.h> /* waitpid */
#include <unistd.h>   /* geteuid, fork, setuid: the user this test runs as, and another */
#endif

#include "check.h"
#include "engine/freeze.h"
#include "experiment/experiment.h"
#include "plan/plan.h"
#include "store/store.h"
#include "testdb.h"
#include "testservice.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

static const char *threadsoup_exe;

/* ---- the helper: counts in a file, 100 times a second, until it is killed ---- */

/* Counts until killed, or `limit` counts, or until the file PATH.stop appears (a helper that
   is not our child). */
static int helper_main(const char *path, long limit) {
  char stop[PLAT_PATH_MAX];
  snprintf(stop, sizeof stop, "%s.stop", path);
  for (long n = 1; n < limit && !plat_file_exists(stop); n++) {
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

/* This test program, in `program`. */
static int own_program(char *program, size_t len) {
  char dir[PLAT_PATH_MAX], name[64];
  ts_err err;
  if (plat_program_dir(dir, sizeof dir, &err) != TS_OK)
    return 0;
  plat_program_name("test_freeze", name, sizeof name);
  snprintf(program, len, "%s%c%s", dir, plat_path_separator(), name);
  return 1;
}

/* Starts the helper counting in `path`: as our child, or (`how` "--orphan") as the child of a
   process that has ended, so the rule "threadsoup" (what ThreadSoup started) does not apply when
   this test plays the service. */
static int start_helper_as(plat_proc *helper, const char *path, const char *how) {
  char program[PLAT_PATH_MAX + 80], stop[PLAT_PATH_MAX];
  ts_err err;
  if (!own_program(program, sizeof program))
    return 0;
  remove(path);
  snprintf(stop, sizeof stop, "%s.stop", path);
  remove(stop);
  const char *argv[] = {program, how, path, NULL};
  if (plat_proc_spawn(helper, argv, &err) != TS_OK)
    return 0;
  if (strcmp(how, "--orphan") == 0) {
    int code;
    plat_proc_wait(helper, &code, &err);
  }
  return counting(path, 3000);
}

static int start_helper(plat_proc *helper, const char *path) {
  return start_helper_as(helper, path, "--count");
}

/* The orphan: starts the helper (for two minutes at most, should the test fail before it ends
   it) and ends at once, leaving it running; its pid goes to PATH.pid. */
static int orphan_main(const char *path) {
  char program[PLAT_PATH_MAX + 80], pid_path[PLAT_PATH_MAX];
  plat_proc helper;
  ts_err err;
  const char *argv[] = {program, "--count-for-a-while", path, NULL};
  if (!own_program(program, sizeof program) || plat_proc_spawn(&helper, argv, &err) != TS_OK)
    return 1;
  snprintf(pid_path, sizeof pid_path, "%s.pid", path);
  FILE *f = fopen(pid_path, "w");
  if (f) {
    fprintf(f, "%ld\n", helper.pid);
    fclose(f);
  }
  return 0;
}

/* Ends a helper that is not our child: it reads PATH.stop. */
static void stop_orphan(const char *path) {
  char stop[PLAT_PATH_MAX];
  snprintf(stop, sizeof stop, "%s.stop", path);
  FILE *f = fopen(stop, "w");
  if (f)
    fclose(f);
  plat_sleep_ns(300 * TS_NS_PER_MS);
  remove(stop);
  remove(path);
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

/* ---- the members rule, through the service's request path ---- */

#define MEMBERS_DB "freeze-members.db"
#ifdef _WIN32
#define MEMBERS_ADDRESS "\\\\.\\pipe\\threadsoup-test-freeze-members"
#define STRANGER_SID "S-1-5-21-1111111111-2222222222-3333333333-4000"
#else
#define MEMBERS_ADDRESS "freeze-members.sock"
#endif

/* A client of the service as plat_ipc_peer fills it: a member of ThreadSoup Users (group
   threadsoup), or with `admin` root (SYSTEM, an elevated administrator); `own` says whether it is
   the user this test runs as, else a stranger who owns none of its programs. */
static plat_peer client_peer(int admin, int own) {
  plat_peer p;
  memset(&p, 0, sizeof p);
  p.pid = p.session = p.gid = -1;
  p.privileged = 1;
  p.may_run_programs = admin;
  snprintf(p.name, sizeof p.name, "%s", own ? "me" : "stranger");
#ifdef _WIN32
  p.uid = -1;
  HANDLE token;
  BYTE buffer[sizeof(TOKEN_USER) + SECURITY_MAX_SID_SIZE];
  DWORD got = 0;
  char *text = NULL;
  if (own && OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
    if (GetTokenInformation(token, TokenUser, buffer, sizeof buffer, &got) &&
        ConvertSidToStringSidA(((TOKEN_USER *)(void *)buffer)->User.Sid, &text)) {
      snprintf(p.user_sid, sizeof p.user_sid, "%s", text);
      LocalFree(text);
    }
    CloseHandle(token);
  }
  if (!own)
    snprintf(p.user_sid, sizeof p.user_sid, "%s", STRANGER_SID);
#else
  p.uid = own ? (long)geteuid() : 4000000L;
#endif
  return p;
}

/* Asks the service `verb` with one field, as client `peer`; the reply in *out. */
static void ask_service(server *svc, const plat_peer *peer, const char *verb, const char *key,
                        const char *value, proto_message *out) {
  const char *const kv[] = {key, value, NULL};
  REQUIRE(test_ask_as(svc, peer, verb, key ? kv : NULL, out));
}

/* The pid the orphan wrote to PATH.pid, in *pid (-1 when none); 1 when there is one. */
static int orphan_pid(const char *path, long *pid) {
  char pid_path[PLAT_PATH_MAX];
  snprintf(pid_path, sizeof pid_path, "%s.pid", path);
  FILE *f = fopen(pid_path, "r");
  *pid = -1;
  if (f) {
    if (fscanf(f, "%ld", pid) != 1)
      *pid = -1;
    fclose(f);
  }
  remove(pid_path);
  return *pid > 0;
}

/* Starts the helper counting in `path` as an orphan (not ThreadSoup's child, as a user's program
   is) and puts its pid in *pid; 0 when it did not start. */
static int start_orphan(const char *path, long *pid) {
  plat_proc orphan;
  *pid = -1;
  return start_helper_as(&orphan, path, "--orphan") && orphan_pid(path, pid);
}

/* The service these cases ask, started again on the database it left. */
static server *members_service_again(void) {
  server_config config;
  ts_err err;
  memset(&config, 0, sizeof config);
  snprintf(config.address, sizeof config.address, "%s", MEMBERS_ADDRESS);
  snprintf(config.db_path, sizeof config.db_path, "%s", MEMBERS_DB);
  server *svc = NULL;
  plat_interrupt_reset();
  return server_create(&svc, &config, &err) == TS_OK ? svc : NULL;
}

/* The service these cases ask, on a database of its own. */
static server *members_service(void) {
  remove_db(MEMBERS_DB);
  return members_service_again();
}

/* A member of ThreadSoup Users freezes only its own programs, root (an elevated administrator)
   anyone's: the client's identity reaches the freeze through load-start and run-start. */
static void members_freeze_only_their_own_programs(void) {
  const char *path = "freeze-helper-members.txt";
  long helper;
  REQUIRE(start_orphan(path, &helper));
  char spec[48];
  snprintf(spec, sizeof spec, "freeze:%ld", helper);
  server *svc = members_service();
  REQUIRE(svc);
  static proto_message reply;

  plat_peer stranger = client_peer(0, 0), member = client_peer(0, 1), root = client_peer(1, 0);
  ask_service(svc, &stranger, "load-start", "spec", spec, &reply);
  CHECK_STR_EQ(reply.verb, "denied");
  CHECK_STR_CONTAINS(proto_get(&reply, "message"), "by rule own-programs-only");
  CHECK(counting(path, 1000));

  ask_service(svc, &member, "load-start", "spec", spec, &reply);
  CHECK_INT(reply.kind, PROTO_OK);
  CHECK(!counting(path, 500));
  ask_service(svc, &member, "load-stop", NULL, NULL, &reply);
  CHECK(counting(path, 1000));

  ask_service(svc, &root, "load-start", "spec", spec, &reply);
  CHECK_INT(reply.kind, PROTO_OK);
  CHECK(!counting(path, 500));
  ask_service(svc, &root, "load-stop", NULL, NULL, &reply);
  CHECK(counting(path, 1000));

  /* freeze:background for a member who owns nothing that runs: said before anything is stored. */
  ask_service(svc, &stranger, "run-start", "plan",
              "name = t\nconditions = baseline, freeze:background\nbench = builtin-st\n", &reply);
  CHECK_INT(reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(proto_get(&reply, "message"), "freeze:background: no program woke up");
  CHECK_INT(raw_query(MEMBERS_DB, "SELECT count(*) FROM run"), 0);

  server_request_stop(svc, "test over");
  runner_shutdown(svc);
  server_destroy(svc);
  stop_orphan(path);
  remove_db(MEMBERS_DB);
}

/* A schedule keeps who added it (schema 17) and its runs freeze as that client would: a member's
   its own programs only, an administrator's anyone's; one stored without its owner (added before
   version 17) has the stored right alone, so a member's freeze is refused. */
static int collect_owned(void *ctx, const store_schedule *sc) {
  store_schedule *rows = ctx;
  if (sc->id >= 1 && sc->id <= 2)
    rows[sc->id - 1] = *sc;
  return 0;
}

/* Freezes `spec` as the run of schedule `sc` would (scheduler.c): TS_OK when the helper stopped
   counting, else the refusal in *err. */
static int freeze_as_schedule(const store_schedule *sc, const char *spec, const char *path,
                              ts_err *err) {
  plat_peer owner;
  runner_absent_peer("schedule", sc->programs_allowed, &sc->owner, &owner);
  load_spec parsed;
  load *l = NULL;
  if (load_spec_parse(spec, &parsed, err) != TS_OK)
    return err->code;
  int rc = load_start_for(&parsed, &owner, NULL, &l, err);
  if (rc != TS_OK)
    return rc;
  int frozen = !counting(path, 500);
  load_stop(l);
  CHECK(counting(path, 1000));
  return frozen ? TS_OK : ts_err_set(err, TS_EFAILED, "not frozen");
}

static void schedules_freeze_as_their_owner(void) {
  const char *path = "freeze-helper-schedules.txt";
  long helper;
  ts_err err;
  REQUIRE(start_orphan(path, &helper));
  char spec[48], plan_text[160];
  snprintf(spec, sizeof spec, "freeze:%ld", helper);
  snprintf(plan_text, sizeof plan_text, "name = t\nconditions = baseline, %s\nbench = builtin-st\n",
           spec);

  server *svc = members_service();
  REQUIRE(svc);
  static proto_message reply;
  plat_peer member = client_peer(0, 1), stranger = client_peer(0, 0);
  const char *const added[] = {"when", "daily 03:00", "plan", plan_text, NULL};
  REQUIRE(test_ask_as(svc, &member, "schedule-add", added, &reply));
  CHECK_INT(reply.kind, PROTO_OK);
  /* The same plan added by another member is that member's schedule, not the first one's. */
  REQUIRE(test_ask_as(svc, &stranger, "schedule-add", added, &reply));
  CHECK_INT(reply.kind, PROTO_OK);
  static store_schedule rows[2];
  memset(rows, 0, sizeof rows);
  plat_mutex_lock(&svc->db_lock);
  CHECK_INT(store_schedules(svc->db, collect_owned, rows, &err), TS_OK);
  plat_mutex_unlock(&svc->db_lock);
  server_request_stop(svc, "test over");
  runner_shutdown(svc);
  server_destroy(svc);

  /* the member's own program: frozen */
  CHECK_INT(rows[0].owner.known, 1);
  CHECK_INT(rows[0].owner.member, 1);
  CHECK_STR_EQ(rows[0].owner.name, "me");
  CHECK_INT(freeze_as_schedule(&rows[0], spec, path, &err), TS_OK);
  /* another member's schedule: not its program */
  CHECK_INT(rows[1].owner.known, 1);
  CHECK_STR_EQ(rows[1].owner.name, "stranger");
  CHECK_INT(freeze_as_schedule(&rows[1], spec, path, &err), TS_EDENIED);
  CHECK_STR_CONTAINS(err.text, "by rule own-programs-only");
  /* an administrator's schedule, whoever's the program */
  store_schedule admin = rows[1];
  admin.programs_allowed = 1;
  admin.owner.member = 0;
  CHECK_INT(freeze_as_schedule(&admin, spec, path, &err), TS_OK);
  /* a member's schedule stored before its owner was: refused, as before version 17 */
  store_schedule unowned = rows[0];
  unowned.owner.known = 0;
  unowned.programs_allowed = 0;
  CHECK_INT(freeze_as_schedule(&unowned, spec, path, &err), TS_EDENIED);
  CHECK_STR_CONTAINS(err.text, "by rule own-programs-only");
  /* and root's from before: as root */
  unowned.programs_allowed = 1;
  CHECK_INT(freeze_as_schedule(&unowned, spec, path, &err), TS_OK);
  stop_orphan(path);
  remove_db(MEMBERS_DB);
}

/* The trials of run `run_id` under a freeze: condition whose status is `status` (and, when not
   NULL, whose error holds `error`). */
static long long freeze_trials(int64_t run_id, const char *status, const char *error) {
  char sql[320];
  snprintf(sql, sizeof sql,
           "SELECT count(*) FROM trial WHERE run_id=%lld AND condition LIKE 'freeze:%%' AND "
           "status='%s' AND coalesce(error,'') LIKE '%%%s%%'",
           (long long)run_id, status, error ? error : "");
  return raw_query(MEMBERS_DB, sql);
}

/* Starts the service again on the database its stop left, lets it resume the two runs it
   checkpointed as at its start, and checks that run `own` froze the member's own program and run
   `others` was refused it by rule own-programs-only; the program runs again afterwards. */
static void resume_at_start_and_judge(int64_t own, int64_t others, const char *path) {
  server *svc = members_service_again();
  REQUIRE(svc);
  plat_mutex_lock(&svc->lock);
  CHECK_INT(svc->runner.resume_count, 2);
  plat_mutex_unlock(&svc->lock);
  runner_resume_queued(svc); /* as server_serve does; the runner takes the second after it */
  plat_mutex_lock(&svc->lock);
  while (svc->runner.run_active || svc->runner.resume_count)
    plat_cond_wait(&svc->changed, &svc->lock, 100 * TS_NS_PER_MS);
  plat_mutex_unlock(&svc->lock);
  server_request_stop(svc, "test over");
  runner_shutdown(svc);
  server_destroy(svc);

  CHECK_INT(freeze_trials(own, "done", NULL), 1);
  CHECK_INT(freeze_trials(others, "failed", "by rule own-programs-only"), 1);
  CHECK(counting(path, 1000)); /* thawed after its run */
  stop_orphan(path);
  remove_db(MEMBERS_DB);
}

/* Stores a run of `plan_text` as schedule `schedule_id` started it and the service's stop
   interrupted it (to resume at the next start), with the stored right of a member: none. */
static int64_t store_interrupted_scheduled_run(const char *plan_text, int64_t schedule_id) {
  store *db;
  ts_err err;
  static plan p;
  int64_t run_id = 0;
  if (store_open(&db, MEMBERS_DB, &err) != TS_OK)
    return 0;
  if (plan_parse(plan_text, "test", &p, &err) != TS_OK ||
      experiment_start(db, &p, 1, &run_id, &err) != TS_OK ||
      store_run_set_origin(db, run_id, 0, NULL, &err) != TS_OK ||
      store_run_set_schedule(db, run_id, schedule_id, &err) != TS_OK ||
      store_run_checkpoint(db, run_id, "service stopped (test); resumes at the next start",
                           "2026-12-01T03:00:00Z", &err) != TS_OK)
    run_id = 0;
  store_close(db);
  return run_id;
}

/* A member's scheduled run interrupted by the service's stop resumes at its next start as the
   schedule's owner, as when it fired: the member's own program frozen, another member's
   schedule refused the same program. */
static void resumed_schedule_runs_freeze_as_their_owner(void) {
  const char *path = "freeze-helper-resumed.txt";
  long helper;
  REQUIRE(start_orphan(path, &helper));
  char plan_text[256];
  snprintf(plan_text, sizeof plan_text,
           "name = t\nconditions = baseline, freeze:%ld\nbench = builtin-st\nreps = 1\n"
           "warmup = 0\nsettle = 100ms\niterations = 1\nwork-scale = 0.01\n",
           helper);
  server *svc = members_service();
  REQUIRE(svc);
  static proto_message reply;
  plat_peer member = client_peer(0, 1), stranger = client_peer(0, 0);
  const char *const added[] = {"when", "daily 03:00", "plan", plan_text, NULL};
  REQUIRE(test_ask_as(svc, &member, "schedule-add", added, &reply)); /* schedule 1 */
  CHECK_INT(reply.kind, PROTO_OK);
  REQUIRE(test_ask_as(svc, &stranger, "schedule-add", added, &reply)); /* schedule 2 */
  CHECK_INT(reply.kind, PROTO_OK);
  server_request_stop(svc, "test over");
  runner_shutdown(svc);
  server_destroy(svc);

  int64_t own = store_interrupted_scheduled_run(plan_text, 1);
  int64_t others = store_interrupted_scheduled_run(plan_text, 2);
  REQUIRE(own && others);
  resume_at_start_and_judge(own, others, path);
}

/* Asks a new start of the service for a run of `plan_text` as client `peer`, then stops the
   service at once, which checkpoints the run to resume at its next start (`fresh`: on a new
   database). The run's id; 0 when it could not be asked. */
static int64_t run_interrupted_as(const plat_peer *peer, const char *plan_text, int fresh) {
  server *svc = fresh ? members_service() : members_service_again();
  static proto_message reply;
  const char *const asked[] = {"plan", plan_text, NULL};
  int64_t run_id = 0;
  if (svc && test_ask_as(svc, peer, "run-start", asked, &reply) && reply.kind == PROTO_OK)
    run_id = atoll(proto_get(&reply, "run"));
  if (svc) {
    server_request_stop(svc, "test over");
    runner_shutdown(svc);
    server_destroy(svc);
  }
  return run_id;
}

#ifndef _WIN32
#define MEMBER_UID 61235 /* a member of group threadsoup, when this test runs as root */

/* A folder in /tmp that another user may enter and write: the clone may lie in a folder only
   root may enter (a 0700 home), where another user can run and write nothing. "" when it cannot
   be made. */
static const char *others_folder(void) {
  static char folder[64];
  snprintf(folder, sizeof folder, "/tmp/threadsoup-test-freeze-%ld", (long)getpid());
  ts_err err;
  if (plat_mkdir_p(folder, &err) != TS_OK || chmod(folder, 0777) != 0)
    folder[0] = '\0';
  return folder;
}

/* A copy of this test program named `name` in others_folder, its path into `program`. */
static int program_for_others(const char *name, char *program, size_t len) {
  char own[PLAT_PATH_MAX + 80];
  if (!own_program(own, sizeof own) || !others_folder()[0])
    return 0;
  snprintf(program, len, "%s/%s", others_folder(), name);
  FILE *from = fopen(own, "rb"), *to = fopen(program, "wb");
  int ok = from && to;
  char buf[65536];
  size_t n;
  while (ok && (n = fread(buf, 1, sizeof buf, from)) > 0)
    ok = fwrite(buf, 1, n, to) == n;
  if (from)
    fclose(from);
  if (to && fclose(to) != 0)
    ok = 0;
  return ok && chmod(program, 0755) == 0;
}

/* Removes what others_folder and program_for_others made (`names`, NULL-ended). */
static void others_folder_remove(const char *const *names) {
  char path[PLAT_PATH_MAX];
  for (int i = 0; names[i]; i++) {
    snprintf(path, sizeof path, "%s/%s", others_folder(), names[i]);
    remove(path);
  }
  rmdir(others_folder());
}

/* As root, the orphan helper runs as MEMBER_UID, in a folder that user may write: a member of
   the test's own uid would be root, who may freeze anyone's programs. Else as start_orphan. */
static int start_members_orphan(const char *path, long *pid) {
  if (geteuid() != 0)
    return start_orphan(path, pid);
  char program[PLAT_PATH_MAX + 80];
  if (!program_for_others("test_freeze", program, sizeof program))
    return 0;
  remove(path);
  pid_t child = fork();
  if (child == 0) {
    if (setgid(MEMBER_UID) == 0 && setuid(MEMBER_UID) == 0)
      execl(program, program, "--orphan", path, (char *)0);
    _exit(127);
  }
  int status;
  waitpid(child, &status, 0);
  return orphan_pid(path, pid) && counting(path, 3000);
}
#endif

/* A member's run started through the service (run-start, no schedule) and interrupted by the
   service's stop resumes at its next start as that member (schema 18 keeps whom the service
   started it for), as when the member started it: the member's own program frozen; another
   member's run refused the same program, naming the rule. */
static void resumed_client_runs_freeze_as_their_client(void) {
  plat_peer member = client_peer(0, 1), stranger = client_peer(0, 0);
  long helper;
#ifdef _WIN32
  const char *path = "freeze-helper-client-resumed.txt";
  REQUIRE(start_orphan(path, &helper));
#else
  char path[PLAT_PATH_MAX];
  snprintf(path, sizeof path, "%s/freeze-helper-client-resumed.txt",
           geteuid() == 0 ? others_folder() : ".");
  REQUIRE(start_members_orphan(path, &helper));
  if (geteuid() == 0)
    member.uid = MEMBER_UID;
#endif
  char plan_text[256];
  snprintf(plan_text, sizeof plan_text,
           "name = t\nconditions = baseline, freeze:%ld\nbench = builtin-st\nreps = 1\n"
           "warmup = 0\nsettle = 500ms\niterations = 1\nwork-scale = 0.01\n",
           helper);
  int64_t own = run_interrupted_as(&member, plan_text, 1);
  int64_t others = run_interrupted_as(&stranger, plan_text, 0);
  REQUIRE(own && others);
  char sql[160];
  snprintf(sql, sizeof sql,
           "SELECT count(*) FROM run WHERE id IN (%lld, %lld) AND resume_at_start=1 AND "
           "runner='service' AND owner_member=1",
           (long long)own, (long long)others);
  CHECK_INT(raw_query(MEMBERS_DB, sql), 2);
  snprintf(sql, sizeof sql, "SELECT count(*) FROM run WHERE id=%lld AND owner_name='me'",
           (long long)own);
  CHECK_INT(raw_query(MEMBERS_DB, sql), 1);
  /* The freeze is still to run: the resume is what is judged. */
  CHECK_INT(freeze_trials(own, "pending", NULL), 1);
  resume_at_start_and_judge(own, others, path);
#ifndef _WIN32
  if (geteuid() == 0)
    others_folder_remove((const char *const[]){"test_freeze", NULL});
#endif
}

/* ---- freeze:background ---- */

/* The condition stands for each program alone, then all together, its /max carried over; one
   program is one condition; it joins nothing. */
static void background_is_each_alone_then_all(void) {
  load_spec spec, made[FREEZE_BACKGROUND_TOP_MAX + 1];
  ts_err err;
  int is_background = 0, top = 0, n = 0;
  REQUIRE(load_spec_parse("freeze:background/max=1m/top=3", &spec, &err) == TS_OK);
  CHECK_INT(freeze_spec_background(&spec, &is_background, &top, &err), TS_OK);
  CHECK_INT(is_background, 1);
  CHECK_INT(top, 3);
  freeze_waker wakers[3] = {{"firefox", 900, 4}, {"Discord", 300, 2}, {"rgbhelper.exe", 50, 1}};
  CHECK_INT(freeze_background_conditions(&spec, wakers, 3, made, 4, &n, &err), TS_OK);
  CHECK_INT(n, 4);
  CHECK_STR_EQ(made[0].text, "freeze:firefox/max=1m");
  CHECK_STR_EQ(made[2].text, "freeze:rgbhelper.exe/max=1m");
  CHECK_STR_EQ(made[3].text,
               "freeze:firefox/max=1m+freeze:Discord/max=1m+freeze:rgbhelper.exe/max=1m");
  CHECK_INT(freeze_background_conditions(&spec, wakers, 1, made, 4, &n, &err), TS_OK);
  CHECK_INT(n, 1);
  CHECK_INT(freeze_background_conditions(&spec, wakers, 3, made, 3, &n, &err), TS_EINVAL);

  REQUIRE(load_spec_parse("freeze:background", &spec, &err) == TS_OK);
  CHECK_INT(freeze_spec_background(&spec, &is_background, &top, &err), TS_OK);
  CHECK_INT(top, FREEZE_BACKGROUND_TOP);
  REQUIRE(load_spec_parse("freeze:firefox", &spec, &err) == TS_OK);
  CHECK_INT(freeze_spec_background(&spec, &is_background, &top, &err), TS_OK);
  CHECK_INT(is_background, 0);
  REQUIRE(load_spec_parse("freeze:background+sleep:10", &spec, &err) == TS_OK);
  CHECK_INT(freeze_spec_background(&spec, &is_background, &top, &err), TS_EUSAGE);
  CHECK_STR_CONTAINS(err.text, "give it as a condition alone");
}

#ifndef _WIN32
#define LONELY_UID 61234 /* a user with no other program on this machine */

/* Natively as root: the helper runs as a user of its own, not as our child (so neither the rule
   "threadsoup" nor "our-terminal" applies); freeze:background for that user finds it, named, and
   the plan becomes the baseline and it. */
static void background_finds_the_programs_that_wake(void) {
  if (geteuid() != 0) {
    printf("  (skipped: only root can start a program as another user)\n");
    return;
  }
  /* Under a name of its own: freeze:background judges a name by all its processes, and this
     test's own (ThreadSoup's, as it plays the service) is refused. */
  char program[PLAT_PATH_MAX + 80];
  REQUIRE(program_for_others("freeze-bg-waker", program, sizeof program));
  int pipe_fd[2];
  REQUIRE(pipe(pipe_fd) == 0);
  pid_t child = fork();
  if (child == 0) {
    pid_t helper = fork();
    if (helper == 0) {
      close(pipe_fd[0]);
      close(pipe_fd[1]);
      if (setgid(LONELY_UID) == 0 && setuid(LONELY_UID) == 0)
        execl(program, "freeze-bg-waker", "--count-for-a-while", "/nonexistent/freeze-bg.txt",
              (char *)0);
      _exit(127);
    }
    long pid = helper;
    _exit(write(pipe_fd[1], &pid, sizeof pid) == sizeof pid ? 0 : 1);
  }
  close(pipe_fd[1]);
  long helper = -1;
  int status;
  if (read(pipe_fd[0], &helper, sizeof helper) != sizeof helper)
    helper = -1;
  close(pipe_fd[0]);
  waitpid(child, &status, 0);
  REQUIRE(helper > 0);
  plat_sleep_ns(300 * TS_NS_PER_MS);
  plat_peer member;
  memset(&member, 0, sizeof member);
  member.uid = LONELY_UID;
  member.privileged = 1; /* a member of group threadsoup, not root */
  freeze_waker found[FREEZE_BACKGROUND_TOP];
  int count = 0, skipped = 0;
  ts_err err;
  CHECK_INT(freeze_background_find(FREEZE_BACKGROUND_TOP, &member, 500 * TS_NS_PER_MS, found,
                                   &count, &skipped, &err),
            TS_OK);
  if (count != 1)
    fprintf(stderr, "  freeze_background_find: %s\n", err.text);
  CHECK_INT(count, 1);
  if (count == 1) {
    CHECK_STR_EQ(found[0].name, "freeze-bg-waker");
    CHECK(found[0].wakeups_per_s > 20); /* it wakes 100 times a second */
  }
  CHECK(skipped > 0); /* root's programs, ours among them */

  plan *p = malloc(sizeof *p);
  char said[1024];
  REQUIRE(p);
  REQUIRE(plan_parse("name = t\nconditions = baseline, freeze:background\nbench = builtin-st\n",
                     "test", p, &err) == TS_OK);
  CHECK_INT(plan_expand_background(p, &member, said, sizeof said, &err), TS_OK);
  CHECK_INT(p->condition_count, 2);
  CHECK_STR_EQ(p->conditions[1].text, "freeze:freeze-bg-waker");
  CHECK_STR_CONTAINS(said, "freeze:background: the 1 program that woke most in a 2.0 s census");
  CHECK_STR_CONTAINS(said, "freeze-bg-waker");
  free(p);
  kill((pid_t)helper, SIGKILL);
  others_folder_remove((const char *const[]){"freeze-bg-waker", NULL});
}
#endif

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--count") == 0)
    return helper_main(argv[2], 2000000000L); /* 230 days of counting */
  if (argc == 3 && strcmp(argv[1], "--count-for-a-while") == 0)
    return helper_main(argv[2], 12000); /* 2 minutes */
  if (argc == 3 && strcmp(argv[1], "--orphan") == 0)
    return orphan_main(argv[2]);
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
  RUN_CASE(members_freeze_only_their_own_programs);
  RUN_CASE(schedules_freeze_as_their_owner);
  RUN_CASE(resumed_schedule_runs_freeze_as_their_owner);
  RUN_CASE(resumed_client_runs_freeze_as_their_client);
  RUN_CASE(background_is_each_alone_then_all);
#ifndef _WIN32
  RUN_CASE(background_finds_the_programs_that_wake);
#endif
  return check_summary();
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_programs_rule.c - who may make the service run programs, tried where runs are executed: a
   plan with a command benchmark or a tool path (7zip =, cpuz =) started, resumed or scheduled for
   someone not allowed is marked refused and its program never runs (it would create a marker
   file); a planted schedule row is refused at its due time; a foreground run that died is not
   resumed at the service's start. And what a member or root may do to runs not theirs: an
   imported run is resumed by no one; a refused request leaves the run as it was; members record
   only into their own runs. The asker is injected where the runner takes it, the peer where the
   dispatcher takes it. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _WIN32
#include <windows.h>
#include <aclapi.h>
#include <sddl.h>
#else
#include <sys/stat.h>
#endif

#include "check.h"
#include "experiment/experiment.h"
#include "../../shared/src/plat/folder_acl.h"
#include "../../shared/src/plat/peer_rights.h"
#include "server/internal.h"
#include "testdb.h"
#include "testservice.h"
#include "threadsoup/units.h"

#define FOLDER "programs_rule"
#define DB FOLDER "/t.db"
#define MARKER "programs_rule_marker"
#ifdef _WIN32
#define ADDRESS "\\\\.\\pipe\\threadsoup-test-programs-rule"
#define MAKE_MARKER "cmd /c \"echo ran> " MARKER "\""
#define SCRIPT "programs_rule_tool.cmd"
#else
#define ADDRESS FOLDER "/control.sock"
#define MAKE_MARKER "sh -c \"echo ran > " MARKER "\""
#define SCRIPT "programs_rule_tool.sh"
#endif

static const char *const command_plan = "name = t\nconditions = baseline\nbench = command\n"
                                        "command = " MAKE_MARKER "\nreps = 1\nwarmup = 0\n"
                                        "settle = 0s\n";

static void fresh(void) {
  remove_db(DB);
  remove(MARKER);
  plat_mkdir_p(FOLDER, &(ts_err){0, ""});
#ifndef _WIN32
  chmod(FOLDER, 0700);
  remove(ADDRESS);
#endif
}

static server *open_service(void) {
  server_config config;
  memset(&config, 0, sizeof config);
  snprintf(config.address, sizeof config.address, "%s", ADDRESS);
  snprintf(config.db_path, sizeof config.db_path, "%s", DB);
  server *svc = NULL;
  ts_err err;
  plat_interrupt_reset(); /* the previous case's stop raised it */
  int rc = server_create(&svc, &config, &err);
  if (rc != TS_OK)
    fprintf(stderr, "  server_create: %s\n", err.text);
  if (svc)
    svc->commands_allowed = 1; /* the data folder's own check is not what is tried here */
  return svc;
}

static void close_service(server *svc) {
  server_request_stop(svc, "test over");
  runner_shutdown(svc);
  server_destroy(svc);
}

/* Waits (at most 60 s) until nothing runs. */
static void wait_idle(server *svc) {
  runner_status st;
  for (int i = 0; i < 6000; i++) {
    runner_get_status(svc, &st);
    if (!st.run_active)
      return;
    plat_sleep_ns(10 * TS_NS_PER_MS);
  }
  CHECK(!"the run did not end within 60 s");
}

static void check_refused(int64_t run_id, const char *what) {
  store *db;
  ts_err err;
  static store_run_row row;
  REQUIRE(store_open(&db, DB, &err) == TS_OK);
  CHECK_INT(store_run_get(db, run_id, &row, &err), TS_OK);
  CHECK_INT(row.status, STORE_RUN_FAILED);
  CHECK_STR_CONTAINS(row.status_detail, "refused: the plan runs programs");
  CHECK_STR_CONTAINS(row.status_detail, what);
  CHECK_INT(row.trials_done, 0);
  store_close(db);
  plat_sleep_ns(200 * TS_NS_PER_MS);
  CHECK(!plat_file_exists(MARKER));
}

/* A start of `text` by `asker` is refused, saying `why`, and nothing of it runs. */
static void start_refused_for(const runner_asker *asker, const char *text, const char *what,
                              const char *why) {
  fresh();
  server *svc = open_service();
  REQUIRE(svc);
  plan p;
  ts_err err;
  REQUIRE(plan_parse(text, "test", &p, &err) == TS_OK);
  CHECK(plan_runs_programs(&p, NULL, 0));
  int64_t run_id = 0;
  CHECK_INT(runner_start_run(svc, &p, 1, 0, asker, &run_id, &err), TS_EDENIED);
  CHECK_STR_CONTAINS(err.text, why);
  CHECK_STR_CONTAINS(err.text, what);
  runner_status st;
  runner_get_status(svc, &st);
  CHECK(!st.run_active);
  close_service(svc);
  REQUIRE(run_id > 0);
  check_refused(run_id, what);
}

static void start_refused(const char *text, const char *what) {
  runner_asker mallory = {"mallory", 0, 0, NULL, NULL};
  start_refused_for(&mallory, text, what, "mallory may not make the service run them");
}

static void start_of_a_command_is_refused(void) { start_refused(command_plan, "command"); }

/* An administrator whose token is not elevated (the tray under UAC, a member of ThreadSoup
   Users) is told to elevate, not that it may not. */
static void start_by_an_unelevated_administrator_says_so(void) {
  runner_asker ann = {"PC\\ann", 0, 1, NULL, NULL};
  start_refused_for(&ann, command_plan, "command",
                    "the administrator rights of PC\\ann are not elevated");
}

static void start_naming_a_tool_path_is_refused(void) {
  FILE *f = fopen(SCRIPT, "w");
  REQUIRE(f);
#ifdef _WIN32
  fputs("@echo ran> " MARKER "\r\n", f);
#else
  fputs("#!/bin/sh\necho ran > " MARKER "\n", f);
#endif
  fclose(f);
#ifndef _WIN32
  chmod(SCRIPT, 0755);
#endif
  char text[512];
  snprintf(text, sizeof text,
           "name = t\nconditions = baseline\nbench = 7zip:1\n7zip = %s\nreps = 1\nwarmup = 0\n",
           SCRIPT);
  start_refused(text, "7zip = " SCRIPT);
  snprintf(text, sizeof text,
           "name = t\nconditions = baseline\nbench = cpuz\ncpuz = %s\nreps = 1\nwarmup = 0\n",
           SCRIPT);
  start_refused(text, "cpuz = " SCRIPT);
  remove(SCRIPT);
}

/* A folder the service would write its export into is the same right: as SYSTEM or root it
   could otherwise be made to write where the asker may not. */
static void start_naming_an_export_folder_is_refused(void) {
  start_refused("name = t\nconditions = baseline\nbench = builtin-st\nreps = 1\nwarmup = 0\n"
                "export-to = exports\n",
                "export-to = exports");
}

/* A schedule-add as `peer` sent it, through the service's dispatcher: the reply in *out. */
static void ask_as(server *svc, const plat_peer *peer, const char *verb, const char *when,
                   const char *plan_text, proto_message *out) {
  const char *const kv[] = {"when", when, "plan", plan_text, NULL};
  REQUIRE(test_ask_as(svc, peer, verb, kv, out));
}

/* A request `verb` with fields `kv` (key, value, …, NULL) as `peer` sent it, through the
   service's dispatcher, and its reply through the wire and back: the reply in *out. */
static void ask_with(server *svc, const plat_peer *peer, const char *verb, const char *const *kv,
                     proto_message *out) {
  static proto_message in, sent;
  static client from;
  static char wire[PROTO_MAX_MESSAGE];
  ts_err err;
  memset(&from, 0, sizeof from);
  from.svc = svc;
  from.peer = *peer;
  proto_init(&in, PROTO_REQUEST, verb);
  for (int i = 0; kv && kv[i]; i += 2)
    REQUIRE(proto_add(&in, kv[i], kv[i + 1], &err) == TS_OK);
  request r = {svc, &from, &in, &sent, {0, ""}};
  server_dispatch(&r);
  size_t length = 0, consumed = 0;
  CHECK_INT(proto_encode(&sent, wire, sizeof wire, &length, &err), TS_OK);
  CHECK_INT(proto_decode(wire, length, &consumed, out, &err), TS_OK);
  CHECK_INT((long long)consumed, (long long)length);
}

/* A peer as the platform's ipc.c fills it from what peer_rights_decide makes of `facts`. */
static plat_peer peer_of(const char *name, const peer_facts *facts) {
  peer_rights rights;
  peer_rights_decide(facts, &rights);
  plat_peer peer;
  memset(&peer, 0, sizeof peer);
  peer.pid = -1;
  peer.session = -1;
  snprintf(peer.name, sizeof peer.name, "%s", name);
  peer.privileged = rights.privileged;
  peer.may_run_programs = rights.may_run_programs;
  peer.admin_not_elevated = rights.control_refusal == PEER_REFUSAL_NOT_ELEVATED ||
                            rights.programs_refusal == PEER_REFUSAL_NOT_ELEVATED;
#ifdef _WIN32
  peer.uid = peer.gid = -1;
#else
  peer.uid = facts->is_root ? 0 : 1000;
  peer.gid = 1000;
#endif
  return peer;
}

#define EXPORT_PLAN                                                                                \
  "name = t\nconditions = baseline\nbench = builtin-st\nreps = 1\nwarmup = 0\n"                    \
  "export-to = fleet-exports\n"

/* A schedule whose plan writes its export into a folder needs the programs right, as a run of it
   does: a member of ThreadSoup Users (group threadsoup), who may add schedules, is refused with
   the words every such plan gets, and nothing is stored; SYSTEM (root) adds it, the list shows
   its folder, and the same schedule asked for again is not added twice. */
static void schedule_with_an_export_folder_needs_the_programs_right(void) {
  fresh();
  server *svc = open_service();
  REQUIRE(svc);
  static proto_message reply;
#ifdef _WIN32
  peer_facts member_facts = {
      .windows = 1, .elevation_type = PEER_ELEVATION_DEFAULT, .group_member = 1};
  peer_facts system_facts = {.windows = 1, .is_system = 1, .admin_enabled = 1};
  peer_facts unelevated_facts = {.windows = 1,
                                 .admin_deny_only = 1,
                                 .group_member = 1,
                                 .elevation_type = PEER_ELEVATION_LIMITED};
#else
  peer_facts member_facts = {.group_member = 1};
  peer_facts system_facts = {.is_root = 1};
  peer_facts unelevated_facts = {.group_member = 1};
#endif
  plat_peer member = peer_of("PC\\bob", &member_facts);
  REQUIRE(member.privileged && !member.may_run_programs);
  ask_as(svc, &member, "schedule-add", "daily 03:00", EXPORT_PLAN, &reply);
  CHECK_INT(reply.kind, PROTO_ERROR);
  CHECK_STR_EQ(reply.verb, "denied");
  CHECK_STR_CONTAINS(proto_get(&reply, "message"),
                     "the plan runs programs (export-to = fleet-exports): only root (on Windows "
                     "SYSTEM or an elevated administrator, not members of ThreadSoup Users) may "
                     "schedule it");
  /* An administrator of the tray (unelevated, in the group) is told to run it elevated. */
  plat_peer unelevated = peer_of("PC\\ann", &unelevated_facts);
  ask_as(svc, &unelevated, "schedule-add", "daily 03:00", EXPORT_PLAN, &reply);
  CHECK_INT(reply.kind, PROTO_ERROR);
#ifdef _WIN32
  CHECK_STR_CONTAINS(proto_get(&reply, "message"), "run it elevated");
#endif
  CHECK_INT(raw_query(DB, "SELECT count(*) FROM schedule"), 0);

  plat_peer system = peer_of("NT AUTHORITY\\SYSTEM", &system_facts);
  REQUIRE(system.may_run_programs);
  ask_as(svc, &system, "schedule-add", "daily 03:00", EXPORT_PLAN, &reply);
  CHECK_INT(reply.kind, PROTO_OK);
  CHECK_STR_EQ(proto_get(&reply, "schedule"), "1");
  CHECK(proto_get(&reply, "note") == NULL);
  /* The same again (an installer run twice): schedule 1 named, nothing added. */
  ask_as(svc, &system, "schedule-add", "daily 03:00", EXPORT_PLAN, &reply);
  CHECK_INT(reply.kind, PROTO_OK);
  CHECK_STR_EQ(proto_get(&reply, "schedule"), "1");
  CHECK_STR_CONTAINS(proto_get(&reply, "note"), "not added again");
  CHECK_INT(raw_query(DB, "SELECT count(*) FROM schedule"), 1);
  /* Another time is another schedule. */
  ask_as(svc, &system, "schedule-add", "daily 04:00", EXPORT_PLAN, &reply);
  CHECK_STR_EQ(proto_get(&reply, "schedule"), "2");
  CHECK_INT(raw_query(DB, "SELECT count(*) FROM schedule"), 2);

  ask_as(svc, &member, "schedule-list", NULL, NULL, &reply);
  CHECK_INT(reply.kind, PROTO_OK);
  int rows = 0, folders = 0;
  for (int i = 0; i < reply.field_count; i++) {
    if (strcmp(reply.fields[i].key, "schedule") == 0)
      rows++;
    if (strcmp(reply.fields[i].key, "export-to") == 0) {
      folders++;
      /* Right after its own row. */
      REQUIRE(i > 0);
      char id[24];
      snprintf(id, sizeof id, "%.*s|", (int)strcspn(proto_value(&reply, i - 1), "|"),
               proto_value(&reply, i - 1));
      CHECK(strncmp(proto_value(&reply, i), id, strlen(id)) == 0);
      CHECK_STR_EQ(proto_value(&reply, i) + strlen(id), "fleet-exports");
    }
  }
  CHECK_INT(rows, 2);
  CHECK_INT(folders, 2);
  close_service(svc);
}

static void plan_without_programs_is_not_refused(void) {
  plan p;
  ts_err err;
  REQUIRE(plan_preset("quick", &p, &err) == TS_OK);
  CHECK(!plan_runs_programs(&p, NULL, 0));
}

#ifndef _WIN32
/* The control: the same command plan for an allowed asker runs, and its program makes the
   marker. */
static void start_for_root_runs_the_command(void) {
  fresh();
  server *svc = open_service();
  REQUIRE(svc);
  plan p;
  ts_err err;
  REQUIRE(plan_parse(command_plan, "test", &p, &err) == TS_OK);
  runner_asker root = {"root", 1, 0, NULL, NULL};
  int64_t run_id = 0;
  CHECK_INT(runner_start_run(svc, &p, 1, 0, &root, &run_id, &err), TS_OK);
  wait_idle(svc);
  close_service(svc);
  CHECK(plat_file_exists(MARKER));
  remove(MARKER);
}
#endif

/* Stores a run of `plan_text` as if it had died mid-way: status running; with `by_service`,
   the service's, with the right and the client (`owner`, may be NULL) given. */
static int64_t store_dead_run_of(const char *plan_text, int by_service, int programs_allowed,
                                 const store_owner *owner) {
  store *db;
  ts_err err;
  plan p;
  int64_t run_id = 0;
  if (store_open(&db, DB, &err) != TS_OK || plan_parse(plan_text, "test", &p, &err) != TS_OK)
    return 0;
  if (experiment_start(db, &p, 1, &run_id, &err) != TS_OK)
    run_id = 0;
  if (run_id && by_service)
    store_run_set_origin(db, run_id, programs_allowed, owner, &err);
  store_close(db);
  return run_id;
}

/* The same for the command plan. */
static int64_t store_dead_run(int by_service, int programs_allowed) {
  return store_dead_run_of(command_plan, by_service, programs_allowed, NULL);
}

static void foreground_run_that_died_is_not_resumed(void) {
  fresh();
  int64_t foreground = store_dead_run(0, 0);
  int64_t service = store_dead_run(1, 1);
  REQUIRE(foreground && service);
  server *svc = open_service();
  REQUIRE(svc);
  plat_mutex_lock(&svc->lock);
  CHECK_INT(svc->runner.resume_count, 1);
  CHECK_INT(svc->runner.resume_queue[0], service);
  plat_mutex_unlock(&svc->lock);
  close_service(svc);
  store *db;
  ts_err err;
  static store_run_row row;
  REQUIRE(store_open(&db, DB, &err) == TS_OK);
  CHECK_INT(store_run_get(db, foreground, &row, &err), TS_OK);
  CHECK_INT(row.status, STORE_RUN_RUNNING); /* left for run --resume */
  store_close(db);
}

/* A run the service was running, whose stored right does not allow programs (written into the
   database by someone else): resumed at the start, refused where it runs. */
static void resume_at_start_without_the_right_is_refused(void) {
  fresh();
  int64_t run_id = store_dead_run(1, 0);
  REQUIRE(run_id);
  server *svc = open_service();
  REQUIRE(svc);
  runner_resume_queued(svc);
  wait_idle(svc);
  close_service(svc);
  check_refused(run_id, "command");
}

/* Run `run_id` as the store reads it, all of it (read_run_row zeroes the row first, so two reads
   of an unchanged run are equal byte for byte). */
static void read_run(int64_t run_id, store_run_row *row) {
  store *db;
  ts_err err;
  REQUIRE(store_open(&db, DB, &err) == TS_OK);
  CHECK_INT(store_run_get(db, run_id, row, &err), TS_OK);
  store_close(db);
}

static void raw_exec(const char *sql) {
  sqlite3 *raw;
  REQUIRE(sqlite3_open(DB, &raw) == SQLITE_OK);
  CHECK_INT(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
  sqlite3_close(raw);
}

/* A refused request answers; it does not write: the run stays as it was, byte for byte, and its
   command never runs. */
static void resume_request_without_the_right_is_refused(void) {
  fresh();
  int64_t run_id = store_dead_run(0, 1);
  REQUIRE(run_id);
  static store_run_row before, after;
  read_run(run_id, &before);
  server *svc = open_service();
  REQUIRE(svc);
  runner_asker mallory = {"mallory", 0, 0, NULL, NULL};
  ts_err err;
  CHECK_INT(runner_resume_run(svc, run_id, &mallory, &err), TS_EDENIED);
  CHECK_STR_CONTAINS(err.text, "refused: the plan runs programs (a command benchmark)");
  CHECK_STR_CONTAINS(err.text, "mallory");
  close_service(svc);
  read_run(run_id, &after);
  CHECK_INT(after.status, STORE_RUN_RUNNING);
  CHECK(memcmp(&before, &after, sizeof before) == 0);
  plat_sleep_ns(200 * TS_NS_PER_MS);
  CHECK(!plat_file_exists(MARKER));
}

/* A client's resume makes the run that client's: the right and the client are stored with it,
   replacing whom it was started for, so that a later resume at the service's start freezes as
   the client who resumed it. */
static void client_resume_makes_the_run_its_own(void) {
  fresh();
  store_owner first = {1, 1000, "", "first", 1}, second = {1, 1001, "", "second", 0};
  int64_t run_id =
      store_dead_run_of("name = t\nconditions = baseline\nbench = builtin-st\nreps = 1\n"
                        "warmup = 0\nsettle = 0s\niterations = 1\nwork-scale = 0.01\n",
                        1, 0, &first);
  REQUIRE(run_id);
  /* Stopped by a user: not one the service's start resumes by itself. */
  store *db;
  ts_err err;
  REQUIRE(store_open(&db, DB, &err) == TS_OK);
  CHECK_INT(
      store_run_end(db, run_id, STORE_RUN_INTERRUPTED, "stopped", "2026-01-01T00:00:00Z", &err),
      TS_OK);
  store_close(db);
  server *svc = open_service();
  REQUIRE(svc);
  runner_asker asker = {"second", 1, 0, NULL, &second};
  CHECK_INT(runner_resume_run(svc, run_id, &asker, &err), TS_OK);
  wait_idle(svc);
  close_service(svc);
  static store_run_row row;
  read_run(run_id, &row);
  CHECK_INT(row.status, STORE_RUN_FINISHED);
  CHECK_INT(row.programs_allowed, 1);
  CHECK_INT(row.started_for.known, 1);
  CHECK_STR_EQ(row.started_for.name, "second");
  CHECK(row.started_for.uid == 1001);
  CHECK_INT(row.started_for.member, 0);
}

/* The facts of a member of group threadsoup (ThreadSoup Users) and of root (SYSTEM). */
#ifdef _WIN32
static const peer_facts member_facts_here = {
    .windows = 1, .elevation_type = PEER_ELEVATION_DEFAULT, .group_member = 1};
static const peer_facts root_facts_here = {.windows = 1, .is_system = 1, .admin_enabled = 1};
#else
static const peer_facts member_facts_here = {.group_member = 1};
static const peer_facts root_facts_here = {.is_root = 1};
#endif

#define IMPORTED_FROM "/srv/share/threadsoup-run-0123456789abcdef0123456789abcdef.jsonl"

/* Makes run `run_id` look imported from IMPORTED_FROM and interrupted, its trials pending. */
static void make_imported(int64_t run_id) {
  char sql[512];
  snprintf(sql, sizeof sql,
           "UPDATE run SET status='interrupted', imported_from='%s', "
           "imported_at='2026-01-02T03:04:05Z', runner='service', programs_allowed=1 WHERE id=%lld",
           IMPORTED_FROM, (long long)run_id);
  raw_exec(sql);
}

/* An imported run, interrupted, whose plan runs a program: resumed by no one, not root's
   run-resume, not the runner, not the foreground (experiment_resume, what run --resume calls),
   not the service's start; each refusal names the file; the run is unchanged and its command
   never runs. */
static void imported_run_is_never_resumed(void) {
  fresh();
  int64_t run_id = store_dead_run(1, 1);
  REQUIRE(run_id);
  make_imported(run_id);
  static store_run_row before, after;
  read_run(run_id, &before);
  char why[256];
  snprintf(why, sizeof why,
           "run %lld was imported from " IMPORTED_FROM ": it belongs to the machine that measured "
           "it; import it elsewhere or start a new run",
           (long long)run_id);

  server *svc = open_service();
  REQUIRE(svc);
  plat_mutex_lock(&svc->lock);
  CHECK_INT(svc->runner.resume_count, 0); /* not queued at the start */
  plat_mutex_unlock(&svc->lock);
  runner_asker root = {"root", 1, 0, NULL, NULL};
  ts_err err;
  CHECK_INT(runner_resume_run(svc, run_id, &root, &err), TS_EDENIED);
  CHECK_STR_EQ(err.text, why);
  plat_peer root_peer = peer_of("root", &root_facts_here);
  plat_peer member = peer_of("bob", &member_facts_here);
  char id[24];
  snprintf(id, sizeof id, "%lld", (long long)run_id);
  const char *const fields[] = {"run", id, NULL};
  static proto_message reply;
  const plat_peer *askers[] = {&root_peer, &member};
  for (int i = 0; i < 2; i++) {
    ask_with(svc, askers[i], "run-resume", fields, &reply);
    CHECK_INT(reply.kind, PROTO_ERROR);
    CHECK_STR_EQ(reply.verb, "denied");
    CHECK_STR_EQ(proto_get(&reply, "message"), why);
  }
  runner_status st;
  runner_get_status(svc, &st);
  CHECK(!st.run_active);
  close_service(svc);

  store *db;
  plan p;
  REQUIRE(store_open(&db, DB, &err) == TS_OK);
  CHECK_INT(experiment_resume(db, run_id, NULL, NULL, &p, &err), TS_EDENIED);
  CHECK_STR_EQ(err.text, why);
  store_close(db);
  read_run(run_id, &after);
  CHECK(memcmp(&before, &after, sizeof before) == 0);
  plat_sleep_ns(200 * TS_NS_PER_MS);
  CHECK(!plat_file_exists(MARKER));
}

/* A member's run-resume of root's finished run, whose plan writes an export (a right the member
   lacks): refused as finished, and the run's status, detail and every other column are as they
   were, byte for byte. */
static void members_refused_resume_changes_nothing(void) {
  fresh();
  store *db;
  ts_err err;
  plan p;
  int64_t run_id = 0;
  REQUIRE(store_open(&db, DB, &err) == TS_OK);
  REQUIRE(plan_parse(EXPORT_PLAN, "test", &p, &err) == TS_OK);
  REQUIRE(experiment_start(db, &p, 1, &run_id, &err) == TS_OK);
  REQUIRE(store_run_set_origin(db, run_id, 1, NULL, &err) == TS_OK);
  REQUIRE(store_run_end(db, run_id, STORE_RUN_FINISHED, "exported to fleet-exports",
                        "2026-01-01T00:00:00Z", &err) == TS_OK);
  store_close(db);
  static store_run_row before, after;
  read_run(run_id, &before);
  server *svc = open_service();
  REQUIRE(svc);
  plat_peer member = peer_of("bob", &member_facts_here);
  char id[24];
  snprintf(id, sizeof id, "%lld", (long long)run_id);
  const char *const fields[] = {"run", id, NULL};
  static proto_message reply;
  ask_with(svc, &member, "run-resume", fields, &reply);
  CHECK_INT(reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(proto_get(&reply, "message"), "is already finished");
  close_service(svc);
  read_run(run_id, &after);
  CHECK_INT(after.status, STORE_RUN_FINISHED);
  CHECK_STR_EQ(after.status_detail, "exported to fleet-exports");
  CHECK(memcmp(&before, &after, sizeof before) == 0);
}

/* `record` as `peer` into `run` ("new" or a number): the reply in *reply. */
static void record_as(server *svc, const plat_peer *peer, const char *run, proto_message *reply) {
  const char *const fields[] = {"bench", "cpuz-single", "condition", "baseline", "score",
                                "512",   "run",         run,         NULL};
  ask_with(svc, peer, "record", fields, reply);
}

/* Members record only into their own runs of scores typed in: root's measured run, a run being
   measured, root's typed-in run, an imported run are refused, with nothing added; a member's own
   run (run new) takes its scores, and another member's does not. Root records into any run of
   scores typed in, never into an imported run or one ThreadSoup measured. */
static void members_record_only_into_their_own_runs(void) {
  fresh();
  int64_t measured = store_dead_run(1, 1);
  int64_t running = store_dead_run(1, 1);
  int64_t imported = store_dead_run(1, 1);
  REQUIRE(measured && running && imported);
  char sql[160];
  snprintf(sql, sizeof sql, "UPDATE run SET status='finished' WHERE id=%lld", (long long)measured);
  raw_exec(sql);
  make_imported(imported);
  server *svc = open_service();
  REQUIRE(svc);
  /* Not resumed at the start: this test's runs stay as they are. */
  plat_mutex_lock(&svc->lock);
  svc->runner.resume_count = 0;
  plat_mutex_unlock(&svc->lock);
  plat_peer root = peer_of("root", &root_facts_here);
  plat_peer bob = peer_of("bob", &member_facts_here);
  plat_peer eve = peer_of("eve", &member_facts_here);
  static proto_message reply;
  record_as(svc, &root, "new", &reply);
  CHECK_INT(reply.kind, PROTO_OK);
  char roots[24], bobs[24], id[24];
  snprintf(roots, sizeof roots, "%s", proto_get(&reply, "run") ? proto_get(&reply, "run") : "0");
  record_as(svc, &bob, "new", &reply);
  CHECK_INT(reply.kind, PROTO_OK);
  snprintf(bobs, sizeof bobs, "%s", proto_get(&reply, "run") ? proto_get(&reply, "run") : "0");
  long long trials = raw_query(DB, "SELECT count(*) FROM trial");

  const struct {
    int64_t run;
    const char *says;
  } refused[] = {{measured, "is a measured run: bob may record only into a run of its own"},
                 {running, "is a run being measured"},
                 {atoll(roots), "is a run of scores typed in by someone else"},
                 {imported, "was imported from " IMPORTED_FROM}};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    snprintf(id, sizeof id, "%lld", (long long)refused[i].run);
    record_as(svc, &bob, id, &reply);
    CHECK_INT(reply.kind, PROTO_ERROR);
    CHECK_STR_EQ(reply.verb, "denied");
    CHECK_STR_CONTAINS(proto_get(&reply, "message"), refused[i].says);
  }
  record_as(svc, &eve, bobs, &reply); /* another member's own run */
  CHECK_INT(reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(proto_get(&reply, "message"), "typed in by someone else");
  snprintf(id, sizeof id, "%lld", (long long)imported);
  record_as(svc, &root, id, &reply); /* root neither: it is another machine's */
  CHECK_INT(reply.kind, PROTO_ERROR);
  CHECK_STR_CONTAINS(proto_get(&reply, "message"), "it belongs to the machine that measured it");
  CHECK_INT(raw_query(DB, "SELECT count(*) FROM trial"), trials);

  /* Nor into a run ThreadSoup measured, finished or running: a score typed in there would read
     as one of its measurements. */
  const int64_t measured_runs[] = {measured, running};
  for (size_t i = 0; i < 2; i++) {
    snprintf(id, sizeof id, "%lld", (long long)measured_runs[i]);
    record_as(svc, &root, id, &reply);
    CHECK_INT(reply.kind, PROTO_ERROR);
    CHECK_STR_CONTAINS(proto_get(&reply, "message"),
                       "is a run ThreadSoup measured: a score typed in does not belong among its "
                       "measurements (accepted: --run new, or a run that record made)");
  }
  CHECK_INT(raw_query(DB, "SELECT count(*) FROM trial"), trials);

  record_as(svc, &bob, bobs, &reply);
  CHECK_INT(reply.kind, PROTO_OK);
  record_as(svc, &root, bobs, &reply);
  CHECK_INT(reply.kind, PROTO_OK);
  CHECK_INT(raw_query(DB, "SELECT count(*) FROM trial"), trials + 2);
  snprintf(sql, sizeof sql, "SELECT owner='bob' FROM run WHERE id=%s", bobs);
  CHECK_INT(raw_query(DB, sql), 1);
  close_service(svc);
}

/* A schedule row planted straight into the database (no programs_allowed): refused at its due
   time, with the reason in its event, and the command never runs. */
static void planted_schedule_is_refused(void) {
  fresh();
  server *svc = open_service();
  REQUIRE(svc);
  sqlite3 *raw;
  REQUIRE(sqlite3_open(DB, &raw) == SQLITE_OK);
  char *sql = sqlite3_mprintf("INSERT INTO schedule (spec, plan_text, next_due, created_at) "
                              "VALUES ('daily 03:00', %Q, %lld, '2026-01-01T00:00:00Z')",
                              command_plan, (long long)time(NULL) - 1);
  CHECK_INT(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
  sqlite3_free(sql);
  sqlite3_close(raw);
  plat_thread scheduler;
  ts_err err;
  REQUIRE(plat_thread_start(&scheduler, SERVER_THREAD_STACK, server_scheduler_main, svc, &err) ==
          TS_OK);
  long long events = 0;
  for (int i = 0; i < 3000 && events <= 0; i++) {
    plat_sleep_ns(10 * TS_NS_PER_MS);
    events = raw_query(DB, "SELECT count(*) FROM schedule_event");
  }
  server_request_stop(svc, "test over");
  plat_thread_join(scheduler);
  wait_idle(svc);
  close_service(svc);
  CHECK_INT(events, 1);
  CHECK_INT(raw_query(DB, "SELECT what='skipped' AND detail LIKE 'refused: the plan runs programs%'"
                          " FROM schedule_event"),
            1);
  long long run_id = raw_query(DB, "SELECT run_id FROM schedule_event");
  CHECK(run_id > 0);
  if (run_id > 0)
    check_refused(run_id, "command");
}

#ifdef _WIN32
/* The service's data folder's access list, read back: protected (nothing inherited from
   ProgramData, where Users may create files), SYSTEM and Administrators full control, Users read;
   a folder that was there with an inherited list is given the same. */
static void check_protected(const char *folder) {
  PSECURITY_DESCRIPTOR sd = NULL;
  PACL dacl = NULL;
  REQUIRE(GetNamedSecurityInfoA(folder, SE_FILE_OBJECT, DACL_SECURITY_INFORMATION, NULL, NULL,
                                &dacl, NULL, &sd) == ERROR_SUCCESS);
  char *sddl = NULL;
  CHECK(ConvertSecurityDescriptorToStringSecurityDescriptorA(
      sd, SDDL_REVISION_1, DACL_SECURITY_INFORMATION, &sddl, NULL));
  fprintf(stderr, "  %s: %s\n", folder, sddl ? sddl : "?");
  if (sddl && !strstr(sddl, ";BA)") && !strstr(sddl, ";BU)")) {
    /* Wine keeps access lists only where the file system holds extended attributes; elsewhere
       it shows one made from the Unix mode (SYSTEM and the user), whatever was set. */
    fprintf(stderr, "  note: this Wine shows an access list made from the Unix mode, not the one "
                    "set; not checked here\n");
    LocalFree(sddl);
    LocalFree(sd);
    return;
  }
  /* The one descriptor of the data folder, however Windows writes it back. */
  folder_acl have, want;
  char why[256] = "";
  REQUIRE(folder_acl_parse(FOLDER_ACL_SERVICE_DATA, &want, why, sizeof why) == 0);
  CHECK(folder_acl_parse(sddl, &have, why, sizeof why) == 0);
  /* The list only: the owner is this test's account (the service's would be SYSTEM). */
  CHECK_INT(folder_acl_data_action(&have, &want, have.owner), FOLDER_DATA_KEEP);
  CHECK(dacl && dacl->AceCount == 3);
  LocalFree(sddl);
  LocalFree(sd);
}

static void data_folder_access_list_is_protected(void) {
  const char *folder = "C:\\threadsoup-tests-programs-data";
  ts_err err;
  RemoveDirectoryA(folder);
  char note[600] = "?";
  REQUIRE(plat_mkdir_service_data(folder, note, sizeof note, &err) == TS_OK);
  CHECK_STR_EQ(note, ""); /* made with the list: nothing to say */
  check_protected(folder);
  RemoveDirectoryA(folder);
  REQUIRE(CreateDirectoryA(folder, NULL)); /* inherits C:\'s list */
  CHECK_INT(plat_mkdir_service_data(folder, note, sizeof note, &err), TS_OK);
  check_protected(folder);
  CHECK_STR_EQ(note, ""); /* ours, with another list: set again, nothing moved */
  RemoveDirectoryA(folder);
}
#endif

int main(void) {
  RUN_CASE(plan_without_programs_is_not_refused);
  RUN_CASE(start_of_a_command_is_refused);
  RUN_CASE(start_by_an_unelevated_administrator_says_so);
  RUN_CASE(start_naming_a_tool_path_is_refused);
  RUN_CASE(start_naming_an_export_folder_is_refused);
  RUN_CASE(schedule_with_an_export_folder_needs_the_programs_right);
#ifndef _WIN32
  RUN_CASE(start_for_root_runs_the_command);
#endif
  RUN_CASE(foreground_run_that_died_is_not_resumed);
  RUN_CASE(resume_at_start_without_the_right_is_refused);
  RUN_CASE(resume_request_without_the_right_is_refused);
  RUN_CASE(client_resume_makes_the_run_its_own);
  RUN_CASE(imported_run_is_never_resumed);
  RUN_CASE(members_refused_resume_changes_nothing);
  RUN_CASE(members_record_only_into_their_own_runs);
  RUN_CASE(planted_schedule_is_refused);
#ifdef _WIN32
  RUN_CASE(data_folder_access_list_is_protected);
#endif
  remove_db(DB);
  return check_summary();
}

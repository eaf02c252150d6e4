/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_quiet_owner.c - quiet mode of a foreground process that does not end normally, on a fake
   machine shared with a child process (Linux has no Defender): SIGHUP of a closing terminal
   interrupts it and it restores on its way out; a kill -9 leaves its journal entry open, and the
   next foreground start restores it because its process no longer runs. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "quiet/quiet.h"
#include "store/store.h"
#include "testdb.h"
#include "threadsoup/plat.h"

/* The fake Windows, in memory both processes see. */
static struct shared_machine {
  int defender_on;
  int64_t paused_until;
  int defender_sets, update_sets;
} * machine;

static int defender_get(int *on, ts_err *err) {
  (void)err;
  *on = machine->defender_on;
  return TS_OK;
}
static int defender_set(int on, ts_err *err) {
  (void)err;
  machine->defender_sets++;
  machine->defender_on = on;
  return TS_OK;
}
static int update_get(int64_t *until, ts_err *err) {
  (void)err;
  *until = machine->paused_until;
  return TS_OK;
}
static int update_set(int64_t until, ts_err *err) {
  (void)err;
  machine->update_sets++;
  machine->paused_until = until;
  return TS_OK;
}
static const char *nothing_missing(void) { return NULL; }

static const plat_quiet_ops shared_ops = {defender_get,    defender_set, update_get, update_set,
                                          nothing_missing, NULL,         NULL};

/* A foreground process: enters quiet mode in the database at `path`, says so on `ready`, then
   waits as a run does until interrupted (restores, exits 0) or killed. */
static void foreground(const char *path, int ready) {
  store *s = NULL;
  ts_err err;
  quiet_outcome out;
  if (store_open(&s, path, &err) != TS_OK || plat_interrupt_install(&err) != TS_OK ||
      quiet_enter(s, &shared_ops, QUIET_BOTH, 3600, "run 1", &out, &err) != TS_OK)
    _exit(2);
  if (write(ready, "!", 1) != 1)
    _exit(3);
  plat_interrupt_wait(UINT64_MAX);
  _exit(quiet_leave(s, &shared_ops, &out, &err) == TS_OK ? 0 : 4);
}

static void start_foreground(const char *path, pid_t *out) {
  int fds[2];
  *out = -1;
  REQUIRE(pipe(fds) == 0);
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    foreground(path, fds[1]);
  }
  close(fds[1]);
  char byte;
  CHECK(read(fds[0], &byte, 1) == 1);
  close(fds[0]);
  CHECK_INT(machine->defender_on, 0);
  CHECK(machine->paused_until > 0);
  *out = pid;
}

static void sighup_restores_on_the_way_out(void) {
  const char *path = "quiet_owner_hup.db";
  remove_db(path);
  memset(machine, 0, sizeof *machine);
  machine->defender_on = 1;
  pid_t pid;
  start_foreground(path, &pid);
  REQUIRE(pid > 0);
  kill(pid, SIGHUP);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK_INT(machine->defender_on, 1);
  CHECK_INT((int)machine->paused_until, 0);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NULL"), 0);
}

static int always_alive(long pid) {
  (void)pid;
  return 1;
}

static void a_killed_owner_is_restored_at_the_next_start(void) {
  const char *path = "quiet_owner_kill.db";
  remove_db(path);
  memset(machine, 0, sizeof *machine);
  machine->defender_on = 1;
  pid_t pid;
  start_foreground(path, &pid);
  REQUIRE(pid > 0);
  store *s = NULL;
  ts_err err;
  quiet_outcome out;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  /* While its owner runs, the entry is the owner's to restore. */
  CHECK_INT(quiet_recover_orphan(s, &shared_ops, always_alive, &out, &err), TS_OK);
  CHECK_STR_EQ(out.text, "");
  CHECK_INT(machine->defender_on, 0);
  kill(pid, SIGKILL);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK_INT(raw_query(path, "SELECT owner_pid FROM quiet_journal WHERE restored_at IS NULL"),
            (int)pid);
  /* The next start: the real check finds no such process, and restores. */
  CHECK_INT(quiet_recover_orphan(s, &shared_ops, NULL, &out, &err), TS_OK);
  CHECK_STR_CONTAINS(out.text, "which no longer runs; restoring");
  CHECK_STR_CONTAINS(out.text, "Defender real-time protection: turned back on");
  CHECK_INT(machine->defender_on, 1);
  CHECK_INT((int)machine->paused_until, 0);
  CHECK_INT(raw_query(path, "SELECT count(*) FROM quiet_journal WHERE restored_at IS NULL"), 0);
  /* Nothing left: a second start does nothing. */
  int sets = machine->defender_sets;
  CHECK_INT(quiet_recover_orphan(s, &shared_ops, NULL, &out, &err), TS_OK);
  CHECK_STR_EQ(out.text, "");
  CHECK_INT(machine->defender_sets, sets);
  store_close(s);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  machine = mmap(NULL, sizeof *machine, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (machine == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  RUN_CASE(sighup_restores_on_the_way_out);
  RUN_CASE(a_killed_owner_is_restored_at_the_next_start);
  return check_summary();
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_kill_keeps_trials.c - a run killed hard (kill -9, TerminateProcess) keeps every trial it
   finished: each was committed before the next began, and the database stays intact; then
   `run --resume` finishes it without running any finished trial again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "testdb.h"
#include "store/store.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

static const char *threadsoup_exe;

/* Trials done in the newest run, or -1 while the run does not exist yet. */
static int trials_done(const char *path) {
  store *s;
  ts_err err;
  int64_t run_id = 0;
  static store_run_row row;
  int done = -1;
  if (!plat_file_exists(path) || store_open(&s, path, &err) != TS_OK)
    return -1;
  if (store_latest_run(s, &run_id, &err) == TS_OK && run_id > 0 &&
      store_run_get(s, run_id, &row, &err) == TS_OK)
    done = row.trials_done;
  store_close(s);
  return done;
}

typedef struct done_list {
  int count;
  int64_t ids[256];
  char finished_at[256][32];
} done_list;

static int collect_done(void *ctx, const store_trial_row *row) {
  done_list *l = ctx;
  if (row->status == STORE_TRIAL_DONE && l->count < 256) {
    l->ids[l->count] = row->id;
    snprintf(l->finished_at[l->count++], 32, "%s", row->finished_at);
  }
  return 0;
}

static void killed_run_keeps_finished_trials_and_resumes(void) {
  const char *path = "killed_run.db";
  remove_db(path);
  const char *argv[] = {threadsoup_exe,
                        "run",
                        "--conditions",
                        "baseline,sleep:200",
                        "--reps",
                        "20",
                        "--settle",
                        "0s",
                        "--warmup",
                        "1",
                        "--quiet-cpu",
                        "off",
                        "--work-scale",
                        "0.05",
                        "--db",
                        path,
                        NULL};
  plat_proc proc;
  ts_err err;
  CHECK_INT(plat_proc_spawn(&proc, argv, &err), TS_OK);
  /* Wait (up to 60 s) until at least three trials are committed, then kill without warning. */
  int done = -1;
  for (int i = 0; i < 600 && done < 3; i++) {
    plat_sleep_ns(50 * TS_NS_PER_MS);
    done = trials_done(path);
  }
  CHECK(done >= 3);
  CHECK_INT(plat_proc_kill(&proc, &err), TS_OK);
  int exit_code = 0;
  CHECK_INT(plat_proc_wait(&proc, &exit_code, &err), TS_OK);
  CHECK_INT(exit_code, 137);

  store *s;
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(store_integrity_check(s, &err), TS_OK);
  int64_t run_id = 0;
  static store_run_row row;
  CHECK_INT(store_latest_run(s, &run_id, &err), TS_OK);
  CHECK_INT(store_run_get(s, run_id, &row, &err), TS_OK);
  /* Killed mid-run: it never got to say it ended, and it kept at least what we saw. */
  CHECK_INT(row.status, STORE_RUN_RUNNING);
  CHECK(row.trials_done >= done);
  CHECK(row.trials_done < row.trials_total);
  CHECK_INT(row.trials_total, 41);
  static done_list before;
  CHECK_INT(store_run_trials(s, run_id, collect_done, &before, &err), TS_OK);
  store_close(s);

  /* Resume: the rest runs, nothing finished runs again. */
  char run_text[32];
  snprintf(run_text, sizeof run_text, "%lld", (long long)run_id);
  const char *resume[] = {threadsoup_exe, "run", "--resume", run_text, "--db", path, NULL};
  CHECK_INT(plat_proc_spawn(&proc, resume, &err), TS_OK);
  CHECK_INT(plat_proc_wait(&proc, &exit_code, &err), TS_OK);
  CHECK_INT(exit_code, 0);
  REQUIRE(store_open(&s, path, &err) == TS_OK);
  CHECK_INT(store_run_get(s, run_id, &row, &err), TS_OK);
  CHECK_INT(row.status, STORE_RUN_FINISHED);
  CHECK_INT(row.resume_at_start, 0);
  CHECK_INT(row.trials_total, 41);
  CHECK_INT(row.trials_done, 41);
  static done_list after;
  CHECK_INT(store_run_trials(s, run_id, collect_done, &after, &err), TS_OK);
  int kept = 0;
  for (int i = 0; i < before.count; i++)
    for (int j = 0; j < after.count; j++)
      if (before.ids[i] == after.ids[j] && strcmp(before.finished_at[i], after.finished_at[j]) == 0)
        kept++;
  CHECK_INT(kept, before.count);
  CHECK_INT(store_integrity_check(s, &err), TS_OK);
  store_close(s);
}

#ifdef __linux__
/* A command benchmark's program dies with the process that ran it: a killed run (or service)
   leaves no program running on with its rights. */
static void command_dies_with_its_runner(void) {
  const char *path = "killed_command.db", *pid_file = "killed_command.pid";
  remove_db(path);
  remove(pid_file);
  const char *argv[] = {threadsoup_exe,
                        "run",
                        "--conditions",
                        "baseline",
                        "--bench",
                        "command",
                        "--command",
                        "sh -c \"echo $$ > killed_command.pid; exec sleep 300\"",
                        "--reps",
                        "1",
                        "--warmup",
                        "0",
                        "--settle",
                        "0s",
                        "--quiet-cpu",
                        "off",
                        "--db",
                        path,
                        NULL};
  plat_proc proc;
  ts_err err;
  CHECK_INT(plat_proc_spawn(&proc, argv, &err), TS_OK);
  long child = 0;
  for (int i = 0; i < 600 && child <= 0; i++) {
    plat_sleep_ns(50 * TS_NS_PER_MS);
    FILE *f = fopen(pid_file, "r");
    if (f) {
      if (fscanf(f, "%ld", &child) != 1)
        child = 0;
      fclose(f);
    }
  }
  REQUIRE(child > 0);
  CHECK(check_proc_running(child));
  CHECK_INT(plat_proc_kill(&proc, &err), TS_OK);
  int exit_code = 0;
  CHECK_INT(plat_proc_wait(&proc, &exit_code, &err), TS_OK);
  int gone = 0;
  for (int i = 0; i < 100 && !gone; i++) {
    gone = !check_proc_running(child);
    if (!gone)
      plat_sleep_ns(50 * TS_NS_PER_MS);
  }
  CHECK(gone);
  remove(pid_file);
  remove_db(path);
}
#endif

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_kill_keeps_trials PATH-TO-threadsoup\n");
    return 2;
  }
  threadsoup_exe = argv[1];
  RUN_CASE(killed_run_keeps_finished_trials_and_resumes);
#ifdef __linux__
  RUN_CASE(command_dies_with_its_runner);
#endif
  return check_summary();
}

/* test_kill_keeps_trials.c - a run killed hard (kill -9, TerminateProcess) keeps every trial it
   finished: each was committed before the next began, and the database stays intact. */
#include <stdio.h>

#include "check.h"
#include "store/store.h"
#include "threadsoup/plat.h"

static const char *threadsoup_exe;

static void remove_db(const char *path) {
  char extra[256];
  remove(path);
  snprintf(extra, sizeof extra, "%s-wal", path);
  remove(extra);
  snprintf(extra, sizeof extra, "%s-shm", path);
  remove(extra);
}

/* Trials done in the newest run, or -1 while the run does not exist yet. */
static int trials_done(const char *path) {
  store *s;
  ts_err err;
  int64_t run_id = 0;
  store_run_row row;
  int done = -1;
  if (!plat_file_exists(path) || store_open(&s, path, &err) != TS_OK)
    return -1;
  if (store_latest_run(s, &run_id, &err) == TS_OK && run_id > 0 &&
      store_run_get(s, run_id, &row, &err) == TS_OK)
    done = row.trials_done;
  store_close(s);
  return done;
}

static void killed_run_keeps_finished_trials(void) {
  const char *path = "killed_run.db";
  remove_db(path);
  const char *argv[] = {threadsoup_exe, "run",           "--conditions", "baseline,sleep:200",
                        "--reps",       "200",           "--settle",     "0s",
                        "--work-scale", "0.05",          "--db",         path,
                        NULL};
  plat_proc proc;
  ts_err err;
  CHECK_INT(plat_proc_spawn(&proc, argv, &err), TS_OK);
  /* Wait (up to 60 s) until at least two trials are committed, then kill without warning. */
  int done = -1;
  for (int i = 0; i < 600 && done < 2; i++) {
    plat_sleep_ns(100000000ull);
    done = trials_done(path);
  }
  CHECK(done >= 2);
  CHECK_INT(plat_proc_kill(&proc, &err), TS_OK);
  int exit_code = 0;
  CHECK_INT(plat_proc_wait(&proc, &exit_code, &err), TS_OK);
  CHECK_INT(exit_code, 137);

  store *s;
  CHECK_INT(store_open(&s, path, &err), TS_OK);
  CHECK_INT(store_integrity_check(s, &err), TS_OK);
  int64_t run_id = 0;
  store_run_row row;
  CHECK_INT(store_latest_run(s, &run_id, &err), TS_OK);
  CHECK_INT(store_run_get(s, run_id, &row, &err), TS_OK);
  /* Killed mid-run: it never got to say it ended, and it kept at least what we saw. */
  CHECK_STR_CONTAINS(row.status, "running");
  CHECK(row.trials_done >= done);
  CHECK(row.trials_done < row.trials_total);
  CHECK_INT(row.trials_total, 400);
  store_close(s);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_kill_keeps_trials PATH-TO-threadsoup\n");
    return 2;
  }
  threadsoup_exe = argv[1];
  RUN_CASE(killed_run_keeps_finished_trials);
  return check_summary();
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* procs.c - idle processes, the procs scenario against plain fork + execve of a libc-free pause
   program: creation time, memory per process and teardown. */
#define _GNU_SOURCE
#include "engine_bench.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/engine.h"

extern char **environ;

/* ---- the floor: fork (or vfork) + execve in a loop, SIGKILL and reap ---- */

/* Starts one child; vfork is kept out of line so nothing of the caller's frame is shared with a
   child that borrows the memory. */
static pid_t floor_spawn_one(const char *program, int use_vfork) {
  char *argv[] = {(char *)program, NULL};
  pid_t pid = use_vfork ? vfork() : fork();
  if (pid == 0) {
    execve(program, argv, environ);
    _exit(127);
  }
  return pid;
}

/* Creates `count` children and returns when every one of them runs the pause program. fork
   returns before its child has exec'd, so each child also holds the write end of a close-on-exec
   pipe: the read sees end-of-file once the last child has exec'd, and the engine's posix_spawn,
   which returns only after the exec, is compared with the same end point. The vfork floor is
   posix_spawn's way on one thread: each exec waited for in turn. */
static long floor_spawn_all(const char *program, int use_vfork, pid_t *pids, long count, char *why,
                            size_t len) {
  int exec_done[2];
  if (pipe2(exec_done, O_CLOEXEC) != 0) {
    snprintf(why, len, "floor: no pipe: %s", strerror(errno));
    return 0;
  }
  long i;
  for (i = 0; i < count; i++) {
    pid_t pid = floor_spawn_one(program, use_vfork);
    if (pid < 0) {
      snprintf(why, len, "floor: created %ld of %ld processes, then %s failed: %s", i, count,
               use_vfork ? "vfork" : "fork", strerror(errno));
      break;
    }
    pids[i] = pid;
  }
  close(exec_done[1]);
  char byte;
  while (read(exec_done[0], &byte, 1) < 0 && errno == EINTR) {
  }
  close(exec_done[0]);
  return i;
}

static void floor_kill_all(pid_t *pids, long count) {
  for (long i = 0; i < count; i++)
    kill(pids[i], SIGKILL);
  for (long i = 0; i < count; i++)
    while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR) {
    }
}

/* ---- measuring the children ---- */

/* The parent pid in /proc/PID/stat, after the command name (which may hold spaces or ')'). */
static long parent_of(const char *pid_text) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%s/stat", pid_text);
  if (read_small(AT_FDCWD, path, buf, sizeof buf) <= 0)
    return -1;
  const char *p = strrchr(buf, ')');
  long ppid;
  char state;
  return p && sscanf(p + 1, " %c %ld", &state, &ppid) == 2 ? ppid : -1;
}

/* Sums the smaps_rollup of every child of this process, as the OS lists them: the engine keeps
   its pids to itself, so both sides are measured the same way. */
static void sum_children(long *found, mem_rollup *sum) {
  DIR *dir = opendir("/proc");
  long self = (long)getpid();
  *found = 0;
  sum->rss_kib = sum->pss_kib = sum->private_kib = 0;
  if (!dir)
    return;
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    if (de->d_name[0] < '0' || de->d_name[0] > '9' || parent_of(de->d_name) != self)
      continue;
    char path[64];
    mem_rollup m;
    snprintf(path, sizeof path, "/proc/%s/smaps_rollup", de->d_name);
    if (mem_rollup_read(path, &m) != 0)
      continue;
    sum->rss_kib += m.rss_kib;
    sum->pss_kib += m.pss_kib;
    sum->private_kib += m.private_kib;
    (*found)++;
  }
  closedir(dir);
}

/* __procs SIDE COUNT SETTLE_MS: starts COUNT idle processes with the engine (procs), the floor
   (fork) or the synchronous floor (vfork), and prints key=value lines of what they cost. */
int child_procs_main(int argc, char **argv) {
  if (argc != 4) {
    printf("error=usage: __procs engine|floor COUNT SETTLE_MS\n");
    return 2;
  }
  int engine = strcmp(argv[1], "engine") == 0, use_vfork = strcmp(argv[1], "vfork") == 0;
  long count = strtol(argv[2], NULL, 10), settle_ms = strtol(argv[3], NULL, 10);
  char dir[PLAT_PATH_MAX], program[PLAT_PATH_MAX + 64], why[600], text[64];
  ts_err err;
  load_spec spec;
  if (plat_program_dir(dir, sizeof dir, &err) != TS_OK) {
    printf("error=%s\n", err.text);
    return 1;
  }
  snprintf(program, sizeof program, "%s/threadsoup-floor-pause", dir);
  snprintf(text, sizeof text, "procs:%ld", count);
  if (engine && load_spec_parse(text, &spec, &err) != TS_OK) {
    printf("error=%s\n", err.text);
    return 1;
  }
  if (!engine && access(program, X_OK) != 0) {
    printf("error=cannot run the floor program %s: %s\n", program, strerror(errno));
    return 1;
  }
  pid_t *pids = engine ? NULL : malloc((size_t)count * sizeof *pids);
  if (!engine && !pids) {
    printf("error=no memory for %ld pids\n", count);
    return 1;
  }

  double k0 = kernel_kib();
  load *l = NULL;
  long created = count;
  double t0 = now_s();
  int failed;
  if (engine) {
    failed = load_start(&spec, NULL, &l, &err) != TS_OK;
    if (failed)
      snprintf(why, sizeof why, "%s", err.text);
  } else {
    created = floor_spawn_all(program, use_vfork, pids, count, why, sizeof why);
    failed = created < count;
  }
  double t1 = now_s();
  if (failed) {
    if (!engine)
      floor_kill_all(pids, created);
    printf("error=%s\n", why);
    free(pids);
    return 0;
  }
  printf("create_s=%.6f\n", t1 - t0);

  /* fork returns before the child has exec'd; the settle lets every child reach its wait. */
  sleep_s((double)settle_ms / 1000.0);
  double k1 = kernel_kib();
  long found;
  mem_rollup sum;
  double s0 = now_s();
  sum_children(&found, &sum);
  printf("children=%ld pss_kib=%.1f private_kib=%.1f rss_kib=%.1f kernel_kib=%.1f scan_s=%.3f\n",
         found, sum.pss_kib, sum.private_kib, sum.rss_kib, k1 - k0, now_s() - s0);

  double t2 = now_s();
  if (engine)
    load_stop(l);
  else
    floor_kill_all(pids, count);
  printf("teardown_s=%.6f\n", now_s() - t2);
  free(pids);
  return 0;
}

/* ---- the parent's side ---- */

typedef struct proc_run {
  int ok;
  char error[600];
  double create_s, teardown_s, pss_kib, private_kib, rss_kib, kernel_kib;
  long children;
} proc_run;

/* side: "engine", "floor" (fork) or "vfork". */
static void run_procs(const bench_options *o, const char *side, proc_run *r) {
  char count[24];
  snprintf(count, sizeof count, "%ld", o->proc_count);
  const char *argv[] = {"", "__procs", side, count, "500", NULL};
  char out[4096];
  memset(r, 0, sizeof *r);
  int rc = run_child(o, argv, out, sizeof out);
  if (kv_error(out, r->error, sizeof r->error) || rc != 0) {
    if (!r->error[0])
      snprintf(r->error, sizeof r->error, "the measuring process failed");
    progress("  %s: %s", side, r->error);
    return;
  }
  r->children = (long)kv_number(out, "children", 0);
  double n = r->children > 0 ? (double)r->children : NAN;
  r->ok = 1;
  r->create_s = kv_number(out, "create_s", NAN);
  r->teardown_s = kv_number(out, "teardown_s", NAN);
  r->pss_kib = kv_number(out, "pss_kib", NAN) / n;
  r->private_kib = kv_number(out, "private_kib", NAN) / n;
  r->rss_kib = kv_number(out, "rss_kib", NAN) / n;
  r->kernel_kib = kv_number(out, "kernel_kib", NAN) / (double)o->proc_count;
}

static double median_of(proc_run *runs, int n, size_t offset) {
  double values[64];
  int m = 0;
  for (int i = 0; i < n && m < 64; i++)
    if (runs[i].ok)
      values[m++] = *(double *)((char *)&runs[i] + offset);
  return median(values, m);
}
#define MEDIAN(runs, n, field) median_of(runs, n, offsetof(proc_run, field))

static void row(const char *measure, int decimals, double e, double f, double limit,
                const char *target) {
  char et[24], ft[24], tt[32];
  format_value(et, sizeof et, decimals, e);
  format_value(ft, sizeof ft, decimals, f);
  double ratio = f > 0 ? e / f : -1;
  if (target)
    snprintf(tt, sizeof tt, "%s", target);
  else if (limit > 0)
    snprintf(tt, sizeof tt, "<= %.2fx floor", limit);
  else
    snprintf(tt, sizeof tt, "-");
  int verdict = limit <= 0 ? VERDICT_INFO
                : target
                    ? (!isnan(e) && e <= limit ? VERDICT_OK : VERDICT_MISSED)
                    : (!isnan(ratio) && ratio >= 0 && ratio <= limit ? VERDICT_OK : VERDICT_MISSED);
  table_row(measure, et, ft, isnan(ratio) ? -1 : ratio, tt, verdict);
}

void bench_procs(const bench_options *o) {
  int reps = o->proc_reps > 32 ? 32 : o->proc_reps;
  proc_run engine[32], floor[32], vfork_floor[32];
  char title[160];
  snprintf(title, sizeof title,
           "4. %ld idle processes: procs (posix_spawn of threadsoup-idle from 4 threads) vs "
           "fork+execve of a pause program (median of %d)",
           o->proc_count, reps);
  progress("%s", title + 3);
  for (int i = 0; i < reps; i++) {
    progress("  run %d of %d", i + 1, reps);
    run_procs(o, "engine", &engine[i]);
    run_procs(o, "floor", &floor[i]);
    run_procs(o, "vfork", &vfork_floor[i]);
  }
  table_section(title);
  row("creation wall time (s)", 3, MEDIAN(engine, reps, create_s), MEDIAN(floor, reps, create_s),
      1.20, NULL);
  row("creation vs vfork+execve floor (s)", 3, MEDIAN(engine, reps, create_s),
      MEDIAN(vfork_floor, reps, create_s), 0, NULL);
  row("creation per process (us)", 1, MEDIAN(engine, reps, create_s) * 1e6 / (double)o->proc_count,
      MEDIAN(floor, reps, create_s) * 1e6 / (double)o->proc_count, 0, NULL);
  row("PSS per idle process (KiB)", 2, MEDIAN(engine, reps, pss_kib), MEDIAN(floor, reps, pss_kib),
      1.20, NULL);
  row("private memory per idle process (KiB)", 2, MEDIAN(engine, reps, private_kib),
      MEDIAN(floor, reps, private_kib), 0, NULL);
  row("RSS per idle process (KiB)", 2, MEDIAN(engine, reps, rss_kib), MEDIAN(floor, reps, rss_kib),
      0, NULL);
  row("kernel memory per process, machine-wide (KiB)", 1, MEDIAN(engine, reps, kernel_kib),
      MEDIAN(floor, reps, kernel_kib), 0, NULL);
  row("teardown: load_stop vs kill -9 + reap (s)", 3, MEDIAN(engine, reps, teardown_s),
      MEDIAN(floor, reps, teardown_s), 2.0, "<= 2 s");
  {
    double values[3][32], lo[3], hi[3];
    int m[3] = {0, 0, 0};
    for (int i = 0; i < reps; i++) {
      if (engine[i].ok)
        values[0][m[0]++] = engine[i].create_s;
      if (floor[i].ok)
        values[1][m[1]++] = floor[i].create_s;
      if (vfork_floor[i].ok)
        values[2][m[2]++] = vfork_floor[i].create_s;
    }
    for (int k = 0; k < 3; k++)
      value_range(values[k], m[k], &lo[k], &hi[k]);
    table_note("spread of the creation runs (s): engine %.3f-%.3f, fork floor %.3f-%.3f, vfork "
               "floor %.3f-%.3f",
               lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]);
  }
  table_note("PSS = sum of /proc/PID/smaps_rollup over the children found in /proc "
             "(parent = the measuring process)");
  for (int i = 0; i < reps; i++)
    if (!engine[i].ok || !floor[i].ok || !vfork_floor[i].ok) {
      table_note("run %d: %s", i + 1,
                 !engine[i].ok  ? engine[i].error
                 : !floor[i].ok ? floor[i].error
                                : vfork_floor[i].error);
      break;
    }
}

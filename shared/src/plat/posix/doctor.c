/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* doctor.c (POSIX) - the facts `threadsoup doctor` checks: task limits from /proc and the
   cgroup tree (under a root folder tests can replace), the caller's rights, and the thread CPU
   clock burn spins on against the monotonic clock. */
#define _GNU_SOURCE
#include "threadsoup/plat_doctor.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../spin_probe.h"
#include "threadsoup/plat.h"

/* The first line of root/relative into buf, without its newline; 0 when it cannot be read. */
static int read_line(const char *root, const char *relative, char *buf, size_t len) {
  char path[PLAT_PATH_MAX];
  snprintf(path, sizeof path, "%s%s", root, relative);
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  int ok = fgets(buf, (int)len, f) != NULL;
  fclose(f);
  if (ok)
    buf[strcspn(buf, "\r\n")] = '\0';
  return ok;
}

/* A number, "max" or "unlimited" (PLAT_LIMIT_NONE); PLAT_LIMIT_UNKNOWN for anything else. */
static long parse_limit(const char *text) {
  while (*text == ' ' || *text == '\t')
    text++;
  if (strncmp(text, "max", 3) == 0 || strncmp(text, "unlimited", 9) == 0)
    return PLAT_LIMIT_NONE;
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  return (end == text || errno || v < 0) ? PLAT_LIMIT_UNKNOWN : v;
}

static long read_limit(const char *root, const char *relative) {
  char line[64];
  return read_line(root, relative, line, sizeof line) ? parse_limit(line) : PLAT_LIMIT_UNKNOWN;
}

/* The smaller of two limits, where PLAT_LIMIT_NONE is the largest. */
static int tighter(long a, long than) {
  return a >= 0 && (than == PLAT_LIMIT_NONE || than == PLAT_LIMIT_UNKNOWN || a < than);
}

/* The smallest pids.max of `cgroup` (a path such as "/system.slice/x.service") and its parents,
   below `mount` (root + "/sys/fs/cgroup" or its v1 "pids" folder). */
static void cgroup_pids_max(const char *root, const char *mount, const char *cgroup,
                            plat_task_limits *out) {
  char path[PLAT_PATH_MAX];
  snprintf(path, sizeof path, "%s", cgroup);
  out->pids_max = PLAT_LIMIT_UNKNOWN;
  for (;;) {
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
      path[--n] = '\0';
    if (n > 1) { /* the root cgroup has no pids.max */
      char file[PLAT_PATH_MAX];
      snprintf(file, sizeof file, "%s%s/pids.max", mount, path);
      long v = read_limit(root, file);
      if (v == PLAT_LIMIT_NONE && out->pids_max == PLAT_LIMIT_UNKNOWN)
        out->pids_max = PLAT_LIMIT_NONE;
      else if (tighter(v, out->pids_max)) {
        out->pids_max = v;
        snprintf(out->pids_max_at, sizeof out->pids_max_at, "%s", path);
      }
    }
    char *slash = strrchr(path, '/');
    if (!slash || n <= 1)
      break;
    slash[slash == path ? 1 : 0] = '\0';
  }
  if (out->pids_max == PLAT_LIMIT_UNKNOWN)
    out->pids_max = PLAT_LIMIT_NONE; /* no pids controller on the way up: no cgroup limit */
}

/* The cgroup of process `pid_dir` ("self" or a number) from /proc/PID/cgroup: v2's "0::PATH",
   or v1's pids controller; *v1 says which. 0 when unknown. */
static int process_cgroup(const char *root, const char *pid_dir, char *cgroup, size_t len,
                          int *v1) {
  char path[PLAT_PATH_MAX], line[512];
  snprintf(path, sizeof path, "%s/proc/%s/cgroup", root, pid_dir);
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  int found = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = '\0';
    char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2)
      continue;
    *c2 = '\0';
    const char *controllers = c1 + 1;
    if (strcmp(controllers, "pids") == 0 || (controllers[0] == '\0' && !found)) {
      snprintf(cgroup, len, "%s", c2 + 1);
      *v1 = controllers[0] != '\0';
      found = 1;
      if (*v1)
        break;
    }
  }
  fclose(f);
  return found;
}

/* RLIMIT_NOFILE and RLIMIT_NPROC of a process from /proc/PID/limits, its uid from status. */
static void process_limits(const char *root, const char *pid_dir, plat_task_limits *out) {
  char path[PLAT_PATH_MAX], line[256];
  snprintf(path, sizeof path, "%s/proc/%s/limits", root, pid_dir);
  FILE *f = fopen(path, "r");
  if (f) {
    while (fgets(line, sizeof line, f)) {
      /* "Max open files            1024                 1048576              files" */
      if (strncmp(line, "Max open files", 14) == 0) {
        out->nofile_soft = parse_limit(line + 14);
        char *rest = line + 14;
        while (*rest == ' ')
          rest++;
        rest += strcspn(rest, " ");
        out->nofile_hard = parse_limit(rest);
      } else if (strncmp(line, "Max processes", 13) == 0) {
        out->nproc_soft = parse_limit(line + 13);
      }
    }
    fclose(f);
  }
  snprintf(path, sizeof path, "%s/proc/%s/status", root, pid_dir);
  f = fopen(path, "r");
  if (f) {
    while (fgets(line, sizeof line, f))
      if (strncmp(line, "Uid:", 4) == 0)
        out->uid = strtol(line + 4, NULL, 10);
    fclose(f);
  }
}

int plat_task_limits_read(const char *root, int prefer_service, plat_task_limits *out,
                          ts_err *err) {
  (void)err;
  if (!root)
    root = "";
  memset(out, 0, sizeof *out);
  out->pids_max = out->nofile_soft = out->nofile_hard = out->nproc_soft = out->uid =
      PLAT_LIMIT_UNKNOWN;
  out->pid_max = read_limit(root, "/proc/sys/kernel/pid_max");
  out->threads_max = read_limit(root, "/proc/sys/kernel/threads-max");

  /* The service's unit, as systemd names it (v2, then v1's pids hierarchy): its first process. */
  static const char *const units[][2] = {
      {"/sys/fs/cgroup", "/sys/fs/cgroup/system.slice/threadsoup.service/cgroup.procs"},
      {"/sys/fs/cgroup/pids", "/sys/fs/cgroup/pids/system.slice/threadsoup.service/cgroup.procs"},
  };
  char line[64];
  for (size_t i = 0; prefer_service && i < 2; i++) {
    long pid;
    if (!read_line(root, units[i][1], line, sizeof line) || (pid = parse_limit(line)) <= 0)
      continue;
    char pid_dir[32];
    snprintf(pid_dir, sizeof pid_dir, "%ld", pid);
    out->pid = pid;
    snprintf(out->whose, sizeof out->whose, "the threadsoup.service unit (pid %ld)", pid);
    cgroup_pids_max(root, units[i][0], "/system.slice/threadsoup.service", out);
    process_limits(root, pid_dir, out);
    return TS_OK;
  }
  char cgroup[256];
  int v1 = 0;
  out->pid = (long)getpid();
  snprintf(out->whose, sizeof out->whose, "this process (pid %ld)", out->pid);
  if (process_cgroup(root, "self", cgroup, sizeof cgroup, &v1))
    cgroup_pids_max(root, v1 ? "/sys/fs/cgroup/pids" : "/sys/fs/cgroup", cgroup, out);
  process_limits(root, "self", out);
  return TS_OK;
}

int plat_rights_read(plat_rights *out, ts_err *err) {
  (void)err;
  memset(out, 0, sizeof *out);
  out->system = out->admin_enabled = out->admin_filtered = out->elevated = -1;
  out->users_group_member = -1;
  uid_t uid = geteuid();
  out->root = uid == 0;
  char buf[4096];
  struct passwd pwd, *pw = NULL;
  if (getpwuid_r(uid, &pwd, buf, sizeof buf, &pw) == 0 && pw)
    snprintf(out->user, sizeof out->user, "%s", pw->pw_name);
  else
    snprintf(out->user, sizeof out->user, "uid %ld", (long)uid);
  struct group g, *found = NULL;
  char gbuf[16384];
  out->group_exists = getgrnam_r("threadsoup", &g, gbuf, sizeof gbuf, &found) == 0 && found;
  out->group_member = 0;
  if (out->group_exists) {
    /* The groups this process holds now (a user added to the group holds it after a new login). */
    gid_t groups[256];
    int n = getgroups(256, groups);
    out->group_member = getegid() == g.gr_gid;
    for (int i = 0; i < n; i++)
      if (groups[i] == g.gr_gid)
        out->group_member = 1;
  }
  return TS_OK;
}

int plat_tamper_protection(void) { return -1; }

int plat_service_restart_read(const char *name, plat_service_restart *out, ts_err *err) {
  (void)name;
  memset(out, 0, sizeof *out);
  return ts_err_set(err, TS_EUNSUPPORTED,
                    "systemd restarts the daemon from its unit (Restart=on-failure in "
                    "threadsoup.service), not from failure actions");
}

int plat_service_image_read(const char *name, plat_service_image *out, ts_err *err) {
  (void)name;
  memset(out, 0, sizeof *out);
  return ts_err_set(err, TS_EUNSUPPORTED,
                    "systemd starts the daemon from its unit's ExecStart (make install puts it "
                    "in PREFIX/bin, which root owns)");
}

const char *plat_wine_version(void) { return NULL; }

static uint64_t ns_of(const struct timespec *ts) {
  return (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec;
}

static int read_clocks(void *arg, uint64_t *wall_ns, uint64_t *thread_ns) {
  (void)arg;
  struct timespec wall, thread;
  if (clock_gettime(CLOCK_MONOTONIC, &wall) != 0 ||
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &thread) != 0)
    return 0;
  *wall_ns = ns_of(&wall);
  *thread_ns = ns_of(&thread);
  return 1;
}

void plat_spin_clock_measure(int samples, uint64_t run_ns, uint64_t cap_ns, plat_spin_clock *out) {
  memset(out, 0, sizeof *out);
  snprintf(out->source, sizeof out->source, "CLOCK_THREAD_CPUTIME_ID vs CLOCK_MONOTONIC");
  out->available = 1;
  if (samples > PLAT_SPIN_SAMPLES_MAX)
    samples = PLAT_SPIN_SAMPLES_MAX;
  for (int i = 0; i < samples; i++) {
    plat_spin_sums sums;
    if (!plat_spin_probe(read_clocks, NULL, run_ns, cap_ns, &sums)) {
      out->available = 0;
      snprintf(out->why, sizeof out->why, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed: %s",
               strerror(errno));
      return;
    }
    plat_spin_sample *s = &out->samples[out->count++];
    s->wall_ns = (double)sums.wall_ns;
    s->ran_ns = (double)sums.ran_ns;
    s->thread_ns = (double)sums.counted;
    s->gaps = sums.gaps;
  }
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* freeze.c (POSIX) - freezes and thaws another program: the cgroup v2 freezer when the program is
   alone in a systemd unit or scope we may write, else SIGSTOP and SIGCONT; and the facts the
   freeze rules judge (whose process it is, whether we are root, whether its owner still lives). */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "threadsoup/units.h"

#define CGROUP_ROOT "/sys/fs/cgroup"

/* The cgroup v2 folder of `pid` ("/sys/fs/cgroup/user.slice/…/app.scope"); 0 when it has none
   (cgroup v1, or no /proc). */
static int cgroup_folder(long pid, char *folder, size_t len) {
  char path[64], line[512];
  snprintf(path, sizeof path, "/proc/%ld/cgroup", pid);
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  int found = 0;
  while (!found && fgets(line, sizeof line, f)) {
    if (strncmp(line, "0::/", 4) != 0) /* the unified hierarchy's line */
      continue;
    line[strcspn(line, "\n")] = '\0';
    found = snprintf(folder, len, "%s%s", CGROUP_ROOT, line + 3) < (int)len;
  }
  fclose(f);
  return found;
}

static int ends_with(const char *text, const char *tail) {
  size_t n = strlen(text), t = strlen(tail);
  return n >= t && strcmp(text + n - t, tail) == 0;
}

/* Whether `folder` is a systemd unit or scope holding `pid` and nothing else, with a freezer we
   may write: then freezing it freezes exactly that program (and stays invisible to its own
   signal handlers). */
static int cgroup_is_alone(const char *folder, long pid) {
  if (!ends_with(folder, ".scope") && !ends_with(folder, ".service"))
    return 0;
  char path[600], line[64];
  snprintf(path, sizeof path, "%s/cgroup.freeze", folder);
  if (access(path, W_OK) != 0)
    return 0;
  snprintf(path, sizeof path, "%s/cgroup.procs", folder);
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  long members = 0, first = -1;
  while (fgets(line, sizeof line, f))
    if (members++ == 0)
      first = strtol(line, NULL, 10);
  fclose(f);
  return members == 1 && first == pid;
}

/* Writes "1" or "0" to the folder's cgroup.freeze. */
static int cgroup_write_freeze(const char *folder, const char *value) {
  char path[600];
  snprintf(path, sizeof path, "%s/cgroup.freeze", folder);
  FILE *f = fopen(path, "w");
  if (!f)
    return -1;
  int ok = fputs(value, f) >= 0;
  return fclose(f) == 0 && ok ? 0 : -1;
}

static int cgroup_frozen(const char *folder) {
  char path[600];
  snprintf(path, sizeof path, "%s/cgroup.freeze", folder);
  FILE *f = fopen(path, "r");
  int c = f ? fgetc(f) : EOF;
  if (f)
    fclose(f);
  return c == '1';
}

/* The process group the signals go to: the program's own group when it leads one that is not
   ours (its helpers stop with it), else 0 for the process alone. */
static pid_t own_group(long pid) {
  pid_t group = getpgid((pid_t)pid);
  return group == (pid_t)pid && group != getpgrp() ? group : 0;
}

static int signal_error(long pid, int e, const char *what, ts_err *err) {
  if (e == ESRCH)
    return ts_err_set(err, TS_EINVAL, "process %ld does not exist (any more)", pid);
  if (e == EPERM)
    return ts_err_set(err, TS_EDENIED, "cannot %s process %ld: permission denied", what, pid);
  return ts_err_set(err, TS_EOS, "cannot %s process %ld: %s", what, pid, strerror(e));
}

int plat_process_freeze(long pid, plat_freeze_how *how, ts_err *err) {
  char folder[520];
  if (cgroup_folder(pid, folder, sizeof folder) && cgroup_is_alone(folder, pid) &&
      cgroup_write_freeze(folder, "1") == 0) {
    *how = PLAT_FREEZE_CGROUP;
    return TS_OK;
  }
  pid_t group = own_group(pid);
  if (kill(group ? -group : (pid_t)pid, SIGSTOP) != 0)
    return signal_error(pid, errno, "freeze", err);
  *how = group ? PLAT_FREEZE_SIGNAL_GROUP : PLAT_FREEZE_SIGNAL;
  return TS_OK;
}

/* Undoes every way plat_process_freeze freezes, so a thaw needs nothing but the pid (the
   guardian and the journal have nothing else): SIGCONT is harmless to a running program. */
int plat_process_thaw(long pid, ts_err *err) {
  char folder[520];
  if (cgroup_folder(pid, folder, sizeof folder) && cgroup_is_alone(folder, pid) &&
      cgroup_frozen(folder))
    cgroup_write_freeze(folder, "0");
  pid_t group = own_group(pid);
  if (group)
    kill(-group, SIGCONT);
  if (kill((pid_t)pid, SIGCONT) != 0)
    return signal_error(pid, errno, "thaw", err);
  return TS_OK;
}

int plat_process_owned_by(long pid, const plat_peer *who, int *same, ts_err *err) {
  char path[64];
  struct stat st;
  snprintf(path, sizeof path, "/proc/%ld", pid);
  if (stat(path, &st) != 0)
    return ts_err_set(err, TS_EINVAL, "process %ld does not exist (any more)", pid);
  *same = who ? who->uid >= 0 && (long)st.st_uid == who->uid : st.st_uid == geteuid();
  return TS_OK;
}

int plat_self_privileged(void) { return geteuid() == 0; }

int plat_owner_wait_gone(long pid, uint64_t timeout_ns) {
  /* The guardian is its owner's child: once the owner is gone it has another parent. */
  uint64_t until = plat_clock_ns() + timeout_ns;
  while (getppid() == (pid_t)pid && kill((pid_t)pid, 0) == 0) {
    if (plat_clock_ns() >= until)
      return 0;
    plat_sleep_ns(20 * TS_NS_PER_MS);
  }
  return 1;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* util.c - the /proc readers, clocks and child-process plumbing every benchmark is built from. */
#define _GNU_SOURCE
#include "engine_bench.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "threadsoup/units.h"

extern char **environ;

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double median(double *values, int n) {
  if (n <= 0)
    return NAN;
  qsort(values, (size_t)n, sizeof *values, compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

void value_range(const double *values, int n, double *lo, double *hi) {
  *lo = *hi = NAN;
  for (int i = 0; i < n; i++) {
    if (i == 0 || values[i] < *lo)
      *lo = values[i];
    if (i == 0 || values[i] > *hi)
      *hi = values[i];
  }
}

void format_value(char *buf, size_t len, int decimals, double value) {
  if (isnan(value))
    snprintf(buf, len, "failed");
  else
    snprintf(buf, len, "%.*f", decimals, value);
}

double now_s(void) { return (double)plat_clock_ns() / TS_NS_PER_S; }

void sleep_s(double seconds) {
  if (seconds > 0)
    plat_sleep_ns((uint64_t)(seconds * TS_NS_PER_S));
}

/* Reads a small /proc file with one read: stdio would allocate, and /proc hands out a whole
   status or rollup file in one go. */
ssize_t read_small(int dir_fd, const char *path, char *buf, size_t len) {
  int fd = openat(dir_fd, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  ssize_t n = read(fd, buf, len - 1);
  close(fd);
  if (n < 0)
    return -1;
  buf[n] = '\0';
  return n;
}

/* The number after "Key:" at the start of a line; -1 when absent. */
static double field(const char *text, const char *key) {
  size_t klen = strlen(key);
  for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
    if (strncmp(p, key, klen) == 0)
      return strtod(p + klen, NULL);
  return -1;
}

int mem_rollup_read(const char *path, mem_rollup *out) {
  char buf[4096];
  out->rss_kib = out->pss_kib = out->private_kib = -1;
  if (read_small(AT_FDCWD, path, buf, sizeof buf) <= 0)
    return -1;
  out->rss_kib = field(buf, "Rss:");
  out->pss_kib = field(buf, "Pss:");
  double clean = field(buf, "Private_Clean:"), dirty = field(buf, "Private_Dirty:");
  out->private_kib = clean >= 0 && dirty >= 0 ? clean + dirty : -1;
  return out->pss_kib >= 0 ? 0 : -1;
}

double kernel_kib(void) {
  char buf[8192];
  if (read_small(AT_FDCWD, "/proc/meminfo", buf, sizeof buf) <= 0)
    return -1;
  return field(buf, "KernelStack:") + field(buf, "PageTables:") + field(buf, "Slab:");
}

/* Voluntary and involuntary switches out of a status file's text. */
static int parse_switches(const char *buf, uint64_t *voluntary, uint64_t *involuntary) {
  double v = field(buf, "voluntary_ctxt_switches:");
  double nv = field(buf, "nonvoluntary_ctxt_switches:");
  if (v < 0 || nv < 0)
    return -1;
  *voluntary = (uint64_t)v;
  *involuntary = (uint64_t)nv;
  return 0;
}

void switch_sum_self(switch_sum *out) {
  memset(out, 0, sizeof *out);
  /* Relative opens from the task folder: the path lookup is most of the cost of 15,000 reads. */
  int task_fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (task_fd < 0)
    return;
  DIR *dir = fdopendir(task_fd);
  if (!dir) {
    close(task_fd);
    return;
  }
  long self = (long)getpid(); /* the main thread's id; it only measures, so it is left out */
  char path[64], buf[4096];
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    if (de->d_name[0] < '0' || de->d_name[0] > '9' || strtol(de->d_name, NULL, 10) == self)
      continue;
    snprintf(path, sizeof path, "%s/status", de->d_name);
    uint64_t v, nv;
    if (read_small(task_fd, path, buf, sizeof buf) <= 0 || parse_switches(buf, &v, &nv) != 0)
      continue;
    out->voluntary += v;
    out->involuntary += nv;
    out->threads++;
  }
  closedir(dir);
}

int thread_switches(long pid, long tid, uint64_t *voluntary, uint64_t *involuntary) {
  char path[96], buf[4096];
  snprintf(path, sizeof path, "/proc/%ld/task/%ld/status", pid, tid);
  if (read_small(AT_FDCWD, path, buf, sizeof buf) <= 0)
    return -1;
  return parse_switches(buf, voluntary, involuntary);
}

double thread_cpu_ns(long pid, long tid) {
  char path[96], buf[256];
  snprintf(path, sizeof path, "/proc/%ld/task/%ld/schedstat", pid, tid);
  if (read_small(AT_FDCWD, path, buf, sizeof buf) <= 0)
    return -1;
  return strtod(buf, NULL); /* first field: time on a CPU, in ns */
}

int run_child(const bench_options *o, const char *const *argv, char *out, size_t len) {
  int fds[2];
  out[0] = '\0';
  if (pipe2(fds, O_CLOEXEC) != 0)
    return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  size_t argc = 0;
  while (argv[argc])
    argc++;
  char **args = calloc(argc + 1, sizeof *args);
  if (!args) {
    close(fds[0]);
    close(fds[1]);
    posix_spawn_file_actions_destroy(&actions);
    return -1;
  }
  args[0] = (char *)o->self;
  for (size_t i = 1; i < argc; i++)
    args[i] = (char *)argv[i];
  pid_t pid;
  int rc = posix_spawn(&pid, o->self, &actions, NULL, args, environ);
  free(args);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    snprintf(out, len, "error=cannot start %s: %s\n", o->self, strerror(rc));
    return -1;
  }
  size_t used = 0;
  for (;;) {
    ssize_t n = read(fds[0], out + used, len - 1 - used);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    used += (size_t)n;
    if (used == len - 1)
      break;
  }
  out[used] = '\0';
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    if (!strstr(out, "error=") && used + 80 < len)
      snprintf(out + used, len - used, "\nerror=the measuring process ended with status %d\n",
               status);
    return -1;
  }
  return 0;
}

double kv_number(const char *text, const char *key, double fallback) {
  size_t klen = strlen(key);
  for (const char *p = text; (p = strstr(p, key)) != NULL; p += klen) {
    int at_start = p == text || p[-1] == ' ' || p[-1] == '\n';
    if (at_start && p[klen] == '=')
      return strtod(p + klen + 1, NULL);
  }
  return fallback;
}

const char *kv_error(const char *text, char *buf, size_t len) {
  const char *p = strstr(text, "error=");
  if (!p)
    return NULL;
  p += 6;
  size_t n = strcspn(p, "\n");
  snprintf(buf, len, "%.*s", (int)n, p);
  return buf;
}

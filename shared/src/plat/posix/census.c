/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* census.c (POSIX) - counts processes and threads, their states, context switches and CPU time
   from /proc, as the kernel reports them. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"
#include "threadsoup/plat_knobs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "threadsoup/units.h"

/* "/proc", or a recorded tree in the same layout for tests (PLAT_KNOB_CENSUS_SOURCE). */
static const char *census_root(void) {
  const char *source = plat_knob_text(PLAT_KNOB_CENSUS_SOURCE);
  return source ? source : "/proc";
}

/* Reads a small /proc file whole with plain syscalls (stdio would double the cost for 15,000
   threads). Returns the length, or -1 when it is gone. */
static ssize_t read_small_file(const char *path, char *buf, size_t len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  ssize_t n = read(fd, buf, len - 1);
  close(fd);
  if (n < 0)
    return -1;
  buf[n] = '\0';
  return n;
}

/* The fields of /proc/PID/stat we use. The command name (field 2) may hold spaces and
   parentheses, so fields are counted from the last ')'. */
typedef struct proc_stat {
  char name[PLAT_PROCESS_NAME_MAX];
  long parent_pid;
  long threads;
  uint64_t cpu_ticks; /* utime + stime */
  char state;         /* 'Z' for a zombie: ended, waiting for its parent to reap it */
} proc_stat;

static int read_proc_stat(const char *pid_dir, proc_stat *out) {
  char path[PLAT_PATH_MAX + 32], buf[2048];
  snprintf(path, sizeof path, "%s/stat", pid_dir);
  if (read_small_file(path, buf, sizeof buf) < 0)
    return -1;
  char *open_paren = strchr(buf, '(');
  char *close_paren = strrchr(buf, ')');
  if (!open_paren || !close_paren || close_paren < open_paren)
    return -1;
  snprintf(out->name, sizeof out->name, "%.*s", (int)(close_paren - open_paren - 1),
           open_paren + 1);
  /* After ')' comes field 3 (state); ppid is 4, utime and stime 14 and 15, num_threads 20. */
  char *p = close_paren + 1;
  out->state = '\0';
  unsigned long long utime = 0, stime = 0;
  long threads = -1;
  for (int field = 3; field <= 20 && *p; field++) {
    while (*p == ' ')
      p++;
    if (field == 3)
      out->state = *p;
    else if (field == 4)
      out->parent_pid = strtol(p, NULL, 10);
    else if (field == 14)
      utime = strtoull(p, NULL, 10);
    else if (field == 15)
      stime = strtoull(p, NULL, 10);
    else if (field == 20)
      threads = strtol(p, NULL, 10);
    while (*p && *p != ' ')
      p++;
  }
  if (threads < 0)
    return -1;
  out->threads = threads;
  out->cpu_ticks = utime + stime;
  return 0;
}

static uint64_t ticks_to_ns(uint64_t ticks) {
  static long ticks_per_second; /* constant for the life of the system */
  if (ticks_per_second <= 0)
    ticks_per_second = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
  return ticks * (TS_NS_PER_S / (uint64_t)ticks_per_second);
}

static int is_pid_name(const char *name) {
  for (const char *p = name; *p; p++)
    if (!isdigit((unsigned char)*p))
      return 0;
  return *name != '\0';
}

/* Value after "key" in a status-style text ("key:\tvalue"), or NULL. */
static const char *status_field(const char *text, const char *key) {
  size_t key_len = strlen(key);
  for (const char *line = text; line && *line;) {
    if (strncmp(line, key, key_len) == 0 && line[key_len] == ':') {
      const char *v = line + key_len + 1;
      while (*v == ' ' || *v == '\t')
        v++;
      return v;
    }
    line = strchr(line, '\n');
    if (line)
      line++;
  }
  return NULL;
}

/* Adds one thread's state ("S (sleeping)") to the tally, keeping at most PLAT_MAX_STATES names. */
static void tally_state(plat_process_census *out, const char *state, size_t len) {
  if (len >= PLAT_STATE_NAME_MAX)
    len = PLAT_STATE_NAME_MAX - 1;
  for (int i = 0; i < out->state_count; i++)
    if (strncmp(out->states[i].name, state, len) == 0 && out->states[i].name[len] == '\0') {
      out->states[i].threads++;
      return;
    }
  if (out->state_count < PLAT_MAX_STATES) {
    plat_state_count *s = &out->states[out->state_count++];
    snprintf(s->name, sizeof s->name, "%.*s", (int)len, state);
    s->threads = 1;
  }
}

static int by_threads_descending(const void *a, const void *b) {
  long x = ((const plat_state_count *)a)->threads, y = ((const plat_state_count *)b)->threads;
  return (x < y) - (x > y);
}

/* A thread's context switches from its status text: voluntary (it waited) and involuntary (it
   was preempted), as Windows counts both in one. */
static uint64_t status_switches(const char *status) {
  const char *v = status_field(status, "voluntary_ctxt_switches");
  const char *nv = status_field(status, "nonvoluntary_ctxt_switches");
  return (v ? strtoull(v, NULL, 10) : 0) + (nv ? strtoull(nv, NULL, 10) : 0);
}

/* Where walk_tasks puts each thread's switches when asked: a growing array. */
typedef struct thread_list {
  plat_thread_switches *items;
  long count, cap;
  int no_memory;
} thread_list;

static void thread_list_add(thread_list *l, long tid, uint64_t switches) {
  if (l->count == l->cap) {
    long cap = l->cap ? l->cap * 2 : 64;
    plat_thread_switches *grown = realloc(l->items, (size_t)cap * sizeof *grown);
    if (!grown) {
      l->no_memory = 1;
      return;
    }
    l->items = grown;
    l->cap = cap;
  }
  l->items[l->count].tid = tid;
  l->items[l->count].switches = switches;
  l->count++;
}

/* Walks /proc/PID/task: context switches of every thread, and their states when wanted; each
   thread's own count into `threads` when not NULL. Each status file is opened relative to the
   task folder: most of the census's cost is the kernel's path lookup, and this halves it (about
   7 us a thread here). */
static void walk_tasks(const char *pid_dir, plat_process_census *out, int with_states,
                       thread_list *threads) {
  char path[PLAT_PATH_MAX + 64], buf[4096];
  snprintf(path, sizeof path, "%s/task", pid_dir);
  int task_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (task_fd < 0)
    return;
  DIR *dir = fdopendir(task_fd);
  if (!dir) {
    close(task_fd);
    return;
  }
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    if (!is_pid_name(de->d_name))
      continue;
    snprintf(path, sizeof path, "%s/status", de->d_name);
    int fd = openat(task_fd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      continue; /* the thread ended while we looked */
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
      continue;
    buf[n] = '\0';
    uint64_t switches = status_switches(buf);
    out->context_switches += switches;
    if (threads)
      thread_list_add(threads, strtol(de->d_name, NULL, 10), switches);
    if (with_states) {
      const char *state = status_field(buf, "State");
      if (state)
        tally_state(out, state, strcspn(state, "\n"));
    }
  }
  closedir(dir); /* closes task_fd too */
}

static int census_one(const char *pid_text, plat_process_census *out, int with_states,
                      thread_list *threads) {
  char pid_dir[PLAT_PATH_MAX + 32];
  proc_stat st;
  snprintf(pid_dir, sizeof pid_dir, "%s/%s", census_root(), pid_text);
  if (read_proc_stat(pid_dir, &st) != 0)
    return -1;
  /* A zombie's threads are gone: whoever asks for them asks about a running program. */
  if (threads && st.state == 'Z')
    return -1;
  memset(out, 0, sizeof *out);
  out->pid = strtol(pid_text, NULL, 10);
  out->parent_pid = st.parent_pid;
  snprintf(out->name, sizeof out->name, "%s", st.name);
  out->threads = st.threads;
  out->handles = -1;
  out->cpu_ns = ticks_to_ns(st.cpu_ticks);
  walk_tasks(pid_dir, out, with_states, threads);
  if (with_states)
    qsort(out->states, (size_t)out->state_count, sizeof out->states[0], by_threads_descending);
  return 0;
}

int plat_census_process(long pid, plat_process_census *out, ts_err *err) {
  char pid_text[32];
  snprintf(pid_text, sizeof pid_text, "%ld", pid);
  if (census_one(pid_text, out, 1, NULL) != 0)
    return ts_err_set(err, TS_EOS, "process %ld not found in %s", pid, census_root());
  return TS_OK;
}

int plat_census_threads(long pid, plat_process_census *process, plat_thread_switches **threads,
                        long *count, ts_err *err) {
  char pid_text[32];
  thread_list list = {NULL, 0, 0, 0};
  *threads = NULL;
  *count = 0;
  snprintf(pid_text, sizeof pid_text, "%ld", pid);
  if (census_one(pid_text, process, 0, &list) != 0) {
    free(list.items);
    return ts_err_set(err, TS_EOS, "process %ld not found in %s", pid, census_root());
  }
  if (list.no_memory) {
    free(list.items);
    return ts_err_set(err, TS_ENOMEM, "no memory for the threads of process %ld", pid);
  }
  *threads = list.items;
  *count = list.count;
  return TS_OK;
}

/* The kernel keeps the first 15 bytes of an executable's name (TASK_COMM_LEN - 1). */
#define COMM_MAX 15

int plat_process_name_matches(const char *census_name, const char *wanted) {
  if (strcmp(census_name, wanted) == 0)
    return 1;
  return strlen(census_name) == COMM_MAX && strlen(wanted) > COMM_MAX &&
         strncmp(census_name, wanted, COMM_MAX) == 0;
}

int plat_census_processes(plat_process_census **list, long *count, ts_err *err) {
  *list = NULL;
  *count = 0;
  DIR *dir = opendir(census_root());
  if (!dir)
    return ts_err_set(err, TS_EOS, "cannot read %s: %s", census_root(), strerror(errno));
  long n = 0, cap = 256;
  plat_process_census *items = malloc((size_t)cap * sizeof *items);
  struct dirent *de;
  while (items && (de = readdir(dir)) != NULL) {
    if (!is_pid_name(de->d_name))
      continue;
    if (n == cap) {
      plat_process_census *bigger = realloc(items, (size_t)cap * 2 * sizeof *items);
      if (!bigger) {
        free(items);
        items = NULL;
        break;
      }
      items = bigger;
      cap *= 2;
    }
    if (census_one(de->d_name, &items[n], 0, NULL) == 0)
      n++;
  }
  closedir(dir);
  if (!items)
    return ts_err_set(err, TS_ENOMEM, "no memory for the process list");
  *list = items;
  *count = n;
  return TS_OK;
}

int plat_census_machine(plat_census *out, ts_err *err) {
  DIR *dir = opendir(census_root());
  if (!dir)
    return ts_err_set(err, TS_EOS, "cannot read %s: %s", census_root(), strerror(errno));
  memset(out, 0, sizeof *out);
  out->handles = -1;
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    if (!is_pid_name(de->d_name))
      continue;
    char pid_dir[PLAT_PATH_MAX + 32];
    proc_stat st;
    snprintf(pid_dir, sizeof pid_dir, "%s/%s", census_root(), de->d_name);
    if (read_proc_stat(pid_dir, &st) != 0)
      continue; /* ended while we looked */
    out->processes++;
    out->threads += st.threads;
  }
  closedir(dir);
  /* The kernel keeps both totals: "ctxt" since boot and "procs_running" right now. */
  char path[PLAT_PATH_MAX + 16], buf[16384];
  snprintf(path, sizeof path, "%s/stat", census_root());
  if (read_small_file(path, buf, sizeof buf) >= 0) {
    const char *ctxt = strstr(buf, "\nctxt ");
    const char *running = strstr(buf, "\nprocs_running ");
    if (ctxt)
      out->context_switches = strtoull(ctxt + 6, NULL, 10);
    if (running)
      out->run_queue = strtol(running + 15, NULL, 10);
  }
  return TS_OK;
}

long plat_process_thread_count(long pid, ts_err *err) {
  char pid_dir[PLAT_PATH_MAX + 32];
  proc_stat st;
  snprintf(pid_dir, sizeof pid_dir, "%s/%ld", census_root(), pid);
  if (read_proc_stat(pid_dir, &st) != 0) {
    ts_err_set(err, TS_EOS, "process %ld not found in %s", pid, census_root());
    return -1;
  }
  return st.threads;
}

long plat_self_pid(void) { return (long)getpid(); }

int plat_machine_cpu_ns(uint64_t *busy_ns, uint64_t *total_ns, ts_err *err) {
  if (plat_machine_busy_injected(plat_clock_ns(), busy_ns, total_ns))
    return TS_OK;
  char path[PLAT_PATH_MAX + 16], buf[1024];
  snprintf(path, sizeof path, "%s/stat", census_root());
  if (read_small_file(path, buf, sizeof buf) < 0 || strncmp(buf, "cpu ", 4) != 0)
    return ts_err_set(err, TS_EOS, "cannot read the CPU times in %s", path);
  /* cpu user nice system idle iowait irq softirq steal …, in clock ticks. */
  unsigned long long v[8] = {0};
  char *p = buf + 4;
  for (int i = 0; i < 8; i++)
    v[i] = strtoull(p, &p, 10);
  uint64_t idle = v[3] + v[4];
  uint64_t total = 0;
  for (int i = 0; i < 8; i++)
    total += v[i];
  *busy_ns = ticks_to_ns(total - idle);
  *total_ns = ticks_to_ns(total);
  return TS_OK;
}

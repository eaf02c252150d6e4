/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* proc.c (POSIX) - starts, kills and reaps child processes, runs a program to capture its output,
   and finds programs in PATH. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include "../run_deadline.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "threadsoup/parse.h"
#include "threadsoup/units.h"

extern char **environ;

int plat_proc_spawn(plat_proc *proc, const char *const argv[], ts_err *err) {
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], NULL, NULL, (char *const *)argv, environ);
  if (rc != 0)
    return ts_err_set(err, TS_EOS, "cannot start '%s': %s", argv[0], strerror(rc));
  proc->handle = 0;
  proc->pid = (long)pid;
  return TS_OK;
}

int plat_proc_kill(plat_proc *proc, ts_err *err) {
  if (kill((pid_t)proc->pid, SIGKILL) != 0)
    return ts_err_set(err, TS_EOS, "cannot kill process %ld: %s", proc->pid, strerror(errno));
  return TS_OK;
}

int plat_proc_wait(plat_proc *proc, int *exit_code, ts_err *err) {
  int status;
  pid_t rc;
  while ((rc = waitpid((pid_t)proc->pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (rc < 0)
    return ts_err_set(err, TS_EOS, "cannot wait for process %ld: %s", proc->pid, strerror(errno));
  if (exit_code)
    *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return TS_OK;
}

/* ---- running a program to its end, capturing its output ------------------------------------ */

/* How often a wait for output looks at the interrupt flag: Ctrl+C ends a run within this. */
#define RUN_POLL_MS 200

static int exit_status(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Where a program named without a folder is, from PATH (looked up before the fork: the child
   does only what is safe between fork and exec). */
static int resolve_program(const char *name, char *path, size_t len) {
  if (strchr(name, '/')) {
    snprintf(path, len, "%s", name);
    return 0;
  }
  const char *dirs = getenv("PATH");
  if (!dirs || !*dirs)
    dirs = "/usr/local/bin:/usr/bin:/bin";
  while (*dirs) {
    size_t n = strcspn(dirs, ":");
    snprintf(path, len, "%.*s/%s", n ? (int)n : 1, n ? dirs : ".", name);
    struct stat st;
    if (access(path, X_OK) == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
      return 0;
    dirs += n;
    if (*dirs == ':')
      dirs++;
  }
  return ENOENT;
}

/* The vfork child's side, out of line so that its locals live in a frame of its own below the
   parent's (which the parent, suspended until exec, still owns). Only async-signal-safe calls
   to exec, writing nothing of the parent's but errno. The death signal is bound to the forking
   thread, which waits for the child; a parent gone before prctl is caught by getppid. */
__attribute__((noinline, noreturn)) static void exec_child(const char *path,
                                                           const char *const argv[], int write_fd,
                                                           int report_fd, pid_t parent,
                                                           const sigset_t *none) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
    _exit(127);
  setpgid(0, 0);
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  /* Every caught signal back to its default before the mask opens (the handlers are the
     parent's code and data). */
  for (int sig = 1; sig < NSIG; sig++) {
    struct sigaction now;
    if (sig != SIGKILL && sig != SIGSTOP && sigaction(sig, NULL, &now) == 0 &&
        now.sa_handler != SIG_DFL && now.sa_handler != SIG_IGN)
      sigaction(sig, &dfl, NULL);
  }
  static const int defaults[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
  for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
    sigaction(defaults[i], &dfl, NULL);
  sigprocmask(SIG_SETMASK, none, NULL);
  int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null < 0 || dup2(null, 0) < 0 || dup2(write_fd, 1) < 0 || dup2(write_fd, 2) < 0)
    goto failed;
  close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
  execve(path, (char *const *)argv, environ);
failed:;
  int e = errno;
  ssize_t ignored = write(report_fd, &e, sizeof e);
  (void)ignored;
  _exit(127);
}

/* Starts the child with its plumbing: stdin from /dev/null, stdout and stderr into the pipe, every
   other descriptor closed (so it cannot hold our database or the interrupt pipe open), default
   signal handling and an empty mask even when started from a thread that blocks signals, a
   process group of its own so that a kill also reaches whatever it started, and (Linux) killed
   when we die, so that a program never outlives the service that ran it. 0 or an errno. */
static int spawn_bound(const char *const argv[], int write_fd, pid_t *out) {
  char path[PLAT_PATH_MAX];
  int rc = resolve_program(argv[0], path, sizeof path);
  if (rc != 0)
    return rc;
  int report[2]; /* the child's exec error, if any; closed by a successful exec */
  if (pipe2(report, O_CLOEXEC) != 0)
    return errno;
  sigset_t none, all, before;
  sigemptyset(&none);
  sigfillset(&all);
  pid_t parent = getpid();
  /* vfork, not fork: the parent may hold a load of 15,000 threads, and fork copies the page
     tables of all their stacks (measured here: about 5 s per benchmark child at 15,000 sleepers,
     inside the benchmark's measured time). The child borrows our memory until exec, so every
     signal is blocked across it: no handler of ours may run in the child. */
  pthread_sigmask(SIG_SETMASK, &all, &before);
  pid_t pid = vfork();
  if (pid < 0) {
    rc = errno;
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    close(report[0]);
    close(report[1]);
    return rc;
  }
  if (pid == 0)
    exec_child(path, argv, write_fd, report[1], parent, &none);
  pthread_sigmask(SIG_SETMASK, &before, NULL);
  setpgid(pid, pid); /* also here, so that a kill of the group cannot come before it exists */
  close(report[1]);
  int child_errno = 0;
  ssize_t n;
  while ((n = read(report[0], &child_errno, sizeof child_errno)) < 0 && errno == EINTR) {
  }
  close(report[0]);
  if (n == (ssize_t)sizeof child_errno) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return child_errno ? child_errno : ENOEXEC;
  }
  *out = pid;
  return 0;
}

uint64_t plat_children_cpu_ns(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
    return 0;
  return ((uint64_t)ru.ru_utime.tv_sec + (uint64_t)ru.ru_stime.tv_sec) * TS_NS_PER_S +
         ((uint64_t)ru.ru_utime.tv_usec + (uint64_t)ru.ru_stime.tv_usec) * 1000u;
}

/* Kills the child's whole process group, then reaps the child. */
static void kill_and_reap(pid_t pid) {
  if (kill(-pid, SIGKILL) != 0)
    kill(pid, SIGKILL);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

int plat_proc_run(const char *const argv[], const plat_cancel *cancel, char *output,
                  size_t capacity, size_t *output_length, uint64_t timeout_ns, int *exit_code,
                  ts_err *err) {
  size_t kept = 0;
  if (capacity > 0)
    output[0] = '\0';
  if (output_length)
    *output_length = 0;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return ts_err_set(err, TS_EOS, "cannot create a pipe for '%s': %s", argv[0], strerror(errno));
  pid_t pid = 0;
  int rc = spawn_bound(argv, fds[1], &pid);
  close(fds[1]); /* the child's copy is the only writer left, so its end is our end of file */
  if (rc != 0) {
    close(fds[0]);
    return ts_err_set(err, TS_EOS, "cannot start '%s': %s", argv[0], strerror(rc));
  }

  uint64_t started = plat_clock_ns();
  int stopped = 0; /* TS_EINTERRUPTED or TS_EBENCH (timed out) when we had to kill it */
  for (;;) {
    unsigned long wait_ms = RUN_POLL_MS;
    if ((stopped = plat_run_must_stop(cancel, started, timeout_ns, &wait_ms)) != 0)
      break;
    struct pollfd pfd = {fds[0], POLLIN, 0};
    int ready = poll(&pfd, 1, (int)wait_ms);
    if (ready < 0 && errno != EINTR) {
      rc = ts_err_set(err, TS_EOS, "cannot wait for the output of '%s': %s", argv[0],
                      strerror(errno));
      stopped = TS_EOS;
      break;
    }
    if (ready <= 0)
      continue;
    char chunk[4096];
    ssize_t n = read(fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break; /* end of file: the child and everything it started closed the pipe */
    /* Keep what fits; the rest is read anyway so that the child never blocks on a full pipe. */
    size_t room = capacity > kept + 1 ? capacity - kept - 1 : 0;
    size_t take = (size_t)n < room ? (size_t)n : room;
    if (take > 0) {
      memcpy(output + kept, chunk, take);
      kept += take;
      output[kept] = '\0';
    }
  }
  close(fds[0]);
  if (output_length)
    *output_length = kept;

  /* The output has ended; the exit follows at once, unless the child closed its output and
     runs on, which the timeout and Ctrl+C still cover. */
  int status = 0;
  for (int nap_ms = 1; !stopped;) {
    pid_t waited = waitpid(pid, &status, WNOHANG);
    if (waited == pid)
      break;
    if (waited < 0 && errno != EINTR)
      return ts_err_set(err, TS_EOS, "cannot wait for '%s' to end: %s", argv[0], strerror(errno));
    unsigned long wait_ms = (unsigned long)nap_ms;
    if ((stopped = plat_run_must_stop(cancel, started, timeout_ns, &wait_ms)) != 0)
      break;
    poll(NULL, 0, (int)wait_ms);
    if (nap_ms < RUN_POLL_MS / 4)
      nap_ms *= 2;
  }

  if (stopped) {
    kill_and_reap(pid);
    if (stopped == TS_EINTERRUPTED)
      return ts_err_set(err, TS_EINTERRUPTED, "interrupted; '%s' was killed", argv[0]);
    if (stopped == TS_EBENCH) {
      char limit[32];
      ts_format_duration(timeout_ns, limit, (int)sizeof limit);
      return ts_err_set(err, TS_EBENCH, "'%s' timed out: still running after %s, killed", argv[0],
                        limit);
    }
    return rc;
  }
  if (exit_code)
    *exit_code = exit_status(status);
  return TS_OK;
}

int plat_proc_run_as_benchmark(const char *const argv[], const plat_cancel *cancel, char *output,
                               size_t capacity, size_t *output_length, uint64_t timeout_ns,
                               int *exit_code, char *state, size_t state_len, ts_err *err) {
  /* A child inherits the nice value and policy of the thread that starts it (Linux: a thread's
     own): making this thread a benchmark thread makes the child one. */
  plat_bench_thread_begin(state, state_len);
  return plat_proc_run(argv, cancel, output, capacity, output_length, timeout_ns, exit_code, err);
}

/* ---- finding programs ---------------------------------------------------------------------- */

static int is_executable_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int plat_find_program(const char *name, char *path, size_t len, ts_err *err) {
  if (strchr(name, '/')) {
    if (!is_executable_file(name))
      return ts_err_set(err, TS_EINVAL, "'%s' is not an executable file", name);
    snprintf(path, len, "%s", name);
    return TS_OK;
  }
  const char *search = getenv("PATH");
  if (!search || !*search)
    search = "/usr/local/bin:/usr/bin:/bin"; /* what the shell assumes when PATH is unset */
  for (const char *dir = search;; dir++) {
    const char *end = strchr(dir, ':');
    size_t dir_len = end ? (size_t)(end - dir) : strlen(dir);
    char candidate[PLAT_PATH_MAX];
    /* An empty PATH entry means the current folder, as in the shell. */
    int n = dir_len ? snprintf(candidate, sizeof candidate, "%.*s/%s", (int)dir_len, dir, name)
                    : snprintf(candidate, sizeof candidate, "%s", name);
    if (n > 0 && (size_t)n < sizeof candidate && is_executable_file(candidate)) {
      if ((size_t)n >= len)
        return ts_err_set(err, TS_EINVAL, "the path of '%s' is too long: %s", name, candidate);
      memcpy(path, candidate, (size_t)n + 1);
      return TS_OK;
    }
    if (!end)
      break;
    dir = end;
  }
  return ts_err_set(err, TS_EINVAL, "'%s' is not in PATH", name);
}

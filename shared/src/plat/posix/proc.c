/* proc.c (POSIX) - starts, kills and reaps child processes. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>

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
    return ts_err_set(err, TS_EOS, "cannot wait for process %ld: %s", proc->pid,
                      strerror(errno));
  if (exit_code)
    *exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return TS_OK;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* child.c (POSIX) - idle child processes bound to the life of their owner: each inherits the read
   end of a "lifeline" pipe as fd 3 and blocks reading it. The owner alone holds the write end, so
   when the owner ends in any way - exit, crash, kill -9 - the kernel closes it, every child's read
   returns end-of-file, and every child exits. PR_SET_PDEATHSIG is not used: it fires when the
   creating *thread* ends, which would kill the children of a worker thread that finished.

   Several threads may spawn into one group at once: posix_spawn's vfork holds only the calling
   thread until its child has exec'd, so a few threads keep a few children exec'ing side by side
   (the procs scenario's crew), where one thread would wait for each exec in turn. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct plat_child_group {
  char program[PLAT_PATH_MAX];
  int lifeline[2];
  pid_t group; /* process group of all children: the first child's pid */
  long count;
  long capacity;
  pid_t *pids;
  plat_mutex lock; /* group, count, capacity, pids and member's process group */
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t founder; /* the first child: a process group of its own */
  posix_spawnattr_t member;  /* every other child: into the founder's group; read-only once set */
};

int plat_child_group_create(plat_child_group **out, const char *idle_program, ts_err *err) {
  *out = NULL;
  if (access(idle_program, X_OK) != 0)
    return ts_err_set(err, TS_EOS, "cannot run the idle child %s: %s", idle_program,
                      strerror(errno));
  plat_child_group *g = calloc(1, sizeof *g);
  if (!g)
    return ts_err_set(err, TS_ENOMEM, "no memory for a child group");
  snprintf(g->program, sizeof g->program, "%s", idle_program);
  /* Both ends close on exec; the child gets its own copy of the read end as fd 3 below. */
  if (pipe2(g->lifeline, O_CLOEXEC) != 0) {
    int e = errno;
    free(g);
    return ts_err_set(err, TS_EOS, "cannot create the lifeline pipe: %s", strerror(e));
  }
  posix_spawn_file_actions_init(&g->actions);
  posix_spawn_file_actions_addopen(&g->actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&g->actions, 0, 1);
  posix_spawn_file_actions_adddup2(&g->actions, 0, 2);
  posix_spawn_file_actions_adddup2(&g->actions, g->lifeline[0], 3);
  /* Nothing else of ours leaks into 15,000 children: no database, no terminal, no sockets. */
  posix_spawn_file_actions_addclosefrom_np(&g->actions, 4);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGHUP);
  posix_spawnattr_t *attrs[] = {&g->founder, &g->member};
  for (int i = 0; i < 2; i++) {
    posix_spawnattr_init(attrs[i]);
    posix_spawnattr_setsigmask(attrs[i], &none);
    posix_spawnattr_setsigdefault(attrs[i], &defaults);
    /* One process group for all, so one killpg ends them; the first child founds it (group 0). */
    posix_spawnattr_setpgroup(attrs[i], 0);
    posix_spawnattr_setflags(attrs[i], POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                           POSIX_SPAWN_SETSIGDEF);
  }
  plat_mutex_init(&g->lock);
  *out = g;
  return TS_OK;
}

/* Room for one more pid, under the lock. */
static int make_room(plat_child_group *g, ts_err *err) {
  if (g->count < g->capacity)
    return TS_OK;
  long capacity = g->capacity ? g->capacity * 2 : 1024;
  pid_t *pids = realloc(g->pids, (size_t)capacity * sizeof *pids);
  if (!pids)
    return ts_err_set(err, TS_ENOMEM, "no memory for %ld children", capacity);
  g->pids = pids;
  g->capacity = capacity;
  return TS_OK;
}

int plat_child_group_spawn(plat_child_group *g, ts_err *err) {
  char *argv[] = {g->program, NULL};
  if (plat_fault_due(PLAT_FAULT_CHILD_SPAWN))
    return ts_err_set(err, TS_EOS, "the OS refused a new process: %s (injected)", strerror(EAGAIN));
  plat_mutex_lock(&g->lock);
  int rc = make_room(g, err);
  /* The first child is started under the lock, so every other one knows its group; the others
     start side by side (the room for their pids is made again after, under the lock). */
  int founding = rc == TS_OK && g->group == 0;
  if (!founding)
    plat_mutex_unlock(&g->lock);
  if (rc != TS_OK)
    return rc;
  pid_t pid;
  int spawn_rc = posix_spawn(&pid, g->program, &g->actions, founding ? &g->founder : &g->member,
                             argv, environ);
  if (!founding)
    plat_mutex_lock(&g->lock);
  if (spawn_rc != 0) {
    plat_mutex_unlock(&g->lock);
    return ts_err_set(err, TS_EOS, "the OS refused a new process: %s", strerror(spawn_rc));
  }
  if (founding) {
    g->group = pid;
    posix_spawnattr_setpgroup(&g->member, pid);
  }
  rc = make_room(g, err);
  if (rc != TS_OK) { /* a child we cannot keep track of is not left running */
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
  } else {
    g->pids[g->count++] = pid;
  }
  plat_mutex_unlock(&g->lock);
  return rc;
}

long plat_child_group_count(const plat_child_group *g) { return g->count; }

void plat_child_group_destroy(plat_child_group *g) {
  if (!g)
    return;
  if (g->group > 0)
    killpg(g->group, SIGKILL);
  close(g->lifeline[1]); /* and any child the kill missed reads end-of-file */
  close(g->lifeline[0]);
  for (long i = 0; i < g->count; i++)
    while (waitpid(g->pids[i], NULL, 0) < 0 && errno == EINTR) {
    }
  posix_spawn_file_actions_destroy(&g->actions);
  posix_spawnattr_destroy(&g->founder);
  posix_spawnattr_destroy(&g->member);
  plat_mutex_destroy(&g->lock);
  free(g->pids);
  free(g);
}

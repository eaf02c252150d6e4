/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* child.c (POSIX) - idle child processes bound to the life of their owner: each inherits the read
   end of a "lifeline" pipe as fd 3 and blocks reading it. The owner alone holds the write end, so
   when the owner ends in any way - exit, crash, kill -9 - the kernel closes it, every child's read
   returns end-of-file, and every child exits. PR_SET_PDEATHSIG is not used: it fires when the
   creating *thread* ends, which would kill the children of a worker thread that finished.

   Several threads may spawn into one group at once: posix_spawn's vfork holds only the calling
   thread until its child has exec'd, so a few threads keep a few children exec'ing side by side
   (the procs scenario's crew), where one thread would wait for each exec in turn.

   Helpers that must outlive their owner (the freeze guardian) start with the same plumbing, bound
   to nothing. */
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

/* What every helper child of ours is started with (an idle child, the freeze guardian): standard
   streams on /dev/null, no descriptor of ours but the lifeline's read end as fd 3 (when there is
   one), an empty signal mask with SIGINT, SIGTERM and SIGHUP at their defaults even when started
   from a thread that blocks them, and a process group of its own until helper_join_group names
   another. */
typedef struct helper_plumbing {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attrs;
} helper_plumbing;

/* `lifeline`: the read end the child gets as fd 3, or -1 for none. */
static void helper_plumbing_init(helper_plumbing *p, int lifeline) {
  posix_spawn_file_actions_init(&p->actions);
  posix_spawn_file_actions_addopen(&p->actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&p->actions, 0, 1);
  posix_spawn_file_actions_adddup2(&p->actions, 0, 2);
  if (lifeline >= 0)
    posix_spawn_file_actions_adddup2(&p->actions, lifeline, 3);
  /* Nothing else of ours leaks into 15,000 children: no database, no terminal, no sockets. */
  posix_spawn_file_actions_addclosefrom_np(&p->actions, lifeline >= 0 ? 4 : 3);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGHUP);
  posix_spawnattr_init(&p->attrs);
  posix_spawnattr_setsigmask(&p->attrs, &none);
  posix_spawnattr_setsigdefault(&p->attrs, &defaults);
  posix_spawnattr_setpgroup(&p->attrs, 0); /* 0: the child founds a group of its own */
  posix_spawnattr_setflags(&p->attrs,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
}

/* Later children join process group `group` instead of founding their own. */
static void helper_join_group(helper_plumbing *p, pid_t group) {
  posix_spawnattr_setpgroup(&p->attrs, group);
}

static void helper_plumbing_destroy(helper_plumbing *p) {
  posix_spawn_file_actions_destroy(&p->actions);
  posix_spawnattr_destroy(&p->attrs);
}

/* Starts argv[0] (a path) with the plumbing; 0 or an errno. The one spawn of every helper. */
static int helper_spawn(const helper_plumbing *p, char *const argv[], pid_t *pid) {
  return posix_spawn(pid, argv[0], &p->actions, &p->attrs, argv, environ);
}

struct plat_child_group {
  char program[PLAT_PATH_MAX];
  int lifeline[2];
  pid_t group; /* process group of all children: the first child's pid */
  long count;
  long capacity;
  pid_t *pids;
  plat_mutex lock;         /* group, count, capacity, pids and member's process group */
  helper_plumbing founder; /* the first child: a process group of its own */
  helper_plumbing member;  /* every other child: into the founder's group; read-only once set */
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
  helper_plumbing_init(&g->founder, g->lifeline[0]);
  helper_plumbing_init(&g->member, g->lifeline[0]);
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
  int spawn_rc = helper_spawn(founding ? &g->founder : &g->member, argv, &pid);
  if (!founding)
    plat_mutex_lock(&g->lock);
  if (spawn_rc != 0) {
    plat_mutex_unlock(&g->lock);
    return ts_err_set(err, TS_EOS, "the OS refused a new process: %s", strerror(spawn_rc));
  }
  if (founding) {
    g->group = pid;
    helper_join_group(&g->member, pid);
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
  helper_plumbing_destroy(&g->founder);
  helper_plumbing_destroy(&g->member);
  plat_mutex_destroy(&g->lock);
  free(g->pids);
  free(g);
}

int plat_helper_spawn(plat_proc *proc, const char *const argv[], ts_err *err) {
  helper_plumbing alone;
  helper_plumbing_init(&alone, -1);
  pid_t pid;
  int rc = helper_spawn(&alone, (char *const *)argv, &pid);
  helper_plumbing_destroy(&alone);
  if (rc != 0)
    return ts_err_set(err, TS_EOS, "cannot start '%s': %s", argv[0], strerror(rc));
  proc->handle = 0;
  proc->pid = (long)pid;
  return TS_OK;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* thread.c (POSIX) - starts and joins threads with small, exact stacks, alone or many in one
   mapping. */
#define _GNU_SOURCE
#include "threadsoup/plat.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "threadsoup/units.h"

/* pthread wants void *(*)(void *); the plat_thread itself carries our void (*)(void *). */
static void *thread_trampoline(void *p) {
  plat_thread *thread = p;
  thread->fn(thread->arg);
  return NULL;
}

size_t plat_thread_min_stack(void) {
  /* 16 KiB is glibc's PTHREAD_STACK_MIN on x86-64: the floor the benchmarks compare against. */
  return PTHREAD_STACK_MIN > 16384 ? (size_t)PTHREAD_STACK_MIN : 16384;
}

/* The stack a thread gets for `stack_bytes`: 0 means the least, and nothing below the least. */
static size_t stack_size_of(size_t stack_bytes) {
  if (stack_bytes == 0)
    stack_bytes = plat_thread_min_stack();
  return stack_bytes < (size_t)PTHREAD_STACK_MIN ? (size_t)PTHREAD_STACK_MIN : stack_bytes;
}

/* Starts the thread with `attr` (its stack set), every signal blocked. */
static int start_with(plat_thread *thread, pthread_attr_t *attr, plat_thread_fn fn, void *arg,
                      ts_err *err) {
  thread->fn = fn;
  thread->arg = arg;
  /* Load threads must never run our signal handlers: each starts with every signal blocked, so
     Ctrl+C always lands on the controlling thread. glibc sets the new thread's mask from the
     attribute, which saves two system calls a thread over blocking around pthread_create. */
  sigset_t all;
  sigfillset(&all);
  pthread_t tid;
  int rc;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
  pthread_attr_setsigmask_np(attr, &all);
  rc = pthread_create(&tid, attr, thread_trampoline, thread);
#else
  sigset_t old;
  pthread_sigmask(SIG_SETMASK, &all, &old);
  rc = pthread_create(&tid, attr, thread_trampoline, thread);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
#endif
  pthread_attr_destroy(attr);
  if (rc != 0)
    return ts_err_set(err, TS_EOS, "the OS refused a new thread: %s", strerror(rc));
  thread->handle = (uintptr_t)tid;
  return TS_OK;
}

static int refused_by_fault(ts_err *err) {
  return ts_err_set(err, TS_EOS, "the OS refused a new thread: %s (injected)", strerror(EAGAIN));
}

int plat_thread_start(plat_thread *thread, size_t stack_bytes, plat_thread_fn fn, void *arg,
                      ts_err *err) {
  if (plat_fault_due(PLAT_FAULT_THREAD_START))
    return refused_by_fault(err);
  stack_bytes = stack_size_of(stack_bytes);
  pthread_attr_t attr;
  int rc = pthread_attr_init(&attr);
  if (rc == 0)
    rc = pthread_attr_setstacksize(&attr, stack_bytes);
  if (rc != 0) {
    pthread_attr_destroy(&attr);
    return ts_err_set(err, TS_EINVAL, "stack size of %zu bytes refused: %s", stack_bytes,
                      strerror(rc));
  }
  return start_with(thread, &attr, fn, arg, err);
}

struct plat_stacks {
  char *base;
  size_t count;
  size_t stack_bytes; /* a whole number of pages */
};

int plat_stacks_create(size_t count, size_t stack_bytes, plat_stacks **out, ts_err *err) {
  *out = NULL;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  stack_bytes = (stack_size_of(stack_bytes) + page - 1) / page * page;
  if (count == 0 || count > SIZE_MAX / stack_bytes)
    return ts_err_set(err, TS_EINVAL, "%zu stacks of %zu bytes do not fit in memory", count,
                      stack_bytes);
  plat_stacks *stacks = malloc(sizeof *stacks);
  if (!stacks)
    return ts_err_set(err, TS_ENOMEM, "no memory for %zu stacks", count);
  /* Reserved, not committed: a thread's stack uses only the pages it touches, as glibc's own. */
  void *base = mmap(NULL, count * stack_bytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (base == MAP_FAILED) {
    int e = errno;
    free(stacks);
    return ts_err_set(err, TS_ENOMEM, "no address space for %zu stacks of %zu bytes: %s", count,
                      stack_bytes, strerror(e));
  }
  stacks->base = base;
  stacks->count = count;
  stacks->stack_bytes = stack_bytes;
  *out = stacks;
  return TS_OK;
}

int plat_thread_start_on(plat_thread *thread, plat_stacks *stacks, size_t index, plat_thread_fn fn,
                         void *arg, ts_err *err) {
  if (plat_fault_due(PLAT_FAULT_THREAD_START))
    return refused_by_fault(err);
  if (index >= stacks->count)
    return ts_err_set(err, TS_EINVAL, "stack %zu of %zu does not exist", index + 1, stacks->count);
  pthread_attr_t attr;
  int rc = pthread_attr_init(&attr);
  if (rc == 0)
    rc = pthread_attr_setstack(&attr, stacks->base + index * stacks->stack_bytes,
                               stacks->stack_bytes);
  if (rc != 0) {
    pthread_attr_destroy(&attr);
    return ts_err_set(err, TS_EINVAL, "a stack of %zu bytes refused: %s", stacks->stack_bytes,
                      strerror(rc));
  }
  return start_with(thread, &attr, fn, arg, err);
}

void plat_stacks_free(plat_stacks *stacks) {
  if (!stacks)
    return;
  munmap(stacks->base, stacks->count * stacks->stack_bytes);
  free(stacks);
}

void plat_thread_join(plat_thread thread) { pthread_join((pthread_t)thread.handle, NULL); }

void plat_thread_allow_cancel(void) {
  pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
  pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
}

void plat_thread_cancel_and_join(plat_thread thread) {
  pthread_cancel((pthread_t)thread.handle);
  pthread_join((pthread_t)thread.handle, NULL);
}

int plat_thread_set_priority(plat_priority priority, ts_err *err) {
  static const int nice_of[] = {19, 5, 0, -5};
  if (priority == PLAT_PRIORITY_NORMAL)
    return TS_OK; /* leave the inherited value alone */
  /* On Linux a thread's nice value is its own: PRIO_PROCESS with a thread id sets just it. */
  id_t tid = (id_t)syscall(SYS_gettid);
  if (setpriority(PRIO_PROCESS, tid, nice_of[priority]) != 0)
    return ts_err_set(err, TS_EOS, "cannot set thread priority to nice %d: %s", nice_of[priority],
                      strerror(errno));
  return TS_OK;
}

void plat_yield(void) { sched_yield(); }

_Static_assert(sizeof(pthread_mutex_t) <= sizeof(plat_mutex), "plat_mutex too small");
_Static_assert(sizeof(pthread_cond_t) <= sizeof(plat_cond), "plat_cond too small");

void plat_mutex_init(plat_mutex *m) { pthread_mutex_init((pthread_mutex_t *)m->opaque, NULL); }
void plat_mutex_destroy(plat_mutex *m) { pthread_mutex_destroy((pthread_mutex_t *)m->opaque); }
void plat_mutex_lock(plat_mutex *m) { pthread_mutex_lock((pthread_mutex_t *)m->opaque); }
void plat_mutex_unlock(plat_mutex *m) { pthread_mutex_unlock((pthread_mutex_t *)m->opaque); }

void plat_cond_init(plat_cond *c) {
  /* Timed waits count on the monotonic clock: a clock change must not fire a schedule. */
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init((pthread_cond_t *)c->opaque, &attr);
  pthread_condattr_destroy(&attr);
}
void plat_cond_destroy(plat_cond *c) { pthread_cond_destroy((pthread_cond_t *)c->opaque); }
void plat_cond_broadcast(plat_cond *c) { pthread_cond_broadcast((pthread_cond_t *)c->opaque); }

int plat_cond_wait(plat_cond *c, plat_mutex *m, uint64_t timeout_ns) {
  if (timeout_ns == UINT64_MAX) {
    pthread_cond_wait((pthread_cond_t *)c->opaque, (pthread_mutex_t *)m->opaque);
    return 0;
  }
  uint64_t deadline = plat_clock_ns() + timeout_ns;
  struct timespec ts = {(time_t)(deadline / TS_NS_PER_S), (long)(deadline % TS_NS_PER_S)};
  return pthread_cond_timedwait((pthread_cond_t *)c->opaque, (pthread_mutex_t *)m->opaque, &ts) ==
         ETIMEDOUT;
}

/* CLOCK_REALTIME, whatever clock the condition was made with (pthread_cond_clockwait): an
   absolute realtime deadline passes during a suspend and moves with a clock set by hand. */
int plat_cond_wait_wall(plat_cond *c, plat_mutex *m, uint64_t timeout_ns) {
  if (timeout_ns == UINT64_MAX)
    return plat_cond_wait(c, m, timeout_ns);
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  uint64_t deadline = (uint64_t)now.tv_sec * TS_NS_PER_S + (uint64_t)now.tv_nsec + timeout_ns;
  struct timespec ts = {(time_t)(deadline / TS_NS_PER_S), (long)(deadline % TS_NS_PER_S)};
  return pthread_cond_clockwait((pthread_cond_t *)c->opaque, (pthread_mutex_t *)m->opaque,
                                CLOCK_REALTIME, &ts) == ETIMEDOUT;
}

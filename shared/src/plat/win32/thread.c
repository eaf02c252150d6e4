/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* thread.c (Windows) - starts and joins threads with 64 KiB stack reservations, each its own. */
#include "threadsoup/plat.h"

#include <stdlib.h>

#include "win32.h"
#include "threadsoup/units.h"

/* CreateThread wants DWORD WINAPI (*)(LPVOID); the plat_thread itself carries our function. */
static DWORD WINAPI thread_trampoline(LPVOID p) {
  plat_thread *thread = p;
  thread->fn(thread->arg);
  return 0;
}

size_t plat_thread_min_stack(void) { return 64 * 1024; }

int plat_thread_start(plat_thread *thread, size_t stack_bytes, plat_thread_fn fn, void *arg,
                      ts_err *err) {
  if (plat_fault_due(PLAT_FAULT_THREAD_START))
    return ts_err_set(err, TS_EOS,
                      "the OS refused a new thread: Not enough memory resources are "
                      "available to process this command (injected)");
  if (stack_bytes == 0)
    stack_bytes = plat_thread_min_stack();
  thread->fn = fn;
  thread->arg = arg;
  /* A reservation, not a commit: only the pages a thread touches use memory. */
  HANDLE h = CreateThread(NULL, stack_bytes, thread_trampoline, thread,
                          STACK_SIZE_PARAM_IS_A_RESERVATION, NULL);
  if (!h) {
    DWORD code = GetLastError();
    char text[256];
    win32_error_text(code, text, sizeof text);
    return ts_err_set(err, TS_EOS, "the OS refused a new thread: %s", text);
  }
  thread->handle = (uintptr_t)h;
  return TS_OK;
}

/* Windows gives each thread a stack reservation of its own: the size is all there is to keep. */
struct plat_stacks {
  size_t count;
  size_t stack_bytes;
};

int plat_stacks_create(size_t count, size_t stack_bytes, plat_stacks **out, ts_err *err) {
  *out = NULL;
  if (count == 0)
    return ts_err_set(err, TS_EINVAL, "0 stacks asked for");
  plat_stacks *stacks = malloc(sizeof *stacks);
  if (!stacks)
    return ts_err_set(err, TS_ENOMEM, "no memory for %zu stacks", count);
  stacks->count = count;
  stacks->stack_bytes = stack_bytes;
  *out = stacks;
  return TS_OK;
}

int plat_thread_start_on(plat_thread *thread, plat_stacks *stacks, size_t index, plat_thread_fn fn,
                         void *arg, ts_err *err) {
  if (index >= stacks->count)
    return ts_err_set(err, TS_EINVAL, "stack %zu of %zu does not exist", index + 1, stacks->count);
  return plat_thread_start(thread, stacks->stack_bytes, fn, arg, err);
}

void plat_stacks_free(plat_stacks *stacks) { free(stacks); }

void plat_thread_join(plat_thread thread) {
  HANDLE h = (HANDLE)thread.handle;
  WaitForSingleObject(h, INFINITE);
  CloseHandle(h);
}

void plat_thread_allow_cancel(void) {
  /* Nothing to arm: TerminateThread needs no cooperation from the thread. */
}

void plat_thread_cancel_and_join(plat_thread thread) {
  HANDLE h = (HANDLE)thread.handle;
  /* Safe only because such a thread holds no lock and owns no memory: it only yields. */
  TerminateThread(h, 0);
  WaitForSingleObject(h, INFINITE);
  CloseHandle(h);
}

int plat_thread_set_priority(plat_priority priority, ts_err *err) {
  static const int windows_priority[] = {THREAD_PRIORITY_IDLE, THREAD_PRIORITY_BELOW_NORMAL,
                                         THREAD_PRIORITY_NORMAL, THREAD_PRIORITY_ABOVE_NORMAL};
  if (priority == PLAT_PRIORITY_NORMAL)
    return TS_OK;
  if (!SetThreadPriority(GetCurrentThread(), windows_priority[priority])) {
    char text[256];
    win32_error_text(GetLastError(), text, sizeof text);
    return ts_err_set(err, TS_EOS, "cannot set thread priority: %s", text);
  }
  return TS_OK;
}

void plat_yield(void) { SwitchToThread(); }

_Static_assert(sizeof(SRWLOCK) <= sizeof(plat_mutex), "plat_mutex too small");
_Static_assert(sizeof(CONDITION_VARIABLE) <= sizeof(plat_cond), "plat_cond too small");

void plat_mutex_init(plat_mutex *m) { InitializeSRWLock((SRWLOCK *)m->opaque); }
void plat_mutex_destroy(plat_mutex *m) { (void)m; /* an SRW lock needs no cleanup */ }
void plat_mutex_lock(plat_mutex *m) { AcquireSRWLockExclusive((SRWLOCK *)m->opaque); }
void plat_mutex_unlock(plat_mutex *m) { ReleaseSRWLockExclusive((SRWLOCK *)m->opaque); }

void plat_cond_init(plat_cond *c) { InitializeConditionVariable((CONDITION_VARIABLE *)c->opaque); }
void plat_cond_destroy(plat_cond *c) { (void)c; }
void plat_cond_broadcast(plat_cond *c) {
  WakeAllConditionVariable((CONDITION_VARIABLE *)c->opaque);
}

int plat_cond_wait(plat_cond *c, plat_mutex *m, uint64_t timeout_ns) {
  DWORD ms = INFINITE;
  if (timeout_ns != UINT64_MAX) {
    uint64_t v = (timeout_ns + TS_NS_PER_MS - 1) / TS_NS_PER_MS;
    ms = v >= INFINITE ? INFINITE - 1 : (DWORD)v;
  }
  if (!SleepConditionVariableSRW((CONDITION_VARIABLE *)c->opaque, (SRWLOCK *)m->opaque, ms, 0))
    return GetLastError() == ERROR_TIMEOUT;
  return 0;
}

/* Windows has no wait on the wall clock that counts time asleep: the service's resume and
   time-change controls wake the waiter, which recomputes its deadline. */
int plat_cond_wait_wall(plat_cond *c, plat_mutex *m, uint64_t timeout_ns) {
  return plat_cond_wait(c, m, timeout_ns);
}

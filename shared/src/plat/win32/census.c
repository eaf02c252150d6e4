/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* census.c (Windows) - counts processes and threads, and threads by state, from one
   NtQuerySystemInformation(SystemProcessInformation) buffer, as Process Explorer does. */
#include "threadsoup/plat.h"
#include "threadsoup/plat_knobs.h"

#include "threadsoup/ntprocinfo.h"
#include "win32.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the buffer: from the OS, or from a recorded file ---------------------------------------- */

#define SYSTEM_PROCESS_INFORMATION_CLASS 5
#define STATUS_INFO_LENGTH_MISMATCH_CODE ((LONG)0xC0000004L)
#define STATUS_BUFFER_TOO_SMALL_CODE ((LONG)0xC0000023L)

typedef LONG(WINAPI *nt_query_system_information_fn)(ULONG, PVOID, ULONG, PULONG);

typedef struct snapshot {
  unsigned char *buf;
  size_t len;
  uint64_t base; /* the address ImageName pointers are relative to */
} snapshot;

/* System Informer's PhEnumProcessesEx: start from the size that fitted last time and grow to the
   size the kernel asks for until the list, which changes between calls, fits. */
static int snapshot_query(snapshot *s, ts_err *err) {
#if !defined(_WIN64)
  (void)s;
  return ts_err_set(err, TS_EUNSUPPORTED,
                    "the thread census reads the 64-bit process list; use the 64-bit build");
#else
  static ULONG initial_length = 0x4000;
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  FARPROC proc = ntdll ? GetProcAddress(ntdll, "NtQuerySystemInformation") : NULL;
  nt_query_system_information_fn query;
  memcpy(&query, &proc, sizeof query); /* a function-pointer cast without -Wcast-function-type */
  if (!query)
    return ts_err_set(err, TS_EUNSUPPORTED, "ntdll.dll has no NtQuerySystemInformation");
  ULONG length = initial_length;
  LONG status = STATUS_INFO_LENGTH_MISMATCH_CODE;
  unsigned char *buf = NULL;
  ULONG needed = 0;
  /* Each retry follows a change in the process list; a bound keeps a storm of new processes from
     holding us forever. */
  for (int attempt = 0; attempt < 16; attempt++) {
    free(buf);
    buf = malloc(length);
    if (!buf)
      return ts_err_set(err, TS_ENOMEM, "no memory for a %lu-byte process list",
                        (unsigned long)length);
    needed = 0;
    status = query(SYSTEM_PROCESS_INFORMATION_CLASS, buf, length, &needed);
    if (status != STATUS_INFO_LENGTH_MISMATCH_CODE && status != STATUS_BUFFER_TOO_SMALL_CODE)
      break;
    /* The size the kernel asks for, with room for the processes that start before the next
       try (asking for the exact size failed 8 times in 3,000 under Wine while other programs
       started processes); if it names none larger, double ours so each try grows. */
    length = needed > length ? needed + needed / 4 + 0x4000 : length * 2;
  }
  if (status < 0) {
    free(buf);
    return ts_err_set(err, TS_EOS,
                      "NtQuerySystemInformation(SystemProcessInformation) failed: status 0x%08lX",
                      (unsigned long)status);
  }
  if (length <= 0x100000)
    initial_length = length;
  s->buf = buf;
  /* Only the bytes the kernel wrote count: a name pointing past them is as bad as one outside. */
  s->len = needed > 0 && needed <= length ? needed : length;
  s->base = (uint64_t)(uintptr_t)buf;
  return TS_OK;
#endif
}

static int snapshot_take(snapshot *s, ts_err *err) {
  const char *source = plat_knob_text(PLAT_KNOB_CENSUS_SOURCE);
  if (source) {
    int rc = ntproc_load_snapshot(source, &s->buf, &s->len, &s->base, err);
    return rc == TS_OK ? rc : ts_err_prefix(err, "census source");
  }
  return snapshot_query(s, err);
}

/* Takes a snapshot and walks it once with the given callbacks. */
static int census_walk(ntproc_process_fn on_process, ntproc_thread_fn on_thread, void *ctx,
                       ts_err *err) {
  snapshot s;
  int rc = snapshot_take(&s, err);
  if (rc != TS_OK)
    return rc;
  rc = ntproc_walk(s.buf, s.len, s.base, on_process, on_thread, ctx, err);
  free(s.buf);
  if (rc != TS_OK && rc != TS_ENOMEM)
    ts_err_prefix(err, "the process list could not be read");
  return rc;
}

/* ---- helpers --------------------------------------------------------------------------------- */

/* Copies a UTF-8 name, cutting a long one between characters, never inside one. */
static void copy_name(char *dst, size_t cap, const char *src) {
  size_t n = strlen(src);
  if (n >= cap) {
    n = cap - 1;
    while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
      n--;
  }
  memcpy(dst, src, n);
  dst[n] = '\0';
}

static void fill_process(plat_process_census *out, const ntproc_process *p) {
  memset(out, 0, sizeof *out);
  out->pid = (long)p->pid;
  out->parent_pid = (long)p->parent_pid;
  copy_name(out->name, sizeof out->name, p->name);
  out->threads = (long)p->thread_count;
  out->handles = (long)p->handle_count;
  /* The process's own times also hold threads that have ended, as Task Manager shows them. */
  out->cpu_ns = (p->kernel_time + p->user_time) * 100u;
}

/* ---- the machine ----------------------------------------------------------------------------- */

static int machine_on_process(void *ctx, const ntproc_process *p) {
  plat_census *m = ctx;
  m->processes++;
  m->threads += (long)p->thread_count;
  m->handles += (long)p->handle_count;
  return NTPROC_NEXT;
}

static int machine_on_thread(void *ctx, const ntproc_process *p, const ntproc_thread *t) {
  plat_census *m = ctx;
  m->context_switches += t->context_switches;
  /* The Idle process's threads are "Running" on every idle CPU: they are not demand. */
  if (p->pid != 0 && (t->state == NTPROC_STATE_READY || t->state == NTPROC_STATE_RUNNING ||
                      t->state == NTPROC_STATE_STANDBY || t->state == NTPROC_STATE_DEFERRED_READY))
    m->run_queue++;
  return NTPROC_NEXT;
}

int plat_census_machine(plat_census *out, ts_err *err) {
  plat_census m;
  memset(&m, 0, sizeof m);
  int rc = census_walk(machine_on_process, machine_on_thread, &m, err);
  if (rc == TS_OK)
    *out = m;
  return rc;
}

/* ---- one process ----------------------------------------------------------------------------- */

/* Distinct (state, wait reason) pairs seen; far more than any process shows at once. */
#define STATE_KEYS_MAX 128

typedef struct process_walk {
  long pid;
  int found;
  plat_process_census *out;
  uint32_t state[STATE_KEYS_MAX], reason[STATE_KEYS_MAX];
  long count[STATE_KEYS_MAX];
  int keys;
  long unkeyed; /* threads beyond STATE_KEYS_MAX distinct states: counted as "other" */
} process_walk;

static int one_on_process(void *ctx, const ntproc_process *p) {
  process_walk *w = ctx;
  if ((long)p->pid != w->pid)
    return NTPROC_SKIP_THREADS;
  w->found = 1;
  fill_process(w->out, p);
  return NTPROC_NEXT;
}

static int one_on_thread(void *ctx, const ntproc_process *p, const ntproc_thread *t) {
  process_walk *w = ctx;
  w->out->context_switches += t->context_switches;
  /* The wait reason is stale outside the Waiting state; Process Explorer ignores it too. */
  uint32_t reason = t->state == NTPROC_STATE_WAITING ? t->wait_reason : 0;
  int k = 0;
  while (k < w->keys && (w->state[k] != t->state || w->reason[k] != reason))
    k++;
  if (k == w->keys) {
    if (w->keys == STATE_KEYS_MAX) {
      w->unkeyed++;
      return NTPROC_NEXT;
    }
    w->state[k] = t->state;
    w->reason[k] = reason;
    w->count[k] = 0;
    w->keys++;
  }
  w->count[k]++;
  (void)p;
  return NTPROC_NEXT;
}

/* Most threads first; equal counts by name, so that the order never depends on the walk. */
static int compare_states(const void *a, const void *b) {
  const plat_state_count *x = a, *y = b;
  if (x->threads != y->threads)
    return x->threads > y->threads ? -1 : 1;
  return strcmp(x->name, y->name);
}

int plat_census_process(long pid, plat_process_census *out, ts_err *err) {
  process_walk *w = calloc(1, sizeof *w);
  plat_process_census *result = calloc(1, sizeof *result);
  plat_state_count *all = calloc(STATE_KEYS_MAX, sizeof *all);
  int rc = TS_OK;
  if (!w || !result || !all) {
    rc = ts_err_set(err, TS_ENOMEM, "no memory for the census of process %ld", pid);
    goto done;
  }
  w->pid = pid;
  w->out = result;
  rc = census_walk(one_on_process, one_on_thread, w, err);
  if (rc != TS_OK)
    goto done;
  if (!w->found) {
    rc = ts_err_set(err, TS_EOS, "process %ld not found in the process list", pid);
    goto done;
  }
  for (int k = 0; k < w->keys; k++) {
    ntproc_state_name(w->state[k], w->reason[k], all[k].name, sizeof all[k].name);
    all[k].threads = w->count[k];
  }
  qsort(all, (size_t)w->keys, sizeof *all, compare_states);
  /* Room for PLAT_MAX_STATES names: the last slot becomes "other" when there are more. */
  int keep = w->keys;
  long other = w->unkeyed;
  if (keep > PLAT_MAX_STATES || (other > 0 && keep == PLAT_MAX_STATES))
    keep = PLAT_MAX_STATES - 1;
  for (int k = keep; k < w->keys; k++)
    other += all[k].threads;
  memcpy(result->states, all, (size_t)keep * sizeof *all);
  result->state_count = keep;
  if (other > 0) {
    snprintf(result->states[keep].name, sizeof result->states[keep].name, "other");
    result->states[keep].threads = other;
    result->state_count++;
  }
  *out = *result;
done:
  free(all);
  free(result);
  free(w);
  return rc;
}

/* ---- every process --------------------------------------------------------------------------- */

typedef struct list_walk {
  plat_process_census *list;
  long count, cap;
} list_walk;

static int list_on_process(void *ctx, const ntproc_process *p) {
  list_walk *w = ctx;
  if (w->count == w->cap) {
    long cap = w->cap ? w->cap * 2 : 256;
    plat_process_census *grown = realloc(w->list, (size_t)cap * sizeof *grown);
    if (!grown)
      return TS_ENOMEM;
    w->list = grown;
    w->cap = cap;
  }
  fill_process(&w->list[w->count++], p);
  return NTPROC_NEXT;
}

static int list_on_thread(void *ctx, const ntproc_process *p, const ntproc_thread *t) {
  list_walk *w = ctx;
  w->list[w->count - 1].context_switches += t->context_switches;
  (void)p;
  return NTPROC_NEXT;
}

int plat_census_processes(plat_process_census **list, long *count, ts_err *err) {
  list_walk w = {NULL, 0, 0};
  int rc = census_walk(list_on_process, list_on_thread, &w, err);
  if (rc == TS_ENOMEM)
    ts_err_set(err, TS_ENOMEM, "no memory for the census of %ld processes", w.count);
  if (rc != TS_OK) {
    free(w.list);
    return rc;
  }
  *list = w.list;
  *count = w.count;
  return TS_OK;
}

/* ---- every thread of one process with its switches ------------------------------------------ */

typedef struct threads_walk {
  long pid;
  int found;
  plat_process_census *process;
  plat_thread_switches *items;
  long count, cap;
} threads_walk;

static int threads_on_process(void *ctx, const ntproc_process *p) {
  threads_walk *w = ctx;
  if ((long)p->pid != w->pid)
    return NTPROC_SKIP_THREADS;
  w->found = 1;
  fill_process(w->process, p);
  return NTPROC_NEXT;
}

static int threads_on_thread(void *ctx, const ntproc_process *p, const ntproc_thread *t) {
  threads_walk *w = ctx;
  if (w->count == w->cap) {
    long cap = w->cap ? w->cap * 2 : 64;
    plat_thread_switches *grown = realloc(w->items, (size_t)cap * sizeof *grown);
    if (!grown)
      return TS_ENOMEM;
    w->items = grown;
    w->cap = cap;
  }
  w->items[w->count].tid = (long)t->tid;
  w->items[w->count].switches = t->context_switches;
  w->count++;
  w->process->context_switches += t->context_switches;
  (void)p;
  return NTPROC_NEXT;
}

int plat_census_threads(long pid, plat_process_census *process, plat_thread_switches **threads,
                        long *count, ts_err *err) {
  threads_walk w = {pid, 0, process, NULL, 0, 0};
  *threads = NULL;
  *count = 0;
  int rc = census_walk(threads_on_process, threads_on_thread, &w, err);
  if (rc == TS_ENOMEM)
    ts_err_set(err, TS_ENOMEM, "no memory for the threads of process %ld", pid);
  else if (rc == TS_OK && !w.found)
    rc = ts_err_set(err, TS_EOS, "process %ld not found in the process list", pid);
  if (rc != TS_OK) {
    free(w.items);
    return rc;
  }
  *threads = w.items;
  *count = w.count;
  return TS_OK;
}

/* Length of a name without a final ".exe" in any case. */
static size_t name_stem_length(const char *name) {
  size_t n = strlen(name);
  return n > 4 && _stricmp(name + n - 4, ".exe") == 0 ? n - 4 : n;
}

int plat_process_name_matches(const char *census_name, const char *wanted) {
  size_t n = name_stem_length(census_name);
  return n > 0 && n == name_stem_length(wanted) && _strnicmp(census_name, wanted, n) == 0;
}

/* ---- thread count of one process ------------------------------------------------------------- */

typedef struct count_walk {
  long pid, threads;
} count_walk;

static int count_on_process(void *ctx, const ntproc_process *p) {
  count_walk *w = ctx;
  if ((long)p->pid != w->pid)
    return NTPROC_SKIP_THREADS;
  w->threads = (long)p->thread_count;
  return NTPROC_STOP;
}

long plat_process_thread_count(long pid, ts_err *err) {
  count_walk w = {pid, -1};
  if (census_walk(count_on_process, NULL, &w, err) != TS_OK)
    return -1;
  if (w.threads < 0)
    ts_err_set(err, TS_EOS, "process %ld not found in the process list", pid);
  return w.threads;
}

long plat_self_pid(void) { return (long)GetCurrentProcessId(); }

static uint64_t filetime_ns(FILETIME ft) {
  return (((uint64_t)ft.dwHighDateTime << 32) | ft.dwLowDateTime) * 100u;
}

int plat_machine_cpu_ns(uint64_t *busy_ns, uint64_t *total_ns, ts_err *err) {
  if (plat_machine_busy_injected(plat_clock_ns(), busy_ns, total_ns))
    return TS_OK;
  FILETIME idle, kernel, user;
  if (!GetSystemTimes(&idle, &kernel, &user))
    return ts_err_set(err, TS_EOS, "cannot read the CPU times (error %lu)",
                      (unsigned long)GetLastError());
  /* Kernel time includes idle time. */
  *total_ns = filetime_ns(kernel) + filetime_ns(user);
  *busy_ns = *total_ns - filetime_ns(idle);
  return TS_OK;
}

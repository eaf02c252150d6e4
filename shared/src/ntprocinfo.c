/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* ntprocinfo.c - parses an x64 SystemProcessInformation buffer byte by byte, checking every offset
   and count before using it, so that a recorded or damaged buffer can never make us read astray. */
#include "threadsoup/ntprocinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the layout ------------------------------------------------------------------------------ */

/* Offsets in SYSTEM_PROCESS_INFORMATION on x64 (phnt's ntexapi.h; the same in Wine's winternl.h).
   Reading by offset instead of through a struct keeps the parser independent of the compiler's
   padding, of pointer size and of byte order, so the Linux build tests it too. */
enum {
  PROC_NEXT_ENTRY_OFFSET = 0,  /* ULONG */
  PROC_NUMBER_OF_THREADS = 4,  /* ULONG */
  PROC_CREATE_TIME = 32,       /* LARGE_INTEGER */
  PROC_USER_TIME = 40,         /* LARGE_INTEGER */
  PROC_KERNEL_TIME = 48,       /* LARGE_INTEGER */
  PROC_NAME_LENGTH = 56,       /* ImageName.Length: USHORT, bytes */
  PROC_NAME_BUFFER = 64,       /* ImageName.Buffer: PWSTR, after 4 bytes of padding */
  PROC_BASE_PRIORITY = 72,     /* KPRIORITY (LONG) */
  PROC_PID = 80,               /* UniqueProcessId: HANDLE */
  PROC_PARENT_PID = 88,        /* InheritedFromUniqueProcessId: HANDLE */
  PROC_HANDLE_COUNT = 96,      /* ULONG */
  PROC_SESSION_ID = 100,       /* ULONG */
  PROC_WORKING_SET_SIZE = 144, /* VM_COUNTERS.WorkingSetSize: SIZE_T */
};

/* Offsets in SYSTEM_THREAD_INFORMATION on x64. */
enum {
  THREAD_KERNEL_TIME = 0,       /* LARGE_INTEGER */
  THREAD_USER_TIME = 8,         /* LARGE_INTEGER */
  THREAD_START_ADDRESS = 32,    /* PVOID, after WaitTime and 4 bytes of padding */
  THREAD_TID = 48,              /* ClientId.UniqueThread: HANDLE */
  THREAD_PRIORITY = 56,         /* KPRIORITY */
  THREAD_BASE_PRIORITY = 60,    /* LONG */
  THREAD_CONTEXT_SWITCHES = 64, /* ULONG */
  THREAD_STATE = 68,            /* KTHREAD_STATE */
  THREAD_WAIT_REASON = 72,      /* KWAIT_REASON */
};

/* Little-endian reads through memcpy: entries need not be aligned in a recorded buffer, and
   a big-endian host reads the same numbers. Callers have checked p[0..n) is inside the buffer. */
static uint64_t read_le(const unsigned char *p, size_t n) {
  unsigned char b[8];
  memcpy(b, p, n);
  uint64_t v = 0;
  for (size_t i = n; i-- > 0;)
    v = (v << 8) | b[i];
  return v;
}

static uint16_t read_u16(const unsigned char *p) { return (uint16_t)read_le(p, 2); }
static uint32_t read_u32(const unsigned char *p) { return (uint32_t)read_le(p, 4); }
static uint64_t read_u64(const unsigned char *p) { return read_le(p, 8); }
static int32_t read_i32(const unsigned char *p) {
  uint32_t u = read_u32(p);
  return u <= INT32_MAX ? (int32_t)u : (int32_t)(u - 2147483648u) - 2147483647 - 1;
}

/* ---- names ----------------------------------------------------------------------------------- */

/* Appends one code point as UTF-8 if it fits whole (with room for the '\0'); 0 when it does not,
   so that a long name is cut between characters, never inside one. */
static int put_utf8(char *out, size_t cap, size_t *n, uint32_t cp) {
  unsigned char b[4];
  size_t k;
  if (cp < 0x80) {
    b[0] = (unsigned char)cp;
    k = 1;
  } else if (cp < 0x800) {
    b[0] = (unsigned char)(0xC0 | (cp >> 6));
    b[1] = (unsigned char)(0x80 | (cp & 0x3F));
    k = 2;
  } else if (cp < 0x10000) {
    b[0] = (unsigned char)(0xE0 | (cp >> 12));
    b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    b[2] = (unsigned char)(0x80 | (cp & 0x3F));
    k = 3;
  } else {
    b[0] = (unsigned char)(0xF0 | (cp >> 18));
    b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    b[3] = (unsigned char)(0x80 | (cp & 0x3F));
    k = 4;
  }
  if (*n + k >= cap)
    return 0;
  memcpy(out + *n, b, k);
  *n += k;
  return 1;
}

/* UTF-16LE to UTF-8. Windows does not insist on valid UTF-16 in names: a lone surrogate (and a
   NUL, which would end the C string early) becomes '?'. */
static void utf16_to_utf8(const unsigned char *s, size_t units, char *out, size_t cap) {
  size_t n = 0;
  for (size_t i = 0; i < units; i++) {
    uint32_t cp = read_u16(s + 2 * i);
    if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < units) {
      uint32_t lo = read_u16(s + 2 * (i + 1));
      if (lo >= 0xDC00 && lo <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        i++;
      } else {
        cp = '?';
      }
    } else if ((cp >= 0xD800 && cp <= 0xDFFF) || cp == 0) {
      cp = '?';
    }
    if (!put_utf8(out, cap, &n, cp))
      break;
  }
  out[n] = '\0';
}

/* ---- entries --------------------------------------------------------------------------------- */

/* Handles are pointer-sized, but process and thread ids are DWORDs everywhere in Win32. */
static int check_id(uint64_t id, size_t at, const char *what, ts_err *err) {
  if (id > UINT32_MAX)
    return ts_err_set(err, TS_EINVAL, "offset %zu: %s 0x%llx is not a 32-bit id", at, what,
                      (unsigned long long)id);
  return TS_OK;
}

/* Times are signed LARGE_INTEGERs; a negative duration can only come from a damaged buffer. */
static int check_time(uint64_t t, size_t at, const char *what, ts_err *err) {
  if (t > INT64_MAX)
    return ts_err_set(err, TS_EINVAL, "offset %zu: %s is negative", at, what);
  return TS_OK;
}

/* Reads and checks the process entry at `off`; *next gets the following entry's offset, or 0. */
static int read_process(const unsigned char *buf, size_t len, uint64_t base, size_t off,
                        ntproc_process *p, size_t *next, ts_err *err) {
  if (len - off < NTPROC_PROCESS_ENTRY_LENGTH)
    return ts_err_set(err, TS_EINVAL,
                      "process entry at offset %zu is truncated: it needs %d bytes, %zu are left",
                      off, NTPROC_PROCESS_ENTRY_LENGTH, len - off);
  const unsigned char *e = buf + off;
  memset(p, 0, sizeof *p);
  p->offset = off;
  p->thread_count = read_u32(e + PROC_NUMBER_OF_THREADS);
  /* 64-bit arithmetic: 80 * 0xFFFFFFFF threads must not wrap around to a small size. */
  uint64_t need =
      NTPROC_PROCESS_ENTRY_LENGTH + (uint64_t)NTPROC_THREAD_ENTRY_LENGTH * p->thread_count;
  if (need > len - off)
    return ts_err_set(err, TS_EINVAL,
                      "process entry at offset %zu: %lu threads need %llu bytes, only %zu are left",
                      off, (unsigned long)p->thread_count, (unsigned long long)need, len - off);
  uint32_t step = read_u32(e + PROC_NEXT_ENTRY_OFFSET);
  if (step != 0 && step < need)
    return ts_err_set(err, TS_EINVAL,
                      "process entry at offset %zu: NextEntryOffset %lu points inside the entry "
                      "itself (%llu bytes with its %lu threads)",
                      off, (unsigned long)step, (unsigned long long)need,
                      (unsigned long)p->thread_count);
  /* Entries only ever move forward (NextEntryOffset is unsigned and at least one entry long),
     which is what rules out a loop; an offset that wraps in 32 bits lands past the end here. */
  if (step != 0 && step >= len - off)
    return ts_err_set(err, TS_EINVAL,
                      "process entry at offset %zu: NextEntryOffset %lu leads to offset %llu, "
                      "past the end of the %zu-byte buffer",
                      off, (unsigned long)step, (unsigned long long)off + step, len);
  *next = step ? off + step : 0;

  uint64_t pid = read_u64(e + PROC_PID), parent = read_u64(e + PROC_PARENT_PID);
  int rc;
  if ((rc = check_id(pid, off + PROC_PID, "UniqueProcessId", err)) != TS_OK ||
      (rc = check_id(parent, off + PROC_PARENT_PID, "InheritedFromUniqueProcessId", err)) != TS_OK)
    return rc;
  p->pid = (uint32_t)pid;
  p->parent_pid = (uint32_t)parent;
  p->create_time = read_u64(e + PROC_CREATE_TIME);
  p->user_time = read_u64(e + PROC_USER_TIME);
  p->kernel_time = read_u64(e + PROC_KERNEL_TIME);
  if ((rc = check_time(p->create_time, off + PROC_CREATE_TIME, "CreateTime", err)) != TS_OK ||
      (rc = check_time(p->user_time, off + PROC_USER_TIME, "UserTime", err)) != TS_OK ||
      (rc = check_time(p->kernel_time, off + PROC_KERNEL_TIME, "KernelTime", err)) != TS_OK)
    return rc;
  p->handle_count = read_u32(e + PROC_HANDLE_COUNT);
  p->session_id = read_u32(e + PROC_SESSION_ID);
  p->base_priority = read_i32(e + PROC_BASE_PRIORITY);
  p->working_set = read_u64(e + PROC_WORKING_SET_SIZE);

  /* The name: an absolute pointer in the capturing process, translated through `base`. An empty
     name (the Idle process) is never dereferenced, so its pointer may be anything (NULL). */
  uint16_t name_length = read_u16(e + PROC_NAME_LENGTH);
  uint64_t name_pointer = read_u64(e + PROC_NAME_BUFFER);
  if (name_length % 2 != 0)
    return ts_err_set(err, TS_EINVAL,
                      "process entry at offset %zu: ImageName.Length %u is odd, not whole UTF-16 "
                      "characters",
                      off, (unsigned)name_length);
  if (name_length > 0) {
    uint64_t at = name_pointer >= base ? name_pointer - base : UINT64_MAX;
    if (at > len || name_length > len - at)
      return ts_err_set(err, TS_EINVAL,
                        "process entry at offset %zu: ImageName.Buffer 0x%llx (%u bytes) lies "
                        "outside the buffer (0x%llx, %zu bytes)",
                        off, (unsigned long long)name_pointer, (unsigned)name_length,
                        (unsigned long long)base, len);
    utf16_to_utf8(buf + at, name_length / 2, p->name, sizeof p->name);
  }
  return TS_OK;
}

/* Reads and checks thread entry `i` of the process entry at p->offset (inside, as checked). */
static int read_thread(const unsigned char *buf, const ntproc_process *p, uint32_t i,
                       ntproc_thread *t, ts_err *err) {
  size_t off = p->offset + NTPROC_PROCESS_ENTRY_LENGTH + (size_t)i * NTPROC_THREAD_ENTRY_LENGTH;
  const unsigned char *e = buf + off;
  memset(t, 0, sizeof *t);
  uint64_t tid = read_u64(e + THREAD_TID);
  int rc = check_id(tid, off + THREAD_TID, "ClientId.UniqueThread", err);
  if (rc != TS_OK)
    return rc;
  t->tid = (uint32_t)tid;
  t->kernel_time = read_u64(e + THREAD_KERNEL_TIME);
  t->user_time = read_u64(e + THREAD_USER_TIME);
  if ((rc = check_time(t->kernel_time, off + THREAD_KERNEL_TIME, "thread KernelTime", err)) !=
          TS_OK ||
      (rc = check_time(t->user_time, off + THREAD_USER_TIME, "thread UserTime", err)) != TS_OK)
    return rc;
  t->start_address = read_u64(e + THREAD_START_ADDRESS);
  t->priority = read_i32(e + THREAD_PRIORITY);
  t->base_priority = read_i32(e + THREAD_BASE_PRIORITY);
  t->context_switches = read_u32(e + THREAD_CONTEXT_SWITCHES);
  /* States and wait reasons beyond our tables are kept: a newer Windows adds reasons, and
     ntproc_state_name shows them as Unknown(N) rather than refusing the whole snapshot. */
  t->state = read_u32(e + THREAD_STATE);
  t->wait_reason = read_u32(e + THREAD_WAIT_REASON);
  return TS_OK;
}

/* One pass over the chain; with no callbacks it only checks. */
static int walk_pass(const unsigned char *buf, size_t len, uint64_t base,
                     ntproc_process_fn on_process, ntproc_thread_fn on_thread, void *ctx,
                     ts_err *err) {
  ntproc_process p;
  ntproc_thread t;
  size_t off = 0, next = 0;
  int checking = !on_process && !on_thread; /* then threads are read for their checks alone */
  do {
    int rc = read_process(buf, len, base, off, &p, &next, err);
    if (rc != TS_OK)
      return rc;
    int action = on_process ? on_process(ctx, &p) : NTPROC_NEXT;
    if (action < 0 || action == NTPROC_STOP)
      return action < 0 ? action : TS_OK;
    if (!checking && !on_thread)
      action = NTPROC_SKIP_THREADS;
    for (uint32_t i = 0; i < p.thread_count && action != NTPROC_SKIP_THREADS; i++) {
      if ((rc = read_thread(buf, &p, i, &t, err)) != TS_OK)
        return rc;
      int r = on_thread ? on_thread(ctx, &p, &t) : NTPROC_NEXT;
      if (r < 0 || r == NTPROC_STOP)
        return r < 0 ? r : TS_OK;
      if (r == NTPROC_SKIP_THREADS)
        break;
    }
    off = next;
  } while (off != 0);
  return TS_OK;
}

int ntproc_walk(const void *buf, size_t len, uint64_t base, ntproc_process_fn on_process,
                ntproc_thread_fn on_thread, void *ctx, ts_err *err) {
  if (!buf || len == 0)
    return ts_err_set(err, TS_EINVAL, "the process information buffer is empty");
  /* Check everything before the first callback, so callers never act on half a snapshot. */
  int rc = walk_pass(buf, len, base, NULL, NULL, NULL, err);
  if (rc != TS_OK || (!on_process && !on_thread))
    return rc;
  return walk_pass(buf, len, base, on_process, on_thread, ctx, err);
}

/* ---- state names ----------------------------------------------------------------------------- */

/* Process Explorer's words; the tables follow phnt's KTHREAD_STATE and KWAIT_REASON and are
   checked against their maxima so that adding an enum value without a name fails to build. */
static const char *const state_names[] = {
    "Initialized", "Ready",      "Running",       "Standby",          "Terminated",
    "Waiting",     "Transition", "DeferredReady", "GateWaitObsolete", "WaitingForProcessInSwap",
};
_Static_assert(sizeof state_names / sizeof state_names[0] == NTPROC_STATE_COUNT,
               "one name per KTHREAD_STATE");

static const char *const wait_reason_names[] = {
    "Executive",
    "FreePage",
    "PageIn",
    "PoolAllocation",
    "DelayExecution",
    "Suspended",
    "UserRequest",
    "WrExecutive",
    "WrFreePage",
    "WrPageIn",
    "WrPoolAllocation",
    "WrDelayExecution",
    "WrSuspended",
    "WrUserRequest",
    "WrEventPair",
    "WrQueue",
    "WrLpcReceive",
    "WrLpcReply",
    "WrVirtualMemory",
    "WrPageOut",
    "WrRendezvous",
    "WrKeyedEvent",
    "WrTerminated",
    "WrProcessInSwap",
    "WrCpuRateControl",
    "WrCalloutStack",
    "WrKernel",
    "WrResource",
    "WrPushLock",
    "WrMutex",
    "WrQuantumEnd",
    "WrDispatchInt",
    "WrPreempted",
    "WrYieldExecution",
    "WrFastMutex",
    "WrGuardedMutex",
    "WrRundown",
    "WrAlertByThreadId",
    "WrDeferredPreempt",
    "WrPhysicalFault",
    "WrIoRing",
    "WrMdlCache",
    "WrRcu",
};
_Static_assert(sizeof wait_reason_names / sizeof wait_reason_names[0] == NTPROC_WAIT_REASON_COUNT,
               "one name per KWAIT_REASON");

const char *ntproc_state_name(uint32_t state, uint32_t wait_reason, char *buf, size_t len) {
  if (len == 0)
    return buf;
  if (state == NTPROC_STATE_WAITING) {
    if (wait_reason < NTPROC_WAIT_REASON_COUNT)
      snprintf(buf, len, "Wait:%s", wait_reason_names[wait_reason]);
    else
      snprintf(buf, len, "Wait:Unknown(%lu)", (unsigned long)wait_reason);
  } else if (state < NTPROC_STATE_COUNT) {
    snprintf(buf, len, "%s", state_names[state]);
  } else {
    snprintf(buf, len, "Unknown(%lu)", (unsigned long)state);
  }
  return buf;
}

/* ---- recorded snapshots ---------------------------------------------------------------------- */

/* Far above any real buffer (a few MB with 100,000 threads), low enough to refuse a wrong file
   before allocating for it. */
#define SNAPSHOT_MAX_LENGTH (256L * 1024 * 1024)

int ntproc_load_snapshot(const char *path, unsigned char **buf, size_t *len, uint64_t *base,
                         ts_err *err) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return ts_err_set(err, TS_EINVAL, "cannot open the snapshot '%s'", path);
  long size = -1;
  if (fseek(f, 0, SEEK_END) == 0)
    size = ftell(f);
  if (size < NTPROC_SNAPSHOT_HEADER_LENGTH || size > SNAPSHOT_MAX_LENGTH ||
      fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return ts_err_set(err, TS_EINVAL,
                      "the snapshot '%s' is not a recorded process buffer (%ld bytes; expected an "
                      "8-byte base address and up to %ld bytes)",
                      path, size, SNAPSHOT_MAX_LENGTH);
  }
  unsigned char header[NTPROC_SNAPSHOT_HEADER_LENGTH];
  size_t n = (size_t)size - NTPROC_SNAPSHOT_HEADER_LENGTH;
  unsigned char *data = malloc(n ? n : 1);
  if (!data) {
    fclose(f);
    return ts_err_set(err, TS_ENOMEM, "no memory for the %zu-byte snapshot '%s'", n, path);
  }
  int ok = fread(header, 1, sizeof header, f) == sizeof header && fread(data, 1, n, f) == n;
  fclose(f);
  if (!ok) {
    free(data);
    return ts_err_set(err, TS_EINVAL, "cannot read the snapshot '%s'", path);
  }
  *base = read_u64(header);
  *buf = data;
  *len = n;
  return TS_OK;
}

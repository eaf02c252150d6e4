/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* ntprocinfo.h - reads the buffer that NtQuerySystemInformation(SystemProcessInformation) fills on
   x64 Windows, on any platform, so that the Windows census is tested with realistic data. */
#ifndef THREADSOUP_NTPROCINFO_H
#define THREADSOUP_NTPROCINFO_H

#include <stddef.h>
#include <stdint.h>

#include "threadsoup/err.h"

/* The x64 layout (phnt's SYSTEM_PROCESS_INFORMATION up to and including the IO counters, and
   SYSTEM_THREAD_INFORMATION). Every process entry is followed by its thread entries; the image
   name's UTF-16 characters come after those, and NextEntryOffset (0 for the last) leads on. */
#define NTPROC_PROCESS_ENTRY_LENGTH 256
#define NTPROC_THREAD_ENTRY_LENGTH 80

/* KTHREAD_STATE. */
enum {
  NTPROC_STATE_INITIALIZED,
  NTPROC_STATE_READY,
  NTPROC_STATE_RUNNING,
  NTPROC_STATE_STANDBY,
  NTPROC_STATE_TERMINATED,
  NTPROC_STATE_WAITING,
  NTPROC_STATE_TRANSITION,
  NTPROC_STATE_DEFERRED_READY,
  NTPROC_STATE_GATE_WAIT_OBSOLETE,
  NTPROC_STATE_WAITING_FOR_PROCESS_IN_SWAP,
  NTPROC_STATE_COUNT
};

/* KWAIT_REASON as of Windows 11 24H2 (WrRcu); the reason a Waiting thread waits. */
enum {
  NTPROC_WAIT_EXECUTIVE,
  NTPROC_WAIT_FREE_PAGE,
  NTPROC_WAIT_PAGE_IN,
  NTPROC_WAIT_POOL_ALLOCATION,
  NTPROC_WAIT_DELAY_EXECUTION, /* Sleep, SleepEx */
  NTPROC_WAIT_SUSPENDED,
  NTPROC_WAIT_USER_REQUEST, /* WaitForSingleObject and friends */
  NTPROC_WAIT_WR_EXECUTIVE,
  NTPROC_WAIT_WR_FREE_PAGE,
  NTPROC_WAIT_WR_PAGE_IN,
  NTPROC_WAIT_WR_POOL_ALLOCATION, /* 10 */
  NTPROC_WAIT_WR_DELAY_EXECUTION,
  NTPROC_WAIT_WR_SUSPENDED,
  NTPROC_WAIT_WR_USER_REQUEST,
  NTPROC_WAIT_WR_EVENT_PAIR,
  NTPROC_WAIT_WR_QUEUE, /* I/O completion ports, thread pools */
  NTPROC_WAIT_WR_LPC_RECEIVE,
  NTPROC_WAIT_WR_LPC_REPLY,
  NTPROC_WAIT_WR_VIRTUAL_MEMORY,
  NTPROC_WAIT_WR_PAGE_OUT,
  NTPROC_WAIT_WR_RENDEZVOUS, /* 20 */
  NTPROC_WAIT_WR_KEYED_EVENT,
  NTPROC_WAIT_WR_TERMINATED,
  NTPROC_WAIT_WR_PROCESS_IN_SWAP,
  NTPROC_WAIT_WR_CPU_RATE_CONTROL,
  NTPROC_WAIT_WR_CALLOUT_STACK,
  NTPROC_WAIT_WR_KERNEL,
  NTPROC_WAIT_WR_RESOURCE,
  NTPROC_WAIT_WR_PUSH_LOCK,
  NTPROC_WAIT_WR_MUTEX,
  NTPROC_WAIT_WR_QUANTUM_END, /* 30 */
  NTPROC_WAIT_WR_DISPATCH_INT,
  NTPROC_WAIT_WR_PREEMPTED,
  NTPROC_WAIT_WR_YIELD_EXECUTION,
  NTPROC_WAIT_WR_FAST_MUTEX,
  NTPROC_WAIT_WR_GUARDED_MUTEX,
  NTPROC_WAIT_WR_RUNDOWN,
  NTPROC_WAIT_WR_ALERT_BY_THREAD_ID, /* WaitOnAddress, SRW locks, condition variables */
  NTPROC_WAIT_WR_DEFERRED_PREEMPT,
  NTPROC_WAIT_WR_PHYSICAL_FAULT,
  NTPROC_WAIT_WR_IO_RING, /* 40 */
  NTPROC_WAIT_WR_MDL_CACHE,
  NTPROC_WAIT_WR_RCU,
  NTPROC_WAIT_REASON_COUNT
};

#define NTPROC_NAME_MAX 256 /* UTF-8 bytes kept of an image name, with the '\0' */

/* One process entry; times in 100 ns units, as Windows keeps them. */
typedef struct ntproc_process {
  size_t offset;              /* where the entry starts in the buffer */
  uint32_t pid;               /* 0 for the Idle process */
  uint32_t parent_pid;        /* InheritedFromUniqueProcessId */
  char name[NTPROC_NAME_MAX]; /* UTF-8; "" for the Idle process, which has no name */
  uint32_t thread_count;      /* NumberOfThreads: the thread entries that follow */
  uint32_t handle_count;
  uint32_t session_id;
  int32_t base_priority;
  uint64_t create_time; /* 100 ns since 1601-01-01 */
  uint64_t kernel_time; /* 100 ns */
  uint64_t user_time;   /* 100 ns */
  uint64_t working_set; /* bytes */
} ntproc_process;

/* One thread entry. */
typedef struct ntproc_thread {
  uint32_t tid;
  uint32_t state;            /* NTPROC_STATE_* */
  uint32_t wait_reason;      /* NTPROC_WAIT_*; meaningful when state is Waiting */
  uint32_t context_switches; /* since the thread started */
  int32_t priority;
  int32_t base_priority;
  uint64_t kernel_time;   /* 100 ns */
  uint64_t user_time;     /* 100 ns */
  uint64_t start_address; /* in the captured process's address space */
} ntproc_thread;

/* What a callback returns: go on, skip this process's threads (process callback only), or end
   the walk early with success. A negative ts_code ends the walk and is returned by it. */
#define NTPROC_NEXT 0
#define NTPROC_SKIP_THREADS 1
#define NTPROC_STOP 2

typedef int (*ntproc_process_fn)(void *ctx, const ntproc_process *process);
typedef int (*ntproc_thread_fn)(void *ctx, const ntproc_process *process,
                                const ntproc_thread *thread);

/* Checks the whole buffer first, then calls on_process for each process and on_thread (may be
   NULL) for each of its threads. `base` is the address the buffer had in the process that
   captured it: ImageName.Buffer is an absolute pointer there. A malformed buffer returns TS_EINVAL
   naming the offset and the fault before any callback runs. Nothing outside buf[0..len) is read. */
int ntproc_walk(const void *buf, size_t len, uint64_t base, ntproc_process_fn on_process,
                ntproc_thread_fn on_thread, void *ctx, ts_err *err);

/* Process Explorer's name of a thread state: "Running", "Ready", "Wait:DelayExecution",
   "Wait:Unknown(45)", "Unknown(12)". Returns buf. */
const char *ntproc_state_name(uint32_t state, uint32_t wait_reason, char *buf, size_t len);

/* A recorded snapshot file: the buffer's base address as 8 bytes little-endian, then the buffer
   exactly as NtQuerySystemInformation filled it. Loads one; *buf is malloc'ed (caller frees). */
#define NTPROC_SNAPSHOT_HEADER_LENGTH 8
int ntproc_load_snapshot(const char *path, unsigned char **buf, size_t *len, uint64_t *base,
                         ts_err *err);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* win32.h - helpers private to the Windows half of the platform layer; those that Windows-only
   programs share are in threadsoup/plat_win32.h. */
#ifndef THREADSOUP_PLAT_WIN32_H
#define THREADSOUP_PLAT_WIN32_H

#include "threadsoup/err.h"
#include "threadsoup/plat.h"
#include "threadsoup/plat_win32.h"

/* A new job object that kills its processes when its last handle closes (so also when its owner
   dies); NULL with GetLastError() set when the OS refuses. */
HANDLE win32_kill_on_close_job(void);

/* Opts a benchmark's process (created suspended) out of power throttling, as
   plat_bench_thread_begin does for a thread; `state` gets "off", "unsupported" or why not. */
void win32_process_opt_out(HANDLE process, char *state, size_t len);

/* The thread cycle counter's cycles per microsecond that plat_thread_spin_ns divides by,
   measured once (time.c); 0 when there is no cycle counter (Wine 8). */
double win32_thread_cycle_rate(void);

/* argv as one command line, each argument quoted the way CommandLineToArgvW reads it back, in
   `command` (room for `cap` characters); TS_EINVAL when it does not fit or is not UTF-8. */
int win32_command_line(const char *const argv[], wchar_t *command, size_t cap, ts_err *err);

/* A process CreateProcessW started (`started`) made a plat_proc: its thread handle closed, its
   process handle and id kept; when it did not start, the OS's reason for `program`. */
int win32_proc_started(plat_proc *proc, BOOL started, const PROCESS_INFORMATION *pi,
                       const char *program, ts_err *err);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* host.h - the operating system's side of the service, in two halves (host/posix, host/win32):
   how the service is installed, started, stopped and run under the service manager. */
#ifndef THREADSOUP_HOST_H
#define THREADSOUP_HOST_H

#include "../server/server.h"

#define HOST_SERVICE_NAME "ThreadSoup"
#define HOST_DISPLAY_NAME "ThreadSoup"
#define HOST_DESCRIPTION                                                                           \
  "Measures what idle and background threads and processes cost this machine: runs load and "      \
  "CPU benchmarks, scheduled experiments, and keeps every result."

/* Runs the server under the service manager (Windows: StartServiceCtrlDispatcher; POSIX: as a
   foreground daemon for systemd), or in the console with `console` (Ctrl+C stops it). */
int host_run(const server_config *config, int console, ts_err *err);
/* Registers the service with the service manager: automatic (delayed) start, restart on failure,
   display name and description; `program` is the full path of threadsoup. */
int host_install(const char *program, ts_err *err);
int host_uninstall(ts_err *err);
/* The local group whose members control the service without being administrators (Windows
   "ThreadSoup Users", POSIX "threadsoup"): created when missing; `member` added when not NULL (a
   user name, DOMAIN\user or on Windows a SID "S-1-5-21-…"; "" = the caller, on Windows when it is
   an elevated administrator, on POSIX the user who ran sudo). `said` gets what was done, in
   words. TS_EUNSUPPORTED where the system keeps no such groups (Wine). */
int host_users_group(const char *member, char *said, size_t len, ts_err *err);
int host_start(ts_err *err);
int host_stop(ts_err *err);
/* "running", "stopped", "not installed", …; on Windows followed by the settings Windows has:
   "running; start automatic, delayed; restart on failure; 60 s to stop at shutdown". */
int host_query(char *state, size_t len, ts_err *err);

#endif

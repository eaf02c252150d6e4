/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* tray_shared_schedules.h - what schedules.c uses of tray.c, and what tray.c calls of it. */
#ifndef THREADSOUP_TRAY_SHARED_SCHEDULES_H
#define THREADSOUP_TRAY_SHARED_SCHEDULES_H

#include <windows.h>

typedef struct tray_ctx tray_ctx;

/* To the tray's window when threadsoup.exe service start has ended (wParam: its exit code): the
   tray follows the service again. */
#define WM_SCHED_SERVICE_STARTED (WM_APP + 31)

/* tray.c: one line in the --log file. */
void tray_log(tray_ctx *ctx, const wchar_t *format, ...);

/* schedules.c: the Schedules dialog, modal to the tray's hidden window. `pipe` is the service's
   address (UTF-8). */
void schedules_show(tray_ctx *ctx, HINSTANCE instance, HWND owner, const char *pipe);
/* schedules.c: "Start the service": threadsoup.exe service start, elevated. Returns a balloon text
   for a failure ("" when it was started or the user was asked). */
void schedules_start_service(tray_ctx *ctx, HWND owner, wchar_t *failure, size_t count);

#endif

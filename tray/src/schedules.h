/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* schedules.h - the Schedules dialog and "Start the service" (schedules.c): what tray.c calls. */
#ifndef THREADSOUP_TRAY_SCHEDULES_H
#define THREADSOUP_TRAY_SCHEDULES_H

#include <windows.h>

#include "tray.h"

/* To the tray's window when threadsoup.exe service start has ended (wParam: its exit code): the
   tray follows the service again. */
#define WM_SCHED_SERVICE_STARTED (WM_APP + 31)

/* schedules.c: the Schedules dialog, modal to the tray's hidden window. `pipe` is the service's
   address (UTF-8). */
void schedules_show(tray_ctx *ctx, HINSTANCE instance, HWND owner, const char *pipe);
/* schedules.c: "Start the service": threadsoup.exe service start, elevated. Returns a balloon text
   for a failure ("" when it was started or the user was asked). */
void schedules_start_service(tray_ctx *ctx, HWND owner, wchar_t *failure, size_t count);

#endif

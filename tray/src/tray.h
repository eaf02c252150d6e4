/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* tray.h - what the tray's parts (results.c, schedules.c) use of tray.c: its context, its log and
   its balloons. */
#ifndef THREADSOUP_TRAY_H
#define THREADSOUP_TRAY_H

#include <windows.h>

typedef struct tray_ctx tray_ctx;

/* One line into the --log file (nothing without one). */
void tray_log(tray_ctx *ctx, const wchar_t *format, ...);
/* A balloon from any thread: posted to the tray's window, shown by the UI thread. */
void tray_post_balloon(tray_ctx *ctx, BOOL error, const wchar_t *title, const char *text);

#endif

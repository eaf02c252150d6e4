/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* results.h - the results part of the tray (results.c: the run-finished balloon, Open latest
   report, History…): the hooks tray.c calls. */
#ifndef THREADSOUP_TRAY_RESULTS_H
#define THREADSOUP_TRAY_RESULTS_H

#include <windows.h>

#include "threadsoup/proto.h"

#include "tray.h"

/* From the connection thread: appends a run-finished event's headline to the
   balloon's text, and remembers that a click on the balloon opens the latest report. */
void tray_results_finished(const proto_message *m, char *text, size_t len);
/* Window thread: "Open latest report" and "History…" under the status line. */
void tray_results_menu(tray_ctx *ctx, HMENU menu);
/* Window thread: a menu command or a balloon click; pipe is the service's address (UTF-8). */
void tray_results_command(tray_ctx *ctx, HWND window, const char *pipe, UINT id);
/* Window thread: a WM_TRAY_RESULTS message (lParam: a malloc'd line for the log). */
void tray_results_on_message(tray_ctx *ctx, LPARAM lp);
/* Window thread: a balloon was clicked (NIN_BALLOONUSERCLICK). */
void tray_results_balloon_click(tray_ctx *ctx, HWND window, const char *pipe);

#endif

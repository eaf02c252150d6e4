/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* dialogs.h - the tray's Custom load and Record a score dialogs. */
#ifndef THREADSOUP_TRAY_DIALOGS_H
#define THREADSOUP_TRAY_DIALOGS_H

#include <windows.h>

#include <stdio.h>

/* Shows the dialog of menu command `id` (IDM_CUSTOM_LOAD or IDM_RECORD_SCORE) and returns when it
   closes; the window thread's messages keep flowing meanwhile. The dialog talks to the service at
   `pipe` (UTF-8) from a worker thread of its own, and writes its controls' places, what it sends
   and the errors it shows to `log` (NULL for none). */
void dialogs_show(HINSTANCE instance, UINT id, const char *pipe, FILE *log);

#endif

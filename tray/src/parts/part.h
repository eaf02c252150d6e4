/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* part.h - a part of the tray (menus, results, quiet mode, dialogs, schedules, service start):
   its hooks, which app.c calls through the one table of parts (parts.c). A part uses the shell
   (shell/shell.h) and never app.c. */
#ifndef THREADSOUP_TRAY_PART_H
#define THREADSOUP_TRAY_PART_H

#include "../shell/shell.h"

/* The popup menu being built: the main menu, and the submenus a part may add to. */
typedef struct tray_menu {
  HMENU main;
  HMENU loads; /* Start load's submenu (the menus part makes it) */
} tray_menu;

typedef struct tray_part {
  const wchar_t *name;
  /* Appends the part's items to the menu (window thread), in the table's order. */
  void (*menu)(tray_shell *shell, tray_menu *menu);
  /* A menu command; TRUE when it was the part's. */
  BOOL (*command)(tray_shell *shell, UINT id);
  /* A window message the window procedure does not handle itself, the icon's events
     (TRAY_WM_NOTIFY) among them; TRUE when the part handled it. */
  BOOL (*message)(tray_shell *shell, UINT msg, WPARAM wp, LPARAM lp);
  /* An event of the subscription, on the connection thread (post to the UI thread to show it). */
  void (*event)(tray_shell *shell, const proto_message *m);
} tray_part;

/* The parts in menu order, NULL-terminated (parts.c). */
extern const tray_part *const tray_parts[];

/* Whether a menu item is enabled. */
static inline UINT tray_enabled(BOOL on) { return on ? MF_ENABLED : MF_GRAYED; }

#endif

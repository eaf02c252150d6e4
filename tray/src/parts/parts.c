/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* parts.c - the table of the tray's parts: adding a window or a menu item is one part file plus
   one line in TRAY_PARTS (its .rc template and resource ids aside). The order is the menu's. */
#include "part.h"

/* One line a part, in the menu's order: its name (its file defines tray_part_NAME). */
#define TRAY_PARTS(X)                                                                              \
  X(results)                                                                                       \
  X(menus)                                                                                         \
  X(dialogs)                                                                                       \
  X(quiet)                                                                                         \
  X(schedules)                                                                                     \
  X(service_start)                                                                                 \
  X(sign_in)

#define DECLARE_PART(name) extern const tray_part tray_part_##name;
TRAY_PARTS(DECLARE_PART)

#define LIST_PART(name) &tray_part_##name,
const tray_part *const tray_parts[] = {TRAY_PARTS(LIST_PART) NULL};

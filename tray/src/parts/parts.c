/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* parts.c - the table of the tray's parts: adding a window or a menu item is one part file plus
   one line here (its .rc template and resource ids aside). The order is the menu's. */
#include "part.h"

const tray_part *const tray_parts[] = {
    &tray_part_results,
    &tray_part_menus,
    &tray_part_dialogs,
    &tray_part_quiet,
    &tray_part_schedules,
    &tray_part_service_start,
    NULL,
};

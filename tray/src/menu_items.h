/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* menu_items.h - the labels of the tray's popup menu, one table per menu level: the menu code
   (parts/) builds the menu from them; test_tray_menu_keys checks their access keys. */
#ifndef THREADSOUP_TRAY_MENU_ITEMS_H
#define THREADSOUP_TRAY_MENU_ITEMS_H

#include <stddef.h>
#include <wchar.h>

/* The main menu's items below its status line (a disabled line that takes no key), top to
   bottom. Start the service is shown only while the service is unreachable, beside the others,
   so its key must differ from theirs too. */
typedef enum tray_item {
  TRAY_ITEM_LATEST_REPORT,
  TRAY_ITEM_HISTORY,
  TRAY_ITEM_START_LOAD,
  TRAY_ITEM_STOP_LOAD,
  TRAY_ITEM_RUN,
  TRAY_ITEM_BACKGROUND, /* runs the service's preset "background" */
  TRAY_ITEM_STOP_RUN,
  TRAY_ITEM_RECORD_SCORE,
  TRAY_ITEM_QUIET_NOW,  /* shown with "(its state)" after it while quiet mode is on */
  TRAY_ITEM_QUIET_RUNS, /* a submenu: TRAY_QUIET_CHOICES */
  TRAY_ITEM_SCHEDULES,
  TRAY_ITEM_START_SERVICE,
  TRAY_ITEM_EXIT,
  TRAY_ITEM_COUNT
} tray_item;

extern const wchar_t *const TRAY_ITEM_LABELS[TRAY_ITEM_COUNT];

/* A row of a submenu: its label and what the service is sent for it. */
typedef struct tray_menu_choice {
  const wchar_t *label;
  const char *value;
} tray_menu_choice;

/* Start load's submenu: the loads (value: the condition), then Custom load… below a separator. */
#define TRAY_LOAD_COUNT 5
extern const tray_menu_choice TRAY_LOADS[TRAY_LOAD_COUNT];
extern const wchar_t TRAY_CUSTOM_LOAD_LABEL[];

/* Quiet mode during experiments' submenu, one radio item per choice (value: the plan's word for
   quiet mode's parts, `quiet = off | updates | defender | on`, docs/plans.md); the first is the
   default. */
#define TRAY_QUIET_CHOICE_COUNT 4
extern const tray_menu_choice TRAY_QUIET_CHOICES[TRAY_QUIET_CHOICE_COUNT];
/* The choice whose value is `word`; the first (Off) for any other word, so that a stored value
   this tray does not know never asks for more than the user chose. */
const tray_menu_choice *tray_quiet_choice(const char *word);

/* A label for the name of a submenu row that comes from the service (Run experiment's presets):
   the name with an access key on its first letter or digit that no row before it took. `taken`
   holds those keys (a string the caller starts empty, of at least as many characters as rows,
   plus one); the name goes without a key when every one of its letters is taken. "&&" is written
   for a '&' in the name. */
void tray_menu_label(const char *name, char *taken, wchar_t *out, size_t count);

/* The access key of a menu label ("Start &load": 'l'), lower-cased for ASCII letters; "&&" is a
   literal ampersand. 0 when the label has none; -1 when it has more than one or ends in '&'. */
int tray_menu_access_key(const wchar_t *label);

#endif

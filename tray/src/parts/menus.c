/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* menus.c - the menu's load and experiment items: Start load (the tray's suggested loads),
   Stop load, Run experiment (the service's presets, from its catalog), What do my background
   programs cost? (the preset "background") and Stop experiment. */
#include "part.h"

#include <string.h>

#include "../menu_items.h"
#include "../resource.h"

/* The preset that measures what the user's busiest background programs cost, by freezing them
   in turn; offered when the service's catalog has it (an older service has not). */
static const char MENUS_BACKGROUND_PRESET[] = "background";

static BOOL menus_offers(const tray_catalog *c, const char *preset) {
  for (int i = 0; i < c->presets; i++)
    if (strcmp(c->preset[i], preset) == 0)
      return TRUE;
  return FALSE;
}

/* Starts a preset as the user asked for experiments: with the quiet mode parts chosen in the
   menu, as the plan's own setting (docs/plans.md); "off" leaves the preset's. */
static void menus_run(tray_shell *shell, const char *preset, const wchar_t *what) {
  char stored[16];
  tray_setting_quiet_runs(stored, sizeof stored);
  const char *quiet = tray_quiet_choice(stored)->value;
  char setting[32];
  snprintf(setting, sizeof setting, "quiet=%s", quiet);
  BOOL asked = strcmp(quiet, "off") != 0;
  tray_log(shell, L"request run-start | plan %hs%hs%hs", preset, asked ? " | set " : "",
           asked ? setting : "");
  tray_request(shell, "run-start", "plan", preset, asked ? "set" : NULL, asked ? setting : NULL,
               what);
}

static void menus_menu(tray_shell *shell, tray_menu *menu) {
  const tray_state *s = &shell->shown;
  const tray_catalog *c = &shell->catalog;
  /* One thing at a time: the service refuses a load during a run and the other way round. */
  BOOL free_to_start = s->connected && !s->load && !s->run;
  HMENU plans = CreatePopupMenu();
  menu->loads = CreatePopupMenu();
  if (menu->loads != NULL) {
    for (size_t i = 0; i < TRAY_LOAD_COUNT; i++)
      AppendMenuW(menu->loads, MF_STRING, IDM_LOAD_FIRST + i, TRAY_LOADS[i].label);
    AppendMenuW(menu->loads, MF_SEPARATOR, 0, NULL);
    AppendMenuW(menu->main, MF_POPUP | tray_enabled(free_to_start), (UINT_PTR)menu->loads,
                TRAY_ITEM_LABELS[TRAY_ITEM_START_LOAD]);
  }
  AppendMenuW(menu->main, MF_STRING | tray_enabled(s->load), IDM_LOAD_STOP,
              TRAY_ITEM_LABELS[TRAY_ITEM_STOP_LOAD]);
  AppendMenuW(menu->main, MF_SEPARATOR, 0, NULL);
  if (plans != NULL) {
    char taken[TRAY_CATALOG_MAX + 1] = "";
    wchar_t names[TRAY_CATALOG_MAX * (TRAY_CATALOG_NAME + 3)] = L"";
    size_t used = 0;
    for (int i = 0; i < c->presets && i < IDM_RUN_COUNT; i++) {
      wchar_t label[TRAY_CATALOG_NAME * 2];
      tray_menu_label(c->preset[i], taken, label, ARRAYSIZE(label));
      AppendMenuW(plans, MF_STRING, IDM_RUN_FIRST + (UINT)i, label);
      used += (size_t)swprintf(names + used, ARRAYSIZE(names) - used, L" | %hs", c->preset[i]);
    }
    AppendMenuW(menu->main, MF_POPUP | tray_enabled(free_to_start && c->presets > 0),
                (UINT_PTR)plans, TRAY_ITEM_LABELS[TRAY_ITEM_RUN]);
    tray_log(shell, L"menu experiments%ls", names);
  }
  BOOL background = menus_offers(c, MENUS_BACKGROUND_PRESET);
  AppendMenuW(menu->main, MF_STRING | tray_enabled(free_to_start && background), IDM_BACKGROUND,
              TRAY_ITEM_LABELS[TRAY_ITEM_BACKGROUND]);
  tray_log(shell, L"menu background %ls",
           !background     ? L"unavailable (the service has no preset background)"
           : free_to_start ? L"offered"
                           : L"greyed");
  AppendMenuW(menu->main, MF_STRING | tray_enabled(s->run), IDM_RUN_STOP,
              TRAY_ITEM_LABELS[TRAY_ITEM_STOP_RUN]);
}

static BOOL menus_command(tray_shell *shell, UINT id) {
  if (id >= IDM_LOAD_FIRST && id < IDM_LOAD_FIRST + TRAY_LOAD_COUNT) {
    tray_request(shell, "load-start", "spec", TRAY_LOADS[id - IDM_LOAD_FIRST].value, NULL, NULL,
                 L"Start load");
  } else if (id >= IDM_RUN_FIRST && id < IDM_RUN_FIRST + IDM_RUN_COUNT) {
    int i = (int)(id - IDM_RUN_FIRST);
    if (i >= shell->catalog.presets)
      return TRUE;
    menus_run(shell, shell->catalog.preset[i], L"Run experiment");
  } else if (id == IDM_BACKGROUND) {
    menus_run(shell, MENUS_BACKGROUND_PRESET, L"What do my background programs cost?");
  } else if (id == IDM_LOAD_STOP) {
    tray_request(shell, "load-stop", NULL, NULL, NULL, NULL, L"Stop load");
  } else if (id == IDM_RUN_STOP) {
    tray_request(shell, "run-stop", NULL, NULL, NULL, NULL, L"Stop experiment");
  } else {
    return FALSE;
  }
  return TRUE;
}

const tray_part tray_part_menus = {
    .name = L"menus",
    .menu = menus_menu,
    .command = menus_command,
};

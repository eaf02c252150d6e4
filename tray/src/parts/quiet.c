/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* quiet.c - the menu's quiet mode items: Quiet mode now (with its state and end) and the
   per-user setting Quiet mode during experiments, a choice of quiet mode's parts. */
#include "part.h"

#include <wchar.h>

#include "../menu_items.h"
#include "../resource.h"

/* Quiet mode asked for from the menu lasts as long as the service's own default (quiet on). */
#define QUIET_HOURS "4"

static void quiet_menu(tray_shell *shell, tray_menu *menu) {
  const tray_state *s = &shell->shown;
  /* Quiet mode's item carries its state and end, so the menu alone says what is changed. */
  wchar_t label[TRAY_LINE_MAX + 32];
  if (s->quiet)
    swprintf(label, ARRAYSIZE(label), L"%ls (%ls)", TRAY_ITEM_LABELS[TRAY_ITEM_QUIET_NOW],
             s->quiet_line);
  else
    lstrcpynW(label, TRAY_ITEM_LABELS[TRAY_ITEM_QUIET_NOW], ARRAYSIZE(label));
  AppendMenuW(menu->main, MF_STRING | tray_enabled(s->connected) | (s->quiet ? MF_CHECKED : 0),
              IDM_QUIET_NOW, label);
  /* The parts for the tray's experiments: one radio item per choice, the user's marked. */
  char stored[16];
  tray_setting_quiet_runs(stored, sizeof stored);
  const tray_menu_choice *chosen = tray_quiet_choice(stored);
  HMENU parts = CreatePopupMenu();
  if (parts != NULL) {
    for (UINT i = 0; i < TRAY_QUIET_CHOICE_COUNT; i++)
      AppendMenuW(parts, MF_STRING, IDM_QUIET_RUNS_FIRST + i, TRAY_QUIET_CHOICES[i].label);
    CheckMenuRadioItem(parts, IDM_QUIET_RUNS_FIRST,
                       IDM_QUIET_RUNS_FIRST + TRAY_QUIET_CHOICE_COUNT - 1,
                       IDM_QUIET_RUNS_FIRST + (UINT)(chosen - TRAY_QUIET_CHOICES), MF_BYCOMMAND);
    AppendMenuW(menu->main, MF_POPUP, (UINT_PTR)parts, TRAY_ITEM_LABELS[TRAY_ITEM_QUIET_RUNS]);
  }
  AppendMenuW(menu->main, MF_SEPARATOR, 0, NULL);
  tray_log(shell, L"menu | %ls | quiet-now %ls | %ls | quiet-during-experiments %hs", s->line,
           s->quiet ? L"checked" : L"unchecked", label, chosen->value);
}

static BOOL quiet_command(tray_shell *shell, UINT id) {
  if (id == IDM_QUIET_NOW) {
    if (shell->shown.quiet)
      tray_request(shell, "quiet-off", NULL, NULL, NULL, NULL, L"Quiet mode");
    else
      tray_request(shell, "quiet-on", "hours", QUIET_HOURS, NULL, NULL, L"Quiet mode");
  } else if (id >= IDM_QUIET_RUNS_FIRST && id < IDM_QUIET_RUNS_FIRST + TRAY_QUIET_CHOICE_COUNT) {
    const char *word = TRAY_QUIET_CHOICES[id - IDM_QUIET_RUNS_FIRST].value;
    if (tray_setting_set_quiet_runs(word))
      tray_log(shell, L"setting QuietDuringExperiments %hs", word);
    else
      tray_icon_balloon(shell, NULL, TRAY_BALLOON_REFUSAL, L"Quiet mode during experiments",
                        L"The setting could not be saved in the registry.");
  } else {
    return FALSE;
  }
  return TRUE;
}

const tray_part tray_part_quiet = {
    .name = L"quiet",
    .menu = quiet_menu,
    .command = quiet_command,
};

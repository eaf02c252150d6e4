/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* menu_items.c - the tray menu's labels (plain C, no Windows headers, so the access-key test
   runs natively too). */
#include "menu_items.h"

#include <string.h>

/* Each label's '&' marks its access key: unique within its menu level, so one key press picks
   one item (Windows only cycles between items that share a key). */
const wchar_t *const TRAY_ITEM_LABELS[TRAY_ITEM_COUNT] = {
    [TRAY_ITEM_LATEST_REPORT] = L"Open latest re&port",
    [TRAY_ITEM_HISTORY] = L"&History\u2026",
    [TRAY_ITEM_START_LOAD] = L"Start &load",
    [TRAY_ITEM_STOP_LOAD] = L"St&op load",
    [TRAY_ITEM_RUN] = L"&Run experiment",
    [TRAY_ITEM_BACKGROUND] = L"&What do my background programs cost?",
    [TRAY_ITEM_STOP_RUN] = L"Stop &experiment",
    [TRAY_ITEM_RECORD_SCORE] = L"Record a &score\u2026",
    [TRAY_ITEM_QUIET_NOW] = L"&Quiet mode now",
    [TRAY_ITEM_QUIET_RUNS] = L"Quiet mode &during experiments",
    [TRAY_ITEM_SCHEDULES] = L"S&chedules\u2026",
    [TRAY_ITEM_START_SERVICE] = L"Start the ser&vice",
    [TRAY_ITEM_EXIT] = L"E&xit",
};

const tray_menu_choice TRAY_LOADS[TRAY_LOAD_COUNT] = {
    {L"&1,500 sleepers at 0.5 s", "sleep:1500@500ms"},
    {L"&5,000 sleepers at 0.5 s", "sleep:5000@500ms"},
    {L"15,&000 sleepers at 0.5 s", "sleep:15000@500ms"},
    {L"1,500 &waiting threads", "wait:1500"},
    {L"1,500 &processes", "procs:1500"},
};
const wchar_t TRAY_CUSTOM_LOAD_LABEL[] = L"&Custom load\u2026";

const tray_menu_choice TRAY_QUIET_CHOICES[TRAY_QUIET_CHOICE_COUNT] = {
    {L"&Off", "off"},
    {L"Pause Windows &Update only", "updates"},
    {L"&Defender only", "defender"},
    {L"&Both", "on"},
};

const tray_menu_choice *tray_quiet_choice(const char *word) {
  for (size_t i = 0; i < TRAY_QUIET_CHOICE_COUNT; i++)
    if (strcmp(TRAY_QUIET_CHOICES[i].value, word) == 0)
      return &TRAY_QUIET_CHOICES[i];
  return &TRAY_QUIET_CHOICES[0];
}

void tray_menu_label(const char *name, char *taken, wchar_t *out, size_t count) {
  size_t o = 0;
  int keyed = 0;
  if (count == 0)
    return;
  for (const char *p = name; *p != '\0' && o + 3 < count; p++) {
    char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
    int letter = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!keyed && letter && strchr(taken, c) == NULL) {
      size_t n = strlen(taken);
      taken[n] = c;
      taken[n + 1] = '\0';
      out[o++] = L'&';
      keyed = 1;
    } else if (*p == '&') {
      out[o++] = L'&';
    }
    out[o++] = (wchar_t)(unsigned char)*p; /* names are ASCII: [a-z0-9-] */
  }
  out[o] = L'\0';
}

int tray_menu_access_key(const wchar_t *label) {
  int key = 0;
  for (const wchar_t *p = label; *p != L'\0'; p++) {
    if (*p != L'&')
      continue;
    if (p[1] == L'&') { /* "&&": a literal '&' */
      p++;
      continue;
    }
    if (p[1] == L'\0' || key != 0)
      return -1;
    key = (int)p[1];
    if (key >= 'A' && key <= 'Z')
      key += 'a' - 'A';
  }
  return key;
}

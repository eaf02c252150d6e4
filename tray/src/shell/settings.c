/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* settings.c - the tray's per-user settings in the registry (HKCU). */
#include "shell.h"

#include <string.h>
#include <wchar.h>

static const wchar_t TRAY_SETTINGS_KEY[] = L"Software\\ThreadSoup\\Tray";
/* A string: the plan's word for quiet mode's parts. A tray from before the parts could be chosen
   kept a DWORD there, 1 for both parts. */
static const wchar_t TRAY_QUIET_RUNS_VALUE[] = L"QuietDuringExperiments";

void tray_setting_quiet_runs(char *word, size_t size) {
  wchar_t text[16];
  DWORD length = sizeof text, old = 0;
  snprintf(word, size, "off");
  if (RegGetValueW(HKEY_CURRENT_USER, TRAY_SETTINGS_KEY, TRAY_QUIET_RUNS_VALUE, RRF_RT_REG_SZ, NULL,
                   text, &length) == ERROR_SUCCESS) {
    tray_narrow(text, word, size);
    return;
  }
  length = sizeof old;
  if (RegGetValueW(HKEY_CURRENT_USER, TRAY_SETTINGS_KEY, TRAY_QUIET_RUNS_VALUE, RRF_RT_REG_DWORD,
                   NULL, &old, &length) == ERROR_SUCCESS &&
      old != 0)
    snprintf(word, size, "on");
}

BOOL tray_setting_set_quiet_runs(const char *word) {
  HKEY key;
  if (RegCreateKeyExW(HKEY_CURRENT_USER, TRAY_SETTINGS_KEY, 0, NULL, 0, KEY_SET_VALUE, NULL, &key,
                      NULL) != ERROR_SUCCESS)
    return FALSE;
  wchar_t text[16];
  if (MultiByteToWideChar(CP_UTF8, 0, word, -1, text, ARRAYSIZE(text)) == 0)
    text[0] = L'\0';
  LSTATUS rc = RegSetValueExW(key, TRAY_QUIET_RUNS_VALUE, 0, REG_SZ, (const BYTE *)text,
                              (DWORD)((wcslen(text) + 1) * sizeof(wchar_t)));
  RegCloseKey(key);
  return rc == ERROR_SUCCESS;
}

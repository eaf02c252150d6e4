/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* settings.c - the tray's per-user settings in the registry (HKCU). */
#include "shell.h"

static const wchar_t TRAY_SETTINGS_KEY[] = L"Software\\ThreadSoup\\Tray";
static const wchar_t TRAY_QUIET_RUNS_VALUE[] = L"QuietDuringExperiments";

BOOL tray_setting_quiet_runs(void) {
  DWORD value = 0, size = sizeof value;
  LSTATUS rc = RegGetValueW(HKEY_CURRENT_USER, TRAY_SETTINGS_KEY, TRAY_QUIET_RUNS_VALUE,
                            RRF_RT_REG_DWORD, NULL, &value, &size);
  return rc == ERROR_SUCCESS && value != 0;
}

BOOL tray_setting_set_quiet_runs(BOOL on) {
  HKEY key;
  if (RegCreateKeyExW(HKEY_CURRENT_USER, TRAY_SETTINGS_KEY, 0, NULL, 0, KEY_SET_VALUE, NULL, &key,
                      NULL) != ERROR_SUCCESS)
    return FALSE;
  DWORD value = on ? 1 : 0;
  LSTATUS rc =
      RegSetValueExW(key, TRAY_QUIET_RUNS_VALUE, 0, REG_DWORD, (const BYTE *)&value, sizeof value);
  RegCloseKey(key);
  return rc == ERROR_SUCCESS;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* notice.c - whether the user would see a balloon now (notifications on, no Focus assist, no
   presentation or full-screen program), and the window that shows a refusal when not. */
#include "shell.h"

#include <stdlib.h>
#include <wchar.h>

/* The test knob: a notification state instead of the user's. */
static const wchar_t TRAY_NOTICE_KNOB[] = L"THREADSOUP_TRAY_NOTIFICATION_STATE";

/* SHQueryUserNotificationState's answers by name, as the knob and the log write them. Only the
   first lets a balloon be seen. */
static const struct {
  QUERY_USER_NOTIFICATION_STATE state;
  const wchar_t *name;
} TRAY_NOTICE_STATES[] = {
    {QUNS_ACCEPTS_NOTIFICATIONS, L"accepts-notifications"},
    {QUNS_QUIET_TIME,
     L"quiet-time"}, /* Focus assist (Do not disturb), or a new user's first hour */
    {QUNS_PRESENTATION_MODE, L"presentation-mode"},
    {QUNS_BUSY, L"busy"}, /* a full-screen program */
    {QUNS_RUNNING_D3D_FULL_SCREEN, L"running-d3d-full-screen"},
    {QUNS_NOT_PRESENT, L"not-present"},         /* locked, screen saver, another user's turn */
    {(QUERY_USER_NOTIFICATION_STATE)7, L"app"}, /* QUNS_APP: a full-screen Store app */
};

/* Notifications turned off in Settings (Notifications & actions): balloons become toasts since
   Windows 10, and none is shown. */
static BOOL tray_notice_toasts_off(void) {
  DWORD on = 1, size = sizeof on;
  return RegGetValueW(HKEY_CURRENT_USER,
                      L"Software\\Microsoft\\Windows\\CurrentVersion\\PushNotifications",
                      L"ToastEnabled", RRF_RT_REG_DWORD, NULL, &on, &size) == ERROR_SUCCESS &&
         on == 0;
}

static const wchar_t *tray_notice_name(QUERY_USER_NOTIFICATION_STATE state) {
  for (size_t i = 0; i < ARRAYSIZE(TRAY_NOTICE_STATES); i++)
    if (TRAY_NOTICE_STATES[i].state == state)
      return TRAY_NOTICE_STATES[i].name;
  return L"unknown";
}

/* The knob's state, read each time (the variable was checked at the start). */
static HRESULT WINAPI tray_notice_from_knob(QUERY_USER_NOTIFICATION_STATE *state) {
  wchar_t name[40];
  DWORD n = GetEnvironmentVariableW(TRAY_NOTICE_KNOB, name, ARRAYSIZE(name));
  for (size_t i = 0; n > 0 && n < ARRAYSIZE(name) && i < ARRAYSIZE(TRAY_NOTICE_STATES); i++) {
    if (wcscmp(name, TRAY_NOTICE_STATES[i].name) == 0) {
      *state = TRAY_NOTICE_STATES[i].state;
      return S_OK;
    }
  }
  return E_INVALIDARG;
}

BOOL tray_notice_configure(tray_shell *shell, wchar_t *why, size_t count) {
  shell->notification_state = SHQueryUserNotificationState;
  wchar_t name[40];
  DWORD n = GetEnvironmentVariableW(TRAY_NOTICE_KNOB, name, ARRAYSIZE(name));
  if (n == 0)
    return TRUE;
  QUERY_USER_NOTIFICATION_STATE state;
  shell->notification_state = tray_notice_from_knob;
  if (n < ARRAYSIZE(name) && SUCCEEDED(tray_notice_from_knob(&state)))
    return TRUE;
  size_t used = (size_t)swprintf(why, count, L"%ls: '%ls' is not a notification state (accepted:",
                                 TRAY_NOTICE_KNOB, n < ARRAYSIZE(name) ? name : L"(too long)");
  for (size_t i = 0; i < ARRAYSIZE(TRAY_NOTICE_STATES) && used < count; i++)
    used += (size_t)swprintf(why + used, count - used, L"%ls %ls", i ? L"," : L"",
                             TRAY_NOTICE_STATES[i].name);
  if (used < count)
    swprintf(why + used, count - used, L")");
  return FALSE;
}

BOOL tray_notice_seen(tray_shell *shell, const wchar_t **why) {
  QUERY_USER_NOTIFICATION_STATE state = QUNS_ACCEPTS_NOTIFICATIONS;
  /* A failed question is no reason to hide a refusal behind a window: the balloon goes. */
  if (shell->notification_state != NULL && SUCCEEDED(shell->notification_state(&state)) &&
      state != QUNS_ACCEPTS_NOTIFICATIONS) {
    *why = tray_notice_name(state);
    return FALSE;
  }
  if (tray_notice_toasts_off()) {
    *why = L"notifications-off";
    return FALSE;
  }
  *why = L"";
  return TRUE;
}

/* Where the refusal's window is, for the tests (--log only): a timer finds it by its class and
   title, as any program would, once the box is on the screen, logs where its OK button is and
   stops. It runs inside the box's own message loop, only while the box is open. */
#define TRAY_NOTICE_TIMER 0x6e6f /* an id of the window's timers that app.c does not use */

static void CALLBACK tray_notice_find(HWND window, UINT msg, UINT_PTR id, DWORD now) {
  (void)msg;
  (void)now;
  tray_shell *shell = (tray_shell *)GetWindowLongPtrW(window, GWLP_USERDATA);
  if (shell == NULL)
    return;
  HWND box = FindWindowW(L"#32770", shell->notice_title);
  if (box == NULL || !IsWindowVisible(box))
    return;
  KillTimer(window, id);
  tray_log(shell, L"window shown | %ls", shell->notice_title);
  tray_log_control(shell, box, L"message", IDOK, L"OK");
}

void tray_notice_window(tray_shell *shell, const wchar_t *title, const wchar_t *text,
                        const wchar_t *why) {
  tray_log(shell, L"window error | %ls | %ls | notifications: %ls", title, text, why);
  BOOL watched = shell->log != NULL && shell->window != NULL;
  if (watched) {
    lstrcpynW(shell->notice_title, title, ARRAYSIZE(shell->notice_title));
    SetTimer(shell->window, TRAY_NOTICE_TIMER, 250, tray_notice_find);
  }
  /* In front of the program the user works in: the answer to a click in the tray's menu. */
  MessageBoxW(shell->window, text, title, MB_OK | MB_ICONERROR | MB_SETFOREGROUND);
  if (watched)
    KillTimer(shell->window, TRAY_NOTICE_TIMER);
  tray_log(shell, L"window closed | %ls", title);
}

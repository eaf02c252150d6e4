/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* service_start.c - "Start the service", offered while the service is unreachable: threadsoup.exe
   service start, elevated, and the tray following the service once it has ended. */
#include "part.h"

#include <shellapi.h>

#include <stdlib.h>
#include <wchar.h>

#include "../menu_items.h"
#include "../resource.h"

/* Starting a service needs an administrator's elevated token, so threadsoup.exe (beside the tray)
   is started with the "runas" verb. With UAC on, Windows shows its consent prompt: to a member of
   Administrators running with the filtered (split) token, a Yes/No prompt naming the program; to a
   standard user, a credentials prompt asking for an administrator's name and password. When the
   user refuses, ShellExecuteEx fails with ERROR_CANCELLED. With UAC off (and under Wine) the
   program just runs. The tray's connection thread retries on the next right click, and a request
   that finds the subscription down asks it to follow again. */
/* Waits (off the window's thread) for threadsoup.exe service start to end, which waits for the
   service to run as long as it reports progress (at most 5 minutes), then asks the tray to follow
   the service again. A command still running after 6 minutes is reported as STILL_ACTIVE, not as
   a failure. */
#define START_WAIT_MS (6 * 60 * 1000)
typedef struct start_wait {
  tray_shell *shell;
  HANDLE process;
} start_wait;

/* The window's side: the command ended (data: its exit code); the tray follows the service. */
static void start_ended(tray_shell *shell, void *data) {
  DWORD code = *(const DWORD *)data;
  tray_log(shell, L"start-service ended %lu", (unsigned long)code);
  if (code != 0 && code != STILL_ACTIVE) {
    /* The elevated command's own message went to a console nobody saw: say where to read it. */
    wchar_t text[256];
    swprintf(text, ARRAYSIZE(text),
             L"The service was not started: threadsoup service start failed (exit code %lu). "
             L"Run it in a command prompt opened as administrator to see why.",
             (unsigned long)code);
    tray_icon_balloon(shell, NULL, TRAY_BALLOON_REFUSAL, L"Start the service", text);
  }
  tray_link_retry(shell);
}

static void post_ended(tray_shell *shell, DWORD code) {
  DWORD *data = malloc(sizeof *data);
  if (data != NULL)
    *data = code;
  tray_ui_post(shell, start_ended, data);
}

static DWORD WINAPI start_wait_main(void *arg) {
  start_wait *w = arg;
  DWORD code = STILL_ACTIVE;
  if (WaitForSingleObject(w->process, START_WAIT_MS) == WAIT_OBJECT_0 &&
      !GetExitCodeProcess(w->process, &code))
    code = 1;
  CloseHandle(w->process);
  post_ended(w->shell, code);
  free(w);
  return 0;
}

/* "Start the service": threadsoup.exe service start, elevated. A failure to start it is told in
   a balloon. */
static void start_service(tray_shell *shell) {
  wchar_t exe[MAX_PATH + 32], failure[256] = L"";
  DWORD n = GetModuleFileNameW(NULL, exe, MAX_PATH);
  wchar_t *slash = n > 0 && n < MAX_PATH ? wcsrchr(exe, L'\\') : NULL;
  SHELLEXECUTEINFOW info;
  ZeroMemory(&info, sizeof info);
  if (slash == NULL) {
    tray_icon_balloon(shell, NULL, TRAY_BALLOON_REFUSAL, L"Start the service",
                      L"The tray could not find its own folder.");
    return;
  }
  lstrcpyW(slash + 1, L"threadsoup.exe");
  info.cbSize = sizeof info;
  info.fMask = SEE_MASK_NOASYNC | SEE_MASK_FLAG_NO_UI | SEE_MASK_NOCLOSEPROCESS;
  info.hwnd = shell->window;
  info.lpVerb = L"runas";
  info.lpFile = exe;
  info.lpParameters = L"service start";
  info.nShow = SW_HIDE;
  if (ShellExecuteExW(&info)) {
    tray_log(shell, L"start-service | %ls service start", exe);
    start_wait *w = info.hProcess != NULL ? calloc(1, sizeof *w) : NULL;
    HANDLE thread = NULL;
    if (w != NULL) {
      w->shell = shell;
      w->process = info.hProcess;
      thread = CreateThread(NULL, 0, start_wait_main, w, 0, NULL);
    }
    if (thread != NULL) {
      CloseHandle(thread);
    } else {
      if (info.hProcess != NULL)
        CloseHandle(info.hProcess);
      free(w);
      post_ended(shell, 0);
    }
    return;
  }
  DWORD error = GetLastError();
  if (error == ERROR_CANCELLED)
    lstrcpynW(failure, L"The service was not started: elevation was refused", ARRAYSIZE(failure));
  else
    swprintf(failure, ARRAYSIZE(failure),
             L"The service was not started: %ls could not be run (error %lu)", exe,
             (unsigned long)error);
  tray_log(shell, L"start-service failed | %ls", failure);
  tray_icon_balloon(shell, NULL, TRAY_BALLOON_REFUSAL, L"Start the service", failure);
}

/* Shown only while the service is unreachable. */
static void service_start_menu(tray_shell *shell, tray_menu *menu) {
  if (shell->shown.kind == TRAY_KIND_UNREACHABLE)
    AppendMenuW(menu->main, MF_STRING, IDM_START_SERVICE,
                TRAY_ITEM_LABELS[TRAY_ITEM_START_SERVICE]);
}

static BOOL service_start_command(tray_shell *shell, UINT id) {
  if (id != IDM_START_SERVICE)
    return FALSE;
  start_service(shell);
  return TRUE;
}

const tray_part tray_part_service_start = {
    .name = L"service start",
    .menu = service_start_menu,
    .command = service_start_command,
};

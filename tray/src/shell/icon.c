/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* icon.c - the tray's notification icon: one picture per state at the taskbar's DPI, the
   tooltip, balloons, and the icon put back when Explorer restarts. */
#include "shell.h"

#include <shellapi.h>
#include <wchar.h>

#include "resource.h"

/* One icon per program; the shell identifies it by window plus this number. */
#define TRAY_ICON_UID 1

static const struct {
  int icon;
  const wchar_t *name; /* in the --log file */
} TRAY_KINDS[TRAY_KIND_COUNT] = {
    {IDI_STATE_IDLE, L"idle"},
    {IDI_STATE_LOAD, L"load"},
    {IDI_STATE_RUN, L"run"},
    {IDI_STATE_QUIET, L"quiet"},
    {IDI_STATE_UNREACHABLE, L"unreachable"},
};

static void tray_icon_data(const tray_shell *shell, NOTIFYICONDATAW *nid) {
  ZeroMemory(nid, sizeof *nid);
  nid->cbSize = sizeof *nid;
  nid->hWnd = shell->window;
  nid->uID = TRAY_ICON_UID;
}

/* The tooltip is the status line, named as ThreadSoup's unless it says so itself, and quiet
   mode's state on a second line while it is on. */
static void tray_tooltip(const tray_shell *shell, wchar_t *tip, size_t count) {
  int n;
  if (wcsncmp(shell->shown.line, TRAY_TITLE, wcslen(TRAY_TITLE)) == 0)
    n = swprintf(tip, count, L"%ls", shell->shown.line);
  else
    n = swprintf(tip, count, L"%ls: %ls", TRAY_TITLE, shell->shown.line);
  if (n >= 0 && shell->shown.quiet)
    swprintf(tip + n, count - (size_t)n, L"\nQuiet mode: %ls", shell->shown.quiet_line);
  tip[count - 1] = L'\0';
}

/* Without GetSystemMetricsForDpi, GetSystemMetrics answers a DPI-aware process in pixels of the
   system DPI already (24 px small icons at 150 %), so it is scaled from the system DPI, not from
   96: scaling it from 96 again made 36 px icons at 150 % on Windows 7 and 8. */
static int tray_metric(int index, UINT dpi) {
  typedef int(WINAPI * metrics_for_dpi_fn)(int, UINT);
  HMODULE user32 = GetModuleHandleW(L"user32.dll");
  metrics_for_dpi_fn for_dpi =
      user32 ? (metrics_for_dpi_fn)(void (*)(void))GetProcAddress(user32, "GetSystemMetricsForDpi")
             : NULL;
  if (for_dpi)
    return for_dpi(index, dpi);
  UINT system_dpi = tray_dpi(NULL);
  return MulDiv(GetSystemMetrics(index), (int)dpi, (int)system_dpi);
}

/* One icon resource at cx x cy: LoadIconWithScaleDown picks the nearest larger image and
   scales it down, never up; the state icons hold 16, 20, 24, 32 and 48 px, so the common DPIs
   (100, 125, 150, 200 %) get an image drawn for their size. */
static HICON tray_icon_at(tray_shell *shell, int id, int cx, int cy) {
  /* Common controls 6 (the manifest's), looked up: MinGW's import library lacks the function. */
  typedef HRESULT(WINAPI * scale_down_fn)(HINSTANCE, PCWSTR, int, int, HICON *);
  HMODULE comctl32 = LoadLibraryW(L"comctl32.dll");
  scale_down_fn scale_down =
      comctl32 ? (scale_down_fn)(void (*)(void))GetProcAddress(comctl32, "LoadIconWithScaleDown")
               : NULL;
  HICON icon = NULL;
  if (!scale_down || FAILED(scale_down(shell->instance, MAKEINTRESOURCEW(id), cx, cy, &icon)))
    icon = LoadImageW(shell->instance, MAKEINTRESOURCEW(id), IMAGE_ICON, cx, cy, LR_DEFAULTCOLOR);
  return icon;
}

/* Loads the icons at the small-icon size of the tray's DPI (16 px at 100 %, 24 at 150 %, 32 at
   200 %). The old icons go once the new ones are in place. */
BOOL tray_icon_load(tray_shell *shell) {
  UINT dpi = tray_dpi(shell->window);
  int cx = tray_metric(SM_CXSMICON, dpi), cy = tray_metric(SM_CYSMICON, dpi);
  HICON icon = tray_icon_at(shell, IDI_TRAY, cx, cy);
  if (icon == NULL)
    return shell->icon != NULL;
  HICON states[TRAY_KIND_COUNT];
  for (int i = 0; i < TRAY_KIND_COUNT; i++) {
    states[i] = tray_icon_at(shell, TRAY_KINDS[i].icon, cx, cy);
    if (states[i] == NULL)
      states[i] = CopyIcon(icon); /* never seen; the program icon still says whose it is */
  }
  HICON old = shell->icon, old_states[TRAY_KIND_COUNT];
  shell->icon = icon;
  for (int i = 0; i < TRAY_KIND_COUNT; i++) {
    old_states[i] = shell->state_icons[i];
    shell->state_icons[i] = states[i];
  }
  shell->icon_dpi = dpi;
  shell->icon_px = cx;
  wchar_t note[96];
  swprintf(note, ARRAYSIZE(note), L"threadsoup-tray: icon %d px for %u dpi\n", cx, dpi);
  OutputDebugStringW(note);
  tray_log(shell, L"icon %d px for %u dpi", cx, dpi);
  if (old != NULL && shell->icon_shown)
    tray_icon_show(shell); /* MODIFY: the taskbar copies the icon, ours may go */
  if (old != NULL)
    DestroyIcon(old);
  for (int i = 0; i < TRAY_KIND_COUNT; i++)
    if (old_states[i] != NULL)
      DestroyIcon(old_states[i]);
  return TRUE;
}

/* The icon of the state shown. */
static HICON tray_state_icon(const tray_shell *shell) {
  HICON icon = shell->state_icons[shell->shown.kind];
  return icon ? icon : shell->icon;
}

/* Puts the icon in the notification area. Failure is normal when no taskbar exists yet (the tray
   started before Explorer); TaskbarCreated calls this again, so the caller just carries on. */
BOOL tray_icon_show(tray_shell *shell) {
  NOTIFYICONDATAW nid;
  tray_icon_data(shell, &nid);
  nid.uFlags = NIF_MESSAGE | NIF_ICON | NIF_TIP | NIF_SHOWTIP;
  nid.uCallbackMessage = TRAY_WM_NOTIFY;
  nid.hIcon = tray_state_icon(shell);
  tray_tooltip(shell, nid.szTip, ARRAYSIZE(nid.szTip));
  /* TaskbarCreated also comes when the taskbar merely changed (e.g. DPI) and still holds our
     icon; then ADD fails and MODIFY brings the icon up to date. */
  if (!Shell_NotifyIconW(NIM_ADD, &nid) && !Shell_NotifyIconW(NIM_MODIFY, &nid)) {
    shell->icon_shown = FALSE;
    OutputDebugStringW(L"threadsoup-tray: no notification area yet, waiting for TaskbarCreated\n");
    return FALSE;
  }
  shell->icon_shown = TRUE;
  /* Version 4 sends WM_CONTEXTMENU for the mouse and the keyboard alike, with the anchor point;
     the version must be set again after every ADD. */
  nid.uVersion = NOTIFYICON_VERSION_4;
  shell->icon_version4 = Shell_NotifyIconW(NIM_SETVERSION, &nid);
  return TRUE;
}

void tray_icon_hide(tray_shell *shell) {
  if (!shell->icon_shown)
    return;
  NOTIFYICONDATAW nid;
  tray_icon_data(shell, &nid);
  Shell_NotifyIconW(NIM_DELETE, &nid);
  shell->icon_shown = FALSE;
}

/* The state's picture and tooltip; each new one goes to the --log file as well. */
void tray_icon_update(tray_shell *shell) {
  NOTIFYICONDATAW nid;
  tray_icon_data(shell, &nid);
  nid.uFlags = NIF_ICON | NIF_TIP | NIF_SHOWTIP;
  nid.hIcon = tray_state_icon(shell);
  tray_tooltip(shell, nid.szTip, ARRAYSIZE(nid.szTip));
  if (shell->icon_shown)
    Shell_NotifyIconW(NIM_MODIFY, &nid);
  if (shell->logged_kind != shell->shown.kind || wcscmp(shell->logged_tip, nid.szTip) != 0) {
    shell->logged_kind = shell->shown.kind;
    lstrcpynW(shell->logged_tip, nid.szTip, ARRAYSIZE(shell->logged_tip));
    tray_log(shell, L"state %ls | %ls", TRAY_KINDS[shell->shown.kind].name, nid.szTip);
  }
}

/* A balloon from the icon; without an icon (no taskbar) an error still reaches the user, and a
   refusal does whenever the user would not see a balloon. */
void tray_icon_balloon(tray_shell *shell, const struct tray_part *owner, tray_balloon_kind kind,
                       const wchar_t *title, const wchar_t *text) {
  BOOL error = kind != TRAY_BALLOON_INFO;
  const wchar_t *why = L"";
  if (kind == TRAY_BALLOON_REFUSAL && shell->icon_shown && !tray_notice_seen(shell, &why)) {
    tray_notice_window(shell, title, text, why);
    return;
  }
  NOTIFYICONDATAW nid;
  tray_icon_data(shell, &nid);
  nid.uFlags = NIF_INFO;
  lstrcpynW(nid.szInfoTitle, title, ARRAYSIZE(nid.szInfoTitle));
  lstrcpynW(nid.szInfo, text, ARRAYSIZE(nid.szInfo));
  nid.dwInfoFlags = error ? NIIF_ERROR : NIIF_INFO;
  tray_log(shell, L"balloon %ls | %ls | %ls", error ? L"error" : L"info", title, text);
  /* A click goes to the part of the balloon shown last, whichever it was. */
  shell->balloon_owner = owner;
  if (shell->icon_shown && Shell_NotifyIconW(NIM_MODIFY, &nid))
    return;
  if (error)
    MessageBoxW(shell->window, text, title, MB_OK | MB_ICONERROR);
}

void tray_icon_free(tray_shell *shell) {
  if (shell->icon != NULL)
    DestroyIcon(shell->icon);
  shell->icon = NULL;
  for (int i = 0; i < TRAY_KIND_COUNT; i++) {
    if (shell->state_icons[i] != NULL)
      DestroyIcon(shell->state_icons[i]);
    shell->state_icons[i] = NULL;
  }
}

UINT tray_icon_event(const tray_shell *shell, LPARAM lp) {
  return shell->icon_version4 ? LOWORD(lp) : (UINT)lp;
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* log.c - the tray's one log writer: each state, tooltip, menu, balloon and dialog step shown goes
   to the --log file as one UTF-8 line, which the Wine tests read. */
#include "shell.h"

#include <stdarg.h>
#include <wchar.h>

void tray_log(tray_shell *shell, const wchar_t *format, ...) {
  if (shell->log == NULL)
    return;
  wchar_t line[1000];
  va_list ap;
  va_start(ap, format);
  vswprintf(line, ARRAYSIZE(line), format, ap);
  va_end(ap);
  line[ARRAYSIZE(line) - 1] = L'\0';
  /* The tooltip's line break is logged as '/', so that one entry stays one line. */
  for (wchar_t *c = line; *c; c++)
    if (*c == L'\n')
      *c = L'/';
    else if (*c == L'\r')
      *c = L' ';
  char utf8[3 * ARRAYSIZE(line)];
  if (WideCharToMultiByte(CP_UTF8, 0, line, -1, utf8, (int)sizeof utf8, NULL, NULL) == 0)
    return;
  /* Dialog workers and the window write; each line whole. */
  plat_mutex_lock(&shell->log_lock);
  fprintf(shell->log, "%s\n", utf8);
  fflush(shell->log);
  plat_mutex_unlock(&shell->log_lock);
}

void tray_log_control(tray_shell *shell, HWND dialog, const wchar_t *name, int id,
                      const wchar_t *label) {
  RECT r;
  HWND control = GetDlgItem(dialog, id);
  /* A combo box's rectangle is its closed height: the centre is on its edit field. */
  if (control != NULL && GetWindowRect(control, &r))
    tray_log(shell, L"dialog %ls control %ls at %ld,%ld", name, label, (r.left + r.right) / 2,
             (r.top + r.bottom) / 2);
}

BOOL tray_log_menu(tray_shell *shell, HMENU menu) {
  RECT r;
  int count = GetMenuItemCount(menu);
  /* A menu not on the screen yet has no place: the next idle moment tries again. */
  if (shell->log == NULL || count <= 0 || !GetMenuItemRect(NULL, menu, 0, &r))
    return FALSE;
  for (int i = 0; i < count; i++) {
    wchar_t text[TRAY_LINE_MAX + 32], label[TRAY_LINE_MAX + 32];
    if (GetMenuStringW(menu, (UINT)i, text, ARRAYSIZE(text), MF_BYPOSITION) <= 0 ||
        !GetMenuItemRect(NULL, menu, (UINT)i, &r))
      continue; /* a separator */
    size_t n = 0;
    for (const wchar_t *c = text; *c != L'\0' && n + 1 < ARRAYSIZE(label); c++)
      if (*c != L'&' || c[1] == L'&') /* the access key's mark, not a literal "&&" */
        label[n++] = *c == L'&' ? *++c : *c;
    label[n] = L'\0';
    tray_log(shell, L"menu item %ls at %ld,%ld", label, (r.left + r.right) / 2,
             (r.top + r.bottom) / 2);
  }
  return TRUE;
}

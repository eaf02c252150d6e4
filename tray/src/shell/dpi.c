/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* dpi.c - the DPI a tray window runs at, and sizes given for 96 dpi scaled to it: the icon and
   the dialogs' column widths follow it. */
#include "shell.h"

/* Per monitor (the manifest declares per-monitor v2). GetDpiForWindow came with Windows 10 1607:
   looked up, so that the tray still starts on Windows 7 and 8, which have the system DPI only
   (GetDeviceCaps' LOGPIXELSX, the same for every window). */
UINT tray_dpi(HWND window) {
  typedef UINT(WINAPI * dpi_for_window_fn)(HWND);
  HMODULE user32 = GetModuleHandleW(L"user32.dll");
  dpi_for_window_fn dpi_for_window =
      user32 ? (dpi_for_window_fn)(void (*)(void))GetProcAddress(user32, "GetDpiForWindow") : NULL;
  UINT dpi = dpi_for_window && window ? dpi_for_window(window) : 0;
  if (dpi == 0) {
    HDC screen = GetDC(NULL);
    dpi = screen ? (UINT)GetDeviceCaps(screen, LOGPIXELSX) : USER_DEFAULT_SCREEN_DPI;
    if (screen)
      ReleaseDC(NULL, screen);
  }
  return dpi ? dpi : USER_DEFAULT_SCREEN_DPI;
}

int tray_scaled(HWND window, int px_at_96_dpi) {
  return MulDiv(px_at_96_dpi, (int)tray_dpi(window), USER_DEFAULT_SCREEN_DPI);
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* sign_in.c - the hint at the tray's start that a user just added to ThreadSoup Users (as the
   MSI adds the user who installs it) must sign out and in once before the tray may run
   anything: membership of a group counts from the next sign-in. */
#include "part.h"

#include "threadsoup/plat_win32.h"

/* The MSI is made without dialogs (wixl), so it has no finish page to say this; the tray it
   starts is the first thing the new member sees. The hint shows at every start while it holds
   and never again once the user has signed in anew. */
static void sign_in_hint(tray_shell *shell, void *data) {
  (void)data;
  BOOL needed = win32_sign_in_again();
  tray_log(shell, L"sign-in hint: %ls", needed ? L"shown" : L"not needed");
  if (needed)
    tray_icon_balloon(shell, NULL, FALSE, L"Sign out and in once",
                      L"You were added to ThreadSoup Users after you signed in. Windows counts "
                      L"the membership from your next sign-in: sign out and in once, then start "
                      L"loads and experiments from this icon.");
}

/* The window's creation: the hint waits in the queue until the icon shows. */
static BOOL sign_in_message(tray_shell *shell, UINT msg, WPARAM wp, LPARAM lp) {
  (void)wp;
  (void)lp;
  if (msg == WM_CREATE)
    tray_ui_post(shell, sign_in_hint, NULL);
  return FALSE;
}

const tray_part tray_part_sign_in = {
    .name = L"sign-in hint",
    .message = sign_in_message,
};

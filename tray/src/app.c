/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* app.c - threadsoup-tray.exe, the notification-area controller of ThreadSoup: the command line,
   the hidden window and its procedure, which hands the icon's events, the menu and its commands
   to the shell (shell/) and to the parts through their one table (parts/parts.c). */
#include "parts/part.h"

#include <objbase.h>
#include <shellapi.h>
#include <windowsx.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "menu_items.h"
#include "resource.h"

/* Process exit codes; tests rely on them. */
enum {
  TRAY_EXIT_OK = 0,
  TRAY_EXIT_FAILURE = 1,
  TRAY_EXIT_USAGE = 2,
};

/* The only timer: armed by --exit-after. An idle tray must not wake up, so nothing polls. */
#define TRAY_TIMER_EXIT_AFTER 1

static const wchar_t TRAY_WINDOW_CLASS[] = L"ThreadSoupTrayWindow";
/* Local\ gives one tray per logon session, which is what fast user switching needs. */
static const wchar_t TRAY_MUTEX_NAME[] = L"Local\\ThreadSoupTray";

static const wchar_t TRAY_USAGE[] =
    L"usage: threadsoup-tray [--pipe NAME] [--exit-after MS] [--log FILE] [--help]\n"
    L"  --pipe NAME      the service's pipe (default \\\\.\\pipe\\threadsoup)\n"
    L"  --exit-after MS  close by itself after MS milliseconds (for tests)\n"
    L"  --log FILE       append each state, tooltip, menu and balloon shown to FILE\n"
    L"  --help           show this text\n";

typedef struct tray_options {
  DWORD exit_after_ms; /* 0: run until the user picks Exit */
  BOOL help;
  const wchar_t *pipe; /* NULL: plat_ipc_default_address() */
  const wchar_t *log;  /* NULL: no log */
} tray_options;

/* ---------------------------------------------------------------- command line */

/* Writes text to a standard handle if the process has one (a GUI program started from a shell
   with redirection, or under Wine); returns FALSE when there is nowhere to write. */
static BOOL tray_write_std(DWORD which, const wchar_t *text) {
  HANDLE handle = GetStdHandle(which);
  if (handle == NULL || handle == INVALID_HANDLE_VALUE)
    return FALSE;
  char utf8[1024];
  int n = WideCharToMultiByte(CP_UTF8, 0, text, -1, utf8, (int)sizeof utf8, NULL, NULL);
  if (n <= 1)
    return FALSE;
  DWORD written = 0;
  return WriteFile(handle, utf8, (DWORD)(n - 1), &written, NULL) && written == (DWORD)(n - 1);
}

/* Reports a usage error on stderr only: never a message box, so a scripted start cannot hang. */
static void tray_complain(const wchar_t *format, ...) {
  wchar_t line[512];
  int n = swprintf(line, ARRAYSIZE(line), L"threadsoup-tray: ");
  va_list ap;
  va_start(ap, format);
  if (n > 0)
    vswprintf(line + n, ARRAYSIZE(line) - (size_t)n, format, ap);
  va_end(ap);
  line[ARRAYSIZE(line) - 1] = L'\0';
  tray_write_std(STD_ERROR_HANDLE, line);
  tray_write_std(STD_ERROR_HANDLE, L"\n");
  tray_write_std(STD_ERROR_HANDLE, TRAY_USAGE);
}

/* Parses a whole number of milliseconds within what SetTimer accepts; no sign, no spaces. */
static BOOL tray_parse_ms(const wchar_t *text, DWORD *out) {
  if (text[0] < L'0' || text[0] > L'9')
    return FALSE;
  wchar_t *end = NULL;
  errno = 0;
  unsigned long value = wcstoul(text, &end, 10);
  if (errno != 0 || *end != L'\0' || value < 1 || value > USER_TIMER_MAXIMUM)
    return FALSE;
  *out = (DWORD)value;
  return TRUE;
}

/* Fills opts from argv; returns TRAY_EXIT_OK or TRAY_EXIT_USAGE (after saying why). The strings
   in opts point into argv. */
static int tray_parse_args(int argc, wchar_t **argv, tray_options *opts) {
  for (int i = 1; i < argc; i++) {
    const wchar_t *arg = argv[i];
    if (wcscmp(arg, L"--help") == 0 || wcscmp(arg, L"-h") == 0 || wcscmp(arg, L"/?") == 0) {
      opts->help = TRUE;
    } else if (wcscmp(arg, L"--exit-after") == 0) {
      if (i + 1 >= argc) {
        tray_complain(L"--exit-after needs a number of milliseconds");
        return TRAY_EXIT_USAGE;
      }
      if (!tray_parse_ms(argv[++i], &opts->exit_after_ms)) {
        tray_complain(L"--exit-after: '%ls' is not a whole number of milliseconds (1 to %lu)",
                      argv[i], (unsigned long)USER_TIMER_MAXIMUM);
        return TRAY_EXIT_USAGE;
      }
    } else if (wcscmp(arg, L"--pipe") == 0) {
      if (i + 1 >= argc || argv[i + 1][0] == L'\0') {
        tray_complain(L"--pipe needs the name of the service's pipe, e.g. \\\\.\\pipe\\threadsoup");
        return TRAY_EXIT_USAGE;
      }
      opts->pipe = argv[++i];
    } else if (wcscmp(arg, L"--log") == 0) {
      if (i + 1 >= argc || argv[i + 1][0] == L'\0') {
        tray_complain(L"--log needs the name of a file to append to");
        return TRAY_EXIT_USAGE;
      }
      opts->log = argv[++i];
    } else {
      tray_complain(L"unknown option '%ls'", arg);
      return TRAY_EXIT_USAGE;
    }
  }
  return TRAY_EXIT_OK;
}

/* --help was asked for by a person: stdout if there is one, otherwise a message box. */
static void tray_show_usage(void) {
  if (!tray_write_std(STD_OUTPUT_HANDLE, TRAY_USAGE)) {
    MessageBoxW(NULL, TRAY_USAGE, TRAY_TITLE, MB_OK | MB_ICONINFORMATION);
  }
}

/* ---------------------------------------------------------------- the parts */

/* Builds the menu afresh each time from the last known status: the status line, each part's
   items in the table's order, Exit. */
static void tray_menu_show(tray_shell *shell, int x, int y) {
  tray_menu menu = {CreatePopupMenu(), NULL};
  if (menu.main == NULL)
    return;
  shell->menus_shown_count = 0;
  AppendMenuW(menu.main, MF_STRING | MF_GRAYED, IDM_STATUS, shell->shown.line);
  AppendMenuW(menu.main, MF_SEPARATOR, 0, NULL);
  for (size_t i = 0; tray_parts[i]; i++)
    if (tray_parts[i]->menu)
      tray_parts[i]->menu(shell, &menu);
  AppendMenuW(menu.main, MF_SEPARATOR, 0, NULL);
  AppendMenuW(menu.main, MF_STRING, IDM_EXIT, TRAY_ITEM_LABELS[TRAY_ITEM_EXIT]);

  /* Without the foreground the menu would not close when the user clicks elsewhere. */
  SetForegroundWindow(shell->window);
  UINT align = GetSystemMetrics(SM_MENUDROPALIGNMENT) ? TPM_RIGHTALIGN : TPM_LEFTALIGN;
  TrackPopupMenuEx(menu.main, align | TPM_BOTTOMALIGN | TPM_RIGHTBUTTON, x, y, shell->window, NULL);
  /* Forces a task switch so the next right click opens the menu instead of just closing it. */
  PostMessageW(shell->window, WM_NULL, 0, 0);
  DestroyMenu(menu.main); /* and the submenus with it */
}

/* A right click. Connected: the menu opens at once. Not connected: the connection thread tries
   again first and the menu opens with its answer (tray_state_changed), so a service started since
   the last look shows up. A second click meanwhile opens the menu as it is. */
static void tray_menu_request(tray_shell *shell, int x, int y) {
  if (shell->shown.connected || shell->menu_pending || !shell->link_started) {
    shell->menu_pending = FALSE;
    tray_menu_show(shell, x, y);
    return;
  }
  shell->menu_pending = TRUE;
  shell->menu_at.x = x;
  shell->menu_at.y = y;
  tray_link_retry(shell);
}

static void tray_state_changed(tray_shell *shell) {
  if (shell->menu_pending && shell->shown.attempt_done) {
    shell->menu_pending = FALSE;
    tray_menu_show(shell, shell->menu_at.x, shell->menu_at.y);
  }
}

/* A menu or submenu is about to be shown: its items' places are logged once it is on the screen
   (tray_menu_idle). */
static void tray_menu_opening(tray_shell *shell, HMENU menu) {
  for (int i = 0; i < shell->menus_shown_count; i++)
    if (shell->menus_shown[i] == menu)
      return;
  if (shell->log == NULL || shell->menus_shown_count >= TRAY_MENUS_LOGGED)
    return;
  shell->menus_shown[shell->menus_shown_count] = menu;
  shell->menus_logged[shell->menus_shown_count++] = FALSE;
}

/* The menu waits for the user (WM_ENTERIDLE): each menu shown since the last time is on the
   screen now, and its items' places go to the log. */
static void tray_menu_idle(tray_shell *shell) {
  for (int i = 0; i < shell->menus_shown_count; i++)
    if (!shell->menus_logged[i])
      shell->menus_logged[i] = tray_log_menu(shell, shell->menus_shown[i]);
}

/* The connection thread's events go to every part that follows them. */
static void tray_event(tray_shell *shell, const proto_message *m) {
  for (size_t i = 0; tray_parts[i]; i++)
    if (tray_parts[i]->event)
      tray_parts[i]->event(shell, m);
}

static BOOL tray_part_message(tray_shell *shell, UINT msg, WPARAM wp, LPARAM lp) {
  for (size_t i = 0; tray_parts[i]; i++)
    if (tray_parts[i]->message && tray_parts[i]->message(shell, msg, wp, lp))
      return TRUE;
  return FALSE;
}

static void tray_command(tray_shell *shell, UINT id) {
  if (id == IDM_EXIT) {
    /* The same way out as --exit-after and a WM_CLOSE from outside. */
    PostMessageW(shell->window, WM_CLOSE, 0, 0);
    return;
  }
  for (size_t i = 0; tray_parts[i]; i++)
    if (tray_parts[i]->command && tray_parts[i]->command(shell, id))
      return;
}

/* The icon's events: the parts see them first (a balloon's click), then the menu opens. */
static void tray_on_notify(tray_shell *shell, WPARAM wp, LPARAM lp) {
  UINT event = tray_icon_event(shell, lp);
  if (event == NIN_BALLOONTIMEOUT || event == NIN_BALLOONHIDE) {
    /* The balloon is gone: a later click on the icon or on another balloon is not its click. */
    if (shell->balloon_owner)
      tray_log(shell, L"balloon gone (%ls): its click is forgotten",
               event == NIN_BALLOONTIMEOUT ? L"timed out" : L"hidden");
    shell->balloon_owner = NULL;
    return;
  }
  if (tray_part_message(shell, TRAY_WM_NOTIFY, wp, lp))
    return;
  if (shell->icon_version4) {
    /* Version 4: LOWORD(lp) is the event, wp holds the anchor in screen coordinates. */
    if (LOWORD(lp) == WM_CONTEXTMENU)
      tray_menu_request(shell, GET_X_LPARAM(wp), GET_Y_LPARAM(wp));
  } else if ((UINT)lp == WM_RBUTTONUP) {
    /* Old layout (a shell without version 4): lp is the mouse message, no position given. */
    POINT pt;
    if (GetCursorPos(&pt))
      tray_menu_request(shell, pt.x, pt.y);
  }
}

/* ---------------------------------------------------------------- window */

static LRESULT CALLBACK tray_wndproc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp) {
  if (msg == WM_NCCREATE) {
    tray_shell *created = ((CREATESTRUCTW *)lp)->lpCreateParams;
    created->window = hwnd;
    SetWindowLongPtrW(hwnd, GWLP_USERDATA, (LONG_PTR)created);
  }
  tray_shell *shell = (tray_shell *)GetWindowLongPtrW(hwnd, GWLP_USERDATA);
  /* A few messages (WM_GETMINMAXINFO) arrive before WM_NCCREATE. */
  if (shell == NULL)
    return DefWindowProcW(hwnd, msg, wp, lp);

  /* A registered message, so it cannot be a case label. Explorer started or restarted and has
     forgotten every icon. */
  if (msg == shell->taskbar_created_msg && msg != 0) {
    tray_icon_load(shell); /* the taskbar's DPI may have changed with it */
    tray_icon_show(shell);
    return 0;
  }

  switch (msg) {
  case WM_DPICHANGED:
    tray_icon_load(shell);
    tray_icon_show(shell);
    return 0;
  case TRAY_WM_NOTIFY:
    tray_on_notify(shell, wp, lp);
    return 0;
  case TRAY_WM_RUN:
    tray_ui_run(shell, lp);
    return 0;
  case WM_COMMAND:
    tray_command(shell, LOWORD(wp));
    return 0;
  case WM_INITMENUPOPUP:
    tray_menu_opening(shell, (HMENU)wp);
    return 0;
  case WM_ENTERIDLE:
    if (wp == MSGF_MENU)
      tray_menu_idle(shell);
    return 0;
  case WM_TIMER:
    if (wp == TRAY_TIMER_EXIT_AFTER) {
      KillTimer(hwnd, TRAY_TIMER_EXIT_AFTER); /* one shot */
      PostMessageW(hwnd, WM_CLOSE, 0, 0);
    }
    return 0;
  case WM_QUERYENDSESSION:
    /* Sign-out, shutdown, or the Restart Manager closing the tray for an MSI upgrade
       (ENDSESSION_CLOSEAPP): the tray holds nothing that must be kept, so it never objects. */
    tray_log(shell, L"end of session asked (0x%lx): agreed", (unsigned long)lp);
    return TRUE;
  case WM_ENDSESSION:
    /* The process ends when this returns: the threads stopped and the icon taken away first,
       as WM_CLOSE does, so no icon is left behind and the log is whole. */
    if (wp) {
      tray_log(shell, L"session ends: leaving");
      tray_threads_stop(shell);
      tray_icon_hide(shell);
      if (shell->log)
        fflush(shell->log);
    }
    return 0;
  case WM_CLOSE:
    /* The threads go first: they post to this window until they are joined. */
    tray_threads_stop(shell);
    DestroyWindow(hwnd);
    return 0;
  case WM_DESTROY:
    /* An icon left behind stays in the notification area until the mouse passes over it. */
    tray_icon_hide(shell);
    PostQuitMessage(TRAY_EXIT_OK);
    return 0;
  case WM_NCDESTROY:
    SetWindowLongPtrW(hwnd, GWLP_USERDATA, 0);
    shell->window = NULL;
    break;
  default:
    if (tray_part_message(shell, msg, wp, lp))
      return 0;
    break;
  }
  return DefWindowProcW(hwnd, msg, wp, lp);
}

/* Creates the hidden window. It is a normal top-level window, never shown: HWND_MESSAGE windows
   do not receive broadcasts, and TaskbarCreated is one. */
static BOOL tray_window_create(tray_shell *shell) {
  WNDCLASSEXW wc;
  ZeroMemory(&wc, sizeof wc);
  wc.cbSize = sizeof wc;
  wc.lpfnWndProc = tray_wndproc;
  wc.hInstance = shell->instance;
  wc.hIcon = shell->icon;
  wc.lpszClassName = TRAY_WINDOW_CLASS;
  if (!RegisterClassExW(&wc))
    return FALSE;

  HWND hwnd = CreateWindowExW(0, TRAY_WINDOW_CLASS, TRAY_TITLE, WS_OVERLAPPED, 0, 0, 0, 0, NULL,
                              NULL, shell->instance, shell);
  if (hwnd == NULL)
    return FALSE;
  /* An elevated tray would otherwise never hear the broadcast of an unelevated Explorer (UIPI). */
  ChangeWindowMessageFilterEx(hwnd, shell->taskbar_created_msg, MSGFLT_ALLOW, NULL);
  return TRUE;
}

/* Runs the tray until its window is destroyed; returns the process exit code. */
static int tray_run(tray_shell *shell) {
  int rc = TRAY_EXIT_FAILURE;
  shell->state_changed = tray_state_changed;
  shell->event = tray_event;
  tray_icon_load(shell); /* at the system's DPI; again for the window's once it exists */
  shell->taskbar_created_msg = RegisterWindowMessageW(L"TaskbarCreated");
  if (shell->icon == NULL || shell->taskbar_created_msg == 0)
    goto done;
  if (!tray_window_create(shell) || !tray_icon_load(shell))
    goto done;
  if (shell->exit_after_ms != 0 &&
      !SetTimer(shell->window, TRAY_TIMER_EXIT_AFTER, shell->exit_after_ms, NULL)) {
    goto done;
  }
  lstrcpynW(shell->shown.line, L"Connecting to the service\u2026", ARRAYSIZE(shell->shown.line));
  shell->shown.kind = shell->logged_kind = TRAY_KIND_UNREACHABLE;
  tray_icon_show(shell); /* not fatal: see tray_icon_show */
  if (!tray_link_start(shell) || !tray_worker_start(shell))
    goto done;
  /* The Restart Manager starts the tray again after closing it for an upgrade (the MSI replaces
     threadsoup-tray.exe); not after a crash or a hang, and not at the next sign-in, where the
     logon entry (HKLM Run) starts it. */
  HRESULT restart =
      RegisterApplicationRestart(L"", RESTART_NO_CRASH | RESTART_NO_HANG | RESTART_NO_REBOOT);
  tray_log(shell, L"restart after an upgrade: %ls",
           SUCCEEDED(restart) ? L"registered" : L"not registered");

  MSG msg;
  for (;;) {
    BOOL got = GetMessageW(&msg, NULL, 0, 0);
    if (got == -1)
      goto done;
    if (got == 0)
      break;
    TranslateMessage(&msg);
    DispatchMessageW(&msg);
  }
  rc = (int)msg.wParam;

done:
  tray_threads_stop(shell);
  if (shell->window != NULL)
    DestroyWindow(shell->window);
  tray_icon_free(shell);
  return rc;
}

/* Reads the command line into the shell; returns TRAY_EXIT_OK, or the exit code to leave with. */
static int tray_configure(tray_shell *shell, BOOL *help) {
  int argc = 0;
  wchar_t **argv = CommandLineToArgvW(GetCommandLineW(), &argc);
  if (argv == NULL)
    return TRAY_EXIT_FAILURE;
  tray_options opts;
  ZeroMemory(&opts, sizeof opts);
  int rc = tray_parse_args(argc, argv, &opts);
  if (rc == TRAY_EXIT_OK && opts.pipe != NULL &&
      WideCharToMultiByte(CP_UTF8, 0, opts.pipe, -1, shell->pipe, (int)sizeof shell->pipe, NULL,
                          NULL) == 0) {
    tray_complain(L"--pipe: the name is too long");
    rc = TRAY_EXIT_USAGE;
  }
  if (rc == TRAY_EXIT_OK && opts.pipe == NULL)
    snprintf(shell->pipe, sizeof shell->pipe, "%s", plat_ipc_default_address());
  wchar_t why[600];
  if (rc == TRAY_EXIT_OK && !tray_notice_configure(shell, why, ARRAYSIZE(why))) {
    tray_complain(L"%ls", why);
    rc = TRAY_EXIT_USAGE;
  }
  if (rc == TRAY_EXIT_OK && opts.log != NULL) {
    shell->log = _wfopen(opts.log, L"ab"); /* "\n" line ends, as tests read them */
    if (shell->log == NULL) {
      tray_complain(L"--log: cannot open '%ls' to append to", opts.log);
      rc = TRAY_EXIT_USAGE;
    }
  }
  shell->exit_after_ms = opts.exit_after_ms;
  *help = opts.help;
  LocalFree(argv);
  return rc;
}

int WINAPI wWinMain(HINSTANCE instance, HINSTANCE prev, PWSTR cmdline, int show) {
  (void)prev;
  (void)cmdline; /* re-read whole with CommandLineToArgvW, which handles quoting */
  (void)show;    /* the window is never shown */

  tray_shell shell;
  ZeroMemory(&shell, sizeof shell);
  BOOL help = FALSE;
  int rc = tray_configure(&shell, &help);
  if (rc != TRAY_EXIT_OK) {
    if (shell.log != NULL)
      fclose(shell.log);
    return rc;
  }
  if (help) {
    if (shell.log != NULL)
      fclose(shell.log);
    tray_show_usage();
    return TRAY_EXIT_OK;
  }

  /* One tray per session. A second start (autostart plus a click in the Start menu) leaves
     quietly: the icon the user wants is already there. */
  HANDLE mutex = CreateMutexW(NULL, FALSE, TRAY_MUTEX_NAME);
  if (mutex == NULL || GetLastError() == ERROR_ALREADY_EXISTS) {
    if (mutex != NULL)
      CloseHandle(mutex);
    if (shell.log != NULL)
      fclose(shell.log);
    return mutex == NULL ? TRAY_EXIT_FAILURE : TRAY_EXIT_OK;
  }

  shell.instance = instance;
  plat_mutex_init(&shell.lock);
  plat_mutex_init(&shell.log_lock);
  plat_cond_init(&shell.changed);
  /* ShellExecuteEx (Start the service, and Open latest report's thread) may hand its work to
     shell extensions that need COM in a single-threaded apartment: its documentation asks for
     this initialization on the calling thread. */
  HRESULT com = CoInitializeEx(NULL, COINIT_APARTMENTTHREADED | COINIT_DISABLE_OLE1DDE);
  rc = tray_run(&shell);
  if (SUCCEEDED(com))
    CoUninitialize();
  plat_cond_destroy(&shell.changed);
  plat_mutex_destroy(&shell.log_lock);
  plat_mutex_destroy(&shell.lock);

  CloseHandle(mutex);
  if (shell.log != NULL)
    fclose(shell.log);
  return rc;
}

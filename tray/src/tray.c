/* tray.c - threadsoup-tray.exe, the notification-area controller of ThreadSoup (for now an icon
   whose menu shows the service status and offers Exit). */

/* Windows 7 is the oldest target: it has NOTIFYICON_VERSION_4 and ChangeWindowMessageFilterEx. */
#define _WIN32_WINNT 0x0601
#define NTDDI_VERSION 0x06010000
#define WIN32_LEAN_AND_MEAN

#include <windows.h>
#include <shellapi.h>
#include <windowsx.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <wchar.h>

#include "resource.h"

/* Process exit codes; tests rely on them. */
enum {
  TRAY_EXIT_OK = 0,
  TRAY_EXIT_FAILURE = 1,
  TRAY_EXIT_USAGE = 2,
};

/* The shell reports icon events with this message; WM_APP keeps it clear of system messages. */
#define WM_TRAY_NOTIFY (WM_APP + 1)

/* One icon per program; the shell identifies it by window plus this number. */
#define TRAY_ICON_UID 1

/* The only timer: armed by --exit-after. An idle tray must not wake up, so nothing polls. */
#define TRAY_TIMER_EXIT_AFTER 1

static const wchar_t TRAY_WINDOW_CLASS[] = L"ThreadSoupTrayWindow";
static const wchar_t TRAY_TITLE[] = L"ThreadSoup";
static const wchar_t TRAY_TOOLTIP[] = L"ThreadSoup";
/* Local\ gives one tray per logon session, which is what fast user switching needs. */
static const wchar_t TRAY_MUTEX_NAME[] = L"Local\\ThreadSoupTray";

static const wchar_t TRAY_USAGE[] =
    L"usage: threadsoup-tray [--exit-after MS] [--help]\n"
    L"  --exit-after MS  close by itself after MS milliseconds (for tests)\n"
    L"  --help           show this text\n";

typedef struct tray_options {
  DWORD exit_after_ms; /* 0: run until the user picks Exit */
  BOOL help;
} tray_options;

/* Everything the window procedure needs. It lives on wWinMain's stack and the window finds it
   through GWLP_USERDATA, so the program has no global mutable state. */
typedef struct tray_ctx {
  HINSTANCE instance;
  HWND window;
  HICON icon;               /* owned; destroyed after the window */
  UINT taskbar_created_msg; /* registered "TaskbarCreated", broadcast when Explorer (re)starts */
  BOOL icon_shown;          /* the shell currently holds our icon */
  BOOL icon_version4;       /* NIM_SETVERSION succeeded: events come in the version-4 layout */
  DWORD exit_after_ms;
} tray_ctx;

/* ---------------------------------------------------------------- command line */

/* Writes text to a standard handle if the process has one (a GUI program started from a shell
   with redirection, or under Wine); returns FALSE when there is nowhere to write. */
static BOOL tray_write_std(DWORD which, const wchar_t *text) {
  HANDLE handle = GetStdHandle(which);
  if (handle == NULL || handle == INVALID_HANDLE_VALUE) return FALSE;
  char utf8[1024];
  int n = WideCharToMultiByte(CP_UTF8, 0, text, -1, utf8, (int)sizeof utf8, NULL, NULL);
  if (n <= 1) return FALSE;
  DWORD written = 0;
  return WriteFile(handle, utf8, (DWORD)(n - 1), &written, NULL) && written == (DWORD)(n - 1);
}

/* Reports a usage error on stderr only: never a message box, so a scripted start cannot hang. */
static void tray_complain(const wchar_t *format, ...) {
  wchar_t line[512];
  int n = swprintf(line, ARRAYSIZE(line), L"threadsoup-tray: ");
  va_list ap;
  va_start(ap, format);
  if (n > 0) vswprintf(line + n, ARRAYSIZE(line) - (size_t)n, format, ap);
  va_end(ap);
  line[ARRAYSIZE(line) - 1] = L'\0';
  tray_write_std(STD_ERROR_HANDLE, line);
  tray_write_std(STD_ERROR_HANDLE, L"\n");
  tray_write_std(STD_ERROR_HANDLE, TRAY_USAGE);
}

/* Parses a whole number of milliseconds within what SetTimer accepts; no sign, no spaces. */
static BOOL tray_parse_ms(const wchar_t *text, DWORD *out) {
  if (text[0] < L'0' || text[0] > L'9') return FALSE;
  wchar_t *end = NULL;
  errno = 0;
  unsigned long value = wcstoul(text, &end, 10);
  if (errno != 0 || *end != L'\0' || value < 1 || value > USER_TIMER_MAXIMUM) return FALSE;
  *out = (DWORD)value;
  return TRUE;
}

/* Fills opts from argv; returns TRAY_EXIT_OK or TRAY_EXIT_USAGE (after saying why). */
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
    } else {
      tray_complain(L"unknown option '%ls'", arg);
      return TRAY_EXIT_USAGE;
    }
  }
  return TRAY_EXIT_OK;
}

/* Parses the process command line with the shell's own quoting rules. */
static int tray_read_command_line(tray_options *opts) {
  int argc = 0;
  wchar_t **argv = CommandLineToArgvW(GetCommandLineW(), &argc);
  if (argv == NULL) return TRAY_EXIT_FAILURE;
  int rc = tray_parse_args(argc, argv, opts);
  LocalFree(argv);
  return rc;
}

/* --help was asked for by a person: stdout if there is one, otherwise a message box. */
static void tray_show_usage(void) {
  if (!tray_write_std(STD_OUTPUT_HANDLE, TRAY_USAGE)) {
    MessageBoxW(NULL, TRAY_USAGE, TRAY_TITLE, MB_OK | MB_ICONINFORMATION);
  }
}

/* ---------------------------------------------------------------- notification icon */

static void tray_icon_data(const tray_ctx *ctx, NOTIFYICONDATAW *nid) {
  ZeroMemory(nid, sizeof *nid);
  nid->cbSize = sizeof *nid;
  nid->hWnd = ctx->window;
  nid->uID = TRAY_ICON_UID;
}

/* Puts the icon in the notification area. Failure is normal when no taskbar exists yet (the tray
   started before Explorer); TaskbarCreated calls this again, so the caller just carries on. */
static BOOL tray_icon_show(tray_ctx *ctx) {
  NOTIFYICONDATAW nid;
  tray_icon_data(ctx, &nid);
  nid.uFlags = NIF_MESSAGE | NIF_ICON | NIF_TIP | NIF_SHOWTIP;
  nid.uCallbackMessage = WM_TRAY_NOTIFY;
  nid.hIcon = ctx->icon;
  lstrcpynW(nid.szTip, TRAY_TOOLTIP, ARRAYSIZE(nid.szTip));
  /* TaskbarCreated also comes when the taskbar merely changed (e.g. DPI) and still holds our
     icon; then ADD fails and MODIFY brings the icon up to date. */
  if (!Shell_NotifyIconW(NIM_ADD, &nid) && !Shell_NotifyIconW(NIM_MODIFY, &nid)) {
    ctx->icon_shown = FALSE;
    OutputDebugStringW(L"threadsoup-tray: no notification area yet, waiting for TaskbarCreated\n");
    return FALSE;
  }
  ctx->icon_shown = TRUE;
  /* Version 4 sends WM_CONTEXTMENU for the mouse and the keyboard alike, with the anchor point;
     the version must be set again after every ADD. */
  nid.uVersion = NOTIFYICON_VERSION_4;
  ctx->icon_version4 = Shell_NotifyIconW(NIM_SETVERSION, &nid);
  return TRUE;
}

static void tray_icon_hide(tray_ctx *ctx) {
  if (!ctx->icon_shown) return;
  NOTIFYICONDATAW nid;
  tray_icon_data(ctx, &nid);
  Shell_NotifyIconW(NIM_DELETE, &nid);
  ctx->icon_shown = FALSE;
}

/* ---------------------------------------------------------------- popup menu */

/* Builds the menu afresh each time, so later versions can show the current service state. */
static void tray_menu_show(tray_ctx *ctx, int x, int y) {
  HMENU menu = CreatePopupMenu();
  if (menu == NULL) return;
  AppendMenuW(menu, MF_STRING | MF_GRAYED, IDM_STATUS, L"ThreadSoup \u2013 service not connected");
  AppendMenuW(menu, MF_SEPARATOR, 0, NULL);
  AppendMenuW(menu, MF_STRING, IDM_EXIT, L"E&xit");

  /* Without the foreground the menu would not close when the user clicks elsewhere. */
  SetForegroundWindow(ctx->window);
  UINT align = GetSystemMetrics(SM_MENUDROPALIGNMENT) ? TPM_RIGHTALIGN : TPM_LEFTALIGN;
  TrackPopupMenuEx(menu, align | TPM_BOTTOMALIGN | TPM_RIGHTBUTTON, x, y, ctx->window, NULL);
  /* Forces a task switch so the next right click opens the menu instead of just closing it. */
  PostMessageW(ctx->window, WM_NULL, 0, 0);
  DestroyMenu(menu);
}

/* Handles a WM_TRAY_NOTIFY from the shell, in whichever layout the shell agreed to. */
static void tray_on_notify(tray_ctx *ctx, WPARAM wp, LPARAM lp) {
  if (ctx->icon_version4) {
    /* Version 4: LOWORD(lp) is the event, wp holds the anchor in screen coordinates. */
    if (LOWORD(lp) == WM_CONTEXTMENU) tray_menu_show(ctx, GET_X_LPARAM(wp), GET_Y_LPARAM(wp));
  } else if ((UINT)lp == WM_RBUTTONUP) {
    /* Old layout (a shell without version 4): lp is the mouse message, no position given. */
    POINT pt;
    if (GetCursorPos(&pt)) tray_menu_show(ctx, pt.x, pt.y);
  }
}

static void tray_on_command(tray_ctx *ctx, UINT id) {
  switch (id) {
  case IDM_EXIT:
    /* The same way out as --exit-after and a WM_CLOSE from outside: DestroyWindow. */
    PostMessageW(ctx->window, WM_CLOSE, 0, 0);
    break;
  default:
    break;
  }
}

/* ---------------------------------------------------------------- window */

static LRESULT CALLBACK tray_wndproc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp) {
  if (msg == WM_NCCREATE) {
    tray_ctx *created = ((CREATESTRUCTW *)lp)->lpCreateParams;
    created->window = hwnd;
    SetWindowLongPtrW(hwnd, GWLP_USERDATA, (LONG_PTR)created);
  }
  tray_ctx *ctx = (tray_ctx *)GetWindowLongPtrW(hwnd, GWLP_USERDATA);
  /* A few messages (WM_GETMINMAXINFO) arrive before WM_NCCREATE. */
  if (ctx == NULL) return DefWindowProcW(hwnd, msg, wp, lp);

  /* A registered message, so it cannot be a case label. Explorer started or restarted and has
     forgotten every icon. */
  if (msg == ctx->taskbar_created_msg && msg != 0) {
    tray_icon_show(ctx);
    return 0;
  }

  switch (msg) {
  case WM_TRAY_NOTIFY:
    tray_on_notify(ctx, wp, lp);
    return 0;
  case WM_COMMAND:
    tray_on_command(ctx, LOWORD(wp));
    return 0;
  case WM_TIMER:
    if (wp == TRAY_TIMER_EXIT_AFTER) {
      KillTimer(hwnd, TRAY_TIMER_EXIT_AFTER); /* one shot */
      PostMessageW(hwnd, WM_CLOSE, 0, 0);
    }
    return 0;
  case WM_DESTROY:
    /* An icon left behind stays in the notification area until the mouse passes over it. */
    tray_icon_hide(ctx);
    PostQuitMessage(TRAY_EXIT_OK);
    return 0;
  case WM_NCDESTROY:
    SetWindowLongPtrW(hwnd, GWLP_USERDATA, 0);
    ctx->window = NULL;
    break;
  default:
    break;
  }
  return DefWindowProcW(hwnd, msg, wp, lp);
}

/* Creates the hidden window. It is a normal top-level window, never shown: HWND_MESSAGE windows
   do not receive broadcasts, and TaskbarCreated is one. */
static BOOL tray_window_create(tray_ctx *ctx) {
  WNDCLASSEXW wc;
  ZeroMemory(&wc, sizeof wc);
  wc.cbSize = sizeof wc;
  wc.lpfnWndProc = tray_wndproc;
  wc.hInstance = ctx->instance;
  wc.hIcon = ctx->icon;
  wc.lpszClassName = TRAY_WINDOW_CLASS;
  if (!RegisterClassExW(&wc)) return FALSE;

  HWND hwnd = CreateWindowExW(0, TRAY_WINDOW_CLASS, TRAY_TITLE, WS_OVERLAPPED, 0, 0, 0, 0, NULL,
                              NULL, ctx->instance, ctx);
  if (hwnd == NULL) return FALSE;
  /* An elevated tray would otherwise never hear the broadcast of an unelevated Explorer (UIPI). */
  ChangeWindowMessageFilterEx(hwnd, ctx->taskbar_created_msg, MSGFLT_ALLOW, NULL);
  return TRUE;
}

/* Runs the tray until its window is destroyed; returns the process exit code. */
static int tray_run(tray_ctx *ctx) {
  int rc = TRAY_EXIT_FAILURE;
  ctx->icon = LoadImageW(ctx->instance, MAKEINTRESOURCEW(IDI_TRAY), IMAGE_ICON,
                         GetSystemMetrics(SM_CXSMICON), GetSystemMetrics(SM_CYSMICON),
                         LR_DEFAULTCOLOR);
  ctx->taskbar_created_msg = RegisterWindowMessageW(L"TaskbarCreated");
  if (ctx->icon == NULL || ctx->taskbar_created_msg == 0) goto done;
  if (!tray_window_create(ctx)) goto done;
  if (ctx->exit_after_ms != 0 &&
      !SetTimer(ctx->window, TRAY_TIMER_EXIT_AFTER, ctx->exit_after_ms, NULL)) {
    goto done;
  }
  tray_icon_show(ctx); /* not fatal: see tray_icon_show */

  MSG msg;
  for (;;) {
    BOOL got = GetMessageW(&msg, NULL, 0, 0);
    if (got == -1) goto done;
    if (got == 0) break;
    TranslateMessage(&msg);
    DispatchMessageW(&msg);
  }
  rc = (int)msg.wParam;

done:
  if (ctx->window != NULL) DestroyWindow(ctx->window);
  if (ctx->icon != NULL) DestroyIcon(ctx->icon);
  ctx->icon = NULL;
  return rc;
}

int WINAPI wWinMain(HINSTANCE instance, HINSTANCE prev, PWSTR cmdline, int show) {
  (void)prev;
  (void)cmdline; /* re-read whole with CommandLineToArgvW, which handles quoting */
  (void)show;    /* the window is never shown */

  tray_options opts;
  ZeroMemory(&opts, sizeof opts);
  int rc = tray_read_command_line(&opts);
  if (rc != TRAY_EXIT_OK) return rc;
  if (opts.help) {
    tray_show_usage();
    return TRAY_EXIT_OK;
  }

  /* One tray per session. A second start (autostart plus a click in the Start menu) leaves
     quietly: the icon the user wants is already there. */
  HANDLE mutex = CreateMutexW(NULL, FALSE, TRAY_MUTEX_NAME);
  if (mutex == NULL) return TRAY_EXIT_FAILURE;
  if (GetLastError() == ERROR_ALREADY_EXISTS) {
    CloseHandle(mutex);
    return TRAY_EXIT_OK;
  }

  tray_ctx ctx;
  ZeroMemory(&ctx, sizeof ctx);
  ctx.instance = instance;
  ctx.exit_after_ms = opts.exit_after_ms;
  rc = tray_run(&ctx);

  CloseHandle(mutex);
  return rc;
}

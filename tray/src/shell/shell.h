/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* shell.h - the tray's shell: the context every part gets (tray_shell) and what the shell does for
   them: text, the one log writer, settings, the icon and its balloons, running code on the UI
   thread, the request worker and the link to the service with its catalog. Parts (parts/) build
   on it; app.c owns the window and routes its messages to the shell and the parts. */
#ifndef THREADSOUP_TRAY_SHELL_H
#define THREADSOUP_TRAY_SHELL_H

/* Windows 7 is the oldest target: it has NOTIFYICON_VERSION_4 and ChangeWindowMessageFilterEx.
   ts_shared's flags name Windows 10 for its own files; the tray keeps to what Windows 7 has. */
#undef _WIN32_WINNT
#define _WIN32_WINNT 0x0601
#ifndef NTDDI_VERSION
#define NTDDI_VERSION 0x06010000
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif

#include <windows.h>

#include <shellapi.h>
#include <stdio.h>

#include "threadsoup/call.h"
#include "threadsoup/plat.h"
#include "threadsoup/proto.h"

/* The tray's private window messages, all of them: the shell's icon events, and the one generic
   "run this on the UI thread" post (tray_ui_post) every other thread uses. A dialog's worker
   posts TRAY_WM_DIALOG_REPLY to its own dialog. */
enum {
  TRAY_WM_NOTIFY = WM_APP + 1, /* the shell's icon events (uCallbackMessage) */
  TRAY_WM_RUN = WM_APP + 2,    /* lParam: a tray_ui_job the window runs and frees */
  /* To a dialog from its worker: the request's answer is in (lParam: what the part posts). */
  TRAY_WM_DIALOG_REPLY = WM_APP + 3,
};

/* The program's name in titles and the tooltip. */
#define TRAY_TITLE L"ThreadSoup"
#define TRAY_LINE_MAX 128 /* the status line; also the tooltip's size (szTip) */
/* Threads that block in pipe calls keep their buffers on the heap: 256 KiB is plenty. */
#define TRAY_THREAD_STACK (256 * 1024)
/* Menu clicks waiting for the request thread; more means the service is stuck. */
#define TRAY_MAX_JOBS 8

/* What the icon shows; the order of the IDI_STATE_* icons (resource.h). */
typedef enum tray_kind {
  TRAY_KIND_IDLE,
  TRAY_KIND_LOAD,
  TRAY_KIND_RUN,
  TRAY_KIND_QUIET,
  TRAY_KIND_UNREACHABLE,
  TRAY_KIND_COUNT
} tray_kind;

/* What the window knows of the service: a snapshot the connection thread sends whole. */
typedef struct tray_state {
  BOOL connected;    /* subscribed, and the first status has arrived */
  BOOL attempt_done; /* the answer to a connection attempt (a menu may be waiting for it) */
  BOOL load;         /* a client's load runs */
  BOOL run;          /* an experiment runs */
  BOOL quiet;        /* quiet mode is on */
  tray_kind kind;    /* the icon */
  wchar_t line[TRAY_LINE_MAX];
  wchar_t quiet_line[TRAY_LINE_MAX]; /* "Defender off, updates paused until 14:30", or "" */
} tray_state;

/* What the service offers (its `catalog` reply), read at each connection: the menus and dialogs
   offer these instead of lists of their own. */
#define TRAY_CATALOG_MAX 32
#define TRAY_CATALOG_NAME 32
typedef struct tray_catalog {
  int presets, scenarios, benches;
  char preset[TRAY_CATALOG_MAX][TRAY_CATALOG_NAME];
  char preset_default[TRAY_CATALOG_NAME];
  char scenario[TRAY_CATALOG_MAX][TRAY_CATALOG_NAME];
  char bench[TRAY_CATALOG_MAX][TRAY_CATALOG_NAME];
  BOOL bench_unavailable[TRAY_CATALOG_MAX];
} tray_catalog;

/* A connection another thread may have to wake (quitting, a dialog closing): published under the
   shell's lock while open. */
typedef struct tray_slot {
  plat_ipc_conn *conn;
  BOOL cancelled;
} tray_slot;

/* One request for the request thread: a verb with at most two fields. */
typedef struct tray_job {
  char verb[PROTO_MAX_NAME];
  char key[PROTO_MAX_NAME]; /* "" for none */
  char value[64];
  char key2[PROTO_MAX_NAME]; /* "" for none */
  char value2[64];
  wchar_t what[48]; /* names the request in an error balloon; "" to fail silently */
} tray_job;

struct tray_part;

/* What a balloon tells, which decides what happens when the user would not see it. */
typedef enum tray_balloon_kind {
  TRAY_BALLOON_INFO,  /* news (a run finished): a balloon, or nothing */
  TRAY_BALLOON_ERROR, /* news gone wrong (a run failed): a balloon, or a box without an icon */
  /* The answer to the user's own click (a refusal, a failure): it must be seen, so a window
     shows it where a balloon would not be seen (notifications off, Focus assist, presentation,
     full screen). */
  TRAY_BALLOON_REFUSAL,
} tray_balloon_kind;

/* SHQueryUserNotificationState's signature: the boundary the tests replace
   (THREADSOUP_TRAY_NOTIFICATION_STATE, notice.c). */
typedef HRESULT(WINAPI *tray_notification_state_fn)(QUERY_USER_NOTIFICATION_STATE *state);

/* The menus of the popup menu on the screen now whose items' places are logged (--log only):
   the main menu and each submenu opened, at most this many. */
#define TRAY_MENUS_LOGGED 8

/* Everything the program shares. It lives on wWinMain's stack; the window finds it through
   GWLP_USERDATA, the threads and parts through their argument: no global mutable state. */
typedef struct tray_shell {
  HINSTANCE instance;
  HWND window; /* set before the threads start, cleared after they are joined */
  DWORD exit_after_ms;
  char pipe[PLAT_PATH_MAX]; /* UTF-8, as plat_ipc_connect takes it */
  FILE *log;                /* --log; NULL for none. Written under log_lock from any thread */
  plat_mutex log_lock;

  /* The icon (icon.c), window thread only. */
  HICON icon;                         /* owned; destroyed after the window */
  HICON state_icons[TRAY_KIND_COUNT]; /* owned; loaded with icon, at the same size */
  UINT icon_dpi;                      /* the DPI the icon was loaded for... */
  int icon_px;                        /* ...and its width there */
  UINT taskbar_created_msg; /* registered "TaskbarCreated", broadcast when Explorer (re)starts */
  BOOL icon_shown;          /* the shell currently holds our icon */
  BOOL icon_version4;       /* NIM_SETVERSION succeeded: events come in the version-4 layout */
  const struct tray_part *balloon_owner; /* the part whose balloon shows; gets its click */
  /* Whether the user sees notifications now: SHQueryUserNotificationState, or a test's answer. */
  tray_notification_state_fn notification_state;
  /* The popup menu's menus shown (WM_INITMENUPOPUP), and whether each one's places are logged. */
  HMENU menus_shown[TRAY_MENUS_LOGGED];
  BOOL menus_logged[TRAY_MENUS_LOGGED];
  int menus_shown_count;
  wchar_t notice_title[64]; /* the refusal's window open now, which the log says where it is */
  HWND logged_box;          /* the last modal box whose button's place is logged */
  wchar_t logged_tip[TRAY_LINE_MAX]; /* the tooltip last written to the log */
  tray_kind logged_kind;

  /* Window thread only. */
  void (*state_changed)(struct tray_shell *shell); /* app.c's, after each new state is shown */
  /* app.c's: each event of the subscription, on the connection thread, after the shell took
     what it shows from it (the parts' event hooks). */
  void (*event)(struct tray_shell *shell, const proto_message *m);
  tray_state shown;     /* the last snapshot: builds the menu and the tooltip */
  tray_catalog catalog; /* the service's, from the last connection */
  BOOL menu_pending;    /* a right click waits for a connection attempt before the menu opens */
  POINT menu_at;
  BOOL link_started, worker_started;
  plat_thread link_thread, worker_thread;

  /* Shared with the threads, under lock; `changed` wakes them. */
  plat_mutex lock;
  plat_cond changed;
  BOOL quitting;
  BOOL retry;         /* the window asks the connection thread to try again */
  tray_slot events;   /* the subscription */
  tray_slot requests; /* the request thread's call in flight */
  tray_job jobs[TRAY_MAX_JOBS];
  int job_head, job_count;
} tray_shell;

/* ---- text.c ---- */

/* UTF-8 from the service to a wide string, cut to fit `count` characters, through the printable
   filter (threadsoup/utf8.h: control and bidi characters and stray bytes shown escaped, line
   breaks kept); every text from the service is shown through it. */
void tray_widen(const char *text, wchar_t *out, size_t count);
/* A wide string to UTF-8, cut to fit `size` bytes ("" when it cannot be converted). */
void tray_narrow(const wchar_t *text, char *out, size_t size);
/* A whole number with thousands separators: 15000 -> "15,000". */
void tray_thousands(long long n, wchar_t *out, size_t count);
/* A clock time in the user's local time: "14:30" today, "Fri 14:30" on another day. */
void tray_clock(long long unix_s, wchar_t *out, size_t count);

/* ---- log.c: the one log writer ---- */

/* One line into the --log file (UTF-8), flushed at once so that a test reads what is shown now;
   a line break in it is written as '/', so that one entry stays one line. Any thread. */
void tray_log(tray_shell *shell, const wchar_t *format, ...);
/* Logs where a dialog's control is (its centre, in screen pixels), so that tests can click it:
   "dialog NAME control LABEL at X,Y". */
void tray_log_control(tray_shell *shell, HWND dialog, const wchar_t *name, int id,
                      const wchar_t *label);
/* Logs where each item of a menu on the screen is (its centre, in screen pixels, labelled
   without its access key's '&'), so that tests can click it at any DPI and whatever the items
   above it: "menu item LABEL at X,Y". FALSE when the menu is not on the screen yet. */
BOOL tray_log_menu(tray_shell *shell, HMENU menu);

/* ---- settings.c: the per-user settings (HKCU) ---- */

/* "Quiet mode during experiments": the word stored for the parts the user chose (the plan's:
   off, updates, defender, on), "off" when none is; the menu's table says what a word means. */
void tray_setting_quiet_runs(char *word, size_t size);
BOOL tray_setting_set_quiet_runs(const char *word);

/* ---- ui.c: running code on the UI thread ---- */

typedef void (*tray_ui_fn)(tray_shell *shell, void *data);
/* Runs fn(shell, data) on the window's thread; `data` is malloc'd and freed after fn (also when
   the post fails). From any thread while the window exists (threads are joined before it goes). */
void tray_ui_post(tray_shell *shell, tray_ui_fn fn, void *data);
/* The window's side: runs and frees a posted job (TRAY_WM_RUN's lParam). */
void tray_ui_run(tray_shell *shell, LPARAM lp);
/* A balloon from any thread; `owner` (NULL for none) gets a click on it (tray_part.balloon). */
void tray_post_balloon(tray_shell *shell, const struct tray_part *owner, tray_balloon_kind kind,
                       const wchar_t *title, const char *text);

/* ---- dpi.c: sizes at a window's DPI ---- */

/* The DPI `window` runs at (NULL: the system's). */
UINT tray_dpi(HWND window);
/* A size in pixels at 96 dpi (100 %) scaled to `window`'s DPI: 40 px are 60 at 144 dpi. */
int tray_scaled(HWND window, int px_at_96_dpi);

/* ---- icon.c: the notification icon ---- */

BOOL tray_icon_load(tray_shell *shell); /* at the window's DPI; again when it changes */
BOOL tray_icon_show(tray_shell *shell); /* FALSE until a taskbar exists (TaskbarCreated) */
void tray_icon_hide(tray_shell *shell);
void tray_icon_update(tray_shell *shell); /* the shown state's picture and tooltip */
void tray_icon_free(tray_shell *shell);
/* The icon's event in a TRAY_WM_NOTIFY's lParam (WM_CONTEXTMENU, NIN_BALLOONUSERCLICK, ...), in
   whichever layout the shell agreed to. */
UINT tray_icon_event(const tray_shell *shell, LPARAM lp);
/* A balloon now (window thread); without an icon an error still reaches the user in a box, and
   a refusal does in a window whenever a balloon would not be seen (notice.c). */
void tray_icon_balloon(tray_shell *shell, const struct tray_part *owner, tray_balloon_kind kind,
                       const wchar_t *title, const wchar_t *text);

/* ---- notice.c: whether the user would see a balloon ---- */

/* The real SHQueryUserNotificationState, unless THREADSOUP_TRAY_NOTIFICATION_STATE names a state
   for the tests (e.g. "quiet-time"); FALSE, after writing what is accepted into `why`, when it
   names none. */
BOOL tray_notice_configure(tray_shell *shell, wchar_t *why, size_t count);
/* TRUE when a balloon shown now would be seen; otherwise FALSE with the reason's name
   ("quiet-time", "notifications-off", ...). */
BOOL tray_notice_seen(tray_shell *shell, const wchar_t **why);
/* The window that shows a refusal a balloon would not have shown; returns when it is closed. */
void tray_notice_window(tray_shell *shell, const wchar_t *title, const wchar_t *text,
                        const wchar_t *why);

/* ---- worker.c: the request thread ---- */

/* Queues a request for the request thread; an error balloon titled `what` says when the queue is
   full ("" fails silently). key/value and key2/value2 may be NULL. Any thread. */
void tray_request(tray_shell *shell, const char *verb, const char *key, const char *value,
                  const char *key2, const char *value2, const wchar_t *what);
BOOL tray_worker_start(tray_shell *shell);

/* ---- link.c: the service ---- */

/* Connects `l` and publishes it in `slot`; refused when the tray closes or the slot was
   cancelled. */
int tray_link_open(tray_shell *shell, call_link *l, tray_slot *slot, ts_err *err);
/* Unpublishes first: a cancel only ever shuts down a connection that is still open. */
void tray_link_close(tray_shell *shell, call_link *l, tray_slot *slot);
/* One request on a connection of its own, published in `slot` (NULL: the caller's own slot-less
   call) while it runs; TS_OK with the reply, which may be a refusal (PROTO_ERROR). */
int tray_call(tray_shell *shell, tray_slot *slot, const proto_message *request,
              proto_message *reply, ts_err *err);
/* Wakes a call published in `slot` and keeps any later one from starting. */
void tray_slot_cancel(tray_shell *shell, tray_slot *slot);
/* The connection thread asks the service again (a right click, a started service). */
void tray_link_retry(tray_shell *shell);
BOOL tray_link_start(tray_shell *shell);
/* Wakes every thread wherever it blocks and joins the connection and request threads. Called
   before the window goes, so that nothing posts to a window that no longer exists. */
void tray_threads_stop(tray_shell *shell);

#endif

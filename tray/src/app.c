/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* tray.c - threadsoup-tray.exe, the notification-area controller of ThreadSoup: it follows the
   service's events and starts or stops its load and experiments from the icon's menu. */

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
#include <objbase.h>
#include <shellapi.h>
#include <windowsx.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "dialogs.h"
#include "menu_items.h"
#include "resource.h"
#include "threadsoup/plat.h"
#include "threadsoup/proto.h"
#include "results.h"
#include "schedules.h"

/* Process exit codes; tests rely on them. */
enum {
  TRAY_EXIT_OK = 0,
  TRAY_EXIT_FAILURE = 1,
  TRAY_EXIT_USAGE = 2,
};

/* The shell reports icon events with this message; WM_APP keeps it clear of system messages. */
#define WM_TRAY_NOTIFY (WM_APP + 1)
/* From the connection thread: lParam is a malloc'ed tray_state the window frees. */
#define WM_TRAY_STATE (WM_APP + 2)
/* From either thread: lParam is a malloc'ed tray_balloon the window frees. */
#define WM_TRAY_BALLOON (WM_APP + 3)
/* From the connection thread: lParam is a malloc'ed tray_balloon whose text is a run's note; it is
   only written to the --log file (a run's notes are the report's, not a balloon's). */
#define WM_TRAY_NOTE (WM_APP + 4)

/* One icon per program; the shell identifies it by window plus this number. */
#define TRAY_ICON_UID 1

/* The only timer: armed by --exit-after. An idle tray must not wake up, so nothing polls. */
#define TRAY_TIMER_EXIT_AFTER 1

/* Both threads block in pipe calls and keep their buffers on the heap: 256 KiB is plenty. */
#define TRAY_THREAD_STACK (256 * 1024)
/* Menu clicks waiting for the request thread; more means the service is stuck. */
#define TRAY_MAX_JOBS 8
#define TRAY_LINE_MAX 128 /* the status line; also the tooltip's size (szTip) */
/* Quiet mode asked for from the menu lasts as long as the service's own default (quiet on). */
#define TRAY_QUIET_HOURS "4"

static const wchar_t TRAY_WINDOW_CLASS[] = L"ThreadSoupTrayWindow";
static const wchar_t TRAY_TITLE[] = L"ThreadSoup";
/* Local\ gives one tray per logon session, which is what fast user switching needs. */
static const wchar_t TRAY_MUTEX_NAME[] = L"Local\\ThreadSoupTray";
static const wchar_t TRAY_NOT_RUNNING[] =
    L"ThreadSoup service not running \u2014 start it with threadsoup service start";

static const wchar_t TRAY_USAGE[] =
    L"usage: threadsoup-tray [--pipe NAME] [--exit-after MS] [--log FILE] [--help]\n"
    L"  --pipe NAME      the service's pipe (default \\\\.\\pipe\\threadsoup)\n"
    L"  --exit-after MS  close by itself after MS milliseconds (for tests)\n"
    L"  --log FILE       append each state, tooltip, menu and balloon shown to FILE\n"
    L"  --help           show this text\n";

/* The per-user settings of the tray (HKCU). */
static const wchar_t TRAY_SETTINGS_KEY[] = L"Software\\ThreadSoup\\Tray";
static const wchar_t TRAY_QUIET_RUNS_VALUE[] = L"QuietDuringExperiments";

/* What the icon shows; the order of the IDI_STATE_* icons (resource.h). */
typedef enum tray_kind {
  TRAY_KIND_IDLE,
  TRAY_KIND_LOAD,
  TRAY_KIND_RUN,
  TRAY_KIND_QUIET,
  TRAY_KIND_UNREACHABLE,
  TRAY_KIND_COUNT
} tray_kind;

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

typedef struct tray_options {
  DWORD exit_after_ms; /* 0: run until the user picks Exit */
  BOOL help;
  const wchar_t *pipe; /* NULL: plat_ipc_default_address() */
  const wchar_t *log;  /* NULL: no log */
} tray_options;

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

typedef struct tray_balloon {
  BOOL error;
  wchar_t title[64]; /* szInfoTitle's size */
  wchar_t text[256]; /* szInfo's size */
} tray_balloon;

/* One request for the request thread: a verb with at most two fields. */
typedef struct tray_job {
  char verb[PROTO_MAX_NAME];
  char key[PROTO_MAX_NAME]; /* "" for none */
  char value[64];
  char key2[PROTO_MAX_NAME]; /* "" for none */
  char value2[64];
  wchar_t what[48]; /* names the request in an error balloon; "" to fail silently */
} tray_job;

/* One connection and its buffers (about 400 KiB, so on the heap, never on a thread's stack). */
typedef struct tray_link {
  plat_ipc_conn *conn;
  size_t used; /* bytes of `in` received but not yet decoded */
  char in[PROTO_MAX_MESSAGE * 2];
  char wire[PROTO_MAX_MESSAGE * 2];
  proto_message hello;
  proto_message request;
  proto_message msg; /* the message read last */
} tray_link;

/* The service as the connection thread has learnt it from the status reply and the events. */
typedef struct tray_model {
  BOOL have_status;
  char load[128]; /* "" for none */
  long load_threads, load_processes;
  double load_wakeups;
  long long run; /* 0 for none */
  int done, total;
  long eta_s; /* -1: not known yet */
  BOOL quiet;
  long long quiet_until;              /* Unix s; 0 for none */
  BOOL quiet_defender, quiet_updates; /* the parts quiet mode changed */
} tray_model;

/* Everything the program shares. It lives on wWinMain's stack; the window finds it through
   GWLP_USERDATA and the threads through their argument, so there is no global mutable state. */
typedef struct tray_ctx {
  HINSTANCE instance;
  HWND window; /* set before the threads start, cleared after they are joined */
  HICON icon;  /* owned; destroyed after the window */
  HICON state_icons[TRAY_KIND_COUNT]; /* owned; loaded with icon, at the same size */
  UINT icon_dpi;                      /* the DPI the icon was loaded for... */
  int icon_px;                        /* ...and its width there */
  UINT taskbar_created_msg; /* registered "TaskbarCreated", broadcast when Explorer (re)starts */
  BOOL icon_shown;          /* the shell currently holds our icon */
  BOOL icon_version4;       /* NIM_SETVERSION succeeded: events come in the version-4 layout */
  DWORD exit_after_ms;
  char pipe[PLAT_PATH_MAX]; /* UTF-8, as plat_ipc_connect takes it */
  FILE *log;                /* --log, window thread only; NULL for none */

  /* Window thread only. */
  tray_state shown;                  /* the last snapshot: builds the menu and the tooltip */
  wchar_t logged_tip[TRAY_LINE_MAX]; /* the tooltip last written to the log */
  tray_kind logged_kind;
  BOOL menu_pending; /* a right click waits for a connection attempt before the menu opens */
  POINT menu_at;
  BOOL link_started, worker_started;
  plat_thread link_thread, worker_thread;

  /* Shared with the threads, under lock; `changed` wakes both. */
  plat_mutex lock;
  plat_cond changed;
  BOOL quitting;
  BOOL retry;                  /* the window asks the connection thread to try again */
  plat_ipc_conn *event_conn;   /* the subscription, so quitting can wake its read */
  plat_ipc_conn *request_conn; /* the request in flight, likewise */
  tray_job jobs[TRAY_MAX_JOBS];
  int job_head, job_count;
} tray_ctx;

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

/* ---------------------------------------------------------------- text */

/* UTF-8 from the service to a wide string, cut to fit `count` characters. */
static void tray_widen(const char *text, wchar_t *out, size_t count) {
  wchar_t wide[1100];
  if (MultiByteToWideChar(CP_UTF8, 0, text, -1, wide, ARRAYSIZE(wide)) == 0) {
    lstrcpynW(out, L"?", (int)count);
    return;
  }
  lstrcpynW(out, wide, (int)count);
}

/* ---------------------------------------------------------------- talking to the window */

/* Hands a malloc'ed payload to the window, which frees it. The window outlives both threads
   (they are joined before it is destroyed), so ctx->window is valid here. */
static void tray_post(tray_ctx *ctx, UINT msg, void *payload) {
  if (payload == NULL)
    return;
  if (!PostMessageW(ctx->window, msg, 0, (LPARAM)payload))
    free(payload);
}

static void tray_post_text(tray_ctx *ctx, UINT msg, BOOL error, const wchar_t *title,
                           const char *text) {
  tray_balloon *b = calloc(1, sizeof *b);
  if (b == NULL)
    return;
  b->error = error;
  lstrcpynW(b->title, title, ARRAYSIZE(b->title));
  tray_widen(text, b->text, ARRAYSIZE(b->text));
  tray_post(ctx, msg, b);
}

void tray_post_balloon(tray_ctx *ctx, BOOL error, const wchar_t *title, const char *text) {
  tray_post_text(ctx, WM_TRAY_BALLOON, error, title, text);
}

/* A whole number with thousands separators: 15000 -> "15,000". */
static void tray_thousands(long long n, wchar_t *out, size_t count) {
  wchar_t digits[32];
  swprintf(digits, ARRAYSIZE(digits), L"%lld", n < 0 ? -n : n);
  size_t len = wcslen(digits), o = 0;
  if (n < 0 && o + 1 < count)
    out[o++] = L'-';
  for (size_t i = 0; i < len && o + 1 < count; i++) {
    if (i > 0 && (len - i) % 3 == 0 && o + 1 < count)
      out[o++] = L',';
    if (o + 1 < count)
      out[o++] = digits[i];
  }
  out[o] = L'\0';
}

/* The C runtime's localtime keeps its result per thread on Windows; copied all the same. */
static BOOL tray_localtime(time_t t, struct tm *out) {
  const struct tm *p = localtime(&t);
  if (p != NULL)
    *out = *p;
  return p != NULL;
}

/* A clock time in the user's local time: "14:30" today, "Fri 14:30" on another day. */
static void tray_clock(long long unix_s, wchar_t *out, size_t count) {
  struct tm at, today;
  if (!tray_localtime((time_t)unix_s, &at) || !tray_localtime(time(NULL), &today)) {
    lstrcpynW(out, L"?", (int)count);
    return;
  }
  static const wchar_t *const DAYS[] = {L"Sun", L"Mon", L"Tue", L"Wed", L"Thu", L"Fri", L"Sat"};
  if (at.tm_yday == today.tm_yday && at.tm_year == today.tm_year)
    swprintf(out, count, L"%02d:%02d", at.tm_hour, at.tm_min);
  else
    swprintf(out, count, L"%ls %02d:%02d", DAYS[at.tm_wday % 7], at.tm_hour, at.tm_min);
}

/* "15,000 sleepers at 0.5 s, 30,000 wake-ups/s"; other loads by their threads and processes. */
static void tray_load_line(const tray_model *m, wchar_t *out, size_t count) {
  wchar_t threads[32], procs[32], wakeups[32];
  tray_thousands(m->load_threads, threads, ARRAYSIZE(threads));
  tray_thousands(m->load_processes, procs, ARRAYSIZE(procs));
  tray_thousands((long long)(m->load_wakeups + 0.5), wakeups, ARRAYSIZE(wakeups));
  /* One sleep part: its interval is the threads per wake-up per second. */
  BOOL sleepers = strncmp(m->load, "sleep:", 6) == 0 && strchr(m->load, '+') == NULL &&
                  m->load_threads > 0 && m->load_wakeups > 0;
  if (sleepers) {
    swprintf(out, count, L"%ls sleepers at %g s, %ls wake-ups/s", threads,
             (double)m->load_threads / m->load_wakeups, wakeups);
  } else if (m->load_threads > 0 || m->load_processes > 0) {
    int n = 0;
    if (m->load_threads > 0)
      n = swprintf(out, count, L"%ls threads", threads);
    if (m->load_processes > 0 && n >= 0)
      n += swprintf(out + n, count - (size_t)n, L"%ls%ls processes", n ? L", " : L"", procs);
    if (m->load_wakeups >= 0.5 && n >= 0)
      swprintf(out + n, count - (size_t)n, L", %ls wake-ups/s", wakeups);
  } else {
    wchar_t load[100];
    tray_widen(m->load, load, ARRAYSIZE(load));
    swprintf(out, count, L"Load: %ls", load);
  }
}

/* "about 6 min left" from the service's estimate. */
static void tray_eta_text(long eta_s, wchar_t *out, size_t count) {
  if (eta_s < 60)
    lstrcpynW(out, L"less than a minute left", (int)count);
  else if (eta_s < 90 * 60)
    swprintf(out, count, L"about %ld min left", (eta_s + 30) / 60);
  else
    swprintf(out, count, L"about %ld h %ld min left", eta_s / 3600, (eta_s % 3600 + 30) / 60);
}

/* "Defender off, updates paused until 14:30": what quiet mode changed and when it ends. */
static void tray_quiet_line(const tray_model *m, wchar_t *out, size_t count) {
  wchar_t until[32] = L"";
  if (m->quiet_until > 0) {
    wchar_t clock[24];
    tray_clock(m->quiet_until, clock, ARRAYSIZE(clock));
    swprintf(until, ARRAYSIZE(until), L" until %ls", clock);
  }
  if (m->quiet_defender && m->quiet_updates)
    swprintf(out, count, L"Defender off, updates paused%ls", until);
  else if (m->quiet_defender)
    swprintf(out, count, L"Defender off%ls", until);
  else if (m->quiet_updates)
    swprintf(out, count, L"Updates paused%ls", until);
  else
    swprintf(out, count, L"Quiet mode%ls", until);
}

/* Sends the window a snapshot of the model, or of a failed connection when `failure` is set. */
static void tray_post_state(tray_ctx *ctx, const tray_model *model, const ts_err *failure) {
  tray_state *s = calloc(1, sizeof *s);
  if (s == NULL)
    return;
  s->attempt_done = TRUE;
  s->kind = TRAY_KIND_UNREACHABLE;
  if (failure == NULL && model->quiet) {
    s->quiet = TRUE;
    tray_quiet_line(model, s->quiet_line, ARRAYSIZE(s->quiet_line));
  }
  if (failure != NULL) {
    /* "Not running" is the common case and deserves the exact words; other failures (a busy or
       refusing pipe) are told as the platform layer words them. */
    if (failure->code == TS_EUNSUPPORTED)
      lstrcpynW(s->line, TRAY_NOT_RUNNING, ARRAYSIZE(s->line));
    else
      tray_widen(failure->text, s->line, ARRAYSIZE(s->line));
  } else if (model->run != 0) {
    s->connected = s->run = TRUE;
    s->kind = TRAY_KIND_RUN;
    wchar_t eta[48];
    tray_eta_text(model->eta_s, eta, ARRAYSIZE(eta));
    if (model->done == 0)
      swprintf(s->line, ARRAYSIZE(s->line), L"Run %lld: starting, %d trials", model->run,
               model->total);
    else if (model->eta_s >= 0)
      swprintf(s->line, ARRAYSIZE(s->line), L"Run %lld: trial %d of %d, %ls", model->run,
               model->done, model->total, eta);
    else
      swprintf(s->line, ARRAYSIZE(s->line), L"Run %lld: trial %d of %d", model->run, model->done,
               model->total);
  } else if (model->load[0] != '\0') {
    s->connected = s->load = TRUE;
    s->kind = TRAY_KIND_LOAD;
    tray_load_line(model, s->line, ARRAYSIZE(s->line));
  } else if (model->quiet) {
    s->connected = TRUE;
    s->kind = TRAY_KIND_QUIET;
    lstrcpynW(s->line, L"Idle", ARRAYSIZE(s->line));
  } else {
    s->connected = TRUE;
    s->kind = TRAY_KIND_IDLE;
    lstrcpynW(s->line, L"Idle", ARRAYSIZE(s->line));
  }
  tray_post(ctx, WM_TRAY_STATE, s);
}

/* ---------------------------------------------------------------- connections */

/* Connects and publishes the connection in *slot, so that quitting can wake a blocked read. */
static int tray_link_open(tray_ctx *ctx, tray_link *link, plat_ipc_conn **slot, ts_err *err) {
  link->used = 0;
  link->conn = NULL;
  int rc = plat_ipc_connect(&link->conn, ctx->pipe, err);
  if (rc != TS_OK)
    return rc;
  plat_mutex_lock(&ctx->lock);
  BOOL quitting = ctx->quitting;
  if (!quitting)
    *slot = link->conn;
  plat_mutex_unlock(&ctx->lock);
  if (quitting) {
    plat_ipc_close(link->conn);
    link->conn = NULL;
    return ts_err_set(err, TS_EINTERRUPTED, "the tray is closing");
  }
  return TS_OK;
}

/* Unpublishes first: quitting only ever shuts down a connection that is still open. */
static void tray_link_close(tray_ctx *ctx, tray_link *link, plat_ipc_conn **slot) {
  if (link->conn == NULL)
    return;
  plat_mutex_lock(&ctx->lock);
  *slot = NULL;
  plat_mutex_unlock(&ctx->lock);
  plat_ipc_close(link->conn);
  link->conn = NULL;
}

/* Sends hello and then link->request in one write: the service answers both in order. */
static int tray_link_send(tray_link *link, ts_err *err) {
  size_t n = 0, m = 0;
  proto_init(&link->hello, PROTO_REQUEST, "hello");
  int rc = proto_addf(&link->hello, err, "version", "%d", PROTO_VERSION);
  if (rc == TS_OK)
    rc = proto_encode(&link->hello, link->wire, sizeof link->wire, &n, err);
  if (rc == TS_OK)
    rc = proto_encode(&link->request, link->wire + n, sizeof link->wire - n, &m, err);
  if (rc == TS_OK)
    rc = plat_ipc_send(link->conn, link->wire, n + m, err);
  return rc;
}

/* Reads one whole message into link->msg, keeping what follows it for the next call. */
static int tray_link_read(tray_link *link, ts_err *err) {
  for (;;) {
    size_t consumed = 0;
    if (proto_decode(link->in, link->used, &consumed, &link->msg, err) != TS_OK)
      return ts_err_prefix(err, "the service sent something unreadable");
    if (consumed != 0) {
      memmove(link->in, link->in + consumed, link->used - consumed);
      link->used -= consumed;
      return TS_OK;
    }
    size_t got = 0;
    int rc =
        plat_ipc_recv(link->conn, link->in + link->used, sizeof link->in - link->used, &got, err);
    if (rc != TS_OK)
      return rc;
    if (got == 0)
      return ts_err_set(err, TS_EUNSUPPORTED, "the service closed the connection");
    link->used += got;
  }
}

/* Queues a request for the request thread; FALSE when the queue is full or the tray closes.
   key2/value2 may be NULL (most requests have at most one field). */
static BOOL tray_enqueue2(tray_ctx *ctx, const char *verb, const char *key, const char *value,
                          const char *key2, const char *value2, const wchar_t *what) {
  plat_mutex_lock(&ctx->lock);
  BOOL queued = !ctx->quitting && ctx->job_count < TRAY_MAX_JOBS;
  if (queued) {
    tray_job *job = &ctx->jobs[(ctx->job_head + ctx->job_count) % TRAY_MAX_JOBS];
    ZeroMemory(job, sizeof *job);
    snprintf(job->verb, sizeof job->verb, "%s", verb);
    snprintf(job->key, sizeof job->key, "%s", key ? key : "");
    snprintf(job->value, sizeof job->value, "%s", value ? value : "");
    snprintf(job->key2, sizeof job->key2, "%s", key2 ? key2 : "");
    snprintf(job->value2, sizeof job->value2, "%s", value2 ? value2 : "");
    lstrcpynW(job->what, what, ARRAYSIZE(job->what));
    ctx->job_count++;
    plat_cond_broadcast(&ctx->changed);
  }
  plat_mutex_unlock(&ctx->lock);
  return queued;
}

static BOOL tray_enqueue(tray_ctx *ctx, const char *verb, const char *key, const char *value,
                         const wchar_t *what) {
  return tray_enqueue2(ctx, verb, key, value, NULL, NULL, what);
}

/* ---------------------------------------------------------------- the connection thread */

/* Answers the service's idle-query: only the user's session knows when its user last typed or
   moved the mouse. Nothing is sent unless asked, so an idle tray stays asleep. */
static void tray_answer_idle_query(tray_ctx *ctx) {
  LASTINPUTINFO info;
  info.cbSize = sizeof info;
  if (!GetLastInputInfo(&info))
    return; /* the service then records "unknown" */
  char seconds[16];
  /* Unsigned subtraction stays right across GetTickCount's wrap after 49.7 days. */
  snprintf(seconds, sizeof seconds, "%lu", (unsigned long)((GetTickCount() - info.dwTime) / 1000));
  tray_enqueue(ctx, "user-idle", "seconds", seconds, L"");
}

/* Folds one message of the subscription into the model; FALSE when nothing changed. */
static BOOL tray_model_apply(tray_ctx *ctx, tray_model *model, const proto_message *m) {
  const char *value;
  if (m->kind == PROTO_OK && strcmp(m->verb, "status") == 0) {
    value = proto_get(m, "load");
    snprintf(model->load, sizeof model->load, "%s",
             value && strcmp(value, "none") != 0 ? value : "");
    value = proto_get(m, "run");
    model->run = value && strcmp(value, "none") != 0 ? atoll(value) : 0;
    model->done = model->total = 0;
    value = proto_get(m, "run-progress");
    if (value)
      sscanf(value, "%d/%d", &model->done, &model->total);
    /* Fields of newer services; an older one leaves them out and the tray shows less. */
    value = proto_get(m, "run-eta");
    model->eta_s = value && strcmp(value, "unknown") != 0 ? atol(value) : -1;
    value = proto_get(m, "load-threads");
    model->load_threads = value ? atol(value) : 0;
    value = proto_get(m, "load-processes");
    model->load_processes = value ? atol(value) : 0;
    value = proto_get(m, "load-wakeups");
    model->load_wakeups = value ? atof(value) : 0;
    value = proto_get(m, "quiet");
    model->quiet = value && strcmp(value, "on") == 0;
    value = proto_get(m, "quiet-until");
    model->quiet_until = model->quiet && value ? atoll(value) : 0;
    value = proto_get(m, "quiet-defender");
    model->quiet_defender = model->quiet && value && strcmp(value, "off") == 0;
    value = proto_get(m, "quiet-updates");
    model->quiet_updates = model->quiet && value && strcmp(value, "paused") == 0;
    model->have_status = TRUE;
    return TRUE;
  }
  if (m->kind != PROTO_EVENT)
    return FALSE;
  if (strcmp(m->verb, "load-started") == 0 && (value = proto_get(m, "load")) != NULL) {
    snprintf(model->load, sizeof model->load, "%s", value);
  } else if (strcmp(m->verb, "load-stopped") == 0) {
    model->load[0] = '\0';
  } else if (strcmp(m->verb, "run-started") == 0 && (value = proto_get(m, "run")) != NULL) {
    /* "ID: K of N trials to run"; the progress that follows counts to K. */
    int pending = 0, all = 0;
    if (sscanf(value, "%lld: %d of %d", &model->run, &pending, &all) < 2)
      return FALSE;
    model->done = 0;
    model->total = pending;
  } else if (strcmp(m->verb, "trial-done") == 0 && (value = proto_get(m, "progress")) != NULL) {
    if (sscanf(value, "run %lld trial %d of %d", &model->run, &model->done, &model->total) != 3)
      return FALSE;
  } else if (strcmp(m->verb, "run-finished") == 0 && (value = proto_get(m, "run")) != NULL) {
    model->run = 0;
    char text[300];
    snprintf(text, sizeof text, "Run %s", value);
    tray_results_finished(m, text, sizeof text);
    /* The outcome field names how it ended ("finished", "interrupted", "failed"). */
    const char *outcome = proto_get(m, "outcome");
    tray_post_balloon(ctx, outcome && strcmp(outcome, "failed") == 0, L"ThreadSoup experiment",
                      text);
  } else if (strcmp(m->verb, "idle-query") == 0) {
    tray_answer_idle_query(ctx);
    return FALSE;
  } else if (strcmp(m->verb, "run-note") == 0 && (value = proto_get(m, "text")) != NULL) {
    /* Only with --log (a test reads whether a run asked for quiet mode); nothing is shown. */
    if (ctx->log != NULL)
      tray_post_text(ctx, WM_TRAY_NOTE, FALSE, L"", value);
    return FALSE;
  } else if (strcmp(m->verb, "quiet-changed") == 0) {
    /* Nothing to show until the status asked for next (tray_follow) says until when. */
  } else {
    return FALSE; /* events of later versions change nothing shown */
  }
  return TRUE;
}

/* Subscribes and follows the events until the connection ends; err says why it ended. */
static int tray_follow(tray_ctx *ctx, tray_link *link, ts_err *err) {
  tray_model model;
  ZeroMemory(&model, sizeof model);
  int rc = tray_link_open(ctx, link, &ctx->event_conn, err);
  if (rc != TS_OK)
    return rc;
  /* subscribe before status: an event sent in between is newer than nothing, and every later
     event is applied on top of the status. */
  proto_init(&link->request, PROTO_REQUEST, "subscribe");
  rc = tray_link_send(link, err);
  if (rc == TS_OK) {
    proto_init(&link->request, PROTO_REQUEST, "status");
    size_t n = 0;
    rc = proto_encode(&link->request, link->wire, sizeof link->wire, &n, err);
    if (rc == TS_OK)
      rc = plat_ipc_send(link->conn, link->wire, n, err);
  }
  while (rc == TS_OK) {
    rc = tray_link_read(link, err);
    if (rc != TS_OK)
      break;
    if (link->msg.kind == PROTO_ERROR) {
      const char *message = proto_get(&link->msg, "message");
      rc = ts_err_set(err, TS_EOS, "the service refused the tray (%s): %s", link->msg.verb,
                      message ? message : "no reason given");
      break;
    }
    if (tray_model_apply(ctx, &model, &link->msg) && model.have_status) {
      tray_post_state(ctx, &model, NULL);
      /* An event says what changed, a status says it in numbers (threads, wake-ups, time left,
         quiet mode's end): ask for one on this connection, whose replies come in order with the
         events. The status reply itself is not followed by another. */
      if (link->msg.kind == PROTO_EVENT) {
        size_t n = 0;
        rc = proto_encode(&link->request, link->wire, sizeof link->wire, &n, err);
        if (rc == TS_OK)
          rc = plat_ipc_send(link->conn, link->wire, n, err);
      }
    }
  }
  tray_link_close(ctx, link, &ctx->event_conn);
  return rc;
}

/* The connection thread: follows the service while it runs. When it is not running, the thread
   sleeps until the window asks again (the user opened the menu): no timer, no polling. */
static void tray_link_main(void *arg) {
  tray_ctx *ctx = arg;
  tray_link *link = malloc(sizeof *link);
  for (;;) {
    ts_err err;
    if (link == NULL)
      ts_err_set(&err, TS_ENOMEM, "the tray has no memory for a connection");
    else
      tray_follow(ctx, link, &err);
    plat_mutex_lock(&ctx->lock);
    if (!ctx->quitting) {
      plat_mutex_unlock(&ctx->lock);
      tray_post_state(ctx, NULL, &err);
      plat_mutex_lock(&ctx->lock);
    }
    while (!ctx->retry && !ctx->quitting)
      plat_cond_wait(&ctx->changed, &ctx->lock, UINT64_MAX);
    BOOL quitting = ctx->quitting;
    ctx->retry = FALSE;
    plat_mutex_unlock(&ctx->lock);
    if (quitting)
      break;
  }
  free(link);
}

/* ---------------------------------------------------------------- the request thread */

/* One short-lived connection: hello, the request, its reply. The subscription is left alone, so
   a slow request (starting 15,000 threads) never delays the events. */
static void tray_call(tray_ctx *ctx, tray_link *link, const tray_job *job) {
  ts_err err;
  int rc = tray_link_open(ctx, link, &ctx->request_conn, &err);
  if (rc == TS_OK) {
    proto_init(&link->request, PROTO_REQUEST, job->verb);
    if (job->key[0] != '\0')
      rc = proto_add(&link->request, job->key, job->value, &err);
    if (rc == TS_OK && job->key2[0] != '\0')
      rc = proto_add(&link->request, job->key2, job->value2, &err);
  }
  if (rc == TS_OK)
    rc = tray_link_send(link, &err);
  if (rc == TS_OK)
    rc = tray_link_read(link, &err); /* hello's reply */
  if (rc == TS_OK && link->msg.kind != PROTO_ERROR)
    rc = tray_link_read(link, &err);
  tray_link_close(ctx, link, &ctx->request_conn);
  if (rc == TS_EINTERRUPTED || job->what[0] == L'\0')
    return;

  char text[600];
  /* Quiet mode's refusals (Tamper Protection, policy, rights, nothing to change here) are the
     service's own sentences: shown as they are, without the protocol's error word. */
  BOOL quiet = strncmp(job->verb, "quiet-", 6) == 0;
  if (rc != TS_OK) {
    snprintf(text, sizeof text, "%s", err.text);
  } else if (link->msg.kind == PROTO_ERROR) {
    const char *message = proto_get(&link->msg, "message");
    if (quiet)
      snprintf(text, sizeof text, "%s", message ? message : "the service gave no reason");
    else
      snprintf(text, sizeof text, "%s: %s", link->msg.verb, message ? message : "no reason given");
  } else {
    /* Done: the events say what changed. If the subscription is down (the service started after
       the tray last looked), this is the moment to follow it again. */
    plat_mutex_lock(&ctx->lock);
    if (ctx->event_conn == NULL) {
      ctx->retry = TRUE;
      plat_cond_broadcast(&ctx->changed);
    }
    plat_mutex_unlock(&ctx->lock);
    return;
  }
  wchar_t title[64];
  if (quiet)
    swprintf(title, ARRAYSIZE(title), L"Quiet mode was not turned %ls",
             strcmp(job->verb, "quiet-on") == 0 ? L"on" : L"off");
  else
    swprintf(title, ARRAYSIZE(title), L"%ls failed", job->what);
  tray_post_balloon(ctx, TRUE, title, text);
}

/* The request thread: runs the menu's requests one after another, off the window's thread. */
static void tray_worker_main(void *arg) {
  tray_ctx *ctx = arg;
  tray_link *link = malloc(sizeof *link);
  for (;;) {
    tray_job job;
    plat_mutex_lock(&ctx->lock);
    while (ctx->job_count == 0 && !ctx->quitting)
      plat_cond_wait(&ctx->changed, &ctx->lock, UINT64_MAX);
    BOOL quitting = ctx->quitting;
    if (!quitting) {
      job = ctx->jobs[ctx->job_head];
      ctx->job_head = (ctx->job_head + 1) % TRAY_MAX_JOBS;
      ctx->job_count--;
    }
    plat_mutex_unlock(&ctx->lock);
    if (quitting)
      break;
    if (link != NULL)
      tray_call(ctx, link, &job);
    else if (job.what[0] != L'\0')
      tray_post_balloon(ctx, TRUE, job.what, "the tray has no memory for a request");
  }
  free(link);
}

static BOOL tray_threads_start(tray_ctx *ctx) {
  ts_err err;
  if (plat_thread_start(&ctx->link_thread, TRAY_THREAD_STACK, tray_link_main, ctx, &err) != TS_OK)
    return FALSE;
  ctx->link_started = TRUE;
  if (plat_thread_start(&ctx->worker_thread, TRAY_THREAD_STACK, tray_worker_main, ctx, &err) !=
      TS_OK)
    return FALSE;
  ctx->worker_started = TRUE;
  return TRUE;
}

/* Wakes both threads wherever they block (a condition or a pipe read) and joins them. Called
   before the window goes, so that nothing posts to a window that no longer exists. */
static void tray_threads_stop(tray_ctx *ctx) {
  plat_mutex_lock(&ctx->lock);
  ctx->quitting = TRUE;
  plat_ipc_shutdown(ctx->event_conn);
  plat_ipc_shutdown(ctx->request_conn);
  plat_cond_broadcast(&ctx->changed);
  plat_mutex_unlock(&ctx->lock);
  if (ctx->link_started)
    plat_thread_join(ctx->link_thread);
  if (ctx->worker_started)
    plat_thread_join(ctx->worker_thread);
  ctx->link_started = ctx->worker_started = FALSE;
}

/* ---------------------------------------------------------------- notification icon */

static void tray_icon_data(const tray_ctx *ctx, NOTIFYICONDATAW *nid) {
  ZeroMemory(nid, sizeof *nid);
  nid->cbSize = sizeof *nid;
  nid->hWnd = ctx->window;
  nid->uID = TRAY_ICON_UID;
}

/* The tooltip is the status line, named as ThreadSoup's unless it says so itself, and quiet
   mode's state on a second line while it is on. */
static void tray_tooltip(const tray_ctx *ctx, wchar_t *tip, size_t count) {
  int n;
  if (wcsncmp(ctx->shown.line, TRAY_TITLE, wcslen(TRAY_TITLE)) == 0)
    n = swprintf(tip, count, L"%ls", ctx->shown.line);
  else
    n = swprintf(tip, count, L"%ls: %ls", TRAY_TITLE, ctx->shown.line);
  if (n >= 0 && ctx->shown.quiet)
    swprintf(tip + n, count - (size_t)n, L"\nQuiet mode: %ls", ctx->shown.quiet_line);
  tip[count - 1] = L'\0';
}

/* One line in the --log file (UTF-8), flushed at once so a test reads what is shown now. */
void tray_log(tray_ctx *ctx, const wchar_t *format, ...) {
  if (ctx->log == NULL)
    return;
  wchar_t line[600];
  va_list ap;
  va_start(ap, format);
  vswprintf(line, ARRAYSIZE(line), format, ap);
  va_end(ap);
  line[ARRAYSIZE(line) - 1] = L'\0';
  /* The tooltip's line break is logged as '/', so that one entry stays one line. */
  for (wchar_t *c = line; *c; c++)
    if (*c == L'\n')
      *c = L'/';
  char utf8[1800];
  if (WideCharToMultiByte(CP_UTF8, 0, line, -1, utf8, (int)sizeof utf8, NULL, NULL) == 0)
    return;
  fprintf(ctx->log, "%s\n", utf8);
  fflush(ctx->log);
}

static BOOL tray_icon_show(tray_ctx *ctx);

/* The DPI the tray's window runs at (per monitor: the manifest declares per-monitor v2), and
   the notification icon's size for it. GetDpiForWindow and GetSystemMetricsForDpi came with
   Windows 10 1607: looked up, so that the tray still starts on Windows 7 and 8 (system DPI). */
static UINT tray_dpi(HWND window) {
  typedef UINT(WINAPI * dpi_for_window_fn)(HWND);
  HMODULE user32 = GetModuleHandleW(L"user32.dll");
  dpi_for_window_fn dpi_for_window =
      user32 ? (dpi_for_window_fn)(void (*)(void))GetProcAddress(user32, "GetDpiForWindow") : NULL;
  UINT dpi = dpi_for_window && window ? dpi_for_window(window) : 0;
  if (dpi == 0) {
    HDC screen = GetDC(NULL);
    dpi = screen ? (UINT)GetDeviceCaps(screen, LOGPIXELSY) : USER_DEFAULT_SCREEN_DPI;
    if (screen)
      ReleaseDC(NULL, screen);
  }
  return dpi ? dpi : USER_DEFAULT_SCREEN_DPI;
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
static HICON tray_icon_at(tray_ctx *ctx, int id, int cx, int cy) {
  /* Common controls 6 (the manifest's), looked up: MinGW's import library lacks the function. */
  typedef HRESULT(WINAPI * scale_down_fn)(HINSTANCE, PCWSTR, int, int, HICON *);
  HMODULE comctl32 = LoadLibraryW(L"comctl32.dll");
  scale_down_fn scale_down =
      comctl32 ? (scale_down_fn)(void (*)(void))GetProcAddress(comctl32, "LoadIconWithScaleDown")
               : NULL;
  HICON icon = NULL;
  if (!scale_down || FAILED(scale_down(ctx->instance, MAKEINTRESOURCEW(id), cx, cy, &icon)))
    icon = LoadImageW(ctx->instance, MAKEINTRESOURCEW(id), IMAGE_ICON, cx, cy, LR_DEFAULTCOLOR);
  return icon;
}

/* Loads the icons at the small-icon size of the tray's DPI (16 px at 100 %, 24 at 150 %, 32 at
   200 %). The old icons go once the new ones are in place. */
static BOOL tray_icon_load(tray_ctx *ctx) {
  UINT dpi = tray_dpi(ctx->window);
  int cx = tray_metric(SM_CXSMICON, dpi), cy = tray_metric(SM_CYSMICON, dpi);
  HICON icon = tray_icon_at(ctx, IDI_TRAY, cx, cy);
  if (icon == NULL)
    return ctx->icon != NULL;
  HICON states[TRAY_KIND_COUNT];
  for (int i = 0; i < TRAY_KIND_COUNT; i++) {
    states[i] = tray_icon_at(ctx, TRAY_KINDS[i].icon, cx, cy);
    if (states[i] == NULL)
      states[i] = CopyIcon(icon); /* never seen; the program icon still says whose it is */
  }
  HICON old = ctx->icon, old_states[TRAY_KIND_COUNT];
  ctx->icon = icon;
  for (int i = 0; i < TRAY_KIND_COUNT; i++) {
    old_states[i] = ctx->state_icons[i];
    ctx->state_icons[i] = states[i];
  }
  ctx->icon_dpi = dpi;
  ctx->icon_px = cx;
  wchar_t note[96];
  swprintf(note, ARRAYSIZE(note), L"threadsoup-tray: icon %d px for %u dpi\n", cx, dpi);
  OutputDebugStringW(note);
  tray_log(ctx, L"icon %d px for %u dpi", cx, dpi);
  if (old != NULL && ctx->icon_shown)
    tray_icon_show(ctx); /* MODIFY: the taskbar copies the icon, ours may go */
  if (old != NULL)
    DestroyIcon(old);
  for (int i = 0; i < TRAY_KIND_COUNT; i++)
    if (old_states[i] != NULL)
      DestroyIcon(old_states[i]);
  return TRUE;
}

/* The icon of the state shown. */
static HICON tray_state_icon(const tray_ctx *ctx) {
  HICON icon = ctx->state_icons[ctx->shown.kind];
  return icon ? icon : ctx->icon;
}

/* Puts the icon in the notification area. Failure is normal when no taskbar exists yet (the tray
   started before Explorer); TaskbarCreated calls this again, so the caller just carries on. */
static BOOL tray_icon_show(tray_ctx *ctx) {
  NOTIFYICONDATAW nid;
  tray_icon_data(ctx, &nid);
  nid.uFlags = NIF_MESSAGE | NIF_ICON | NIF_TIP | NIF_SHOWTIP;
  nid.uCallbackMessage = WM_TRAY_NOTIFY;
  nid.hIcon = tray_state_icon(ctx);
  tray_tooltip(ctx, nid.szTip, ARRAYSIZE(nid.szTip));
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
  if (!ctx->icon_shown)
    return;
  NOTIFYICONDATAW nid;
  tray_icon_data(ctx, &nid);
  Shell_NotifyIconW(NIM_DELETE, &nid);
  ctx->icon_shown = FALSE;
}

/* The state's picture and tooltip; each new one goes to the --log file as well. */
static void tray_icon_update(tray_ctx *ctx) {
  NOTIFYICONDATAW nid;
  tray_icon_data(ctx, &nid);
  nid.uFlags = NIF_ICON | NIF_TIP | NIF_SHOWTIP;
  nid.hIcon = tray_state_icon(ctx);
  tray_tooltip(ctx, nid.szTip, ARRAYSIZE(nid.szTip));
  if (ctx->icon_shown)
    Shell_NotifyIconW(NIM_MODIFY, &nid);
  if (ctx->logged_kind != ctx->shown.kind || wcscmp(ctx->logged_tip, nid.szTip) != 0) {
    ctx->logged_kind = ctx->shown.kind;
    lstrcpynW(ctx->logged_tip, nid.szTip, ARRAYSIZE(ctx->logged_tip));
    tray_log(ctx, L"state %ls | %ls", TRAY_KINDS[ctx->shown.kind].name, nid.szTip);
  }
}

/* A balloon from the icon; without an icon (no taskbar) an error still reaches the user. */
static void tray_icon_balloon(tray_ctx *ctx, const tray_balloon *b) {
  NOTIFYICONDATAW nid;
  tray_icon_data(ctx, &nid);
  nid.uFlags = NIF_INFO;
  lstrcpynW(nid.szInfoTitle, b->title, ARRAYSIZE(nid.szInfoTitle));
  lstrcpynW(nid.szInfo, b->text, ARRAYSIZE(nid.szInfo));
  nid.dwInfoFlags = b->error ? NIIF_ERROR : NIIF_INFO;
  tray_log(ctx, L"balloon %ls | %ls | %ls", b->error ? L"error" : L"info", b->title, b->text);
  if (ctx->icon_shown && Shell_NotifyIconW(NIM_MODIFY, &nid))
    return;
  if (b->error)
    MessageBoxW(ctx->window, b->text, b->title, MB_OK | MB_ICONERROR);
}

/* ---------------------------------------------------------------- settings */

/* "Quiet mode during experiments", per user (HKCU): off unless the user turned it on. */
static BOOL tray_quiet_runs_get(void) {
  DWORD value = 0, size = sizeof value;
  LSTATUS rc = RegGetValueW(HKEY_CURRENT_USER, TRAY_SETTINGS_KEY, TRAY_QUIET_RUNS_VALUE,
                            RRF_RT_REG_DWORD, NULL, &value, &size);
  return rc == ERROR_SUCCESS && value != 0;
}

static BOOL tray_quiet_runs_set(BOOL on) {
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

/* ---------------------------------------------------------------- popup menu */

static UINT tray_enabled(BOOL on) { return on ? MF_ENABLED : MF_GRAYED; }

/* Builds the menu afresh each time from the last known status. */
static void tray_menu_show(tray_ctx *ctx, int x, int y) {
  HMENU menu = CreatePopupMenu();
  HMENU loads = CreatePopupMenu();
  HMENU plans = CreatePopupMenu();
  if (menu == NULL || loads == NULL || plans == NULL) {
    if (menu)
      DestroyMenu(menu);
    if (loads)
      DestroyMenu(loads);
    if (plans)
      DestroyMenu(plans);
    return;
  }
  const tray_state *s = &ctx->shown;
  /* One thing at a time: the service refuses a load during a run and the other way round. */
  BOOL free_to_start = s->connected && !s->load && !s->run;
  for (size_t i = 0; i < TRAY_LOAD_COUNT; i++)
    AppendMenuW(loads, MF_STRING, IDM_LOAD_FIRST + i, TRAY_LOADS[i].label);
  AppendMenuW(loads, MF_SEPARATOR, 0, NULL);
  AppendMenuW(loads, MF_STRING, IDM_CUSTOM_LOAD, TRAY_CUSTOM_LOAD_LABEL);
  for (size_t i = 0; i < TRAY_PLAN_COUNT; i++)
    AppendMenuW(plans, MF_STRING, IDM_RUN_FIRST + i, TRAY_PLANS[i].label);

  AppendMenuW(menu, MF_STRING | MF_GRAYED, IDM_STATUS, s->line);
  AppendMenuW(menu, MF_SEPARATOR, 0, NULL);
  tray_results_menu(ctx, menu);
  AppendMenuW(menu, MF_POPUP | tray_enabled(free_to_start), (UINT_PTR)loads,
              TRAY_ITEM_LABELS[TRAY_ITEM_START_LOAD]);
  AppendMenuW(menu, MF_STRING | tray_enabled(s->load), IDM_LOAD_STOP,
              TRAY_ITEM_LABELS[TRAY_ITEM_STOP_LOAD]);
  AppendMenuW(menu, MF_SEPARATOR, 0, NULL);
  AppendMenuW(menu, MF_POPUP | tray_enabled(free_to_start), (UINT_PTR)plans,
              TRAY_ITEM_LABELS[TRAY_ITEM_RUN]);
  AppendMenuW(menu, MF_STRING | tray_enabled(s->run), IDM_RUN_STOP,
              TRAY_ITEM_LABELS[TRAY_ITEM_STOP_RUN]);
  AppendMenuW(menu, MF_STRING | tray_enabled(s->connected), IDM_RECORD_SCORE,
              TRAY_ITEM_LABELS[TRAY_ITEM_RECORD_SCORE]);
  AppendMenuW(menu, MF_SEPARATOR, 0, NULL);
  /* Quiet mode's item carries its state and end, so the menu alone says what is changed. */
  wchar_t quiet_label[TRAY_LINE_MAX + 32];
  if (s->quiet)
    swprintf(quiet_label, ARRAYSIZE(quiet_label), L"%ls (%ls)",
             TRAY_ITEM_LABELS[TRAY_ITEM_QUIET_NOW], s->quiet_line);
  else
    lstrcpynW(quiet_label, TRAY_ITEM_LABELS[TRAY_ITEM_QUIET_NOW], ARRAYSIZE(quiet_label));
  BOOL quiet_runs = tray_quiet_runs_get();
  AppendMenuW(menu, MF_STRING | tray_enabled(s->connected) | (s->quiet ? MF_CHECKED : 0),
              IDM_QUIET_NOW, quiet_label);
  AppendMenuW(menu, MF_STRING | (quiet_runs ? MF_CHECKED : 0), IDM_QUIET_RUNS,
              TRAY_ITEM_LABELS[TRAY_ITEM_QUIET_RUNS]);
  AppendMenuW(menu, MF_SEPARATOR, 0, NULL);
  AppendMenuW(menu, MF_STRING | tray_enabled(s->connected), IDM_SCHEDULES,
              TRAY_ITEM_LABELS[TRAY_ITEM_SCHEDULES]);
  if (s->kind == TRAY_KIND_UNREACHABLE)
    AppendMenuW(menu, MF_STRING, IDM_START_SERVICE, TRAY_ITEM_LABELS[TRAY_ITEM_START_SERVICE]);
  AppendMenuW(menu, MF_SEPARATOR, 0, NULL);
  AppendMenuW(menu, MF_STRING, IDM_EXIT, TRAY_ITEM_LABELS[TRAY_ITEM_EXIT]);
  tray_log(ctx, L"menu | %ls | quiet-now %ls | %ls | quiet-during-experiments %ls", s->line,
           s->quiet ? L"checked" : L"unchecked", quiet_label,
           quiet_runs ? L"checked" : L"unchecked");

  /* Without the foreground the menu would not close when the user clicks elsewhere. */
  SetForegroundWindow(ctx->window);
  UINT align = GetSystemMetrics(SM_MENUDROPALIGNMENT) ? TPM_RIGHTALIGN : TPM_LEFTALIGN;
  TrackPopupMenuEx(menu, align | TPM_BOTTOMALIGN | TPM_RIGHTBUTTON, x, y, ctx->window, NULL);
  /* Forces a task switch so the next right click opens the menu instead of just closing it. */
  PostMessageW(ctx->window, WM_NULL, 0, 0);
  DestroyMenu(menu); /* and the submenus with it */
}

/* A right click. Connected: the menu opens at once. Not connected: the connection thread tries
   again first and the menu opens with its answer (tray_on_state), so a service started since
   the last look shows up. A second click meanwhile opens the menu as it is. */
static void tray_menu_request(tray_ctx *ctx, int x, int y) {
  if (ctx->shown.connected || ctx->menu_pending || !ctx->link_started) {
    ctx->menu_pending = FALSE;
    tray_menu_show(ctx, x, y);
    return;
  }
  ctx->menu_pending = TRUE;
  ctx->menu_at.x = x;
  ctx->menu_at.y = y;
  plat_mutex_lock(&ctx->lock);
  ctx->retry = TRUE;
  plat_cond_broadcast(&ctx->changed);
  plat_mutex_unlock(&ctx->lock);
}

/* Handles a WM_TRAY_NOTIFY from the shell, in whichever layout the shell agreed to. */
static void tray_on_notify(tray_ctx *ctx, WPARAM wp, LPARAM lp) {
  if ((ctx->icon_version4 ? LOWORD(lp) : (UINT)lp) == NIN_BALLOONUSERCLICK)
    tray_results_balloon_click(ctx, ctx->window, ctx->pipe);
  if (ctx->icon_version4) {
    /* Version 4: LOWORD(lp) is the event, wp holds the anchor in screen coordinates. */
    if (LOWORD(lp) == WM_CONTEXTMENU)
      tray_menu_request(ctx, GET_X_LPARAM(wp), GET_Y_LPARAM(wp));
  } else if ((UINT)lp == WM_RBUTTONUP) {
    /* Old layout (a shell without version 4): lp is the mouse message, no position given. */
    POINT pt;
    if (GetCursorPos(&pt))
      tray_menu_request(ctx, pt.x, pt.y);
  }
}

static void tray_on_state(tray_ctx *ctx, tray_state *s) {
  ctx->shown = *s;
  free(s);
  tray_icon_update(ctx);
  if (ctx->menu_pending && ctx->shown.attempt_done) {
    ctx->menu_pending = FALSE;
    tray_menu_show(ctx, ctx->menu_at.x, ctx->menu_at.y);
  }
}

static void tray_queue_full(tray_ctx *ctx, const wchar_t *what) {
  tray_balloon b = {TRUE, L"", L"Too many requests are waiting for the service; try again later."};
  lstrcpynW(b.title, what, ARRAYSIZE(b.title));
  tray_icon_balloon(ctx, &b);
}

static void tray_request(tray_ctx *ctx, const char *verb, const char *key, const char *value,
                         const wchar_t *what) {
  if (!tray_enqueue(ctx, verb, key, value, what))
    tray_queue_full(ctx, what);
}

static void tray_on_command(tray_ctx *ctx, UINT id) {
  if (id >= IDM_LOAD_FIRST && id < IDM_LOAD_FIRST + TRAY_LOAD_COUNT) {
    tray_request(ctx, "load-start", "spec", TRAY_LOADS[id - IDM_LOAD_FIRST].value, L"Start load");
  } else if (id >= IDM_RUN_FIRST && id < IDM_RUN_FIRST + TRAY_PLAN_COUNT) {
    /* The plan's own setting asks the service for quiet mode around the run (docs/plans.md). */
    BOOL quiet = tray_quiet_runs_get();
    if (!tray_enqueue2(ctx, "run-start", "plan", TRAY_PLANS[id - IDM_RUN_FIRST].value,
                       quiet ? "set" : NULL, quiet ? "quiet=on" : NULL, L"Run experiment"))
      tray_queue_full(ctx, L"Run experiment");
  } else if (id == IDM_QUIET_NOW) {
    if (ctx->shown.quiet)
      tray_request(ctx, "quiet-off", NULL, NULL, L"Quiet mode");
    else
      tray_request(ctx, "quiet-on", "hours", TRAY_QUIET_HOURS, L"Quiet mode");
  } else if (id == IDM_QUIET_RUNS) {
    BOOL on = !tray_quiet_runs_get();
    if (tray_quiet_runs_set(on)) {
      tray_log(ctx, L"setting QuietDuringExperiments %d", on ? 1 : 0);
    } else {
      tray_balloon b = {TRUE, L"Quiet mode during experiments",
                        L"The setting could not be saved in the registry."};
      tray_icon_balloon(ctx, &b);
    }
  } else if (id == IDM_LOAD_STOP) {
    tray_request(ctx, "load-stop", NULL, NULL, L"Stop load");
  } else if (id == IDM_RUN_STOP) {
    tray_request(ctx, "run-stop", NULL, NULL, L"Stop experiment");
  } else if (id == IDM_RESULTS_LATEST || id == IDM_RESULTS_HISTORY) {
    tray_results_command(ctx, ctx->window, ctx->pipe, id);
  } else if (id == IDM_SCHEDULES) {
    schedules_show(ctx, ctx->instance, ctx->window, ctx->pipe);
  } else if (id == IDM_START_SERVICE) {
    tray_balloon b = {TRUE, L"Start the service", L""};
    schedules_start_service(ctx, ctx->window, b.text, ARRAYSIZE(b.text));
    if (b.text[0] != L'\0')
      tray_icon_balloon(ctx, &b);
  } else if (id == IDM_CUSTOM_LOAD || id == IDM_RECORD_SCORE) {
    dialogs_show(ctx->instance, id, ctx->pipe, ctx->log);
  } else if (id == IDM_EXIT) {
    /* The same way out as --exit-after and a WM_CLOSE from outside. */
    PostMessageW(ctx->window, WM_CLOSE, 0, 0);
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
  if (ctx == NULL)
    return DefWindowProcW(hwnd, msg, wp, lp);

  /* A registered message, so it cannot be a case label. Explorer started or restarted and has
     forgotten every icon. */
  if (msg == ctx->taskbar_created_msg && msg != 0) {
    tray_icon_load(ctx); /* the taskbar's DPI may have changed with it */
    tray_icon_show(ctx);
    return 0;
  }

  switch (msg) {
  case WM_DPICHANGED:
    tray_icon_load(ctx);
    tray_icon_show(ctx);
    return 0;
  case WM_TRAY_NOTIFY:
    tray_on_notify(ctx, wp, lp);
    return 0;
  case WM_TRAY_STATE:
    tray_on_state(ctx, (tray_state *)lp);
    return 0;
  case WM_TRAY_BALLOON:
    tray_icon_balloon(ctx, (tray_balloon *)lp);
    free((tray_balloon *)lp);
    return 0;
  case WM_TRAY_NOTE:
    tray_log(ctx, L"note | %ls", ((tray_balloon *)lp)->text);
    free((tray_balloon *)lp);
    return 0;
  case WM_APP + 20: /* WM_TRAY_RESULTS, results.c */
    tray_results_on_message(ctx, lp);
    return 0;
  case WM_COMMAND:
    tray_on_command(ctx, LOWORD(wp));
    return 0;
  case WM_SCHED_SERVICE_STARTED: /* schedules.c: follow the service it started */
    tray_log(ctx, L"start-service ended %lu", (unsigned long)wp);
    if (wp != 0 && wp != STILL_ACTIVE) {
      /* The elevated command's own message went to a console nobody saw: say where to read it. */
      tray_balloon b = {TRUE, L"Start the service", L""};
      swprintf(b.text, ARRAYSIZE(b.text),
               L"The service was not started: threadsoup service start failed (exit code %lu). "
               L"Run it in a command prompt opened as administrator to see why.",
               (unsigned long)wp);
      tray_icon_balloon(ctx, &b);
    }
    plat_mutex_lock(&ctx->lock);
    ctx->retry = TRUE;
    plat_cond_broadcast(&ctx->changed);
    plat_mutex_unlock(&ctx->lock);
    return 0;
  case WM_TIMER:
    if (wp == TRAY_TIMER_EXIT_AFTER) {
      KillTimer(hwnd, TRAY_TIMER_EXIT_AFTER); /* one shot */
      PostMessageW(hwnd, WM_CLOSE, 0, 0);
    }
    return 0;
  case WM_CLOSE:
    /* The threads go first: they post to this window until they are joined. */
    tray_threads_stop(ctx);
    DestroyWindow(hwnd);
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
  if (!RegisterClassExW(&wc))
    return FALSE;

  HWND hwnd = CreateWindowExW(0, TRAY_WINDOW_CLASS, TRAY_TITLE, WS_OVERLAPPED, 0, 0, 0, 0, NULL,
                              NULL, ctx->instance, ctx);
  if (hwnd == NULL)
    return FALSE;
  /* An elevated tray would otherwise never hear the broadcast of an unelevated Explorer (UIPI). */
  ChangeWindowMessageFilterEx(hwnd, ctx->taskbar_created_msg, MSGFLT_ALLOW, NULL);
  return TRUE;
}

/* Runs the tray until its window is destroyed; returns the process exit code. */
static int tray_run(tray_ctx *ctx) {
  int rc = TRAY_EXIT_FAILURE;
  tray_icon_load(ctx); /* at the system's DPI; again for the window's once it exists */
  ctx->taskbar_created_msg = RegisterWindowMessageW(L"TaskbarCreated");
  if (ctx->icon == NULL || ctx->taskbar_created_msg == 0)
    goto done;
  if (!tray_window_create(ctx) || !tray_icon_load(ctx))
    goto done;
  if (ctx->exit_after_ms != 0 &&
      !SetTimer(ctx->window, TRAY_TIMER_EXIT_AFTER, ctx->exit_after_ms, NULL)) {
    goto done;
  }
  lstrcpynW(ctx->shown.line, L"Connecting to the service\u2026", ARRAYSIZE(ctx->shown.line));
  ctx->shown.kind = ctx->logged_kind = TRAY_KIND_UNREACHABLE;
  tray_icon_show(ctx); /* not fatal: see tray_icon_show */
  if (!tray_threads_start(ctx))
    goto done;

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
  tray_threads_stop(ctx);
  if (ctx->window != NULL)
    DestroyWindow(ctx->window);
  if (ctx->icon != NULL)
    DestroyIcon(ctx->icon);
  ctx->icon = NULL;
  for (int i = 0; i < TRAY_KIND_COUNT; i++) {
    if (ctx->state_icons[i] != NULL)
      DestroyIcon(ctx->state_icons[i]);
    ctx->state_icons[i] = NULL;
  }
  return rc;
}

/* Reads the command line into ctx; returns TRAY_EXIT_OK, or the exit code to leave with. */
static int tray_configure(tray_ctx *ctx, BOOL *help) {
  int argc = 0;
  wchar_t **argv = CommandLineToArgvW(GetCommandLineW(), &argc);
  if (argv == NULL)
    return TRAY_EXIT_FAILURE;
  tray_options opts;
  ZeroMemory(&opts, sizeof opts);
  int rc = tray_parse_args(argc, argv, &opts);
  if (rc == TRAY_EXIT_OK && opts.pipe != NULL &&
      WideCharToMultiByte(CP_UTF8, 0, opts.pipe, -1, ctx->pipe, (int)sizeof ctx->pipe, NULL,
                          NULL) == 0) {
    tray_complain(L"--pipe: the name is too long");
    rc = TRAY_EXIT_USAGE;
  }
  if (rc == TRAY_EXIT_OK && opts.pipe == NULL)
    snprintf(ctx->pipe, sizeof ctx->pipe, "%s", plat_ipc_default_address());
  if (rc == TRAY_EXIT_OK && opts.log != NULL) {
    ctx->log = _wfopen(opts.log, L"ab"); /* "\n" line ends, as tests read them */
    if (ctx->log == NULL) {
      tray_complain(L"--log: cannot open '%ls' to append to", opts.log);
      rc = TRAY_EXIT_USAGE;
    }
  }
  ctx->exit_after_ms = opts.exit_after_ms;
  *help = opts.help;
  LocalFree(argv);
  return rc;
}

int WINAPI wWinMain(HINSTANCE instance, HINSTANCE prev, PWSTR cmdline, int show) {
  (void)prev;
  (void)cmdline; /* re-read whole with CommandLineToArgvW, which handles quoting */
  (void)show;    /* the window is never shown */

  tray_ctx ctx;
  ZeroMemory(&ctx, sizeof ctx);
  BOOL help = FALSE;
  int rc = tray_configure(&ctx, &help);
  if (rc != TRAY_EXIT_OK) {
    if (ctx.log != NULL)
      fclose(ctx.log);
    return rc;
  }
  if (help) {
    if (ctx.log != NULL)
      fclose(ctx.log);
    tray_show_usage();
    return TRAY_EXIT_OK;
  }

  /* One tray per session. A second start (autostart plus a click in the Start menu) leaves
     quietly: the icon the user wants is already there. */
  HANDLE mutex = CreateMutexW(NULL, FALSE, TRAY_MUTEX_NAME);
  if (mutex == NULL || GetLastError() == ERROR_ALREADY_EXISTS) {
    if (mutex != NULL)
      CloseHandle(mutex);
    if (ctx.log != NULL)
      fclose(ctx.log);
    return mutex == NULL ? TRAY_EXIT_FAILURE : TRAY_EXIT_OK;
  }

  ctx.instance = instance;
  plat_mutex_init(&ctx.lock);
  plat_cond_init(&ctx.changed);
  /* ShellExecuteEx (Start the service, and Open latest report's thread) may hand its work to
     shell extensions that need COM in a single-threaded apartment: its documentation asks for
     this initialization on the calling thread. */
  HRESULT com = CoInitializeEx(NULL, COINIT_APARTMENTTHREADED | COINIT_DISABLE_OLE1DDE);
  rc = tray_run(&ctx);
  if (SUCCEEDED(com))
    CoUninitialize();
  plat_cond_destroy(&ctx.changed);
  plat_mutex_destroy(&ctx.lock);

  CloseHandle(mutex);
  if (ctx.log != NULL)
    fclose(ctx.log);
  return rc;
}

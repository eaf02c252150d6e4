/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* results.c - the tray's results: a finished run's headline in its balloon, "Open latest
   report" (the run's HTML report fetched page by page, written under %LOCALAPPDATA% and opened),
   and the History… dialog listing the runs with their headlines. */
#include <windows.h>
#include <commctrl.h>
#include <objbase.h>
#include <shellapi.h>
#include <shlobj.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "menu_items.h"
#include "resource.h"
#include "threadsoup/plat.h"
#include "threadsoup/proto.h"
#include "results.h"

/* Worker to the tray's window: lParam is a malloc'd wide line for the log (and a balloon). */
#define WM_TRAY_RESULTS (WM_APP + 20)
/* Worker to the History dialog: lParam is a malloc'd results_history. */
#define WM_RESULTS_HISTORY (WM_APP + 21)

#define RESULTS_MAX_ROWS 200

/* 1 after a run-finished balloon: a click on it opens the latest report. */
static volatile LONG results_balloon_is_run;

void tray_results_finished(const proto_message *m, char *text, size_t len) {
  const char *headline = proto_get(m, "headline");
  size_t used = strlen(text);
  if (headline && headline[0] && used < len)
    snprintf(text + used, len - used, "\n%s", headline);
  InterlockedExchange(&results_balloon_is_run, 1);
}

void tray_results_menu(tray_ctx *ctx, HMENU menu) {
  AppendMenuW(menu, MF_STRING, IDM_RESULTS_LATEST, TRAY_ITEM_LABELS[TRAY_ITEM_LATEST_REPORT]);
  AppendMenuW(menu, MF_STRING, IDM_RESULTS_HISTORY, TRAY_ITEM_LABELS[TRAY_ITEM_HISTORY]);
  AppendMenuW(menu, MF_SEPARATOR, 0, NULL);
  tray_log(ctx, L"menu results | Open latest report | History");
}

/* ---------------------------------------------------------------- talking to the service */

/* One connection for one worker: its buffers live on the heap. */
typedef struct results_link {
  plat_ipc_conn *conn;
  size_t used;
  char in[PROTO_MAX_MESSAGE * 2];
  char wire[PROTO_MAX_MESSAGE * 2];
  proto_message hello;
  proto_message request;
  proto_message reply;
} results_link;

static int results_read(results_link *l, ts_err *err) {
  for (;;) {
    size_t consumed = 0;
    if (proto_decode(l->in, l->used, &consumed, &l->reply, err) != TS_OK)
      return ts_err_prefix(err, "the service sent something unreadable");
    if (consumed) {
      memmove(l->in, l->in + consumed, l->used - consumed);
      l->used -= consumed;
      return TS_OK;
    }
    size_t got = 0;
    int rc = plat_ipc_recv(l->conn, l->in + l->used, sizeof l->in - l->used, &got, err);
    if (rc != TS_OK)
      return rc;
    if (got == 0)
      return ts_err_set(err, TS_EUNSUPPORTED, "the service closed the connection");
    l->used += got;
  }
}

/* Sends l->request (after a hello on a new connection) and reads its reply into l->reply. */
static int results_call(results_link *l, const char *pipe, ts_err *err) {
  size_t n = 0, m = 0;
  int rc = TS_OK;
  if (!l->conn) {
    l->used = 0;
    rc = plat_ipc_connect(&l->conn, pipe, err);
    if (rc == TS_OK) {
      proto_init(&l->hello, PROTO_REQUEST, "hello");
      rc = proto_addf(&l->hello, err, "version", "%d", PROTO_VERSION);
    }
    if (rc == TS_OK)
      rc = proto_encode(&l->hello, l->wire, sizeof l->wire, &n, err);
  }
  if (rc == TS_OK)
    rc = proto_encode(&l->request, l->wire + n, sizeof l->wire - n, &m, err);
  if (rc == TS_OK)
    rc = plat_ipc_send(l->conn, l->wire, n + m, err);
  if (rc == TS_OK && n)
    rc = results_read(l, err); /* the hello's answer */
  if (rc == TS_OK)
    rc = results_read(l, err);
  if (rc == TS_OK && l->reply.kind == PROTO_ERROR) {
    const char *message = proto_get(&l->reply, "message");
    rc = ts_err_set(err, TS_EFAILED, "%s", message ? message : "the service refused");
  }
  return rc;
}

static void results_link_close(results_link *l) {
  if (l->conn)
    plat_ipc_close(l->conn);
  l->conn = NULL;
}

/* ---------------------------------------------------------------- opening a report */

typedef struct results_job {
  HWND window; /* the tray's: gets WM_TRAY_RESULTS */
  tray_ctx *ctx;
  char pipe[PLAT_PATH_MAX];
  long long run; /* 0: the latest */
} results_job;

static void results_tell(results_job *job, const wchar_t *line) {
  wchar_t *copy = _wcsdup(line);
  if (copy && !PostMessageW(job->window, WM_TRAY_RESULTS, 0, (LPARAM)copy))
    free(copy);
}

/* %LOCALAPPDATA%\ThreadSoup\reports\run-N.html, its folders made. */
static BOOL results_report_path(long long run, wchar_t *path, size_t count) {
  wchar_t base[MAX_PATH];
  DWORD n = GetEnvironmentVariableW(L"LOCALAPPDATA", base, MAX_PATH);
  if (n == 0 || n >= MAX_PATH)
    return FALSE;
  swprintf(path, count, L"%ls\\ThreadSoup", base);
  CreateDirectoryW(path, NULL);
  swprintf(path, count, L"%ls\\ThreadSoup\\reports", base);
  CreateDirectoryW(path, NULL);
  swprintf(path, count, L"%ls\\ThreadSoup\\reports\\run-%lld.html", base, run);
  return TRUE;
}

/* Fetches the report in pages (the `report` request's offset and next) into `file`. */
static int results_fetch(results_link *l, const char *pipe, long long run, FILE *file,
                         ts_err *err) {
  long offset = 0, total = -1;
  while (total < 0 || offset < total) {
    proto_init(&l->request, PROTO_REQUEST, "report");
    proto_addf(&l->request, err, "run", "%lld", run);
    proto_add(&l->request, "format", "html", err);
    proto_addf(&l->request, err, "offset", "%ld", offset);
    int rc = results_call(l, pipe, err);
    if (rc != TS_OK)
      return rc;
    const char *text = proto_get(&l->reply, "text");
    const char *t = proto_get(&l->reply, "total"), *next = proto_get(&l->reply, "next");
    if (!text || !t || !next || atol(next) <= offset)
      return ts_err_set(err, TS_EFAILED, "the service's report has no pages (an older service?)");
    fputs(text, file);
    total = atol(t);
    offset = atol(next);
  }
  return TS_OK;
}

/* Opens file (with params) from the worker thread, which ends right after. ShellExecuteEx's
   documentation asks for COM in a single-threaded apartment (shell extensions may need it) and,
   on a background thread, for SEE_MASK_NOASYNC: the launch is complete when the call returns,
   not left to a thread of ours that is about to end. */
static BOOL results_shell_open(const wchar_t *file, const wchar_t *params) {
  HRESULT com = CoInitializeEx(NULL, COINIT_APARTMENTTHREADED | COINIT_DISABLE_OLE1DDE);
  SHELLEXECUTEINFOW info;
  ZeroMemory(&info, sizeof info);
  info.cbSize = sizeof info;
  info.fMask = SEE_MASK_NOASYNC;
  info.lpVerb = L"open";
  info.lpFile = file;
  info.lpParameters = params;
  info.nShow = SW_SHOWNORMAL;
  BOOL ok = ShellExecuteExW(&info);
  if (SUCCEEDED(com))
    CoUninitialize();
  return ok;
}

static DWORD WINAPI results_open_main(void *arg) {
  results_job *job = arg;
  results_link *l = calloc(1, sizeof *l);
  ts_err err;
  wchar_t line[700], path[MAX_PATH + 64];
  int rc = l ? TS_OK : ts_err_set(&err, TS_ENOMEM, "no memory");
  if (rc == TS_OK && job->run == 0) {
    proto_init(&l->request, PROTO_REQUEST, "history");
    proto_add(&l->request, "limit", "1", &err);
    rc = results_call(l, job->pipe, &err);
    const char *row = rc == TS_OK ? proto_get(&l->reply, "run") : NULL;
    if (rc == TS_OK && !row)
      rc = ts_err_set(&err, TS_EFAILED, "the service has no runs yet");
    if (rc == TS_OK)
      job->run = atoll(row);
  }
  if (rc == TS_OK && !results_report_path(job->run, path, ARRAYSIZE(path)))
    rc = ts_err_set(&err, TS_EFAILED, "LOCALAPPDATA is not set");
  FILE *file = NULL;
  if (rc == TS_OK && (file = _wfopen(path, L"wb")) == NULL)
    rc = ts_err_set(&err, TS_EFAILED, "cannot write the report's file");
  if (rc == TS_OK)
    rc = results_fetch(l, job->pipe, job->run, file, &err);
  if (file)
    fclose(file);
  if (l)
    results_link_close(l);
  free(l);
  if (rc != TS_OK) {
    wchar_t why[600];
    MultiByteToWideChar(CP_UTF8, 0, err.text, -1, why, ARRAYSIZE(why));
    swprintf(line, ARRAYSIZE(line), L"E%ls", why);
    results_tell(job, line);
    free(job);
    return 0;
  }
  /* THREADSOUP_TRAY_OPEN_WITH names a program to open reports with instead of the default
     browser (tests record what was opened with it). */
  wchar_t with[MAX_PATH], quoted[MAX_PATH + 80];
  DWORD n = GetEnvironmentVariableW(L"THREADSOUP_TRAY_OPEN_WITH", with, MAX_PATH);
  BOOL opened;
  if (n > 0 && n < MAX_PATH) {
    swprintf(quoted, ARRAYSIZE(quoted), L"\"%ls\"", path);
    opened = results_shell_open(with, quoted);
  } else {
    opened = results_shell_open(path, NULL);
  }
  swprintf(line, ARRAYSIZE(line), L"%lsreport run %lld written to %ls%ls", opened ? L"I" : L"E",
           job->run, path, opened ? L" and opened" : L"; no program opens it");
  results_tell(job, line);
  free(job);
  return 0;
}

static void results_open(tray_ctx *ctx, HWND window, const char *pipe, long long run) {
  results_job *job = calloc(1, sizeof *job);
  if (!job)
    return;
  job->window = window;
  job->ctx = ctx;
  job->run = run;
  snprintf(job->pipe, sizeof job->pipe, "%s", pipe);
  HANDLE t = CreateThread(NULL, 0, results_open_main, job, 0, NULL);
  if (t)
    CloseHandle(t);
  else
    free(job);
}

void tray_results_on_message(tray_ctx *ctx, LPARAM lp) {
  wchar_t *line = (wchar_t *)lp;
  tray_log(ctx, L"results %ls", line + 1);
  if (line[0] == L'E') {
    char text[700];
    WideCharToMultiByte(CP_UTF8, 0, line + 1, -1, text, sizeof text, NULL, NULL);
    tray_post_balloon(ctx, TRUE, L"Open report", text);
  }
  free(line);
}

void tray_results_balloon_click(tray_ctx *ctx, HWND window, const char *pipe) {
  if (InterlockedExchange(&results_balloon_is_run, 0))
    results_open(ctx, window, pipe, 0);
}

/* ---------------------------------------------------------------- History… */

typedef struct results_row {
  long long run;
  wchar_t date[32], plan[64], headline[300];
} results_row;

typedef struct results_history {
  int count;
  results_row rows[RESULTS_MAX_ROWS];
  wchar_t error[300];
} results_history;

typedef struct results_dialog {
  tray_ctx *ctx;
  HWND tray_window;
  char pipe[PLAT_PATH_MAX];
  HWND dialog;
} results_dialog;

static DWORD WINAPI results_history_main(void *arg) {
  results_dialog *d = arg;
  HWND dialog = d->dialog;
  char pipe[PLAT_PATH_MAX];
  snprintf(pipe, sizeof pipe, "%s", d->pipe);
  results_link *l = calloc(1, sizeof *l);
  results_history *h = calloc(1, sizeof *h);
  ts_err err;
  if (!l || !h) {
    free(l);
    free(h);
    return 0;
  }
  proto_init(&l->request, PROTO_REQUEST, "history");
  proto_add(&l->request, "limit", "50", &err); /* each headline computes its run's statistics */
  proto_add(&l->request, "headlines", "yes", &err);
  if (results_call(l, pipe, &err) == TS_OK) {
    for (int i = 0; i < l->reply.field_count && h->count < RESULTS_MAX_ROWS; i++) {
      const char *v = proto_value(&l->reply, i);
      if (strcmp(l->reply.fields[i].key, "run") == 0) {
        char date[32] = "", plan[64] = "";
        results_row *r = &h->rows[h->count++];
        sscanf(v, "%lld|%31[^|]|%63[^|]", &r->run, date, plan);
        MultiByteToWideChar(CP_UTF8, 0, date, -1, r->date, ARRAYSIZE(r->date));
        MultiByteToWideChar(CP_UTF8, 0, plan, -1, r->plan, ARRAYSIZE(r->plan));
      } else if (strcmp(l->reply.fields[i].key, "headline") == 0) {
        long long run = atoll(v);
        const char *bar = strchr(v, '|');
        for (int k = 0; bar && k < h->count; k++)
          if (h->rows[k].run == run)
            MultiByteToWideChar(CP_UTF8, 0, bar + 1, -1, h->rows[k].headline,
                                ARRAYSIZE(h->rows[k].headline));
      }
    }
  } else {
    MultiByteToWideChar(CP_UTF8, 0, err.text, -1, h->error, ARRAYSIZE(h->error));
  }
  results_link_close(l);
  free(l);
  if (!PostMessageW(dialog, WM_RESULTS_HISTORY, 0, (LPARAM)h))
    free(h);
  return 0;
}

static void results_column(HWND list, int i, const wchar_t *title, int width) {
  LVCOLUMNW c;
  ZeroMemory(&c, sizeof c);
  c.mask = LVCF_TEXT | LVCF_WIDTH;
  c.pszText = (wchar_t *)title;
  c.cx = width;
  SendMessageW(list, LVM_INSERTCOLUMNW, (WPARAM)i, (LPARAM)&c);
}

static void results_log_control(results_dialog *d, int id, const wchar_t *label) {
  RECT rc;
  GetWindowRect(GetDlgItem(d->dialog, id), &rc);
  tray_log(d->ctx, L"dialog history control %ls at %ld,%ld", label, (rc.left + rc.right) / 2,
           (rc.top + rc.bottom) / 2);
}

static void results_fill(results_dialog *d, results_history *h) {
  HWND list = GetDlgItem(d->dialog, IDC_HISTORY_LIST);
  if (h->error[0]) {
    tray_log(d->ctx, L"dialog history error %ls", h->error);
    SetDlgItemTextW(d->dialog, IDC_HISTORY_LABEL, h->error);
  }
  for (int i = 0; i < h->count; i++) {
    const results_row *r = &h->rows[i];
    wchar_t id[24];
    swprintf(id, ARRAYSIZE(id), L"%lld", r->run);
    LVITEMW item;
    ZeroMemory(&item, sizeof item);
    item.mask = LVIF_TEXT | LVIF_PARAM;
    item.iItem = i;
    item.pszText = id;
    item.lParam = (LPARAM)r->run;
    int at = (int)SendMessageW(list, LVM_INSERTITEMW, 0, (LPARAM)&item);
    const wchar_t *cells[3] = {r->date, r->plan, r->headline};
    for (int k = 0; k < 3; k++) {
      LVITEMW sub;
      ZeroMemory(&sub, sizeof sub);
      sub.iSubItem = k + 1;
      sub.pszText = (wchar_t *)cells[k];
      SendMessageW(list, LVM_SETITEMTEXTW, (WPARAM)at, (LPARAM)&sub);
    }
    tray_log(d->ctx, L"dialog history row %lld | %ls | %ls | %ls", r->run, r->date, r->plan,
             r->headline);
  }
  if (h->count > 0)
    ListView_SetItemState(list, 0, LVIS_SELECTED | LVIS_FOCUSED, LVIS_SELECTED | LVIS_FOCUSED);
  tray_log(d->ctx, L"dialog history rows %d", h->count);
  free(h);
}

static void results_open_selected(results_dialog *d) {
  HWND list = GetDlgItem(d->dialog, IDC_HISTORY_LIST);
  int at = (int)SendMessageW(list, LVM_GETNEXTITEM, (WPARAM)-1, LVNI_SELECTED);
  if (at < 0)
    return;
  LVITEMW item;
  ZeroMemory(&item, sizeof item);
  item.mask = LVIF_PARAM;
  item.iItem = at;
  SendMessageW(list, LVM_GETITEMW, 0, (LPARAM)&item);
  results_open(d->ctx, d->tray_window, d->pipe, (long long)item.lParam);
}

static INT_PTR CALLBACK results_dialog_proc(HWND dialog, UINT msg, WPARAM wp, LPARAM lp) {
  results_dialog *d = (results_dialog *)GetWindowLongPtrW(dialog, DWLP_USER);
  switch (msg) {
  case WM_INITDIALOG: {
    d = (results_dialog *)lp;
    d->dialog = dialog;
    SetWindowLongPtrW(dialog, DWLP_USER, (LONG_PTR)d);
    HWND list = GetDlgItem(dialog, IDC_HISTORY_LIST);
    SendMessageW(list, LVM_SETEXTENDEDLISTVIEWSTYLE, 0, LVS_EX_FULLROWSELECT);
    results_column(list, 0, L"Run", 40);
    results_column(list, 1, L"Date", 150);
    results_column(list, 2, L"Plan", 70);
    results_column(list, 3, L"Headline", 400);
    results_log_control(d, IDC_HISTORY_LIST, L"Runs");
    results_log_control(d, IDC_HISTORY_OPEN, L"Open report");
    results_log_control(d, IDCANCEL, L"Close");
    HANDLE t = CreateThread(NULL, 0, results_history_main, d, 0, NULL);
    if (t)
      CloseHandle(t);
    return TRUE;
  }
  case WM_RESULTS_HISTORY:
    results_fill(d, (results_history *)lp);
    return TRUE;
  case WM_NOTIFY: {
    const NMHDR *n = (const NMHDR *)lp;
    if (n->idFrom == IDC_HISTORY_LIST && n->code == NM_DBLCLK)
      results_open_selected(d);
    return TRUE;
  }
  case WM_COMMAND:
    if (LOWORD(wp) == IDC_HISTORY_OPEN || LOWORD(wp) == IDOK) {
      results_open_selected(d);
      return TRUE;
    }
    if (LOWORD(wp) == IDCANCEL) {
      EndDialog(dialog, 0);
      return TRUE;
    }
    break;
  default:
    break;
  }
  return FALSE;
}

void tray_results_command(tray_ctx *ctx, HWND window, const char *pipe, UINT id) {
  if (id == IDM_RESULTS_LATEST) {
    results_open(ctx, window, pipe, 0);
  } else if (id == IDM_RESULTS_HISTORY) {
    /* The dialog's worker may still post after it closes: the context is never freed (it is
       small, and one per opening). */
    results_dialog *d = calloc(1, sizeof *d);
    if (!d)
      return;
    d->ctx = ctx;
    d->tray_window = window;
    snprintf(d->pipe, sizeof d->pipe, "%s", pipe);
    INITCOMMONCONTROLSEX icc = {sizeof icc, ICC_LISTVIEW_CLASSES};
    InitCommonControlsEx(&icc);
    tray_log(ctx, L"dialog history opened");
    DialogBoxParamW(GetModuleHandleW(NULL), MAKEINTRESOURCEW(IDD_HISTORY), NULL,
                    results_dialog_proc, (LPARAM)d);
    tray_log(ctx, L"dialog history closed");
  }
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* results.c - the tray's results: a finished run's headline in its balloon, "Open latest
   report" (the run's HTML report fetched page by page, written under %LOCALAPPDATA% and opened),
   and the History… dialog listing the runs with their headlines. */
#include "part.h"

#include <commctrl.h>
#include <objbase.h>
#include <shellapi.h>
#include <shlobj.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "../menu_items.h"
#include "../resource.h"

/* This part, defined at the end: its balloons are marked as its own. */
extern const tray_part tray_part_results;

#define RESULTS_MAX_ROWS 200

/* A run-finished event: its balloon, whose click opens the latest report. */
static void results_event(tray_shell *shell, const proto_message *m) {
  const char *run = proto_get(m, "run");
  if (strcmp(m->verb, "run-finished") != 0 || run == NULL)
    return;
  char text[300];
  const char *headline = proto_get(m, "headline");
  if (headline && headline[0])
    snprintf(text, sizeof text, "Run %s\n%s", run, headline);
  else
    snprintf(text, sizeof text, "Run %s", run);
  /* The outcome field names how it ended ("finished", "interrupted", "failed"). */
  const char *outcome = proto_get(m, "outcome");
  BOOL failed = outcome && strcmp(outcome, "failed") == 0;
  tray_post_balloon(shell, &tray_part_results, failed ? TRAY_BALLOON_ERROR : TRAY_BALLOON_INFO,
                    L"ThreadSoup experiment", text);
}

static void results_menu(tray_shell *shell, tray_menu *menu) {
  AppendMenuW(menu->main, MF_STRING, IDM_RESULTS_LATEST, TRAY_ITEM_LABELS[TRAY_ITEM_LATEST_REPORT]);
  AppendMenuW(menu->main, MF_STRING, IDM_RESULTS_HISTORY, TRAY_ITEM_LABELS[TRAY_ITEM_HISTORY]);
  AppendMenuW(menu->main, MF_SEPARATOR, 0, NULL);
  tray_log(shell, L"menu results | Open latest report | History");
}

/* ---------------------------------------------------------------- talking to the service */

/* One connection for one worker (reports come page by page on it); on the heap. */
typedef struct results_link {
  tray_shell *shell;
  tray_slot slot; /* never cancelled: quitting does not wait for this worker */
  call_link *link;
  proto_message request;
  proto_message reply;
} results_link;

static results_link *results_link_new(tray_shell *shell) {
  results_link *l = calloc(1, sizeof *l);
  if (l != NULL && (l->link = call_link_new()) == NULL) {
    free(l);
    l = NULL;
  }
  if (l != NULL)
    l->shell = shell;
  return l;
}

/* Sends l->request (on a new connection the first time) and reads its reply into l->reply; a
   refusal is TS_EFAILED with the service's words. */
static int results_call(results_link *l, ts_err *err) {
  int rc = l->link->conn ? TS_OK : tray_link_open(l->shell, l->link, &l->slot, err);
  if (rc == TS_OK)
    rc = call_link_request(l->link, &l->request, &l->reply, err);
  if (rc == TS_OK && l->reply.kind == PROTO_ERROR)
    rc = ts_err_set(err, TS_EFAILED, "%s", call_refusal_text(&l->reply));
  return rc;
}

static void results_link_free(results_link *l) {
  if (l == NULL)
    return;
  tray_link_close(l->shell, l->link, &l->slot);
  call_link_free(l->link);
  free(l);
}

/* ---------------------------------------------------------------- opening a report */

typedef struct results_job {
  tray_shell *shell;
  long long run; /* 0: the latest */
} results_job;

/* The window's side of an outcome: "I..." logged, "E..." logged and shown in a balloon. */
static void results_told(tray_shell *shell, void *data) {
  const wchar_t *line = data;
  tray_log(shell, L"results %ls", line + 1);
  if (line[0] == L'E') {
    char text[700];
    tray_narrow(line + 1, text, sizeof text);
    tray_post_balloon(shell, NULL, TRAY_BALLOON_REFUSAL, L"Open report", text);
  }
}

static void results_tell(results_job *job, const wchar_t *line) {
  tray_ui_post(job->shell, results_told, _wcsdup(line));
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

/* Fetches the report in pages into `file`, over the worker's link (opened on demand). */
static int results_fetch(results_link *l, long long run, FILE *file, ts_err *err) {
  int rc = l->link->conn ? TS_OK : tray_link_open(l->shell, l->link, &l->slot, err);
  return rc == TS_OK ? call_report_pages(l->link, run, "html", file, &l->request, &l->reply, err)
                     : rc;
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
  results_link *l = results_link_new(job->shell);
  ts_err err;
  wchar_t line[700], path[MAX_PATH + 64];
  int rc = l ? TS_OK : ts_err_set(&err, TS_ENOMEM, "no memory");
  if (rc == TS_OK && job->run == 0) {
    proto_init(&l->request, PROTO_REQUEST, "history");
    proto_add(&l->request, "limit", "1", &err);
    rc = results_call(l, &err);
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
    rc = results_fetch(l, job->run, file, &err);
  if (file)
    fclose(file);
  results_link_free(l);
  if (rc != TS_OK) {
    wchar_t why[600];
    tray_widen(err.text, why, ARRAYSIZE(why));
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

static void results_open(tray_shell *shell, long long run) {
  results_job *job = calloc(1, sizeof *job);
  if (!job)
    return;
  job->shell = shell;
  job->run = run;
  HANDLE t = CreateThread(NULL, 0, results_open_main, job, 0, NULL);
  if (t)
    CloseHandle(t);
  else
    free(job);
}

/* A click on the run-finished balloon opens the latest report. */
static BOOL results_message(tray_shell *shell, UINT msg, WPARAM wp, LPARAM lp) {
  (void)wp;
  if (msg != TRAY_WM_NOTIFY || tray_icon_event(shell, lp) != NIN_BALLOONUSERCLICK ||
      shell->balloon_owner != &tray_part_results)
    return FALSE;
  shell->balloon_owner = NULL;
  results_open(shell, 0);
  return TRUE;
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
  tray_shell *shell;
  HWND dialog;
} results_dialog;

static DWORD WINAPI results_history_main(void *arg) {
  results_dialog *d = arg;
  HWND dialog = d->dialog;
  results_link *l = results_link_new(d->shell);
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
  if (results_call(l, &err) == TS_OK) {
    for (int i = 0; i < l->reply.field_count && h->count < RESULTS_MAX_ROWS; i++) {
      const char *v = proto_value(&l->reply, i);
      if (strcmp(l->reply.fields[i].key, "run") == 0) {
        char date[32] = "", plan[64] = "";
        results_row *r = &h->rows[h->count++];
        sscanf(v, "%lld|%31[^|]|%63[^|]", &r->run, date, plan);
        tray_widen(date, r->date, ARRAYSIZE(r->date));
        tray_widen(plan, r->plan, ARRAYSIZE(r->plan));
      } else if (strcmp(l->reply.fields[i].key, "headline") == 0) {
        long long run = atoll(v);
        const char *bar = strchr(v, '|');
        for (int k = 0; bar && k < h->count; k++)
          if (h->rows[k].run == run)
            tray_widen(bar + 1, h->rows[k].headline, ARRAYSIZE(h->rows[k].headline));
      }
    }
  } else {
    tray_widen(err.text, h->error, ARRAYSIZE(h->error));
  }
  results_link_free(l);
  if (!PostMessageW(dialog, TRAY_WM_DIALOG_REPLY, 0, (LPARAM)h))
    free(h);
  return 0;
}

/* The History list's columns, their widths at 96 dpi (100 %). */
static const struct {
  const wchar_t *title;
  int width;
} RESULTS_COLUMNS[] = {{L"Run", 40}, {L"Date", 150}, {L"Plan", 70}, {L"Headline", 400}};

/* The columns at the dialog's DPI: at 150 % a width of 96 dpi takes half as much again, as the
   dialog's text does. The log says the widths the list holds. */
static void results_columns(tray_shell *shell, HWND dialog, HWND list) {
  wchar_t widths[64] = L"";
  size_t used = 0;
  for (int i = 0; i < (int)ARRAYSIZE(RESULTS_COLUMNS); i++) {
    LVCOLUMNW c;
    ZeroMemory(&c, sizeof c);
    c.mask = LVCF_TEXT | LVCF_WIDTH;
    c.pszText = (wchar_t *)RESULTS_COLUMNS[i].title;
    c.cx = tray_scaled(dialog, RESULTS_COLUMNS[i].width);
    SendMessageW(list, LVM_INSERTCOLUMNW, (WPARAM)i, (LPARAM)&c);
    int held = (int)SendMessageW(list, LVM_GETCOLUMNWIDTH, (WPARAM)i, 0);
    used += (size_t)swprintf(widths + used, ARRAYSIZE(widths) - used, L" %d", held);
  }
  tray_log(shell, L"dialog history columns%ls at %u dpi", widths, tray_dpi(dialog));
}

static void results_fill(results_dialog *d, results_history *h) {
  HWND list = GetDlgItem(d->dialog, IDC_HISTORY_LIST);
  if (h->error[0]) {
    tray_log(d->shell, L"dialog history error %ls", h->error);
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
    tray_log(d->shell, L"dialog history row %lld | %ls | %ls | %ls", r->run, r->date, r->plan,
             r->headline);
  }
  if (h->count > 0)
    ListView_SetItemState(list, 0, LVIS_SELECTED | LVIS_FOCUSED, LVIS_SELECTED | LVIS_FOCUSED);
  tray_log(d->shell, L"dialog history rows %d", h->count);
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
  results_open(d->shell, (long long)item.lParam);
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
    results_columns(d->shell, dialog, list);
    tray_log_control(d->shell, dialog, L"history", IDC_HISTORY_LIST, L"Runs");
    tray_log_control(d->shell, dialog, L"history", IDC_HISTORY_OPEN, L"Open report");
    tray_log_control(d->shell, dialog, L"history", IDCANCEL, L"Close");
    HANDLE t = CreateThread(NULL, 0, results_history_main, d, 0, NULL);
    if (t)
      CloseHandle(t);
    return TRUE;
  }
  case TRAY_WM_DIALOG_REPLY:
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

static BOOL results_command(tray_shell *shell, UINT id) {
  if (id == IDM_RESULTS_LATEST) {
    results_open(shell, 0);
  } else if (id == IDM_RESULTS_HISTORY) {
    /* The dialog's worker may still post after it closes: the context is never freed (it is
       small, and one per opening). */
    results_dialog *d = calloc(1, sizeof *d);
    if (!d)
      return TRUE;
    d->shell = shell;
    INITCOMMONCONTROLSEX icc = {sizeof icc, ICC_LISTVIEW_CLASSES};
    InitCommonControlsEx(&icc);
    tray_log(shell, L"dialog history opened");
    DialogBoxParamW(GetModuleHandleW(NULL), MAKEINTRESOURCEW(IDD_HISTORY), NULL,
                    results_dialog_proc, (LPARAM)d);
    tray_log(shell, L"dialog history closed");
  } else {
    return FALSE;
  }
  return TRUE;
}

const tray_part tray_part_results = {
    .name = L"results",
    .menu = results_menu,
    .command = results_command,
    .message = results_message,
    .event = results_event,
};

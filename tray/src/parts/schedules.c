/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* schedules.c - the tray's Schedules dialog (list, add, remove the service's schedules) and its
   "Start the service" item. */

#undef _WIN32_WINNT
#define _WIN32_WINNT 0x0601
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif

#include <windows.h>
#include <commctrl.h>
#include <shellapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "resource.h"
#include "threadsoup/plat.h"
#include "threadsoup/proto.h"
#include "schedules.h"

/* From a request thread: lParam is the finished sched_call, which the dialog frees. */
#define WM_SCHED_REPLY (WM_APP + 30)

#define SCHED_THREAD_STACK (256 * 1024)
#define SCHED_MAX_ROWS 200
#define SCHED_ROW_MAX 400
#define SCHED_PLAN_MAX 16000 /* a plan file's text; the protocol's message is 64 KiB */

/* The service's presets, as the tray's Run experiment submenu offers them. */
static const wchar_t *const SCHED_PRESETS[] = {L"quick", L"seed", L"waiters", L"dose", L"aa"};

/* One request on a connection of its own (about 400 KiB: on the heap). The dialog fills the
   request, the thread the answer; the dialog frees it. */
typedef struct sched_call {
  HWND dialog;
  char pipe[PLAT_PATH_MAX];
  proto_message request;
  int ok; /* the service answered ok */
  char error[600];
  int rows;
  char row[SCHED_MAX_ROWS][SCHED_ROW_MAX]; /* schedule-list's `schedule` values */
  size_t used;
  char in[PROTO_MAX_MESSAGE * 2];
  char wire[PROTO_MAX_MESSAGE * 2];
  proto_message hello;
  proto_message msg;
} sched_call;

/* What a dialog keeps while it is open. */
typedef struct sched_dialog {
  tray_ctx *ctx;
  HINSTANCE instance;
  const char *pipe;
  plat_thread thread;
  BOOL busy; /* a request thread runs: it is joined when its answer arrives or the dialog goes */
} sched_dialog;

/* ---------------------------------------------------------------- the request thread */

static int sched_read(plat_ipc_conn *conn, sched_call *c, ts_err *err) {
  for (;;) {
    size_t consumed = 0;
    if (proto_decode(c->in, c->used, &consumed, &c->msg, err) != TS_OK)
      return ts_err_prefix(err, "the service sent something unreadable");
    if (consumed != 0) {
      memmove(c->in, c->in + consumed, c->used - consumed);
      c->used -= consumed;
      return TS_OK;
    }
    size_t got = 0;
    int rc = plat_ipc_recv(conn, c->in + c->used, sizeof c->in - c->used, &got, err);
    if (rc != TS_OK)
      return rc;
    if (got == 0)
      return ts_err_set(err, TS_EUNSUPPORTED, "the service closed the connection");
    c->used += got;
  }
}

/* hello and the request in one write, both answers read, the connection closed. */
static void sched_call_main(void *arg) {
  sched_call *c = arg;
  ts_err err;
  plat_ipc_conn *conn = NULL;
  size_t n = 0, m = 0;
  proto_init(&c->hello, PROTO_REQUEST, "hello");
  int rc = proto_addf(&c->hello, &err, "version", "%d", PROTO_VERSION);
  if (rc == TS_OK)
    rc = proto_encode(&c->hello, c->wire, sizeof c->wire, &n, &err);
  if (rc == TS_OK)
    rc = proto_encode(&c->request, c->wire + n, sizeof c->wire - n, &m, &err);
  if (rc == TS_OK)
    rc = plat_ipc_connect(&conn, c->pipe, &err);
  if (rc == TS_OK)
    rc = plat_ipc_send(conn, c->wire, n + m, &err);
  if (rc == TS_OK)
    rc = sched_read(conn, c, &err); /* hello's answer */
  if (rc == TS_OK && c->msg.kind != PROTO_ERROR)
    rc = sched_read(conn, c, &err);
  if (conn != NULL)
    plat_ipc_close(conn);
  if (rc != TS_OK) {
    snprintf(c->error, sizeof c->error, "%s", err.text);
  } else if (c->msg.kind == PROTO_ERROR) {
    const char *message = proto_get(&c->msg, "message");
    snprintf(c->error, sizeof c->error, "%s", message ? message : "the service gave no reason");
  } else {
    c->ok = 1;
    for (int i = 0; i < c->msg.field_count && c->rows < SCHED_MAX_ROWS; i++)
      if (strcmp(c->msg.fields[i].key, "schedule") == 0)
        snprintf(c->row[c->rows++], SCHED_ROW_MAX, "%s", proto_value(&c->msg, i));
  }
  if (!PostMessageW(c->dialog, WM_SCHED_REPLY, 0, (LPARAM)c))
    free(c);
}

/* A new call for the dialog, or NULL (no memory). */
static sched_call *sched_call_new(HWND dialog, const sched_dialog *d, const char *verb) {
  sched_call *c = calloc(1, sizeof *c);
  if (c == NULL)
    return NULL;
  c->dialog = dialog;
  snprintf(c->pipe, sizeof c->pipe, "%s", d->pipe);
  proto_init(&c->request, PROTO_REQUEST, verb);
  return c;
}

/* Starts the call's thread; FALSE (and c freed, the reason in `status`) when it cannot. */
static BOOL sched_call_start(sched_dialog *d, sched_call *c, HWND dialog, int status) {
  ts_err err;
  if (c != NULL && !d->busy &&
      plat_thread_start(&d->thread, SCHED_THREAD_STACK, sched_call_main, c, &err) == TS_OK) {
    d->busy = TRUE;
    return TRUE;
  }
  SetDlgItemTextW(dialog, status,
                  d->busy ? L"Still waiting for the service." : L"The request could not start.");
  free(c);
  return FALSE;
}

/* The dialog goes while a request runs: waits for it and frees what it posted. */
static void sched_call_cancel(sched_dialog *d, HWND dialog) {
  if (d->busy)
    plat_thread_join(d->thread);
  d->busy = FALSE;
  MSG m;
  while (PeekMessageW(&m, dialog, WM_SCHED_REPLY, WM_SCHED_REPLY, PM_REMOVE))
    free((sched_call *)m.lParam);
}

/* The answer arrived: the thread has posted it as its last act. */
static sched_call *sched_call_done(sched_dialog *d, LPARAM lp) {
  if (d->busy)
    plat_thread_join(d->thread);
  d->busy = FALSE;
  return (sched_call *)lp;
}

static void sched_widen(const char *text, wchar_t *out, int count) {
  if (MultiByteToWideChar(CP_UTF8, 0, text, -1, out, count) == 0)
    lstrcpynW(out, L"?", count);
}

/* Logs where a control is (the centre, in screen pixels), so that tests can click it. */
static void sched_log_control(sched_dialog *d, HWND dialog, const wchar_t *name, int id,
                              const wchar_t *label) {
  RECT r;
  if (GetWindowRect(GetDlgItem(dialog, id), &r))
    tray_log(d->ctx, L"dialog %ls control %ls at %ld,%ld", name, label, (r.left + r.right) / 2,
             (r.top + r.bottom) / 2);
}

/* ---------------------------------------------------------------- the Add dialog */

/* Reads a plan file into `out` (UTF-8, as the service takes plan text); FALSE with the reason. */
static BOOL sched_read_plan(const wchar_t *path, char *out, size_t count, wchar_t *why,
                            size_t why_count) {
  FILE *f = _wfopen(path, L"rb");
  if (f == NULL) {
    swprintf(why, why_count, L"plan file: cannot open '%ls'", path);
    return FALSE;
  }
  size_t n = fread(out, 1, count - 1, f);
  BOOL whole = feof(f) != 0;
  fclose(f);
  out[n] = '\0';
  if (!whole)
    swprintf(why, why_count, L"plan file: '%ls' is larger than %d bytes", path, SCHED_PLAN_MAX);
  return whole;
}

static BOOL sched_add_send(HWND dialog, sched_dialog *d) {
  wchar_t when[128], require[128], file[MAX_PATH], preset[32], why[400];
  char when8[256], require8[256];
  GetDlgItemTextW(dialog, IDC_SCHED_WHEN, when, ARRAYSIZE(when));
  GetDlgItemTextW(dialog, IDC_SCHED_REQUIRE, require, ARRAYSIZE(require));
  GetDlgItemTextW(dialog, IDC_SCHED_FILE, file, ARRAYSIZE(file));
  GetDlgItemTextW(dialog, IDC_SCHED_PRESET, preset, ARRAYSIZE(preset));
  WideCharToMultiByte(CP_UTF8, 0, when, -1, when8, sizeof when8, NULL, NULL);
  WideCharToMultiByte(CP_UTF8, 0, require, -1, require8, sizeof require8, NULL, NULL);
  sched_call *c = sched_call_new(dialog, d, "schedule-add");
  char *plan = malloc(SCHED_PLAN_MAX);
  ts_err err;
  BOOL ok = c != NULL && plan != NULL;
  if (ok && file[0] != L'\0') {
    ok = sched_read_plan(file, plan, SCHED_PLAN_MAX, why, ARRAYSIZE(why));
    if (!ok)
      SetDlgItemTextW(dialog, IDC_SCHED_ERROR, why);
  } else if (ok) {
    WideCharToMultiByte(CP_UTF8, 0, preset, -1, plan, SCHED_PLAN_MAX, NULL, NULL);
  }
  /* The service checks `when` and the conditions and says what it accepts. */
  if (ok)
    ok = proto_add(&c->request, "when", when8, &err) == TS_OK &&
         proto_add(&c->request, "plan", plan, &err) == TS_OK &&
         (require8[0] == '\0' || proto_add(&c->request, "require", require8, &err) == TS_OK);
  free(plan);
  if (!ok) {
    free(c);
    return FALSE;
  }
  tray_log(d->ctx, L"schedules add | %ls | %ls | %ls", file[0] ? file : preset, when, require);
  return sched_call_start(d, c, dialog, IDC_SCHED_ERROR);
}

static INT_PTR CALLBACK sched_add_proc(HWND dialog, UINT msg, WPARAM wp, LPARAM lp) {
  sched_dialog *d = (sched_dialog *)GetWindowLongPtrW(dialog, DWLP_USER);
  switch (msg) {
  case WM_INITDIALOG: {
    d = (sched_dialog *)lp;
    SetWindowLongPtrW(dialog, DWLP_USER, (LONG_PTR)d);
    HWND combo = GetDlgItem(dialog, IDC_SCHED_PRESET);
    for (size_t i = 0; i < ARRAYSIZE(SCHED_PRESETS); i++)
      SendMessageW(combo, CB_ADDSTRING, 0, (LPARAM)SCHED_PRESETS[i]);
    SendMessageW(combo, CB_SETCURSEL, 0, 0);
    SetDlgItemTextW(dialog, IDC_SCHED_WHEN, L"daily 03:00");
    sched_log_control(d, dialog, L"add", IDC_SCHED_PRESET, L"Preset");
    sched_log_control(d, dialog, L"add", IDC_SCHED_FILE, L"Plan file");
    sched_log_control(d, dialog, L"add", IDC_SCHED_WHEN, L"When");
    sched_log_control(d, dialog, L"add", IDC_SCHED_REQUIRE, L"Conditions");
    sched_log_control(d, dialog, L"add", IDOK, L"OK");
    sched_log_control(d, dialog, L"add", IDCANCEL, L"Cancel");
    return TRUE;
  }
  case WM_COMMAND:
    if (LOWORD(wp) == IDOK) {
      if (!d->busy && sched_add_send(dialog, d))
        EnableWindow(GetDlgItem(dialog, IDOK), FALSE);
      return TRUE;
    }
    if (LOWORD(wp) == IDCANCEL) {
      sched_call_cancel(d, dialog);
      EndDialog(dialog, IDCANCEL);
      return TRUE;
    }
    return FALSE;
  case WM_SCHED_REPLY: {
    sched_call *c = sched_call_done(d, lp);
    if (c->ok) {
      tray_log(d->ctx, L"schedules added");
      free(c);
      EndDialog(dialog, IDOK);
      return TRUE;
    }
    wchar_t text[600];
    sched_widen(c->error, text, ARRAYSIZE(text));
    free(c);
    SetDlgItemTextW(dialog, IDC_SCHED_ERROR, text);
    tray_log(d->ctx, L"schedules add refused | %ls", text);
    EnableWindow(GetDlgItem(dialog, IDOK), TRUE);
    return TRUE;
  }
  default:
    return FALSE;
  }
}

/* ---------------------------------------------------------------- the Schedules dialog */

static void sched_list_request(HWND dialog, sched_dialog *d) {
  SetDlgItemTextW(dialog, IDC_SCHED_STATUS, L"Asking the service\u2026");
  sched_call_start(d, sched_call_new(dialog, d, "schedule-list"), dialog, IDC_SCHED_STATUS);
}

static void sched_list_columns(HWND list) {
  static const struct {
    const wchar_t *title;
    int width; /* dialog units, as the template is */
  } columns[] = {{L"ID", 20},
                 {L"Plan or preset", 70},
                 {L"When", 90},
                 {L"Next due", 80},
                 {L"Last outcome", 120}};
  ListView_SetExtendedListViewStyle(list, LVS_EX_FULLROWSELECT);
  for (int i = 0; i < (int)ARRAYSIZE(columns); i++) {
    RECT r = {0, 0, columns[i].width, 1};
    MapDialogRect(GetParent(list), &r);
    LVCOLUMNW col;
    ZeroMemory(&col, sizeof col);
    col.mask = LVCF_TEXT | LVCF_WIDTH;
    col.pszText = (wchar_t *)columns[i].title;
    col.cx = r.right;
    ListView_InsertColumn(list, i, &col);
  }
}

/* One `schedule` value: id|when|next|plan|state|last event, shown as ID, plan, when, next, last. */
static void sched_list_row(sched_dialog *d, HWND list, int index, const char *value) {
  char copy[SCHED_ROW_MAX];
  char *part[6] = {"", "", "", "", "", ""};
  snprintf(copy, sizeof copy, "%s", value);
  char *p = copy;
  for (int i = 0; i < 6 && p != NULL; i++) {
    part[i] = p;
    char *bar = i < 5 ? strchr(p, '|') : NULL;
    if (bar != NULL)
      *bar++ = '\0';
    p = bar;
  }
  static const int order[5] = {0, 3, 1, 2, 5};
  wchar_t cell[5][SCHED_ROW_MAX];
  for (int i = 0; i < 5; i++)
    sched_widen(part[order[i]], cell[i], SCHED_ROW_MAX);
  if (cell[4][0] == L'\0')
    lstrcpynW(cell[4], strcmp(part[4], "done") == 0 ? L"done" : L"not run yet", SCHED_ROW_MAX);
  LVITEMW item;
  ZeroMemory(&item, sizeof item);
  item.mask = LVIF_TEXT;
  item.iItem = index;
  item.pszText = cell[0];
  index = ListView_InsertItem(list, &item);
  for (int i = 1; i < 5; i++)
    ListView_SetItemText(list, index, i, cell[i]);
  tray_log(d->ctx, L"schedules row | %ls | %ls | %ls | %ls | %ls", cell[0], cell[1], cell[2],
           cell[3], cell[4]);
}

static void sched_list_fill(HWND dialog, sched_dialog *d, const sched_call *c) {
  HWND list = GetDlgItem(dialog, IDC_SCHED_LIST);
  ListView_DeleteAllItems(list);
  for (int i = 0; i < c->rows; i++)
    sched_list_row(d, list, i, c->row[i]);
  wchar_t status[64];
  swprintf(status, ARRAYSIZE(status), c->rows == 1 ? L"%d schedule" : L"%d schedules", c->rows);
  SetDlgItemTextW(dialog, IDC_SCHED_STATUS, status);
  tray_log(d->ctx, L"schedules list %d", c->rows);
}

static void sched_remove(HWND dialog, sched_dialog *d) {
  HWND list = GetDlgItem(dialog, IDC_SCHED_LIST);
  int sel = ListView_GetNextItem(list, -1, LVNI_SELECTED);
  if (sel < 0) {
    SetDlgItemTextW(dialog, IDC_SCHED_STATUS, L"Select the schedule to remove first.");
    return;
  }
  wchar_t id[32];
  char id8[32];
  ListView_GetItemText(list, sel, 0, id, ARRAYSIZE(id));
  WideCharToMultiByte(CP_UTF8, 0, id, -1, id8, sizeof id8, NULL, NULL);
  sched_call *c = sched_call_new(dialog, d, "schedule-remove");
  ts_err err;
  if (c != NULL && proto_add(&c->request, "schedule", id8, &err) != TS_OK) {
    free(c);
    c = NULL;
  }
  tray_log(d->ctx, L"schedules remove | %ls", id);
  sched_call_start(d, c, dialog, IDC_SCHED_STATUS);
}

static INT_PTR CALLBACK sched_list_proc(HWND dialog, UINT msg, WPARAM wp, LPARAM lp) {
  sched_dialog *d = (sched_dialog *)GetWindowLongPtrW(dialog, DWLP_USER);
  switch (msg) {
  case WM_INITDIALOG:
    d = (sched_dialog *)lp;
    SetWindowLongPtrW(dialog, DWLP_USER, (LONG_PTR)d);
    sched_list_columns(GetDlgItem(dialog, IDC_SCHED_LIST));
    SetForegroundWindow(dialog);
    sched_log_control(d, dialog, L"schedules", IDC_SCHED_LIST, L"List");
    sched_log_control(d, dialog, L"schedules", IDC_SCHED_ADD, L"Add");
    sched_log_control(d, dialog, L"schedules", IDC_SCHED_REMOVE, L"Remove");
    sched_log_control(d, dialog, L"schedules", IDCANCEL, L"Close");
    sched_list_request(dialog, d);
    return TRUE;
  case WM_COMMAND:
    switch (LOWORD(wp)) {
    case IDC_SCHED_ADD:
      if (!d->busy && DialogBoxParamW(d->instance, MAKEINTRESOURCEW(IDD_SCHED_ADD), dialog,
                                      sched_add_proc, (LPARAM)d) == IDOK)
        sched_list_request(dialog, d);
      return TRUE;
    case IDC_SCHED_REMOVE:
      if (!d->busy)
        sched_remove(dialog, d);
      return TRUE;
    case IDCANCEL:
      sched_call_cancel(d, dialog);
      EndDialog(dialog, IDCANCEL);
      return TRUE;
    default:
      return FALSE;
    }
  case WM_SCHED_REPLY: {
    sched_call *c = sched_call_done(d, lp);
    wchar_t text[600];
    if (!c->ok) {
      sched_widen(c->error, text, ARRAYSIZE(text));
      SetDlgItemTextW(dialog, IDC_SCHED_STATUS, text);
      tray_log(d->ctx, L"schedules refused | %ls", text);
    } else if (strcmp(c->request.verb, "schedule-list") == 0) {
      sched_list_fill(dialog, d, c);
    } else {
      tray_log(d->ctx, L"schedules removed");
      free(c);
      sched_list_request(dialog, d);
      return TRUE;
    }
    free(c);
    return TRUE;
  }
  default:
    return FALSE;
  }
}

void schedules_show(tray_ctx *ctx, HINSTANCE instance, HWND owner, const char *pipe) {
  INITCOMMONCONTROLSEX icc = {sizeof icc, ICC_LISTVIEW_CLASSES};
  InitCommonControlsEx(&icc);
  sched_dialog d;
  ZeroMemory(&d, sizeof d);
  d.ctx = ctx;
  d.instance = instance;
  d.pipe = pipe;
  tray_log(ctx, L"schedules open");
  DialogBoxParamW(instance, MAKEINTRESOURCEW(IDD_SCHEDULES), owner, sched_list_proc, (LPARAM)&d);
  tray_log(ctx, L"schedules closed");
}

/* ---------------------------------------------------------------- Start the service */

/* Starting a service needs an administrator's elevated token, so threadsoup.exe (beside the tray)
   is started with the "runas" verb. With UAC on, Windows shows its consent prompt: to a member of
   Administrators running with the filtered (split) token, a Yes/No prompt naming the program; to a
   standard user, a credentials prompt asking for an administrator's name and password. When the
   user refuses, ShellExecuteEx fails with ERROR_CANCELLED. With UAC off (and under Wine) the
   program just runs. The tray's connection thread retries on the next right click, and a request
   that finds the subscription down asks it to follow again. */
/* Waits (off the window's thread) for threadsoup.exe service start to end, which waits for the
   service to run as long as it reports progress (at most 5 minutes), then asks the tray to follow
   the service again. A command still running after 6 minutes is reported as STILL_ACTIVE, not as
   a failure. */
#define SCHED_START_WAIT_MS (6 * 60 * 1000)
static DWORD WINAPI sched_start_wait(void *arg) {
  SHELLEXECUTEINFOW *info = arg;
  DWORD code = STILL_ACTIVE;
  if (WaitForSingleObject(info->hProcess, SCHED_START_WAIT_MS) == WAIT_OBJECT_0 &&
      !GetExitCodeProcess(info->hProcess, &code))
    code = 1;
  CloseHandle(info->hProcess);
  PostMessageW(info->hwnd, WM_SCHED_SERVICE_STARTED, code, 0);
  free(info);
  return 0;
}

void schedules_start_service(tray_ctx *ctx, HWND owner, wchar_t *failure, size_t count) {
  wchar_t exe[MAX_PATH + 32];
  failure[0] = L'\0';
  DWORD n = GetModuleFileNameW(NULL, exe, MAX_PATH);
  wchar_t *slash = n > 0 && n < MAX_PATH ? wcsrchr(exe, L'\\') : NULL;
  SHELLEXECUTEINFOW *info = calloc(1, sizeof *info);
  if (slash == NULL || info == NULL) {
    lstrcpynW(failure, L"The tray could not find its own folder.", (int)count);
    free(info);
    return;
  }
  lstrcpyW(slash + 1, L"threadsoup.exe");
  info->cbSize = sizeof *info;
  info->fMask = SEE_MASK_NOASYNC | SEE_MASK_FLAG_NO_UI | SEE_MASK_NOCLOSEPROCESS;
  info->hwnd = owner;
  info->lpVerb = L"runas";
  info->lpFile = exe;
  info->lpParameters = L"service start";
  info->nShow = SW_HIDE;
  if (ShellExecuteExW(info)) {
    tray_log(ctx, L"start-service | %ls service start", exe);
    HANDLE thread =
        info->hProcess != NULL ? CreateThread(NULL, 0, sched_start_wait, info, 0, NULL) : NULL;
    if (thread != NULL) {
      CloseHandle(thread);
    } else {
      if (info->hProcess != NULL)
        CloseHandle(info->hProcess);
      free(info);
      PostMessageW(owner, WM_SCHED_SERVICE_STARTED, 0, 0);
    }
    return;
  }
  DWORD error = GetLastError();
  free(info);
  if (error == ERROR_CANCELLED)
    lstrcpynW(failure, L"The service was not started: elevation was refused", (int)count);
  else
    swprintf(failure, count, L"The service was not started: %ls could not be run (error %lu)", exe,
             (unsigned long)error);
  tray_log(ctx, L"start-service failed | %ls", failure);
}

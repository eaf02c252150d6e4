/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* schedules.c - the tray's Schedules dialog: list, add (a preset of the service's catalog or a
   plan file) and remove the service's schedules. */
#include "part.h"

#include <commctrl.h>

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "../menu_items.h"
#include "../resource.h"

#define SCHED_MAX_ROWS 200
#define SCHED_ROW_MAX 400
#define SCHED_PLAN_MAX 16000 /* a plan file's text; the protocol's message is 64 KiB */

/* One request and its answer (about 200 KiB: on the heap). The dialog fills the request, the
   thread the answer; the dialog frees it. */
typedef struct sched_call {
  HWND dialog;
  tray_shell *shell;
  tray_slot *slot; /* the dialog's */
  proto_message request;
  int ok; /* the service answered ok */
  char error[600];
  int rows;
  char row[SCHED_MAX_ROWS][SCHED_ROW_MAX]; /* schedule-list's `schedule` values */
  proto_message msg;
} sched_call;

/* What a dialog keeps while it is open. */
typedef struct sched_dialog {
  tray_shell *shell;
  tray_slot slot; /* the request in flight, which closing the dialog wakes */
  plat_thread thread;
  BOOL busy; /* a request thread runs: it is joined when its answer arrives or the dialog goes */
} sched_dialog;

/* ---------------------------------------------------------------- the request thread */

/* The request, its answer, and the answer posted to the dialog. */
static void sched_call_main(void *arg) {
  sched_call *c = arg;
  ts_err err;
  int rc = tray_call(c->shell, c->slot, &c->request, &c->msg, &err);
  if (rc != TS_OK) {
    snprintf(c->error, sizeof c->error, "%s", err.text);
  } else if (c->msg.kind == PROTO_ERROR) {
    snprintf(c->error, sizeof c->error, "%s", call_refusal_text(&c->msg));
  } else {
    c->ok = 1;
    for (int i = 0; i < c->msg.field_count && c->rows < SCHED_MAX_ROWS; i++)
      if (strcmp(c->msg.fields[i].key, "schedule") == 0)
        snprintf(c->row[c->rows++], SCHED_ROW_MAX, "%s", proto_value(&c->msg, i));
  }
  if (!PostMessageW(c->dialog, TRAY_WM_DIALOG_REPLY, 0, (LPARAM)c))
    free(c);
}

/* A new call for the dialog, or NULL (no memory). */
static sched_call *sched_call_new(HWND dialog, sched_dialog *d, const char *verb) {
  sched_call *c = calloc(1, sizeof *c);
  if (c == NULL)
    return NULL;
  c->dialog = dialog;
  c->shell = d->shell;
  c->slot = &d->slot;
  proto_init(&c->request, PROTO_REQUEST, verb);
  return c;
}

/* Starts the call's thread; FALSE (and c freed, the reason in `status`) when it cannot. */
static BOOL sched_call_start(sched_dialog *d, sched_call *c, HWND dialog, int status) {
  ts_err err;
  if (c != NULL && !d->busy &&
      plat_thread_start(&d->thread, TRAY_THREAD_STACK, sched_call_main, c, &err) == TS_OK) {
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
  if (d->busy) {
    tray_slot_cancel(d->shell, &d->slot);
    plat_thread_join(d->thread);
    d->slot.cancelled = FALSE; /* the slot serves the dialog's next request (Add's, the list's) */
  }
  d->busy = FALSE;
  MSG m;
  while (PeekMessageW(&m, dialog, TRAY_WM_DIALOG_REPLY, TRAY_WM_DIALOG_REPLY, PM_REMOVE))
    free((sched_call *)m.lParam);
}

/* The answer arrived: the thread has posted it as its last act. */
static sched_call *sched_call_done(sched_dialog *d, LPARAM lp) {
  if (d->busy)
    plat_thread_join(d->thread);
  d->busy = FALSE;
  return (sched_call *)lp;
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
  tray_log(d->shell, L"schedules add | %ls | %ls | %ls", file[0] ? file : preset, when, require);
  return sched_call_start(d, c, dialog, IDC_SCHED_ERROR);
}

static INT_PTR CALLBACK sched_add_proc(HWND dialog, UINT msg, WPARAM wp, LPARAM lp) {
  sched_dialog *d = (sched_dialog *)GetWindowLongPtrW(dialog, DWLP_USER);
  switch (msg) {
  case WM_INITDIALOG: {
    d = (sched_dialog *)lp;
    SetWindowLongPtrW(dialog, DWLP_USER, (LONG_PTR)d);
    /* The service's presets (its catalog), the default one chosen. */
    HWND combo = GetDlgItem(dialog, IDC_SCHED_PRESET);
    const tray_catalog *c = &d->shell->catalog;
    wchar_t names[TRAY_CATALOG_MAX * (TRAY_CATALOG_NAME + 3)] = L"";
    size_t used = 0;
    int chosen = 0;
    for (int i = 0; i < c->presets; i++) {
      wchar_t name[TRAY_CATALOG_NAME];
      tray_widen(c->preset[i], name, ARRAYSIZE(name));
      SendMessageW(combo, CB_ADDSTRING, 0, (LPARAM)name);
      if (strcmp(c->preset[i], c->preset_default) == 0)
        chosen = i;
      used += (size_t)swprintf(names + used, ARRAYSIZE(names) - used, L" | %ls", name);
    }
    SendMessageW(combo, CB_SETCURSEL, (WPARAM)chosen, 0);
    tray_log(d->shell, L"schedules presets%ls", names);
    SetDlgItemTextW(dialog, IDC_SCHED_WHEN, L"daily 03:00");
    tray_log_control(d->shell, dialog, L"add", IDC_SCHED_PRESET, L"Preset");
    tray_log_control(d->shell, dialog, L"add", IDC_SCHED_FILE, L"Plan file");
    tray_log_control(d->shell, dialog, L"add", IDC_SCHED_WHEN, L"When");
    tray_log_control(d->shell, dialog, L"add", IDC_SCHED_REQUIRE, L"Conditions");
    tray_log_control(d->shell, dialog, L"add", IDOK, L"OK");
    tray_log_control(d->shell, dialog, L"add", IDCANCEL, L"Cancel");
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
  case TRAY_WM_DIALOG_REPLY: {
    sched_call *c = sched_call_done(d, lp);
    if (c->ok) {
      tray_log(d->shell, L"schedules added");
      free(c);
      EndDialog(dialog, IDOK);
      return TRUE;
    }
    wchar_t text[600];
    tray_widen(c->error, text, ARRAYSIZE(text));
    free(c);
    SetDlgItemTextW(dialog, IDC_SCHED_ERROR, text);
    tray_log(d->shell, L"schedules add refused | %ls", text);
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
    tray_widen(part[order[i]], cell[i], SCHED_ROW_MAX);
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
  tray_log(d->shell, L"schedules row | %ls | %ls | %ls | %ls | %ls", cell[0], cell[1], cell[2],
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
  tray_log(d->shell, L"schedules list %d", c->rows);
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
  tray_log(d->shell, L"schedules remove | %ls", id);
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
    tray_log_control(d->shell, dialog, L"schedules", IDC_SCHED_LIST, L"List");
    tray_log_control(d->shell, dialog, L"schedules", IDC_SCHED_ADD, L"Add");
    tray_log_control(d->shell, dialog, L"schedules", IDC_SCHED_REMOVE, L"Remove");
    tray_log_control(d->shell, dialog, L"schedules", IDCANCEL, L"Close");
    sched_list_request(dialog, d);
    return TRUE;
  case WM_COMMAND:
    switch (LOWORD(wp)) {
    case IDC_SCHED_ADD:
      if (!d->busy && DialogBoxParamW(d->shell->instance, MAKEINTRESOURCEW(IDD_SCHED_ADD), dialog,
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
  case TRAY_WM_DIALOG_REPLY: {
    sched_call *c = sched_call_done(d, lp);
    wchar_t text[600];
    if (!c->ok) {
      tray_widen(c->error, text, ARRAYSIZE(text));
      SetDlgItemTextW(dialog, IDC_SCHED_STATUS, text);
      tray_log(d->shell, L"schedules refused | %ls", text);
    } else if (strcmp(c->request.verb, "schedule-list") == 0) {
      sched_list_fill(dialog, d, c);
    } else {
      tray_log(d->shell, L"schedules removed");
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

static void schedules_menu(tray_shell *shell, tray_menu *menu) {
  AppendMenuW(menu->main, MF_STRING | tray_enabled(shell->shown.connected), IDM_SCHEDULES,
              TRAY_ITEM_LABELS[TRAY_ITEM_SCHEDULES]);
}

/* The Schedules dialog, modal to the tray's hidden window. */
static BOOL schedules_command(tray_shell *shell, UINT id) {
  if (id != IDM_SCHEDULES)
    return FALSE;
  INITCOMMONCONTROLSEX icc = {sizeof icc, ICC_LISTVIEW_CLASSES};
  InitCommonControlsEx(&icc);
  sched_dialog d;
  ZeroMemory(&d, sizeof d);
  d.shell = shell;
  tray_log(shell, L"schedules open");
  DialogBoxParamW(shell->instance, MAKEINTRESOURCEW(IDD_SCHEDULES), shell->window, sched_list_proc,
                  (LPARAM)&d);
  tray_log(shell, L"schedules closed");
  return TRUE;
}

const tray_part tray_part_schedules = {
    .name = L"schedules",
    .menu = schedules_menu,
    .command = schedules_command,
};

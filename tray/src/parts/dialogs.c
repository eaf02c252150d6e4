/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* dialogs.c - the tray's Custom load and Record a score dialogs: they build the request the CLI
   would send, send it from a worker thread, and show the service's error in its own words. Their
   scenarios and benchmarks are the service's (its catalog). */
#include "part.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "../load_form.h"
#include "../menu_items.h"
#include "../resource.h"

#define DIALOGS_TEXT_MAX 600
#define DIALOGS_HISTORY_LIMIT "20"

/* One request in flight and its answer. On the heap: two protocol messages are ~130 KiB. */
typedef struct dialogs_call {
  HWND dialog;
  tray_shell *shell;
  tray_slot slot; /* closing the dialog wakes a blocked read */
  plat_thread thread;
  BOOL running;
  proto_message request;
  /* The answer: ok, or the text to show (the service's message, or why it was not reached). */
  BOOL ok;
  char error[DIALOGS_TEXT_MAX];
  proto_message reply;
} dialogs_call;

/* What one open dialog knows. */
typedef struct dialogs_state {
  UINT id; /* IDM_CUSTOM_LOAD or IDM_RECORD_SCORE */
  const wchar_t *name;
  tray_shell *shell;
  dialogs_call *call;
  char sent_verb[PROTO_MAX_NAME]; /* the request in flight: history or the dialog's own */
} dialogs_state;

/* ---------------------------------------------------------------- the worker */

/* The request and its reply; posts TRAY_WM_DIALOG_REPLY at the end. */
static void dialogs_worker(void *arg) {
  dialogs_call *call = arg;
  ts_err err;
  int rc = tray_call(call->shell, &call->slot, &call->request, &call->reply, &err);
  call->ok = FALSE;
  if (rc != TS_OK)
    snprintf(call->error, sizeof call->error, "%s", err.text);
  else if (call->reply.kind == PROTO_ERROR) /* the service's own words, as the CLI prints them */
    snprintf(call->error, sizeof call->error, "%s", call_refusal_text(&call->reply));
  else
    call->ok = TRUE;
  PostMessageW(call->dialog, TRAY_WM_DIALOG_REPLY, 0, 0);
}

/* Starts call->request on a worker; FALSE (with the reason shown) when one runs already. */
static BOOL dialogs_send(HWND dialog, dialogs_state *st, int error_id) {
  dialogs_call *call = st->call;
  if (call->running)
    return FALSE;
  call->slot.cancelled = FALSE;
  call->error[0] = '\0';
  snprintf(st->sent_verb, sizeof st->sent_verb, "%s", call->request.verb);
  ts_err err;
  if (plat_thread_start(&call->thread, TRAY_THREAD_STACK, dialogs_worker, call, &err) != TS_OK) {
    SetDlgItemTextA(dialog, error_id, err.text);
    return FALSE;
  }
  call->running = TRUE;
  EnableWindow(GetDlgItem(dialog, IDOK), FALSE);
  return TRUE;
}

/* Ends a call in flight (the dialog is closing): wakes its read and waits for the worker. */
static void dialogs_cancel(dialogs_call *call) {
  if (!call->running)
    return;
  tray_slot_cancel(call->shell, &call->slot);
  plat_thread_join(call->thread);
  call->running = FALSE;
  /* Its TRAY_WM_DIALOG_REPLY may still be queued: harmless, running is FALSE now. */
}

/* ---------------------------------------------------------------- fields */

/* A control's text as UTF-8 (cut to `size`). */
static void dialogs_text(HWND dialog, int id, char *out, size_t size) {
  wchar_t wide[512];
  GetDlgItemTextW(dialog, id, wide, ARRAYSIZE(wide));
  tray_narrow(wide, out, size);
}

static void dialogs_fill(HWND dialog, int id, const wchar_t *const *items, size_t count,
                         int select) {
  for (size_t i = 0; i < count; i++)
    SendDlgItemMessageW(dialog, id, CB_ADDSTRING, 0, (LPARAM)items[i]);
  SendDlgItemMessageW(dialog, id, CB_SETCURSEL, (WPARAM)select, 0);
}

/* Shows an error in the dialog's static text and writes it to the log. */
static void dialogs_show_error(HWND dialog, const dialogs_state *st, int id, const char *text) {
  wchar_t wide[DIALOGS_TEXT_MAX];
  tray_widen(text, wide, ARRAYSIZE(wide));
  SetDlgItemTextW(dialog, id, wide);
  tray_log(st->shell, L"dialog %ls error %ls", st->name, wide);
}

/* Logs where each control is on the screen, so a test can click it: "dialog NAME control LABEL
   at X,Y" (the control's centre). */
static void dialogs_log_controls(HWND dialog, const dialogs_state *st) {
  static const struct {
    int id;
    const wchar_t *label;
  } controls[] = {
      {IDC_LOAD_SCENARIO, L"scenario"},
      {IDC_LOAD_COUNT, L"count"},
      {IDC_LOAD_INTERVAL, L"interval"},
      {IDC_LOAD_PHASE, L"phase"},
      {IDC_LOAD_TIMER, L"timer"},
      {IDC_LOAD_RESOLUTION, L"resolution"},
      {IDC_LOAD_STACK, L"stack"},
      {IDC_LOAD_JOINED, L"joined"},
      {IDC_RECORD_BENCH, L"bench"},
      {IDC_RECORD_CONDITION, L"condition"},
      {IDC_RECORD_SCORE, L"score"},
      {IDC_RECORD_RUN, L"run"},
      {IDOK, L"ok"},
      {IDCANCEL, L"cancel"},
  };
  for (size_t i = 0; i < ARRAYSIZE(controls); i++)
    tray_log_control(st->shell, dialog, st->name, controls[i].id, controls[i].label);
  RECT all;
  if (GetWindowRect(dialog, &all))
    tray_log(st->shell, L"dialog %ls open at %ld,%ld size %ldx%ld", st->name, all.left, all.top,
             all.right - all.left, all.bottom - all.top);
}

/* ---------------------------------------------------------------- Custom load */

/* "" first: the engine's default, which the condition then leaves unsaid. */
static const wchar_t *const DIALOGS_PHASES[] = {L"", L"spread", L"sync"};
static const wchar_t *const DIALOGS_TIMERS[] = {L"", L"relative", L"absolute"};
static const wchar_t *const DIALOGS_RESOLUTIONS[] = {L"", L"default", L"high"};

/* Adds the catalog's names (UTF-8) to a combo box and logs them: "dialog NAME WHAT | a | b". */
static void dialogs_fill_names(HWND dialog, const dialogs_state *st, int id, const wchar_t *what,
                               const char (*names)[TRAY_CATALOG_NAME], int count, int select) {
  wchar_t logged[TRAY_CATALOG_MAX * (TRAY_CATALOG_NAME + 3)] = L"";
  size_t used = 0;
  for (int i = 0; i < count; i++) {
    wchar_t name[TRAY_CATALOG_NAME];
    tray_widen(names[i], name, ARRAYSIZE(name));
    SendDlgItemMessageW(dialog, id, CB_ADDSTRING, 0, (LPARAM)name);
    used += (size_t)swprintf(logged + used, ARRAYSIZE(logged) - used, L" | %ls", name);
  }
  SendDlgItemMessageW(dialog, id, CB_SETCURSEL, (WPARAM)select, 0);
  tray_log(st->shell, L"dialog %ls %ls%ls", st->name, what, logged);
}

static void dialogs_load_init(HWND dialog, const dialogs_state *st) {
  const tray_catalog *c = &st->shell->catalog;
  dialogs_fill_names(dialog, st, IDC_LOAD_SCENARIO, L"scenarios", c->scenario, c->scenarios, 0);
  dialogs_fill(dialog, IDC_LOAD_PHASE, DIALOGS_PHASES, ARRAYSIZE(DIALOGS_PHASES), 0);
  dialogs_fill(dialog, IDC_LOAD_TIMER, DIALOGS_TIMERS, ARRAYSIZE(DIALOGS_TIMERS), 0);
  dialogs_fill(dialog, IDC_LOAD_RESOLUTION, DIALOGS_RESOLUTIONS, ARRAYSIZE(DIALOGS_RESOLUTIONS), 0);
}

static void dialogs_load_ok(HWND dialog, dialogs_state *st) {
  char scenario[32], count[64], interval[64], phase[32], timer[32], resolution[32], stack[64];
  char joined[256], spec[512];
  dialogs_text(dialog, IDC_LOAD_SCENARIO, scenario, sizeof scenario);
  dialogs_text(dialog, IDC_LOAD_COUNT, count, sizeof count);
  dialogs_text(dialog, IDC_LOAD_INTERVAL, interval, sizeof interval);
  dialogs_text(dialog, IDC_LOAD_PHASE, phase, sizeof phase);
  dialogs_text(dialog, IDC_LOAD_TIMER, timer, sizeof timer);
  dialogs_text(dialog, IDC_LOAD_RESOLUTION, resolution, sizeof resolution);
  dialogs_text(dialog, IDC_LOAD_STACK, stack, sizeof stack);
  dialogs_text(dialog, IDC_LOAD_JOINED, joined, sizeof joined);
  load_form form = {scenario, count, interval, phase, timer, resolution, stack, joined};
  if (load_form_spec(&form, spec, sizeof spec) != 0) {
    dialogs_show_error(dialog, st, IDC_LOAD_ERROR, "the load's text is too long");
    return;
  }
  ts_err err;
  proto_init(&st->call->request, PROTO_REQUEST, "load-start");
  if (proto_add(&st->call->request, "spec", spec, &err) != TS_OK) {
    dialogs_show_error(dialog, st, IDC_LOAD_ERROR, err.text);
    return;
  }
  SetDlgItemTextW(dialog, IDC_LOAD_ERROR, L"Starting the load\u2026");
  tray_log(st->shell, L"dialog %ls sends load-start %hs", st->name, spec);
  dialogs_send(dialog, st, IDC_LOAD_ERROR);
}

/* ---------------------------------------------------------------- Record a score */

static void dialogs_record_init(HWND dialog, dialogs_state *st) {
  /* Every benchmark of the service: a score may come from a run elsewhere, so one that cannot
     run on the service's machine is offered too. */
  const tray_catalog *c = &st->shell->catalog;
  dialogs_fill_names(dialog, st, IDC_RECORD_BENCH, L"benches", c->bench, c->benches, -1);
  SetDlgItemTextW(dialog, IDC_RECORD_CONDITION, L"baseline");
  /* Item data: the run's number; 0 for a new run. */
  LRESULT at = SendDlgItemMessageW(dialog, IDC_RECORD_RUN, CB_ADDSTRING, 0, (LPARAM)L"New run");
  SendDlgItemMessageW(dialog, IDC_RECORD_RUN, CB_SETITEMDATA, (WPARAM)at, 0);
  SendDlgItemMessageW(dialog, IDC_RECORD_RUN, CB_SETCURSEL, 0, 0);
  /* The recent runs come from the service; until then only "New run" is offered. */
  ts_err err;
  proto_init(&st->call->request, PROTO_REQUEST, "history");
  if (proto_add(&st->call->request, "limit", DIALOGS_HISTORY_LIMIT, &err) == TS_OK)
    dialogs_send(dialog, st, IDC_RECORD_ERROR);
}

/* history's rows, "id|started|plan|status|done/total|detail", as "Run N — date plan". */
static void dialogs_record_runs(HWND dialog, const dialogs_state *st) {
  const proto_message *reply = &st->call->reply;
  for (int i = 0; i < reply->field_count; i++) {
    if (strcmp(reply->fields[i].key, "run") != 0)
      continue;
    char row[512];
    snprintf(row, sizeof row, "%s", proto_value(reply, i));
    char *parts[4] = {row, NULL, NULL, NULL};
    for (int p = 1; p < 4 && parts[p - 1] != NULL; p++) {
      char *bar = strchr(parts[p - 1], '|');
      if (bar != NULL)
        *bar++ = '\0';
      parts[p] = bar;
    }
    long id = atol(parts[0]);
    if (id <= 0 || parts[2] == NULL)
      continue;
    char date[16];
    snprintf(date, sizeof date, "%.10s", parts[1]); /* the day of "2026-12-03T20:30:00Z" */
    wchar_t label[256], plan[128];
    tray_widen(parts[2], plan, ARRAYSIZE(plan));
    swprintf(label, ARRAYSIZE(label), L"Run %ld \u2014 %hs %ls", id, date, plan);
    LRESULT at = SendDlgItemMessageW(dialog, IDC_RECORD_RUN, CB_ADDSTRING, 0, (LPARAM)label);
    if (at >= 0)
      SendDlgItemMessageW(dialog, IDC_RECORD_RUN, CB_SETITEMDATA, (WPARAM)at, (LPARAM)id);
    tray_log(st->shell, L"dialog %ls run-choice %ls", st->name, label);
  }
}

static void dialogs_record_ok(HWND dialog, dialogs_state *st) {
  char bench[128], condition[256], score[64], run[32];
  dialogs_text(dialog, IDC_RECORD_BENCH, bench, sizeof bench);
  dialogs_text(dialog, IDC_RECORD_CONDITION, condition, sizeof condition);
  dialogs_text(dialog, IDC_RECORD_SCORE, score, sizeof score);
  LRESULT at = SendDlgItemMessageW(dialog, IDC_RECORD_RUN, CB_GETCURSEL, 0, 0);
  LRESULT id = at < 0 ? 0 : SendDlgItemMessageW(dialog, IDC_RECORD_RUN, CB_GETITEMDATA, at, 0);
  if (id > 0)
    snprintf(run, sizeof run, "%ld", (long)id);
  else
    snprintf(run, sizeof run, "new");
  ts_err err;
  proto_message *req = &st->call->request;
  proto_init(req, PROTO_REQUEST, "record");
  /* Empty fields go as they are: the service names what each needs, as for the CLI. */
  int rc = proto_add(req, "run", run, &err);
  if (rc == TS_OK && bench[0] != '\0')
    rc = proto_add(req, "bench", bench, &err);
  if (rc == TS_OK && condition[0] != '\0')
    rc = proto_add(req, "condition", condition, &err);
  if (rc == TS_OK && score[0] != '\0')
    rc = proto_add(req, "score", score, &err);
  if (rc != TS_OK) {
    dialogs_show_error(dialog, st, IDC_RECORD_ERROR, err.text);
    return;
  }
  SetDlgItemTextW(dialog, IDC_RECORD_ERROR, L"Recording\u2026");
  tray_log(st->shell, L"dialog %ls sends record run %hs bench %hs condition %hs score %hs",
           st->name, run, bench, condition, score);
  dialogs_send(dialog, st, IDC_RECORD_ERROR);
}

/* ---------------------------------------------------------------- both */

static void dialogs_done(HWND dialog, dialogs_state *st) {
  dialogs_call *call = st->call;
  if (!call->running)
    return;
  plat_thread_join(call->thread);
  call->running = FALSE;
  EnableWindow(GetDlgItem(dialog, IDOK), TRUE);
  int error_id = st->id == IDM_CUSTOM_LOAD ? IDC_LOAD_ERROR : IDC_RECORD_ERROR;
  if (strcmp(st->sent_verb, "history") == 0) {
    /* Without the list the dialog still records into a new run; say why it is missing. */
    if (call->ok)
      dialogs_record_runs(dialog, st);
    else
      dialogs_show_error(dialog, st, error_id, call->error);
    if (call->ok)
      SetDlgItemTextW(dialog, error_id, L"");
    return;
  }
  if (!call->ok) {
    dialogs_show_error(dialog, st, error_id, call->error);
    return;
  }
  if (st->id == IDM_RECORD_SCORE)
    tray_log(st->shell, L"dialog %ls recorded run %hs trial %hs", st->name,
             proto_get(&call->reply, "run") ? proto_get(&call->reply, "run") : "?",
             proto_get(&call->reply, "trial") ? proto_get(&call->reply, "trial") : "?");
  else
    tray_log(st->shell, L"dialog %ls started %hs", st->name,
             proto_get(&call->reply, "load") ? proto_get(&call->reply, "load") : "?");
  EndDialog(dialog, IDOK);
}

static INT_PTR CALLBACK dialogs_proc(HWND dialog, UINT msg, WPARAM wp, LPARAM lp) {
  dialogs_state *st = (dialogs_state *)GetWindowLongPtrW(dialog, DWLP_USER);
  switch (msg) {
  case WM_INITDIALOG:
    st = (dialogs_state *)lp;
    SetWindowLongPtrW(dialog, DWLP_USER, (LONG_PTR)st);
    st->call->dialog = dialog;
    if (st->id == IDM_CUSTOM_LOAD)
      dialogs_load_init(dialog, st);
    else
      dialogs_record_init(dialog, st);
    /* Opened from the tray's menu: in front, so that typing reaches it. */
    SetForegroundWindow(dialog);
    dialogs_log_controls(dialog, st);
    return TRUE;
  case TRAY_WM_DIALOG_REPLY:
    if (st != NULL)
      dialogs_done(dialog, st);
    return TRUE;
  case WM_COMMAND:
    if (st == NULL)
      return FALSE;
    if (LOWORD(wp) == IDOK) {
      if (st->call->running)
        return TRUE; /* OK is disabled meanwhile; Enter still arrives */
      if (st->id == IDM_CUSTOM_LOAD)
        dialogs_load_ok(dialog, st);
      else
        dialogs_record_ok(dialog, st);
      return TRUE;
    }
    if (LOWORD(wp) == IDCANCEL) {
      dialogs_cancel(st->call);
      tray_log(st->shell, L"dialog %ls cancelled", st->name);
      EndDialog(dialog, IDCANCEL);
      return TRUE;
    }
    return FALSE;
  default:
    return FALSE;
  }
}

/* Shows the dialog of menu command `id` and returns when it closes; the window thread's
   messages keep flowing meanwhile. */
static void dialogs_show(tray_shell *shell, UINT id) {
  dialogs_state st;
  ZeroMemory(&st, sizeof st);
  st.id = id;
  st.name = id == IDM_CUSTOM_LOAD ? L"custom-load" : L"record-score";
  st.shell = shell;
  st.call = calloc(1, sizeof *st.call);
  if (st.call == NULL)
    return;
  st.call->shell = shell;
  int template_id = id == IDM_CUSTOM_LOAD ? IDD_CUSTOM_LOAD : IDD_RECORD_SCORE;
  DialogBoxParamW(shell->instance, MAKEINTRESOURCEW(template_id), NULL, dialogs_proc, (LPARAM)&st);
  dialogs_cancel(st.call); /* the dialog may have ended another way (WM_CLOSE from outside) */
  free(st.call);
}

/* Custom load… at the end of Start load's submenu; Record a score… after the experiment items. */
static void dialogs_menu(tray_shell *shell, tray_menu *menu) {
  if (menu->loads != NULL)
    AppendMenuW(menu->loads, MF_STRING, IDM_CUSTOM_LOAD, TRAY_CUSTOM_LOAD_LABEL);
  AppendMenuW(menu->main, MF_STRING | tray_enabled(shell->shown.connected), IDM_RECORD_SCORE,
              TRAY_ITEM_LABELS[TRAY_ITEM_RECORD_SCORE]);
  AppendMenuW(menu->main, MF_SEPARATOR, 0, NULL);
}

static BOOL dialogs_command(tray_shell *shell, UINT id) {
  if (id != IDM_CUSTOM_LOAD && id != IDM_RECORD_SCORE)
    return FALSE;
  dialogs_show(shell, id);
  return TRUE;
}

const tray_part tray_part_dialogs = {
    .name = L"dialogs",
    .menu = dialogs_menu,
    .command = dialogs_command,
};

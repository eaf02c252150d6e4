/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* link.c - the tray's link to the service: every call goes through call.c on a connection that
   quitting (or a closing dialog) can wake; the connection thread follows the service's events,
   keeps what the icon shows and the service's catalog, and answers its idle queries. */
#include "shell.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static const wchar_t TRAY_NOT_RUNNING[] =
    L"ThreadSoup service not running \u2014 start it with threadsoup service start";

/* ---------------------------------------------------------------- calls */

int tray_link_open(tray_shell *shell, call_link *l, tray_slot *slot, ts_err *err) {
  int rc = call_link_connect(l, shell->pipe, err);
  if (rc != TS_OK)
    return rc;
  plat_mutex_lock(&shell->lock);
  BOOL refused = shell->quitting || slot->cancelled;
  if (!refused)
    slot->conn = l->conn;
  plat_mutex_unlock(&shell->lock);
  if (refused) {
    call_link_close(l);
    return ts_err_set(err, TS_EINTERRUPTED, "the tray is closing");
  }
  return TS_OK;
}

void tray_link_close(tray_shell *shell, call_link *l, tray_slot *slot) {
  if (l->conn == NULL)
    return;
  plat_mutex_lock(&shell->lock);
  slot->conn = NULL;
  plat_mutex_unlock(&shell->lock);
  call_link_close(l);
}

int tray_call(tray_shell *shell, tray_slot *slot, const proto_message *request,
              proto_message *reply, ts_err *err) {
  call_link *l = call_link_new();
  if (l == NULL)
    return ts_err_set(err, TS_ENOMEM, "the tray has no memory for a request");
  int rc = tray_link_open(shell, l, slot, err);
  if (rc == TS_OK)
    rc = call_link_request(l, request, reply, err);
  tray_link_close(shell, l, slot);
  call_link_free(l);
  return rc;
}

void tray_slot_cancel(tray_shell *shell, tray_slot *slot) {
  plat_mutex_lock(&shell->lock);
  slot->cancelled = TRUE;
  plat_ipc_shutdown(slot->conn);
  plat_mutex_unlock(&shell->lock);
}

void tray_link_retry(tray_shell *shell) {
  plat_mutex_lock(&shell->lock);
  shell->retry = TRUE;
  plat_cond_broadcast(&shell->changed);
  plat_mutex_unlock(&shell->lock);
}

/* ---------------------------------------------------------------- what the icon shows */

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

/* The window's side of a new state: shown, then app.c's hook (a menu may wait for it). */
static void show_state(tray_shell *shell, void *data) {
  shell->shown = *(const tray_state *)data;
  tray_icon_update(shell);
  if (shell->state_changed)
    shell->state_changed(shell);
}

/* Sends the window a snapshot of the model, or of a failed connection when `failure` is set. */
static void tray_post_state(tray_shell *shell, const tray_model *model, const ts_err *failure) {
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
  tray_ui_post(shell, show_state, s);
}

/* ---------------------------------------------------------------- the catalog */

/* The name before the first '|' of a catalog row. */
static void row_name(const char *row, char *out, size_t size) {
  snprintf(out, size, "%.*s", (int)strcspn(row, "|"), row);
}

static void take_catalog(tray_shell *shell, void *data) {
  const tray_catalog *c = data;
  shell->catalog = *c;
  wchar_t presets[600] = L"";
  size_t used = 0;
  for (int i = 0; i < c->presets && used < ARRAYSIZE(presets); i++)
    used += (size_t)swprintf(presets + used, ARRAYSIZE(presets) - used, L" %hs", c->preset[i]);
  tray_log(shell, L"catalog presets%ls", presets);
}

/* Reads the `catalog` reply (docs/protocol.md) and hands it to the window. */
static void post_catalog(tray_shell *shell, const proto_message *m) {
  tray_catalog *c = calloc(1, sizeof *c);
  if (c == NULL)
    return;
  for (int i = 0; i < m->field_count; i++) {
    const char *key = m->fields[i].key, *value = proto_value(m, i);
    if (strcmp(key, "preset") == 0 && c->presets < TRAY_CATALOG_MAX)
      row_name(value, c->preset[c->presets++], TRAY_CATALOG_NAME);
    else if (strcmp(key, "preset-default") == 0)
      row_name(value, c->preset_default, sizeof c->preset_default);
    else if (strcmp(key, "scenario") == 0 && c->scenarios < TRAY_CATALOG_MAX)
      row_name(value, c->scenario[c->scenarios++], TRAY_CATALOG_NAME);
    else if (strcmp(key, "bench") == 0 && c->benches < TRAY_CATALOG_MAX)
      row_name(value, c->bench[c->benches++], TRAY_CATALOG_NAME);
    else if (strcmp(key, "bench-unavailable") == 0)
      for (int k = 0; k < c->benches; k++)
        if (strncmp(value, c->bench[k], strlen(c->bench[k])) == 0 &&
            value[strlen(c->bench[k])] == '|')
          c->bench_unavailable[k] = TRUE;
  }
  tray_ui_post(shell, take_catalog, c);
}

/* ---------------------------------------------------------------- the connection thread */

/* Answers the service's idle-query: only the user's session knows when its user last typed or
   moved the mouse. Nothing is sent unless asked, so an idle tray stays asleep. */
static void tray_answer_idle_query(tray_shell *shell) {
  LASTINPUTINFO info;
  info.cbSize = sizeof info;
  if (!GetLastInputInfo(&info))
    return; /* the service then records "unknown" */
  char seconds[16];
  /* Unsigned subtraction stays right across GetTickCount's wrap after 49.7 days. */
  snprintf(seconds, sizeof seconds, "%lu", (unsigned long)((GetTickCount() - info.dwTime) / 1000));
  tray_request(shell, "user-idle", "seconds", seconds, NULL, NULL, L"");
}

/* Folds one message of the subscription into the model; FALSE when nothing changed. */
static BOOL tray_model_apply(tray_shell *shell, tray_model *model, const proto_message *m) {
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
  } else if (strcmp(m->verb, "run-finished") == 0 && proto_get(m, "run") != NULL) {
    model->run = 0; /* its balloon is the results part's */
  } else if (strcmp(m->verb, "idle-query") == 0) {
    tray_answer_idle_query(shell);
    return FALSE;
  } else if (strcmp(m->verb, "run-note") == 0 && (value = proto_get(m, "text")) != NULL) {
    /* Only with --log (a test reads whether a run asked for quiet mode); nothing is shown. */
    if (shell->log != NULL) {
      wchar_t note[600];
      tray_widen(value, note, ARRAYSIZE(note));
      tray_log(shell, L"note | %ls", note);
    }
    return FALSE;
  } else if (strcmp(m->verb, "quiet-changed") == 0) {
    /* Nothing to show until the status asked for next (tray_follow) says until when. */
  } else {
    return FALSE; /* events of later versions change nothing shown */
  }
  return TRUE;
}

/* One subscription's buffers (about 460 KiB), on the heap. */
typedef struct follow_bufs {
  call_link *link;
  proto_message request, msg;
} follow_bufs;

/* Subscribes, asks for the catalog and the status, and follows the events until the connection
   ends; err says why it ended. */
static int follow(tray_shell *shell, follow_bufs *b, ts_err *err) {
  tray_model model;
  ZeroMemory(&model, sizeof model);
  int rc = tray_link_open(shell, b->link, &shell->events, err);
  if (rc != TS_OK)
    return rc;
  /* subscribe before status: an event sent in between is newer than nothing, and every later
     event is applied on top of the status. The catalog comes before the status, so that a menu
     waiting for this connection opens with it. */
  static const char *const FIRST[] = {"subscribe", "catalog", "status"};
  for (size_t i = 0; rc == TS_OK && i < ARRAYSIZE(FIRST); i++) {
    proto_init(&b->request, PROTO_REQUEST, FIRST[i]);
    rc = call_link_send(b->link, &b->request, err);
  }
  int replies = 0;
  while (rc == TS_OK) {
    rc = call_link_read(b->link, &b->msg, err);
    if (rc != TS_OK)
      break;
    BOOL reply = b->msg.kind != PROTO_EVENT;
    if (reply && ++replies == 2) {
      /* The catalog's: a service without one (an older version) refuses it; the lists stay as the
         last service gave them. */
      if (b->msg.kind == PROTO_OK)
        post_catalog(shell, &b->msg);
      continue;
    }
    if (b->msg.kind == PROTO_ERROR) {
      rc = ts_err_set(err, TS_EOS, "the service refused the tray (%s): %s", b->msg.verb,
                      call_refusal_text(&b->msg));
      break;
    }
    if (tray_model_apply(shell, &model, &b->msg) && model.have_status) {
      tray_post_state(shell, &model, NULL);
      /* An event says what changed, a status says it in numbers (threads, wake-ups, time left,
         quiet mode's end): ask for one on this connection, whose replies come in order with the
         events. The status reply itself is not followed by another. */
      if (b->msg.kind == PROTO_EVENT)
        rc = call_link_send(b->link, &b->request, err);
    }
    if (b->msg.kind == PROTO_EVENT && shell->event)
      shell->event(shell, &b->msg);
  }
  tray_link_close(shell, b->link, &shell->events);
  return rc;
}

/* The connection thread: follows the service while it runs. When it is not running, the thread
   sleeps until the window asks again (the user opened the menu): no timer, no polling. */
static void link_main(void *arg) {
  tray_shell *shell = arg;
  follow_bufs *b = malloc(sizeof *b);
  if (b != NULL && (b->link = call_link_new()) == NULL) {
    free(b);
    b = NULL;
  }
  for (;;) {
    ts_err err;
    if (b == NULL)
      ts_err_set(&err, TS_ENOMEM, "the tray has no memory for a connection");
    else
      follow(shell, b, &err);
    plat_mutex_lock(&shell->lock);
    if (!shell->quitting) {
      plat_mutex_unlock(&shell->lock);
      tray_post_state(shell, NULL, &err);
      plat_mutex_lock(&shell->lock);
    }
    while (!shell->retry && !shell->quitting)
      plat_cond_wait(&shell->changed, &shell->lock, UINT64_MAX);
    BOOL quitting = shell->quitting;
    shell->retry = FALSE;
    plat_mutex_unlock(&shell->lock);
    if (quitting)
      break;
  }
  if (b != NULL)
    call_link_free(b->link);
  free(b);
}

BOOL tray_link_start(tray_shell *shell) {
  ts_err err;
  if (plat_thread_start(&shell->link_thread, TRAY_THREAD_STACK, link_main, shell, &err) != TS_OK)
    return FALSE;
  shell->link_started = TRUE;
  return TRUE;
}

void tray_threads_stop(tray_shell *shell) {
  plat_mutex_lock(&shell->lock);
  shell->quitting = TRUE;
  plat_ipc_shutdown(shell->events.conn);
  plat_ipc_shutdown(shell->requests.conn);
  plat_cond_broadcast(&shell->changed);
  plat_mutex_unlock(&shell->lock);
  if (shell->link_started)
    plat_thread_join(shell->link_thread);
  if (shell->worker_started)
    plat_thread_join(shell->worker_thread);
  shell->link_started = shell->worker_started = FALSE;
}

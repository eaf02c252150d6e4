/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* worker.c - the request thread: the menu's requests run one after another off the window's
   thread, each on a connection of its own, so that a slow one (starting 15,000 threads) never
   holds up the menu or the events. */
#include "shell.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* Queues a request; FALSE when the queue is full or the tray closes. */
static BOOL enqueue(tray_shell *shell, const char *verb, const char *key, const char *value,
                    const char *key2, const char *value2, const wchar_t *what) {
  plat_mutex_lock(&shell->lock);
  BOOL queued = !shell->quitting && shell->job_count < TRAY_MAX_JOBS;
  if (queued) {
    tray_job *job = &shell->jobs[(shell->job_head + shell->job_count) % TRAY_MAX_JOBS];
    ZeroMemory(job, sizeof *job);
    snprintf(job->verb, sizeof job->verb, "%s", verb);
    snprintf(job->key, sizeof job->key, "%s", key ? key : "");
    snprintf(job->value, sizeof job->value, "%s", value ? value : "");
    snprintf(job->key2, sizeof job->key2, "%s", key2 ? key2 : "");
    snprintf(job->value2, sizeof job->value2, "%s", value2 ? value2 : "");
    lstrcpynW(job->what, what, ARRAYSIZE(job->what));
    shell->job_count++;
    plat_cond_broadcast(&shell->changed);
  }
  plat_mutex_unlock(&shell->lock);
  return queued;
}

void tray_request(tray_shell *shell, const char *verb, const char *key, const char *value,
                  const char *key2, const char *value2, const wchar_t *what) {
  /* Posted, not shown here: the connection thread queues the answer to an idle query too. */
  if (!enqueue(shell, verb, key, value, key2, value2, what) && what[0] != L'\0')
    tray_post_balloon(shell, NULL, TRAY_BALLOON_REFUSAL, what,
                      "Too many requests are waiting for the service; try again later.");
}

/* The buffers of one call: two messages (about 130 KiB), on the heap. */
typedef struct worker_call {
  proto_message request, reply;
} worker_call;

/* Runs one job; a failure or refusal becomes an error balloon unless the job fails silently. */
static void run_job(tray_shell *shell, worker_call *c, const tray_job *job) {
  ts_err err;
  proto_init(&c->request, PROTO_REQUEST, job->verb);
  int rc = TS_OK;
  if (job->key[0] != '\0')
    rc = proto_add(&c->request, job->key, job->value, &err);
  if (rc == TS_OK && job->key2[0] != '\0')
    rc = proto_add(&c->request, job->key2, job->value2, &err);
  if (rc == TS_OK)
    rc = tray_call(shell, &shell->requests, &c->request, &c->reply, &err);
  if (rc == TS_EINTERRUPTED || job->what[0] == L'\0')
    return;
  char text[600];
  /* Quiet mode's refusals (Tamper Protection, policy, rights, nothing to change here) are the
     service's own sentences: shown as they are, without the protocol's error word. */
  BOOL quiet = strncmp(job->verb, "quiet-", 6) == 0;
  if (rc != TS_OK) {
    snprintf(text, sizeof text, "%s", err.text);
  } else if (c->reply.kind == PROTO_ERROR) {
    if (quiet)
      snprintf(text, sizeof text, "%s", call_refusal_text(&c->reply));
    else
      snprintf(text, sizeof text, "%s: %s", c->reply.verb, call_refusal_text(&c->reply));
  } else {
    /* Done: the events say what changed. If the subscription is down (the service started after
       the tray last looked), this is the moment to follow it again. */
    plat_mutex_lock(&shell->lock);
    BOOL following = shell->events.conn != NULL;
    plat_mutex_unlock(&shell->lock);
    if (!following)
      tray_link_retry(shell);
    return;
  }
  wchar_t title[64];
  if (quiet)
    swprintf(title, ARRAYSIZE(title), L"Quiet mode was not turned %ls",
             strcmp(job->verb, "quiet-on") == 0 ? L"on" : L"off");
  else
    swprintf(title, ARRAYSIZE(title), L"%ls failed", job->what);
  tray_post_balloon(shell, NULL, TRAY_BALLOON_REFUSAL, title, text);
}

static void worker_main(void *arg) {
  tray_shell *shell = arg;
  worker_call *c = malloc(sizeof *c);
  for (;;) {
    tray_job job;
    plat_mutex_lock(&shell->lock);
    while (shell->job_count == 0 && !shell->quitting)
      plat_cond_wait(&shell->changed, &shell->lock, UINT64_MAX);
    BOOL quitting = shell->quitting;
    if (!quitting) {
      job = shell->jobs[shell->job_head];
      shell->job_head = (shell->job_head + 1) % TRAY_MAX_JOBS;
      shell->job_count--;
    }
    plat_mutex_unlock(&shell->lock);
    if (quitting)
      break;
    if (c != NULL)
      run_job(shell, c, &job);
    else if (job.what[0] != L'\0')
      tray_post_balloon(shell, NULL, TRAY_BALLOON_REFUSAL, job.what,
                        "the tray has no memory for a request");
  }
  free(c);
}

BOOL tray_worker_start(tray_shell *shell) {
  ts_err err;
  if (plat_thread_start(&shell->worker_thread, TRAY_THREAD_STACK, worker_main, shell, &err) !=
      TS_OK)
    return FALSE;
  shell->worker_started = TRUE;
  return TRUE;
}

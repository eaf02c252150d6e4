/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* ui.c - the one way other threads reach the UI thread: a function and its data posted to the
   tray's window (TRAY_WM_RUN), instead of a window message per feature. */
#include "shell.h"

#include <stdlib.h>

typedef struct tray_ui_job {
  tray_ui_fn fn;
  void *data;
} tray_ui_job;

void tray_ui_post(tray_shell *shell, tray_ui_fn fn, void *data) {
  tray_ui_job *job = malloc(sizeof *job);
  if (job != NULL) {
    job->fn = fn;
    job->data = data;
  }
  if (job == NULL || !PostMessageW(shell->window, TRAY_WM_RUN, 0, (LPARAM)job)) {
    free(data);
    free(job);
  }
}

void tray_ui_run(tray_shell *shell, LPARAM lp) {
  tray_ui_job *job = (tray_ui_job *)lp;
  job->fn(shell, job->data);
  free(job->data);
  free(job);
}

typedef struct tray_balloon {
  const struct tray_part *owner;
  tray_balloon_kind kind;
  wchar_t title[64]; /* szInfoTitle's size */
  wchar_t text[256]; /* szInfo's size */
} tray_balloon;

static void show_balloon(tray_shell *shell, void *data) {
  const tray_balloon *b = data;
  tray_icon_balloon(shell, b->owner, b->kind, b->title, b->text);
}

void tray_post_balloon(tray_shell *shell, const struct tray_part *owner, tray_balloon_kind kind,
                       const wchar_t *title, const char *text) {
  tray_balloon *b = calloc(1, sizeof *b);
  if (b == NULL)
    return;
  b->owner = owner;
  b->kind = kind;
  lstrcpynW(b->title, title, ARRAYSIZE(b->title));
  tray_widen(text, b->text, ARRAYSIZE(b->text));
  tray_ui_post(shell, show_balloon, b);
}

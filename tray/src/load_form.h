/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* load_form.h - the tray's Custom load form as the condition text `threadsoup load` accepts. */
#ifndef THREADSOUP_TRAY_LOAD_FORM_H
#define THREADSOUP_TRAY_LOAD_FORM_H

#include <stddef.h>

/* What the dialog's fields hold, as typed (UTF-8); "" or NULL for a field left empty. */
typedef struct load_form {
  const char *scenario;   /* sleep, yield, wait, procs, burn */
  const char *count;      /* burn: its duty (10%), which takes the count's place */
  const char *interval;   /* burn: its period */
  const char *phase;      /* spread, sync */
  const char *timer;      /* relative, absolute */
  const char *resolution; /* default, high */
  const char *stack;      /* KiB */
  const char *joined;     /* further parts: "procs:10 + wait:5:event", a leading '+' allowed */
} load_form;

/* Writes the condition ("sleep:700@500ms/phase=sync+procs:10") to out. Nothing is checked here
   beyond fitting: the service parses the text with the engine's parser and answers in the CLI's
   words. Returns 0, or -1 when the text does not fit in `size` bytes (out is then ""). */
int load_form_spec(const load_form *form, char *out, size_t size);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* load_form.c - builds the condition text of the tray's Custom load form; pure, so unit tested. */
#include "load_form.h"

#include <stdio.h>
#include <string.h>

/* Copies text without the spaces around it: a field typed as " 700 " means 700. */
static size_t load_form_trim(const char *text, const char **start) {
  if (text == NULL)
    text = "";
  while (*text == ' ' || *text == '\t')
    text++;
  size_t len = strlen(text);
  while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t'))
    len--;
  *start = text;
  return len;
}

/* Appends "PREFIX VALUE" when the field holds something; returns -1 when out is full. */
static int load_form_put(char *out, size_t size, size_t *used, const char *prefix,
                         const char *value) {
  const char *v;
  size_t len = load_form_trim(value, &v);
  if (len == 0)
    return 0;
  int n = snprintf(out + *used, size - *used, "%s%.*s", prefix, (int)len, v);
  if (n < 0 || (size_t)n >= size - *used)
    return -1;
  *used += (size_t)n;
  return 0;
}

int load_form_spec(const load_form *form, char *out, size_t size) {
  if (size == 0)
    return -1;
  size_t used = 0;
  out[0] = '\0';
  /* The engine's syntax: NAME:COUNT[@INTERVAL][/KEY=VALUE]... (burn: NAME:DUTY[@PERIOD]); an
     empty count is left out, so the engine says "'sleep' needs a count" as the CLI does. */
  int rc = load_form_put(out, size, &used, "", form->scenario);
  if (rc == 0)
    rc = load_form_put(out, size, &used, ":", form->count);
  if (rc == 0)
    rc = load_form_put(out, size, &used, "@", form->interval);
  if (rc == 0)
    rc = load_form_put(out, size, &used, "/phase=", form->phase);
  if (rc == 0)
    rc = load_form_put(out, size, &used, "/timer=", form->timer);
  if (rc == 0)
    rc = load_form_put(out, size, &used, "/resolution=", form->resolution);
  if (rc == 0)
    rc = load_form_put(out, size, &used, "/stack=", form->stack);
  /* Joined parts as typed, spaces around '+' dropped: "+ procs:10 + wait:5" -> "+procs:10+wait:5".
   */
  const char *joined;
  size_t len = load_form_trim(form->joined, &joined);
  if (rc == 0 && len > 0 && joined[0] != '+')
    rc = load_form_put(out, size, &used, "", "+");
  for (size_t i = 0; rc == 0 && i < len; i++) {
    char c[2] = {joined[i], '\0'};
    if (c[0] != ' ' && c[0] != '\t')
      rc = load_form_put(out, size, &used, "", c);
  }
  if (rc != 0)
    out[0] = '\0';
  return rc;
}

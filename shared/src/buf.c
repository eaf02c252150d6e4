/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* buf.c - text built piece by piece in a fixed buffer (buf.h). */
#include "threadsoup/buf.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>

ts_buf ts_buf_on(char *text, size_t size) {
  ts_buf b = {text, size, 0, 0, 0};
  if (size)
    text[0] = '\0';
  return b;
}

/* After a cut at text[len]: drops the last character if the cut split it, so the text stays
   valid UTF-8 (a cut name ends up in JSON and HTML reports too). */
static void keep_whole_characters(ts_buf *b) {
  size_t lead = b->len;
  /* Back over at most three continuation bytes (10xxxxxx) to the character's first byte. */
  while (lead > 0 && b->len - lead < 3 && ((unsigned char)b->text[lead - 1] & 0xc0) == 0x80)
    lead--;
  if (lead == 0)
    return;
  unsigned char first = (unsigned char)b->text[lead - 1];
  size_t need = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : first >= 0xc0 ? 2 : 1;
  if (lead - 1 + need > b->len) {
    b->len = lead - 1;
    b->text[b->len] = '\0';
  }
}

static void add_v(ts_buf *b, const char *fmt, va_list ap) {
  if (b->cut || b->size == 0) {
    b->cut = 1;
    return;
  }
  /* The invariant every append keeps: room for at least the NUL. A caller that wrote len or size
     itself would otherwise make vsnprintf write past the buffer. */
  assert(b->len < b->size);
  size_t room = b->size - b->len;
  int n = vsnprintf(b->text + b->len, room, fmt, ap);
  if (n < 0) { /* an encoding error: keep what was there */
    b->text[b->len] = '\0';
    b->cut = 1;
  } else if ((size_t)n < room) {
    b->len += (size_t)n;
  } else {
    b->len = b->size - 1;
    b->cut = 1;
    keep_whole_characters(b);
  }
}

void ts_buf_add(ts_buf *b, const char *text) { ts_buf_addf(b, "%s", text); }

void ts_buf_addf(ts_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_v(b, fmt, ap);
  va_end(ap);
}

void ts_buf_item(ts_buf *b, const char *sep, const char *text) {
  if (b->items++)
    ts_buf_add(b, sep);
  ts_buf_add(b, text);
}

void ts_buf_itemf(ts_buf *b, const char *sep, const char *fmt, ...) {
  if (b->items++)
    ts_buf_add(b, sep);
  va_list ap;
  va_start(ap, fmt);
  add_v(b, fmt, ap);
  va_end(ap);
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* buf.h - text built piece by piece in a fixed buffer, such as "known: a, b, c": appends never
   overrun it, what does not fit is cut off at a UTF-8 character boundary, and the buffer remembers
   that it was cut (later appends are then dropped, so a list never silently skips an item). No
   allocation: error messages are built with it. */
#ifndef THREADSOUP_BUF_H
#define THREADSOUP_BUF_H

#include <stddef.h>

#include "threadsoup/err.h"

typedef struct ts_buf {
  char *text;   /* NUL-terminated whenever size > 0 */
  size_t size;  /* of text, the NUL included */
  size_t len;   /* bytes in text before the NUL; always < size (0 when size is 0) */
  size_t items; /* items added with ts_buf_item, for the separator */
  int cut;      /* 1 once something did not fit */
} ts_buf;

/* A buffer writing into text[size], which it empties. */
ts_buf ts_buf_on(char *text, size_t size);
/* Appends text, or as much of it as fits. */
void ts_buf_add(ts_buf *b, const char *text);
void ts_buf_addf(ts_buf *b, const char *fmt, ...) TS_PRINTF(2, 3);
/* Appends one item of a list: sep before every item but the first ("a, b, c" with sep ", "). */
void ts_buf_item(ts_buf *b, const char *sep, const char *text);
void ts_buf_itemf(ts_buf *b, const char *sep, const char *fmt, ...) TS_PRINTF(3, 4);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* json_write.c - JSON strings as ThreadSoup writes them, one escaper for reports and export
   files. */
#include <string.h>

#include "threadsoup/json_write.h"
#include "threadsoup/utf8.h"

void ts_json_string(FILE *out, const char *text) {
  fputc('"', out);
  const unsigned char *p = (const unsigned char *)text;
  size_t left = strlen(text);
  while (left > 0) {
    size_t len = ts_utf8_char(p, left);
    if (len == 0)
      fputs("\\ufffd", out);
    else if (len > 1)
      fwrite(p, 1, len, out);
    else if (*p == '"' || *p == '\\')
      fprintf(out, "\\%c", *p);
    else if (*p == '\n')
      fputs("\\n", out);
    else if (*p == '\t')
      fputs("\\t", out);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(out, "\\u%04x", *p);
    else
      fputc(*p, out);
    len = len ? len : 1;
    p += len;
    left -= len;
  }
  fputc('"', out);
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* json_write.c - JSON values as ThreadSoup writes them: one string escaper and one number writer
   for reports, export files and the doctor. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "threadsoup/json_write.h"
#include "threadsoup/utf8.h"

/* \uXXXX, or the UTF-16 surrogate pair JSON spells a code point past U+FFFF with. */
static void json_escape_code_point(FILE *out, uint32_t cp) {
  if (cp > 0xFFFF) {
    cp -= 0x10000;
    fprintf(out, "\\u%04x\\u%04x", (unsigned)(0xD800 + (cp >> 10)),
            (unsigned)(0xDC00 + (cp & 0x3FF)));
  } else {
    fprintf(out, "\\u%04x", (unsigned)cp);
  }
}

void ts_json_string(FILE *out, const char *text) {
  fputc('"', out);
  const unsigned char *p = (const unsigned char *)text;
  size_t left = strlen(text);
  while (left > 0) {
    size_t len = ts_utf8_char(p, left);
    if (len == 0)
      fputs("\\ufffd", out);
    else if (len > 1 && ts_utf8_hidden(ts_utf8_decode(p, len)))
      json_escape_code_point(out, ts_utf8_decode(p, len));
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

void ts_json_number(FILE *out, double value, int digits) {
  if (isfinite(value))
    fprintf(out, "%.*g", digits, value);
  else
    fputs("null", out);
}

void ts_json_key(FILE *out, const char *key) {
  ts_json_string(out, key);
  fputc(':', out);
}

void ts_json_string_member(FILE *out, const char *key, const char *text) {
  fputc(',', out);
  ts_json_key(out, key);
  ts_json_string(out, text);
}

void ts_json_number_member(FILE *out, const char *key, double value, int digits) {
  fputc(',', out);
  ts_json_key(out, key);
  ts_json_number(out, value, digits);
}

void ts_json_range(FILE *out, int have, double low, double high, int digits) {
  if (!have) {
    fputs("null", out);
    return;
  }
  fputc('[', out);
  ts_json_number(out, low, digits);
  fputc(',', out);
  ts_json_number(out, high, digits);
  fputc(']', out);
}

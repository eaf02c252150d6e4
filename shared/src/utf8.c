/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* utf8.c - the one strict UTF-8 check (utf8.h), used by the protocol, the command line, plans and
   reports alike, and the escaping that keeps control characters out of text output. */
#include "threadsoup/utf8.h"

#include <stdio.h>
#include <string.h>

size_t ts_utf8_char(const unsigned char *s, size_t n) {
  if (n == 0)
    return 0;
  if (s[0] < 0x80)
    return 1;
  /* C0 and C1 only start overlong two-byte forms; F5-FF would start code points past U+10FFFF. */
  size_t len = s[0] >= 0xC2 && s[0] <= 0xDF   ? 2
               : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
               : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
                                              : 0;
  if (len == 0 || len > n)
    return 0;
  for (size_t i = 1; i < len; i++)
    if ((s[i] & 0xC0) != 0x80)
      return 0;
  /* Overlong three- and four-byte forms, surrogates (U+D800-DFFF), and past U+10FFFF. */
  if (len == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0)))
    return 0;
  if (len == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90)))
    return 0;
  return len;
}

int ts_utf8_valid(const char *text, size_t n) {
  const unsigned char *s = (const unsigned char *)text;
  for (size_t i = 0; i < n;) {
    size_t len = ts_utf8_char(s + i, n - i);
    if (len == 0)
      return 0;
    i += len;
  }
  return 1;
}

int ts_utf8_valid_str(const char *text) { return ts_utf8_valid(text, strlen(text)); }

/* The next character of text (left bytes) as it is printed, into piece (at least 17 bytes):
   itself, or \xNN for each byte of a control character or of bytes that are not UTF-8. Returns
   the bytes of text used. */
static size_t printable_piece(const unsigned char *s, size_t left, int keep_line_breaks,
                              char *piece) {
  size_t len = ts_utf8_char(s, left);
  /* C0 controls and DEL; C1 controls are U+0080-U+009F, encoded C2 80 to C2 9F. */
  int control = len == 1   ? (s[0] < 0x20 && !(keep_line_breaks && s[0] == '\n')) || s[0] == 0x7F
                : len == 2 ? s[0] == 0xC2 && s[1] < 0xA0
                           : 0;
  if (len == 0 || control) {
    size_t bytes = len == 0 ? 1 : len, o = 0;
    for (size_t k = 0; k < bytes; k++)
      o += (size_t)snprintf(piece + o, 17 - o, "\\x%02X", s[k]);
    return bytes;
  }
  memcpy(piece, s, len);
  piece[len] = '\0';
  return len;
}

char *ts_utf8_printable(const char *text, char *out, size_t size) {
  if (size == 0)
    return out;
  const unsigned char *s = (const unsigned char *)text;
  size_t left = strlen(text), o = 0;
  char piece[17];
  while (left > 0) {
    size_t used = printable_piece(s, left, 0, piece), n = strlen(piece);
    if (o + n >= size)
      break;
    memcpy(out + o, piece, n);
    o += n;
    s += used;
    left -= used;
  }
  out[o] = '\0';
  return out;
}

void ts_utf8_fputs_printable(const char *text, FILE *out) {
  const unsigned char *s = (const unsigned char *)text;
  size_t left = strlen(text);
  char piece[17];
  while (left > 0) {
    size_t used = printable_piece(s, left, 1, piece);
    fputs(piece, out);
    s += used;
    left -= used;
  }
}

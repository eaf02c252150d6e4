/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* utf8.c - the one strict UTF-8 check (utf8.h), used by the protocol, the command line, plans and
   reports alike, and the one printable filter that keeps control, bidi and other hidden
   characters out of every output. */
#include "threadsoup/utf8.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Code points that print nothing yet change the text around them: Unicode's format characters
   (category Cf, Unicode 15) - the bidi embeddings and overrides U+202A-202E, isolates
   U+2066-2069, marks U+200E, U+200F and U+061C, zero-width spaces and joiners, the byte order
   mark, the tags - and the line and paragraph separators U+2028 and U+2029, which JavaScript
   and some terminals take for line breaks. A name holding one can read as another name, or
   reorder the rest of its line ("exe.txt" shown for "txt.exe"). */
static const struct {
  uint32_t first, last;
} hidden[] = {
    {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
    {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},
    {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x206F},   {0xFEFF, 0xFEFF},
    {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F},
    {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F},
};

int ts_utf8_hidden(uint32_t code_point) {
  for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++)
    if (code_point >= hidden[i].first && code_point <= hidden[i].last)
      return 1;
  return 0;
}

uint32_t ts_utf8_decode(const unsigned char *s, size_t len) {
  static const unsigned char lead_bits[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  uint32_t cp = s[0] & lead_bits[len];
  for (size_t i = 1; i < len; i++)
    cp = cp << 6 | (s[i] & 0x3F);
  return cp;
}

size_t ts_utf8_printable_piece(const char *text, size_t left, int flags,
                               char piece[TS_UTF8_PIECE_SIZE]) {
  const unsigned char *s = (const unsigned char *)text;
  size_t len = ts_utf8_char(s, left);
  /* C0 controls and DEL; C1 controls are U+0080-U+009F, encoded C2 80 to C2 9F. */
  int keep = len == 1 && s[0] == '\n' && (flags & TS_UTF8_KEEP_NEWLINE);
  int control = len == 1   ? (s[0] < 0x20 && !keep) || s[0] == 0x7F
                : len == 2 ? s[0] == 0xC2 && s[1] < 0xA0
                           : 0;
  if (len == 0 || control) {
    size_t bytes = len == 0 ? 1 : len, o = 0;
    for (size_t k = 0; k < bytes; k++)
      o += (size_t)snprintf(piece + o, TS_UTF8_PIECE_SIZE - o, "\\x%02X", s[k]);
    return bytes;
  }
  uint32_t cp = ts_utf8_decode(s, len);
  if (len > 1 && ts_utf8_hidden(cp)) {
    snprintf(piece, TS_UTF8_PIECE_SIZE, "<U+%04" PRIX32 ">", cp);
    return len;
  }
  memcpy(piece, s, len);
  piece[len] = '\0';
  return len;
}

static char *printable_copy(const char *text, int flags, char *out, size_t size) {
  if (size == 0)
    return out;
  size_t left = strlen(text), o = 0;
  char piece[TS_UTF8_PIECE_SIZE];
  while (left > 0) {
    size_t used = ts_utf8_printable_piece(text, left, flags, piece), n = strlen(piece);
    if (o + n >= size)
      break;
    memcpy(out + o, piece, n);
    o += n;
    text += used;
    left -= used;
  }
  out[o] = '\0';
  return out;
}

char *ts_utf8_printable(const char *text, char *out, size_t size) {
  return printable_copy(text, 0, out, size);
}

char *ts_utf8_printable_lines(const char *text, char *out, size_t size) {
  return printable_copy(text, TS_UTF8_KEEP_NEWLINE, out, size);
}

void ts_utf8_fputs_printable(const char *text, FILE *out) {
  const unsigned char *s = (const unsigned char *)text;
  size_t left = strlen(text);
  char piece[TS_UTF8_PIECE_SIZE];
  while (left > 0) {
    size_t used = ts_utf8_printable_piece((const char *)s, left, TS_UTF8_KEEP_NEWLINE, piece);
    fputs(piece, out);
    s += used;
    left -= used;
  }
}

void ts_utf8_fprintf_printable(FILE *out, const char *format, ...) {
  char small[1024], *text = small;
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf(small, sizeof small, format, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n >= sizeof small && (text = malloc((size_t)n + 1)) != NULL) {
    va_start(ap, format);
    vsnprintf(text, (size_t)n + 1, format, ap);
    va_end(ap);
  }
  /* Without memory for a long line, its start is still written, escaped. */
  ts_utf8_fputs_printable(text ? text : small, out);
  if (text != small)
    free(text);
}

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* utf8.h - the one UTF-8 check of the program (strict: no overlong forms, surrogates, code points
   past U+10FFFF, lead bytes C0, C1 or F5-FF, or cut sequences), and text made safe for a terminal.
 */
#ifndef THREADSOUP_UTF8_H
#define THREADSOUP_UTF8_H

#include <stddef.h>
#include <stdio.h>

/* Length (1 to 4) of the valid UTF-8 character at s, which has n bytes left; 0 when the bytes there
   are not one (n == 0 included). */
size_t ts_utf8_char(const unsigned char *s, size_t n);
/* Whether the n bytes at text are valid UTF-8 (a NUL byte counts as the character U+0000). */
int ts_utf8_valid(const char *text, size_t n);
/* Whether the NUL-terminated text is valid UTF-8. */
int ts_utf8_valid_str(const char *text);
/* Copies text into out (size bytes, always terminated) for a terminal or a text report: control
   characters (C0, DEL, C1) and bytes that are not UTF-8 become \xNN, backslashes stay as they are.
   A cut never splits a character or an escape. Returns out. */
char *ts_utf8_printable(const char *text, char *out, size_t size);
/* Writes text to out escaped the same way, but for line breaks, which stay: for messages that
   quote names and values sent by anyone. */
void ts_utf8_fputs_printable(const char *text, FILE *out);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* utf8.h - the one UTF-8 check of the program (strict: no overlong forms, surrogates, code points
   past U+10FFFF, lead bytes C0, C1 or F5-FF, or cut sequences), and the one printable filter:
   text from the OS, the database or a file made safe for a terminal, a text report or CSV.

   The filter replaces what it takes out visibly, never silently: a control character (C0 with
   ESC, DEL, C1) and each byte that is not UTF-8 becomes \xNN, the bytes as a C string or a shell's
   printf would write them, so the name stays findable; a character that prints nothing yet
   reorders or hides text (the bidi controls, the other format characters, see ts_utf8_hidden)
   becomes <U+202E>, which names it. U+FFFD would say only that something was there. JSON and HTML
   escape in their own syntax (json_write.h, the report's HTML writer) with the same tests. */
#ifndef THREADSOUP_UTF8_H
#define THREADSOUP_UTF8_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "threadsoup/err.h"

/* Length (1 to 4) of the valid UTF-8 character at s, which has n bytes left; 0 when the bytes there
   are not one (n == 0 included). */
size_t ts_utf8_char(const unsigned char *s, size_t n);
/* Whether the n bytes at text are valid UTF-8 (a NUL byte counts as the character U+0000). */
int ts_utf8_valid(const char *text, size_t n);
/* Whether the NUL-terminated text is valid UTF-8. */
int ts_utf8_valid_str(const char *text);
/* The code point of the valid UTF-8 character of len bytes at s (len from ts_utf8_char). */
uint32_t ts_utf8_decode(const unsigned char *s, size_t len);
/* Whether a code point prints nothing yet changes the text around it: a Unicode format character
   (Cf: bidi embeddings, overrides and isolates U+202A-202E and U+2066-2069, the marks U+200E,
   U+200F, U+061C, zero-width characters, tags) or the separators U+2028 and U+2029. */
int ts_utf8_hidden(uint32_t code_point);

/* The largest piece of printable text one character becomes: four escaped bytes, \xNN each. */
#define TS_UTF8_PIECE_SIZE 17
/* ts_utf8_printable_piece's flags: line breaks (\n) stay, for messages and CSV fields. */
#define TS_UTF8_KEEP_NEWLINE 1
/* The next character of text (left bytes, at least 1) as the filter prints it, into piece: itself,
   \xNN per byte of a control character or of bytes that are not UTF-8, or <U+XXXX> for a hidden
   character. Returns the bytes of text used. The writers of every format build on it. */
size_t ts_utf8_printable_piece(const char *text, size_t left, int flags,
                               char piece[TS_UTF8_PIECE_SIZE]);
/* Copies text into out (size bytes, always terminated) for a terminal or a text report: control
   characters (C0 with tab and line break, DEL, C1) and bytes that are not UTF-8 become \xNN, hidden
   characters <U+XXXX>; backslashes stay as they are. A cut never splits a character or an escape.
   Returns out. */
char *ts_utf8_printable(const char *text, char *out, size_t size);
/* The same, but line breaks stay: for a window or a balloon that shows several lines. */
char *ts_utf8_printable_lines(const char *text, char *out, size_t size);
/* Writes text to out escaped the same way, but for line breaks, which stay: for messages that
   quote names and values sent by anyone. */
void ts_utf8_fputs_printable(const char *text, FILE *out);
/* fprintf through the same filter (line breaks stay): for output lines that hold text from the
   OS, the database or a file, so no byte a terminal acts on gets through whatever the line holds.
 */
void ts_utf8_fprintf_printable(FILE *out, const char *format, ...) TS_PRINTF(2, 3);

#endif

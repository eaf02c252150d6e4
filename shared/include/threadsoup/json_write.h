/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* json_write.h - JSON values as ThreadSoup writes them (reports, export files, the doctor):
   strings, numbers, object members; the reading side is json_read.h. */
#ifndef THREADSOUP_JSON_WRITE_H
#define THREADSOUP_JSON_WRITE_H

#include <stdio.h>

/* A JSON string: quotes, backslashes and control characters escaped; so are the characters that
   print nothing yet reorder or hide text (ts_utf8_hidden: the bidi controls, U+2028 and U+2029,
   which JavaScript reads as line breaks), as \uXXXX, so the value is kept and still seen; other
   UTF-8 passes through, and a byte that is not UTF-8 (a name stored before names were checked)
   becomes U+FFFD. */
void ts_json_string(FILE *out, const char *text);
/* A JSON number with `digits` significant digits (printf's %.*g); null when it is not finite,
   since JSON has no NaN or infinity (what was not measured). */
void ts_json_number(FILE *out, double value, int digits);
/* "key": - an object member's name, escaped, and its colon. */
void ts_json_key(FILE *out, const char *key);
/* ,"key":"text" and ,"key":number - a member after the first of an object. */
void ts_json_string_member(FILE *out, const char *key, const char *text);
void ts_json_number_member(FILE *out, const char *key, double value, int digits);
/* [low,high] when `have`, else null: an interval such as a confidence interval. */
void ts_json_range(FILE *out, int have, double low, double high, int digits);

#endif

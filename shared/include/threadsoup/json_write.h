/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* json_write.h - JSON strings as ThreadSoup writes them (reports, export files); the reading side
   is json_read.h. */
#ifndef THREADSOUP_JSON_WRITE_H
#define THREADSOUP_JSON_WRITE_H

#include <stdio.h>

/* A JSON string: quotes, backslashes and control characters escaped; UTF-8 passes through, and a
   byte that is not UTF-8 (a name stored before names were checked) becomes U+FFFD. */
void ts_json_string(FILE *out, const char *text);

#endif

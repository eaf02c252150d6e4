/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* json_read.h - a small strict JSON reader for the files ThreadSoup reads back (run export
   files); the writing side is json_write.h. */
#ifndef THREADSOUP_JSON_READ_H
#define THREADSOUP_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

#include "threadsoup/err.h"

/* How deep arrays and objects may nest, and how long a text may be: a file crafted to exhaust
   the stack or memory is refused instead. */
#define TS_JSON_MAX_DEPTH 32
#define TS_JSON_MAX_TEXT (16u * 1024u * 1024u)
/* How many members an object may have (a name given twice is refused, whatever the count). */
#define TS_JSON_MAX_MEMBERS 65536
#define TS_JSON_STR(x) TS_JSON_STR_(x)
#define TS_JSON_STR_(x) #x

typedef enum ts_json_type {
  TS_JSON_NULL,
  TS_JSON_FALSE,
  TS_JSON_TRUE,
  TS_JSON_NUMBER,
  TS_JSON_STRING,
  TS_JSON_ARRAY,
  TS_JSON_OBJECT
} ts_json_type;

typedef struct ts_json_value ts_json_value;

typedef struct ts_json_member {
  char *key; /* UTF-8, NUL-terminated */
  ts_json_value *value;
} ts_json_member;

struct ts_json_value {
  ts_json_type type;
  double number;   /* TS_JSON_NUMBER: strtod of its text (the nearest double) */
  int is_integer;  /* TS_JSON_NUMBER without fraction or exponent that fits int64_t */
  int64_t integer; /* its exact value when is_integer */
  char *text;      /* TS_JSON_STRING: the decoded UTF-8 text, NUL-terminated */
  size_t text_len; /* its length in bytes (a \u0000 makes it longer than strlen) */
  size_t count;    /* items of an array, members of an object */
  ts_json_value **items;
  ts_json_member *members; /* in the order written; a key appears at most once */
};

/* Parses exactly one JSON value (RFC 8259; whitespace around it allowed, nothing else) from the
   len bytes at text. Strings must be UTF-8; \uXXXX escapes, surrogate pairs included, become
   UTF-8; a lone surrogate, a duplicate key, a control character in a string, nesting deeper than
   TS_JSON_MAX_DEPTH or a text longer than TS_JSON_MAX_TEXT is refused. On error, TS_EINVAL with
   the reason and the byte (1-based) where it was found. Free *out with ts_json_free. */
int ts_json_parse(const char *text, size_t len, ts_json_value **out, ts_err *err);
void ts_json_free(ts_json_value *v);
/* The member `key` of an object; NULL when v is not an object or has no such member. */
const ts_json_value *ts_json_get(const ts_json_value *v, const char *key);

#endif

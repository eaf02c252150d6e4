/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* proto.h - the control protocol between the service and its clients (CLI, tray): messages of
   "key: value" lines, with pure encode and decode functions that tests drive without any pipe
   (docs/protocol.md). */
#ifndef THREADSOUP_PROTO_H
#define THREADSOUP_PROTO_H

#include <stddef.h>

#include "threadsoup/err.h"

#define PROTO_VERSION 1
#define PROTO_MAX_MESSAGE 65536 /* bytes on the wire, terminator included */
#define PROTO_MAX_FIELDS 256
#define PROTO_MAX_NAME 32 /* verbs and keys: [a-z0-9-], 1 to 31 characters */

typedef enum proto_kind {
  PROTO_REQUEST, /* client to service: "TS1 request VERB" */
  PROTO_OK,      /* service to client: "TS1 ok VERB" */
  PROTO_ERROR,   /* service to client: "TS1 error CODE" (code: usage, denied, busy, …) */
  PROTO_EVENT,   /* service to subscribed client: "TS1 event NAME" */
} proto_kind;

typedef struct proto_field {
  char key[PROTO_MAX_NAME];
  size_t value_offset; /* into data: the decoded value, NUL-terminated */
} proto_field;

typedef struct proto_message {
  proto_kind kind;
  char verb[PROTO_MAX_NAME];
  int field_count;
  proto_field fields[PROTO_MAX_FIELDS];
  size_t data_used;
  char data[PROTO_MAX_MESSAGE];
} proto_message;

void proto_init(proto_message *m, proto_kind kind, const char *verb);
/* Adds a field (keys may repeat: lists are repeated keys). Refuses bad keys, values with control
   characters other than tab and newline, invalid UTF-8, and messages that would not fit. */
int proto_add(proto_message *m, const char *key, const char *value, ts_err *err);
int proto_addf(proto_message *m, ts_err *err, const char *key, const char *fmt, ...)
    TS_PRINTF(4, 5);
/* The first value of `key`, or NULL. */
const char *proto_get(const proto_message *m, const char *key);
/* The value of field i (0 <= i < field_count). */
const char *proto_value(const proto_message *m, int i);

/* Writes the message to buf; TS_EINVAL when it needs more than `capacity` bytes. */
int proto_encode(const proto_message *m, char *buf, size_t capacity, size_t *length, ts_err *err);
/* Reads one message from the start of buf[0..length). *consumed = 0 when the message is not
   complete yet (read more); otherwise the bytes it took. Malformed input (a bad first line, a
   line without ": ", bad escapes or names, invalid UTF-8, too many fields, more than
   PROTO_MAX_MESSAGE bytes without an end) is TS_EINVAL naming the line and what is accepted. */
int proto_decode(const char *buf, size_t length, size_t *consumed, proto_message *out, ts_err *err);
/* proto_decode for a stream read piece by piece: *scanned (0 for a new message) is how far an
   earlier call searched buf for the message's end, and the search goes on from there, so each
   byte is looked at once however small the pieces. Set back to 0 once a message is decoded (and
   on any error, the connection being lost anyway, it says how far the search got). */
int proto_decode_resume(const char *buf, size_t length, size_t *scanned, size_t *consumed,
                        proto_message *out, ts_err *err);

const char *proto_kind_name(proto_kind kind);

#endif

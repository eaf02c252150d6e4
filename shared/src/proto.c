/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* proto.c - encodes and decodes control-protocol messages: a first line "TS1 KIND VERB", then
   "key: value" lines with \\, \n, \r and \t escaped in values, then an empty line. */
#include "threadsoup/proto.h"
#include "threadsoup/utf8.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const kind_names[] = {"request", "ok", "error", "event"};

const char *proto_kind_name(proto_kind kind) {
  return (unsigned)kind < sizeof kind_names / sizeof kind_names[0] ? kind_names[kind] : "?";
}

static int valid_name(const char *s, size_t n) {
  if (n == 0 || n >= PROTO_MAX_NAME)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
      return 0;
  return 1;
}

static int check_value(const char *key, const char *value, size_t value_len, ts_err *err);

void proto_init(proto_message *m, proto_kind kind, const char *verb) {
  m->kind = kind;
  snprintf(m->verb, sizeof m->verb, "%s", verb);
  m->field_count = 0;
  m->data_used = 0;
}

int proto_add(proto_message *m, const char *key, const char *value, ts_err *err) {
  size_t key_len = strlen(key), value_len = strlen(value);
  if (!valid_name(key, key_len))
    return ts_err_set(err, TS_EINVAL,
                      "field name '%.40s' is not accepted (a-z, 0-9, -; 1 to %d "
                      "characters)",
                      key, PROTO_MAX_NAME - 1);
  int rc = check_value(key, value, value_len, err);
  if (rc != TS_OK)
    return rc;
  if (m->field_count == PROTO_MAX_FIELDS)
    return ts_err_set(err, TS_EINVAL, "more than %d fields in one message", PROTO_MAX_FIELDS);
  /* Worst case on the wire: every byte escaped. Keep the whole message under the limit. */
  if (m->data_used + value_len + 1 > sizeof m->data / 2)
    return ts_err_set(err, TS_EINVAL, "message larger than %d bytes", PROTO_MAX_MESSAGE / 2);
  proto_field *f = &m->fields[m->field_count++];
  memcpy(f->key, key, key_len + 1);
  f->value_offset = m->data_used;
  memcpy(m->data + m->data_used, value, value_len + 1);
  m->data_used += value_len + 1;
  return TS_OK;
}

int proto_addf(proto_message *m, ts_err *err, const char *key, const char *fmt, ...) {
  char value[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(value, sizeof value, fmt, ap);
  va_end(ap);
  return proto_add(m, key, value, err);
}

const char *proto_get(const proto_message *m, const char *key) {
  for (int i = 0; i < m->field_count; i++)
    if (strcmp(m->fields[i].key, key) == 0)
      return m->data + m->fields[i].value_offset;
  return NULL;
}

const char *proto_value(const proto_message *m, int i) {
  return m->data + m->fields[i].value_offset;
}

int proto_encode(const proto_message *m, char *buf, size_t capacity, size_t *length, ts_err *err) {
  size_t n = 0;
#define PUT(c)                                                                                     \
  do {                                                                                             \
    if (n + 1 >= capacity || n + 1 >= PROTO_MAX_MESSAGE)                                           \
      return ts_err_set(err, TS_EINVAL, "message does not fit in %zu bytes", capacity);            \
    buf[n++] = (c);                                                                                \
  } while (0)
  int w = snprintf(buf, capacity, "TS%d %s %s\n", PROTO_VERSION, proto_kind_name(m->kind), m->verb);
  if (w < 0 || (size_t)w >= capacity)
    return ts_err_set(err, TS_EINVAL, "message does not fit in %zu bytes", capacity);
  n = (size_t)w;
  for (int i = 0; i < m->field_count; i++) {
    for (const char *k = m->fields[i].key; *k; k++)
      PUT(*k);
    PUT(':');
    PUT(' ');
    for (const char *v = proto_value(m, i); *v; v++) {
      switch (*v) {
      case '\\':
        PUT('\\');
        PUT('\\');
        break;
      case '\n':
        PUT('\\');
        PUT('n');
        break;
      case '\r':
        PUT('\\');
        PUT('r');
        break;
      case '\t':
        PUT('\\');
        PUT('t');
        break;
      default:
        PUT(*v);
      }
    }
    PUT('\n');
  }
  PUT('\n');
#undef PUT
  *length = n;
  return TS_OK;
}

/* Checks a value: UTF-8, and no control characters but tab, newline and carriage return. */
static int check_value(const char *key, const char *value, size_t value_len, ts_err *err) {
  for (size_t i = 0; i < value_len;) {
    unsigned char c = (unsigned char)value[i];
    size_t n = ts_utf8_char((const unsigned char *)value + i, value_len - i);
    if (n == 0)
      return ts_err_set(err, TS_EINVAL, "field '%s': the value is not UTF-8 text (byte %zu)", key,
                        i + 1);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
      return ts_err_set(err, TS_EINVAL, "field '%s': control character %u in the value", key, c);
    i += n;
  }
  return TS_OK;
}

/* Decodes one escaped value straight into out->data (no copy on the stack: connection threads
   have small stacks) and registers the field. */
static int add_decoded(proto_message *out, const char *key, size_t key_len, const char *v,
                       size_t len, int line, ts_err *err) {
  if (out->field_count == PROTO_MAX_FIELDS)
    return ts_err_set(err, TS_EINVAL, "line %d: more than %d fields in one message", line,
                      PROTO_MAX_FIELDS);
  if (out->data_used + len + 1 > sizeof out->data)
    return ts_err_set(err, TS_EINVAL, "line %d: message larger than %d bytes", line,
                      PROTO_MAX_MESSAGE);
  char *value = out->data + out->data_used;
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    if (v[i] != '\\') {
      value[n++] = v[i];
      continue;
    }
    if (++i == len)
      return ts_err_set(err, TS_EINVAL, "line %d: a value ends with a lone backslash", line);
    switch (v[i]) {
    case '\\':
      value[n++] = '\\';
      break;
    case 'n':
      value[n++] = '\n';
      break;
    case 'r':
      value[n++] = '\r';
      break;
    case 't':
      value[n++] = '\t';
      break;
    default:
      return ts_err_set(err, TS_EINVAL, "line %d: unknown escape \\%c (accepted: \\\\ \\n \\r \\t)",
                        line, v[i]);
    }
  }
  value[n] = '\0';
  proto_field *f = &out->fields[out->field_count];
  snprintf(f->key, sizeof f->key, "%.*s", (int)key_len, key);
  int rc = check_value(f->key, value, n, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "line %d", line);
  f->value_offset = out->data_used;
  out->data_used += n + 1;
  out->field_count++;
  return TS_OK;
}

int proto_decode(const char *buf, size_t length, size_t *consumed, proto_message *out,
                 ts_err *err) {
  size_t scanned = 0;
  return proto_decode_resume(buf, length, &scanned, consumed, out, err);
}

int proto_decode_resume(const char *buf, size_t length, size_t *scanned, size_t *consumed,
                        proto_message *out, ts_err *err) {
  *consumed = 0;
  /* The end of a message is an empty line: "\n\n". The bytes before *scanned were searched
     already: only the last of them is looked at again (it may be the first '\n' of the pair). */
  const char *end = NULL;
  for (size_t at = *scanned > 1 ? *scanned : 1; at < length; at++)
    if (buf[at] == '\n' && buf[at - 1] == '\n') {
      end = buf + at;
      break;
    }
  if (!end) {
    *scanned = length;
    if (length >= PROTO_MAX_MESSAGE)
      return ts_err_set(err, TS_EINVAL, "no end of message within %d bytes", PROTO_MAX_MESSAGE);
    return TS_OK; /* incomplete */
  }
  *scanned = 0; /* the next message is searched from its own start */
  if ((size_t)(end - buf) + 1 > PROTO_MAX_MESSAGE)
    return ts_err_set(err, TS_EINVAL, "message larger than %d bytes", PROTO_MAX_MESSAGE);
  if (memchr(buf, '\0', (size_t)(end - buf)))
    return ts_err_set(err, TS_EINVAL, "NUL byte in a message");

  const char *line = buf;
  const char *eol = memchr(line, '\n', (size_t)(end - line) + 1);
  char first[128];
  size_t first_len = (size_t)(eol - line);
  if (first_len >= sizeof first)
    return ts_err_set(err, TS_EINVAL, "line 1 is not \"TS%d KIND VERB\"", PROTO_VERSION);
  memcpy(first, line, first_len);
  first[first_len] = '\0';
  int version = 0;
  char kind[16], verb[64];
  if (sscanf(first, "TS%d %15s %63s", &version, kind, verb) != 3)
    return ts_err_set(err, TS_EINVAL, "line 1 is not \"TS%d KIND VERB\": '%.60s'", PROTO_VERSION,
                      first);
  if (version != PROTO_VERSION)
    return ts_err_set(err, TS_EINVAL, "protocol version %d is not spoken here (accepted: %d)",
                      version, PROTO_VERSION);
  int k = -1;
  for (int i = 0; i < 4; i++)
    if (strcmp(kind, kind_names[i]) == 0)
      k = i;
  if (k < 0)
    return ts_err_set(err, TS_EINVAL,
                      "line 1: kind '%s' is not accepted (accepted: request, ok, "
                      "error, event)",
                      kind);
  if (!valid_name(verb, strlen(verb)))
    return ts_err_set(err, TS_EINVAL, "line 1: '%.40s' is not a verb (a-z, 0-9, -)", verb);
  char expect[128];
  snprintf(expect, sizeof expect, "TS%d %s %s", version, kind, verb);
  if (strcmp(expect, first) != 0)
    return ts_err_set(err, TS_EINVAL, "line 1 has extra text: '%.60s'", first);
  proto_init(out, (proto_kind)k, verb);

  int line_no = 1;
  for (line = eol + 1; line < end; line = eol + 1) {
    line_no++;
    eol = memchr(line, '\n', (size_t)(end - line) + 1);
    const char *colon = memchr(line, ':', (size_t)(eol - line));
    if (!colon || colon + 1 >= eol || colon[1] != ' ')
      return ts_err_set(err, TS_EINVAL, "line %d is not \"key: value\"", line_no);
    size_t key_len = (size_t)(colon - line);
    if (!valid_name(line, key_len))
      return ts_err_set(err, TS_EINVAL, "line %d: '%.*s' is not a field name (a-z, 0-9, -)",
                        line_no, (int)(key_len > 40 ? 40 : key_len), line);
    int rc = add_decoded(out, line, key_len, colon + 2, (size_t)(eol - colon - 2), line_no, err);
    if (rc != TS_OK)
      return rc;
  }
  *consumed = (size_t)(end - buf) + 1;
  return TS_OK;
}

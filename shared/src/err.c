/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* err.c - fills and names ThreadSoup's one error type (err.h). */
#include "threadsoup/err.h"

#include <stdio.h>
#include <string.h>

int ts_err_setv(ts_err *err, int code, const char *fmt, va_list ap) {
  if (err) {
    err->code = code;
    vsnprintf(err->text, sizeof err->text, fmt, ap);
  }
  return code;
}

int ts_err_set(ts_err *err, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ts_err_setv(err, code, fmt, ap);
  va_end(ap);
  return code;
}

int ts_err_prefix(ts_err *err, const char *fmt, ...) {
  if (!err)
    return TS_EINVAL;
  char prefix[256];
  char old[sizeof err->text];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, err->text, sizeof old);
  snprintf(err->text, sizeof err->text, "%s: %s", prefix, old);
  return err->code;
}

void ts_err_clear(ts_err *err) {
  if (err) {
    err->code = TS_OK;
    err->text[0] = '\0';
  }
}

const char *ts_code_name(int code) {
  switch (code) {
  case TS_OK:
    return "OK";
#define TS_ERR_NAME(name, num, wire, text)                                                         \
  case TS_E##name:                                                                                 \
    return #name;
    TS_ERR_MAP(TS_ERR_NAME)
#undef TS_ERR_NAME
  }
  return "UNKNOWN";
}

const char *ts_code_message(int code) {
  switch (code) {
  case TS_OK:
    return "success";
#define TS_ERR_TEXT(name, num, wire, text)                                                         \
  case TS_E##name:                                                                                 \
    return text;
    TS_ERR_MAP(TS_ERR_TEXT)
#undef TS_ERR_TEXT
  }
  return "unknown error";
}

const char *ts_code_wire_name(int code) {
  switch (code) {
#define TS_ERR_WIRE(name, num, wire, text)                                                         \
  case TS_E##name:                                                                                 \
    return wire;
    TS_ERR_MAP(TS_ERR_WIRE)
#undef TS_ERR_WIRE
  }
  return "failed";
}

int ts_code_from_wire_name(const char *name) {
  static const struct {
    const char *wire;
    int code;
  } codes[] = {
#define TS_ERR_ROW(name, num, wire, text) {wire, TS_E##name},
      TS_ERR_MAP(TS_ERR_ROW)
#undef TS_ERR_ROW
  };
  for (size_t i = 0; name && i < sizeof codes / sizeof codes[0]; i++)
    if (strcmp(codes[i].wire, name) == 0)
      return codes[i].code;
  return TS_EFAILED;
}

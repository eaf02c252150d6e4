/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* err.h - the one error type of ThreadSoup: a code from one table plus a sentence for the user. */
#ifndef THREADSOUP_ERR_H
#define THREADSOUP_ERR_H

#include <stdarg.h>
#include <stdio.h>

/* printf-style checking; MinGW's ANSI stdio (on in C11 mode) takes GNU formats such as %zu. */
#if defined(__MINGW32__)
#define TS_PRINTF(fmt, args) __attribute__((format(__MINGW_PRINTF_FORMAT, fmt, args)))
#elif defined(__GNUC__)
#define TS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define TS_PRINTF(fmt, args)
#endif

/* One list generates the codes, their names, the protocol's error name for each (docs/protocol.md:
   what a client sees in "TS1 error NAME") and their default messages (libuv's UV_ERRNO_MAP).
   Callers test codes, never message text. */
#define TS_ERR_MAP(XX)                                                                             \
  XX(USAGE, 1, "usage", "usage error")                                                             \
  XX(INVAL, 2, "usage", "invalid value")                                                           \
  XX(NOMEM, 3, "failed", "out of memory")                                                          \
  XX(OS, 4, "failed", "operating system error")                                                    \
  XX(STORE, 5, "failed", "database error")                                                         \
  XX(FOREIGN_DB, 6, "failed", "not a ThreadSoup database")                                         \
  XX(NEWER_DB, 7, "failed", "database written by a newer ThreadSoup")                              \
  XX(UNSUPPORTED, 8, "failed", "not supported on this system")                                     \
  XX(INTERRUPTED, 9, "failed", "interrupted")                                                      \
  XX(BENCH, 10, "failed", "benchmark failed")                                                      \
  XX(BUSY, 11, "busy", "busy: an experiment or a load is running")                                 \
  XX(DENIED, 12, "denied", "not allowed for this user")                                            \
  XX(MALFORMED, 13, "malformed", "malformed message")                                              \
  XX(VERSION, 14, "version", "protocol version not spoken here")                                   \
  XX(FAILED, 15, "failed", "could not be done")

/* Codes are negative so that functions can return 0 for success and a code otherwise. */
typedef enum ts_code {
  TS_OK = 0,
#define TS_ERR_ENUM(name, num, wire, text) TS_E##name = -(num),
  TS_ERR_MAP(TS_ERR_ENUM)
#undef TS_ERR_ENUM
} ts_code;

/* The message is a whole sentence fragment such as "--reps: 'x' is not a whole number (1 to 1000)":
   what was wrong and what is accepted. */
typedef struct ts_err {
  int code;
  char text[512];
} ts_err;

/* Sets code and text (printf-style) and returns the code, so callers can `return ts_err_set(…)`. */
int ts_err_set(ts_err *err, int code, const char *fmt, ...) TS_PRINTF(3, 4);
int ts_err_setv(ts_err *err, int code, const char *fmt, va_list ap);

/* Prepends "prefix: " to an existing message, keeping the code; returns the code. */
int ts_err_prefix(ts_err *err, const char *fmt, ...) TS_PRINTF(2, 3);

void ts_err_clear(ts_err *err);
const char *ts_code_name(int code);    /* "USAGE", "OS", … ; "UNKNOWN" otherwise */
const char *ts_code_message(int code); /* the table's default text */
/* The protocol's error name of a code ("usage", "busy", "denied", "failed", …); "failed" for codes
   outside the table. */
const char *ts_code_wire_name(int code);
/* The code a protocol error name stands for (the first code with that name: "usage" is
   TS_EUSAGE); TS_EFAILED for names this build does not know. */
int ts_code_from_wire_name(const char *name);

#endif

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

/* One list generates the codes, their names and their default messages (libuv's UV_ERRNO_MAP). */
#define TS_ERR_MAP(XX)                                                                 \
  XX(USAGE, 1, "usage error")                                                          \
  XX(INVAL, 2, "invalid value")                                                        \
  XX(NOMEM, 3, "out of memory")                                                        \
  XX(OS, 4, "operating system error")                                                  \
  XX(STORE, 5, "database error")                                                       \
  XX(FOREIGN_DB, 6, "not a ThreadSoup database")                                       \
  XX(NEWER_DB, 7, "database written by a newer ThreadSoup")                            \
  XX(UNSUPPORTED, 8, "not supported on this system")                                   \
  XX(INTERRUPTED, 9, "interrupted")                                                    \
  XX(BENCH, 10, "benchmark failed")

/* Codes are negative so that functions can return 0 for success and a code otherwise. */
typedef enum ts_code {
  TS_OK = 0,
#define TS_ERR_ENUM(name, num, text) TS_E##name = -(num),
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

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* log.c - the service's one log sink (log.h): stderr unless the host sets another. */
#include "threadsoup/log.h"

#include <stdarg.h>
#include <stdio.h>

#include "threadsoup/plat.h"

const char *ts_log_level_name(ts_log_level level) {
  static const char *const names[] = {"info", "warning", "error"};
  return level >= TS_LOG_INFO && level <= TS_LOG_ERROR ? names[level] : "error";
}

static void stderr_sink(ts_log_level level, const char *message) {
  char at[32];
  plat_utc_timestamp(at, sizeof at);
  fprintf(stderr, "%s threadsoup %s: %s\n", at, ts_log_level_name(level), message);
  fflush(stderr);
}

/* The one exception to "no global mutable state" here: set once by the host before any server
   thread starts, read by all of them. */
static ts_log_sink log_sink = stderr_sink;

void ts_log_set_sink(ts_log_sink sink) { log_sink = sink ? sink : stderr_sink; }

void ts_log(ts_log_level level, const char *fmt, ...) {
  char message[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  log_sink(level, message);
}

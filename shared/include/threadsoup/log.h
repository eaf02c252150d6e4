/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* log.h - the service's log lines: one sink, set by the host (event log, journal or stderr), that
   every part of the service writes to; depends on nothing else of ThreadSoup. */
#ifndef THREADSOUP_LOG_H
#define THREADSOUP_LOG_H

#include "threadsoup/err.h"

typedef enum ts_log_level { TS_LOG_INFO, TS_LOG_WARNING, TS_LOG_ERROR } ts_log_level;

/* Where log lines go; the default writes timestamped lines to stderr. */
typedef void (*ts_log_sink)(ts_log_level level, const char *message);

/* Set once by the host before any thread logs; NULL restores the default. */
void ts_log_set_sink(ts_log_sink sink);
void ts_log(ts_log_level level, const char *fmt, ...) TS_PRINTF(2, 3);
/* "info", "warning", "error". */
const char *ts_log_level_name(ts_log_level level);

#endif

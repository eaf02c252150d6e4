/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* parse.h - strict parsers for the values users type: whole numbers, durations, decimals. Each
   error names the value and says what is accepted. */
#ifndef THREADSOUP_PARSE_H
#define THREADSOUP_PARSE_H

#include <stdint.h>

#include "threadsoup/err.h"

/* A whole number in [min, max]; `what` names it in the error ("--reps"). */
int ts_parse_long(const char *text, long min, long max, const char *what, long *out, ts_err *err);
/* A whole number from 0 to 2^64 - 1 in decimal digits only (a seed as runs print it). */
int ts_parse_u64(const char *text, const char *what, uint64_t *out, ts_err *err);
/* A duration with a unit: "500ms", "2s", "5m", "1h" (also "1.5s"); in [min_ns, max_ns]. */
int ts_parse_duration(const char *text, uint64_t min_ns, uint64_t max_ns, const char *what,
                      uint64_t *out_ns, ts_err *err);
/* A decimal number in [min, max]. */
int ts_parse_double(const char *text, double min, double max, const char *what, double *out,
                    ts_err *err);
/* A percentage "0.5%" or "0.5" in [min, max]. */
int ts_parse_percent(const char *text, double min, double max, const char *what, double *out,
                     ts_err *err);
/* The one rule for a name stored with a score (a benchmark or unit of `threadsoup record`, by the
   command line and by the protocol alike): 1 to 63 bytes of UTF-8 without spaces, commas or
   control characters (C0, DEL, C1). The error names `what` and never echoes the raw text. */
#define TS_PARSE_NAME_MAX 63
int ts_parse_name(const char *text, const char *what, ts_err *err);
/* Writes a duration the way ts_parse_duration reads it back ("500ms", "2s", "1.5s"). */
void ts_format_duration(uint64_t ns, char *buf, int len);
/* Writes a short time measured in microseconds for people: "0.001 us", "62.5 us", "15.625 ms";
   "-" when negative or not a number (not known). */
void ts_format_microseconds(double us, char *buf, int len);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* parse.c - strict parsers for the values users type (parse.h). */
#include "threadsoup/parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "threadsoup/units.h"
#include "threadsoup/utf8.h"

int ts_parse_long(const char *text, long min, long max, const char *what, long *out, ts_err *err) {
  if (!text || !*text)
    return ts_err_set(err, TS_EUSAGE, "%s needs a value: a whole number from %ld to %ld", what, min,
                      max);
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (*end != '\0' || end == text || errno == ERANGE)
    return ts_err_set(err, TS_EUSAGE, "%s: '%s' is not a whole number (accepted: %ld to %ld)", what,
                      text, min, max);
  if (v < min || v > max)
    return ts_err_set(err, TS_EUSAGE, "%s: %ld is out of range (accepted: %ld to %ld)", what, v,
                      min, max);
  *out = v;
  return TS_OK;
}

int ts_parse_u64(const char *text, const char *what, uint64_t *out, ts_err *err) {
  if (!text || !*text)
    return ts_err_set(err, TS_EUSAGE,
                      "%s needs a value: a whole number from 0 to 18446744073709551615", what);
  /* Digits only: strtoull would take a sign, spaces and wrap "-1" to the largest value. */
  for (const char *c = text; *c; c++)
    if (*c < '0' || *c > '9')
      return ts_err_set(err, TS_EUSAGE,
                        "%s: '%s' is not a whole number (accepted: 0 to 18446744073709551615)",
                        what, text);
  errno = 0;
  unsigned long long v = strtoull(text, NULL, 10);
  if (errno == ERANGE)
    return ts_err_set(err, TS_EUSAGE,
                      "%s: '%s' is out of range (accepted: 0 to 18446744073709551615)", what, text);
  *out = (uint64_t)v;
  return TS_OK;
}

int ts_parse_double(const char *text, double min, double max, const char *what, double *out,
                    ts_err *err) {
  if (!text || !*text)
    return ts_err_set(err, TS_EUSAGE, "%s needs a value: a number from %g to %g", what, min, max);
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (*end != '\0' || end == text || errno == ERANGE || !isfinite(v))
    return ts_err_set(err, TS_EUSAGE, "%s: '%s' is not a number (accepted: %g to %g)", what, text,
                      min, max);
  if (v < min || v > max)
    return ts_err_set(err, TS_EUSAGE, "%s: %g is out of range (accepted: %g to %g)", what, v, min,
                      max);
  *out = v;
  return TS_OK;
}

int ts_parse_percent(const char *text, double min, double max, const char *what, double *out,
                     ts_err *err) {
  char buf[64];
  size_t n = text ? strlen(text) : 0;
  if (n > 0 && n < sizeof buf && text[n - 1] == '%') {
    memcpy(buf, text, n - 1);
    buf[n - 1] = '\0';
    text = buf;
  }
  int rc = ts_parse_double(text, min, max, what, out, err);
  if (rc != TS_OK)
    ts_err_set(err, TS_EUSAGE, "%s: '%s' is not a percentage from %g%% to %g%% (e.g. 0.5%%)", what,
               text ? text : "", min, max);
  return rc;
}

static const struct {
  const char *suffix;
  double ns;
} duration_units[] = {
    {"ms", TS_NS_PER_MS}, {"s", TS_NS_PER_S}, {"m", TS_NS_PER_MIN}, {"h", TS_NS_PER_HOUR}};

int ts_parse_duration(const char *text, uint64_t min_ns, uint64_t max_ns, const char *what,
                      uint64_t *out_ns, ts_err *err) {
  char min_text[32], max_text[32];
  ts_format_duration(min_ns, min_text, sizeof min_text);
  ts_format_duration(max_ns, max_text, sizeof max_text);
  if (!text || !*text)
    return ts_err_set(err, TS_EUSAGE,
                      "%s needs a duration such as 500ms, 2s, 5m or 1h (from %s to %s)", what,
                      min_text, max_text);
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  double unit = 0;
  if (end != text && errno == 0 && isfinite(v) && v >= 0 && text[0] != '+' && text[0] != '-') {
    for (size_t i = 0; i < sizeof duration_units / sizeof duration_units[0]; i++)
      if (strcmp(end, duration_units[i].suffix) == 0)
        unit = duration_units[i].ns;
  }
  if (unit == 0)
    return ts_err_set(err, TS_EUSAGE,
                      "%s: '%s' is not a duration (accepted: a number with ms, s, m or h, such "
                      "as 500ms, 2s, 5m; from %s to %s)",
                      what, text, min_text, max_text);
  double ns = v * unit;
  if (ns < (double)min_ns || ns > (double)max_ns)
    return ts_err_set(err, TS_EUSAGE, "%s: %s is out of range (accepted: %s to %s)", what, text,
                      min_text, max_text);
  *out_ns = (uint64_t)llround(ns);
  return TS_OK;
}

void ts_format_duration(uint64_t ns, char *buf, int len) {
  if (ns % TS_NS_PER_HOUR == 0 && ns > 0)
    snprintf(buf, (size_t)len, "%lluh", (unsigned long long)(ns / TS_NS_PER_HOUR));
  else if (ns % TS_NS_PER_MIN == 0 && ns > 0)
    snprintf(buf, (size_t)len, "%llum", (unsigned long long)(ns / TS_NS_PER_MIN));
  else if (ns % TS_NS_PER_S == 0)
    snprintf(buf, (size_t)len, "%llus", (unsigned long long)(ns / TS_NS_PER_S));
  else if (ns % TS_NS_PER_MS == 0)
    snprintf(buf, (size_t)len, "%llums", (unsigned long long)(ns / TS_NS_PER_MS));
  else
    snprintf(buf, (size_t)len, "%gms", (double)ns / TS_NS_PER_MS);
}

void ts_format_microseconds(double us, char *buf, int len) {
  if (!(us >= 0)) /* NaN too */
    snprintf(buf, (size_t)len, "-");
  else if (us >= 1000)
    snprintf(buf, (size_t)len, "%.3f ms", us / 1000);
  else
    snprintf(buf, (size_t)len, "%.3g us", us);
}

int ts_parse_name(const char *text, const char *what, ts_err *err) {
  static const char rule[] = "1 to 63 bytes of UTF-8 text without spaces, commas or control "
                             "characters";
  size_t n = strlen(text);
  if (n == 0 || n > TS_PARSE_NAME_MAX)
    return ts_err_set(err, TS_EINVAL, "%s: %zu bytes long (accepted: %s)", what, n, rule);
  if (!ts_utf8_valid(text, n))
    return ts_err_set(err, TS_EINVAL, "%s: not UTF-8 text (accepted: %s)", what, rule);
  const unsigned char *s = (const unsigned char *)text;
  for (size_t i = 0; i < n; i++) {
    /* C1 controls are U+0080 to U+009F: C2 80 to C2 9F. */
    int c1 = s[i] == 0xC2 && s[i + 1] >= 0x80 && s[i + 1] < 0xA0;
    if (s[i] <= ' ' || s[i] == ',' || s[i] == 0x7F || c1) {
      char shown[96];
      return ts_err_set(err, TS_EINVAL, "%s '%s': %s at byte %zu (accepted: %s)", what,
                        ts_utf8_printable(text, shown, sizeof shown),
                        s[i] == ' '   ? "a space"
                        : s[i] == ',' ? "a comma"
                                      : "a control character",
                        i + 1, rule);
    }
  }
  return TS_OK;
}

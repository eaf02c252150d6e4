/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* schedule.c - parses schedule specifications and finds their next due time in local time, with
   the C library's own calendar (mktime normalises days past a month's end and DST changes). */
#include "schedule.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "threadsoup/parse.h"
#include "threadsoup/plat.h"
#include "threadsoup/units.h"

static const char *const weekdays[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};
static const char accepted[] = "accepted: daily HH:MM, weekly DAY HH:MM (DAY mon … sun), "
                               "once YYYY-MM-DD HH:MM, boot DURATION (e.g. boot 10m)";

static int parse_clock(const char *text, int *hour, int *minute) {
  char extra;
  return sscanf(text, "%2d:%2d%c", hour, minute, &extra) == 2 && *hour >= 0 && *hour < 24 &&
         *minute >= 0 && *minute < 60;
}

int schedule_parse(const char *text, schedule_when *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  char kind[16] = "", a[32] = "", b[32] = "", extra[8] = "";
  int n = text ? sscanf(text, "%15s %31s %31s %7s", kind, a, b, extra) : 0;
  if (strcmp(kind, "daily") == 0 && n == 2 && parse_clock(a, &out->hour, &out->minute)) {
    out->kind = SCHEDULE_DAILY;
    snprintf(out->text, sizeof out->text, "daily %02d:%02d", out->hour, out->minute);
    return TS_OK;
  }
  if (strcmp(kind, "weekly") == 0 && n == 3 && parse_clock(b, &out->hour, &out->minute)) {
    for (int d = 0; d < 7; d++)
      if (strncmp(a, weekdays[d], 3) == 0 && strlen(a) == 3) {
        out->kind = SCHEDULE_WEEKLY;
        out->weekday = d;
        snprintf(out->text, sizeof out->text, "weekly %s %02d:%02d", weekdays[d], out->hour,
                 out->minute);
        return TS_OK;
      }
  }
  if (strcmp(kind, "once") == 0 && n == 3 && parse_clock(b, &out->hour, &out->minute)) {
    char tail;
    if (sscanf(a, "%4d-%2d-%2d%c", &out->year, &out->month, &out->day, &tail) == 3 &&
        out->year >= 2000 && out->year <= 2999 && out->month >= 1 && out->month <= 12 &&
        out->day >= 1 && out->day <= 31) {
      out->kind = SCHEDULE_ONCE;
      snprintf(out->text, sizeof out->text, "once %04d-%02d-%02d %02d:%02d", out->year, out->month,
               out->day, out->hour, out->minute);
      return TS_OK;
    }
  }
  if (strcmp(kind, "boot") == 0 && n == 2) {
    ts_err ignored;
    if (ts_parse_duration(a, 0, 24 * TS_NS_PER_HOUR, "boot", &out->delay_ns, &ignored) == TS_OK) {
      char d[32];
      out->kind = SCHEDULE_BOOT;
      ts_format_duration(out->delay_ns, d, sizeof d);
      snprintf(out->text, sizeof out->text, "boot %s", d);
      return TS_OK;
    }
  }
  return ts_err_set(err, TS_EUSAGE, "'%s' is not a schedule (%s)", text ? text : "", accepted);
}

/* Local date and time to Unix seconds; mktime also fixes a day 32 into the next month. */
int schedule_parse_conditions(const char *require, const char *grace, schedule_conditions *out,
                              ts_err *err) {
  out->require_ac = 0;
  out->require_idle_s = 0;
  out->grace_s = SCHEDULE_DEFAULT_GRACE_S;
  uint64_t grace_ns = 0;
  if (grace) {
    int rc = ts_parse_duration(grace, 0, 7 * TS_NS_PER_DAY, "grace", &grace_ns, err);
    if (rc != TS_OK)
      return rc;
    out->grace_s = (long)(grace_ns / TS_NS_PER_S);
  }
  for (const char *q = require; q && *q;) {
    long minutes;
    if (strncmp(q, "ac", 2) == 0 && (q[2] == ',' || q[2] == '\0')) {
      out->require_ac = 1;
      q += 2;
    } else if (strncmp(q, "idle:", 5) == 0 && sscanf(q + 5, "%ld", &minutes) == 1 && minutes >= 1 &&
               minutes <= 1440) {
      out->require_idle_s = minutes * 60;
      q = strchr(q, ',') ? strchr(q, ',') : q + strlen(q);
    } else {
      return ts_err_set(err, TS_EUSAGE,
                        "require: '%s' is not accepted (accepted: ac, idle:MINUTES with 1 to "
                        "1440 minutes, joined with ',')",
                        require);
    }
    if (*q == ',')
      q++;
  }
  return TS_OK;
}

static int64_t local_time(int year, int month, int day, int hour, int minute) {
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_isdst = -1; /* let the C library decide whether DST applies that day */
  return (int64_t)mktime(&tm);
}

int64_t schedule_next(const schedule_when *w, int64_t after, int64_t service_start) {
  if (w->kind == SCHEDULE_BOOT) {
    int64_t due = service_start + (int64_t)(w->delay_ns / TS_NS_PER_S);
    return due > after ? due : 0;
  }
  if (w->kind == SCHEDULE_ONCE) {
    int64_t due = local_time(w->year, w->month, w->day, w->hour, w->minute);
    return due > after ? due : 0;
  }
  struct tm now;
  if (!plat_local_time(after, &now))
    return 0;
  /* Walk forward day by day (at most 8): simple, and right across DST changes. */
  for (int add = 0; add <= 8; add++) {
    int64_t due =
        local_time(now.tm_year + 1900, now.tm_mon + 1, now.tm_mday + add, w->hour, w->minute);
    if (due <= after)
      continue;
    if (w->kind == SCHEDULE_WEEKLY) {
      struct tm day;
      if (!plat_local_time(due, &day) || day.tm_wday != w->weekday)
        continue;
    }
    return due;
  }
  return 0;
}

void schedule_format_local(int64_t when, char *buf, int len) {
  struct tm tm;
  if (when == 0 || !plat_local_time(when, &tm)) {
    snprintf(buf, (size_t)len, "-");
    return;
  }
  strftime(buf, (size_t)len, "%Y-%m-%d %H:%M:%S", &tm);
}

int schedule_idle_answer_counts(long answer_session, long console_session) {
  return answer_session < 0 || console_session < 0 || answer_session == console_session;
}

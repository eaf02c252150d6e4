/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* schedule.h - when a schedule is due: "daily HH:MM", "weekly DAY HH:MM", "once YYYY-MM-DD HH:MM"
   (local time) and "boot DURATION" (after the service starts), as pure functions. */
#ifndef THREADSOUP_SCHEDULE_H
#define THREADSOUP_SCHEDULE_H

#include <stdint.h>

#include "threadsoup/err.h"

typedef enum schedule_kind {
  SCHEDULE_DAILY,
  SCHEDULE_WEEKLY,
  SCHEDULE_ONCE,
  SCHEDULE_BOOT
} schedule_kind;

typedef struct schedule_when {
  schedule_kind kind;
  int hour, minute;     /* daily, weekly, once */
  int weekday;          /* weekly: 0 = Sunday … 6 = Saturday */
  int year, month, day; /* once */
  uint64_t delay_ns;    /* boot */
  char text[96];        /* canonical form */
} schedule_when;

int schedule_parse(const char *text, schedule_when *out, ts_err *err);
/* The first due time strictly after `after` (Unix seconds), in local time; 0 when there is none
   (a "once" in the past; boot schedules are due at the service's start plus the delay). */
int64_t schedule_next(const schedule_when *when, int64_t after, int64_t service_start);
/* What a due time needs besides the time itself. */
typedef struct schedule_conditions {
  int require_ac;      /* start only on mains power */
  long require_idle_s; /* start only when the user has been idle this long; 0 = no need */
  long grace_s;        /* a due time missed by more than this is recorded as missed */
} schedule_conditions;
#define SCHEDULE_DEFAULT_GRACE_S 3600L

/* Reads `require` ("ac", "idle:MINUTES" with 1 to 1440 minutes, or both joined with ','; NULL =
   none) and `grace` (a duration up to 7 days; NULL = an hour). */
int schedule_parse_conditions(const char *require, const char *grace, schedule_conditions *out,
                              ts_err *err);

/* Whether a tray's answer to the idle question counts: only the user at the console can say how
   long the console has been idle, so an answer from another session (a remote desktop, a second
   signed-in user) is ignored. Where sessions are unknown (-1: POSIX, or a token that does not
   say) every answer counts. */
int schedule_idle_answer_counts(long answer_session, long console_session);

/* Unix seconds as local "YYYY-MM-DD HH:MM:SS". */
void schedule_format_local(int64_t when, char *buf, int len);

#endif

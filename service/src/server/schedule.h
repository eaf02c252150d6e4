/* schedule.h - when a schedule is due: "daily HH:MM", "weekly DAY HH:MM", "once YYYY-MM-DD HH:MM"
   (local time) and "boot DURATION" (after the service starts), as pure functions. */
#ifndef THREADSOUP_SCHEDULE_H
#define THREADSOUP_SCHEDULE_H

#include <stdint.h>

#include "threadsoup/err.h"

typedef enum schedule_kind { SCHEDULE_DAILY, SCHEDULE_WEEKLY, SCHEDULE_ONCE, SCHEDULE_BOOT } schedule_kind;

typedef struct schedule_when {
  schedule_kind kind;
  int hour, minute;   /* daily, weekly, once */
  int weekday;        /* weekly: 0 = Sunday … 6 = Saturday */
  int year, month, day; /* once */
  uint64_t delay_ns;  /* boot */
  char text[96];      /* canonical form */
} schedule_when;

int schedule_parse(const char *text, schedule_when *out, ts_err *err);
/* The first due time strictly after `after` (Unix seconds), in local time; 0 when there is none
   (a "once" in the past; boot schedules are due at the service's start plus the delay). */
int64_t schedule_next(const schedule_when *when, int64_t after, int64_t service_start);
/* Unix seconds as local "YYYY-MM-DD HH:MM:SS". */
void schedule_format_local(int64_t when, char *buf, int len);

#endif

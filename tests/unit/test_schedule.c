/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* test_schedule.c - schedule specifications: what is accepted, and that each next due time is the
   first matching local time after the given one. */
#include <time.h>

#include "check.h"
#include "plan/schedule.h"

static void parses_and_refuses(void) {
  schedule_when w;
  ts_err err;
  CHECK_INT(schedule_parse("daily 3:05", &w, &err), TS_OK);
  CHECK_STR_CONTAINS(w.text, "daily 03:05");
  CHECK_INT(schedule_parse("weekly mon 23:59", &w, &err), TS_OK);
  CHECK_INT(w.weekday, 1);
  CHECK_INT(schedule_parse("once 2031-02-03 04:05", &w, &err), TS_OK);
  CHECK_STR_CONTAINS(w.text, "once 2031-02-03 04:05");
  CHECK_INT(schedule_parse("boot 10m", &w, &err), TS_OK);
  CHECK_STR_CONTAINS(w.text, "boot 10m");
  static const char *const bad[] = {
      "daily 24:00", "daily 3", "weekly funday 03:00", "once 2031-13-01 00:00", "boot soon",
      "hourly",      "",        "daily 03:00 extra"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    CHECK_INT(schedule_parse(bad[i], &w, &err), TS_EUSAGE);
    CHECK_STR_CONTAINS(err.text, "accepted: daily HH:MM");
  }
}

static void next_due_times(void) {
  schedule_when w;
  ts_err err;
  int64_t now = (int64_t)time(NULL);
  CHECK_INT(schedule_parse("daily 03:00", &w, &err), TS_OK);
  int64_t next = schedule_next(&w, now, now);
  CHECK(next > now && next <= now + 25 * 3600);
  time_t t = (time_t)next;
  struct tm tm = *localtime(&t);
  CHECK_INT(tm.tm_hour, 3);
  CHECK_INT(tm.tm_min, 0);
  /* The one after is a day later (23 to 25 hours across a DST change). */
  int64_t after = schedule_next(&w, next, now);
  CHECK(after - next >= 23 * 3600 && after - next <= 25 * 3600);

  CHECK_INT(schedule_parse("weekly sat 12:30", &w, &err), TS_OK);
  next = schedule_next(&w, now, now);
  t = (time_t)next;
  tm = *localtime(&t);
  CHECK(next > now && next <= now + 8 * 86400);
  CHECK_INT(tm.tm_wday, 6);

  CHECK_INT(schedule_parse("once 2001-01-01 00:00", &w, &err), TS_OK);
  CHECK_INT(schedule_next(&w, now, now), 0);
  CHECK_INT(schedule_parse("boot 90s", &w, &err), TS_OK);
  CHECK_INT(schedule_next(&w, now - 1, now), now + 90);
  CHECK_INT(schedule_next(&w, now + 100, now), 0);
}

/* The tray in the console's session answers; a tray in another session (a remote desktop, a
   second signed-in user) is ignored; unknown sessions (POSIX, a token that does not say) count. */
static void only_the_console_answers_the_idle_question(void) {
  CHECK(schedule_idle_answer_counts(1, 1));
  CHECK(!schedule_idle_answer_counts(2, 1)); /* a remote desktop session */
  CHECK(!schedule_idle_answer_counts(0, 1)); /* session 0: services, never a user */
  CHECK(!schedule_idle_answer_counts(1, 3)); /* the console moved to another user's session */
  CHECK(schedule_idle_answer_counts(-1, 1)); /* the answer's session is unknown */
  CHECK(schedule_idle_answer_counts(2, -1)); /* no console session attached (POSIX, or none) */
  CHECK(schedule_idle_answer_counts(-1, -1));
}

int main(void) {
  RUN_CASE(parses_and_refuses);
  RUN_CASE(only_the_console_answers_the_idle_question);
  RUN_CASE(next_due_times);
  return check_summary();
}

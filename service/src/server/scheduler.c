/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* scheduler.c - the scheduler thread: starts, skips or records as missed each schedule when it
   falls due (schedule.c computes when), and otherwise sleeps until the next due time or a change:
   the only timer the idle service has, with a wake timer armed for the next schedule so that a
   sleeping machine wakes for it. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../plan/schedule.h"
#include "threadsoup/plat_knobs.h"
#include "threadsoup/units.h"

typedef struct due_list {
  int count;
  store_schedule *items;
  int64_t earliest;
  int64_t now;
  int64_t later; /* the earliest due time after now: what the wake timer is for */
} due_list;

/* Due times and quiet mode's deadline are wall-clock times: read after a sleep, the clock has
   moved on by the time asleep. A test moves it on (the knob asleep-s) as a sleep would. */
static int64_t wall_now(void) {
  return (int64_t)time(NULL) + plat_knob_number(PLAT_KNOB_ASLEEP_S, 0);
}

static int collect_schedule(void *ctx, const store_schedule *sc) {
  due_list *d = ctx;
  if (!sc->enabled || sc->next_due == 0)
    return 0;
  if (d->earliest == 0 || sc->next_due < d->earliest)
    d->earliest = sc->next_due;
  if (sc->next_due > d->now && (d->later == 0 || sc->next_due < d->later))
    d->later = sc->next_due;
  if (sc->next_due <= d->now && d->count < 8)
    d->items[d->count++] = *sc;
  return 0;
}

/* Starts, skips or marks missed one due schedule, and sets its next due time. */
static void fire_schedule(server *svc, store_schedule *sc, int64_t now) {
  schedule_when when;
  ts_err err;
  char at[32], detail[256] = "";
  plat_utc_timestamp(at, sizeof at);
  if (schedule_parse(sc->spec, &when, &err) != TS_OK) {
    plat_mutex_lock(&svc->db_lock);
    store_schedule_update(svc->db, sc->id, 0, 0, &err);
    plat_mutex_unlock(&svc->db_lock);
    return;
  }
  store_schedule_outcome what = STORE_SCHEDULE_STARTED;
  int64_t run_id = 0;
  if (now - sc->next_due > sc->grace_s) {
    what = STORE_SCHEDULE_MISSED;
    char due[32];
    schedule_format_local(sc->next_due, due, sizeof due);
    snprintf(detail, sizeof detail,
             "due %s, more than the %lds grace window ago (the machine was off or "
             "asleep and did not wake for it, or the service was stopped)",
             due, sc->grace_s);
  } else if (sc->require_ac && plat_power_on_ac() == 0) {
    what = STORE_SCHEDULE_SKIPPED;
    snprintf(detail, sizeof detail, "on battery power");
  } else {
    if (sc->require_idle_s) {
      /* Only a tray sees the user's session: ask the subscribed trays, and give them a moment to
         answer (no tray keeps reporting on a timer). */
      server_emit(svc, "idle-query", "schedule", "%lld", (long long)sc->id);
      plat_mutex_lock(&svc->lock);
      for (int i = 0; i < 30 && svc->idle_report_at < now && !svc->stopping; i++)
        plat_cond_wait(&svc->changed, &svc->lock, 100 * TS_NS_PER_MS);
      plat_mutex_unlock(&svc->lock);
    }
    plat_mutex_lock(&svc->lock);
    long idle = svc->idle_report_at >= now ? svc->idle_report_s : -1;
    int64_t idle_at = svc->idle_report_at;
    plat_mutex_unlock(&svc->lock);
    if (runner_check_free(svc, &err) != TS_OK)
      return; /* try again when the running experiment or load ends */
    if (sc->require_idle_s) {
      if (idle < 0)
        snprintf(detail, sizeof detail, "user idle: unknown (no tray reports it)");
      else if (idle + (now - idle_at) < sc->require_idle_s) {
        what = STORE_SCHEDULE_SKIPPED;
        snprintf(detail, sizeof detail, "the user was active %lds ago",
                 idle + (long)(now - idle_at));
      }
    }
    if (what == STORE_SCHEDULE_STARTED) {
      plan *p = malloc(sizeof *p);
      int rc = p ? plan_parse(sc->plan_text, "schedule", p, &err) : TS_ENOMEM;
      /* A plan that runs programs runs only with the right of the client that added it: a row
         written into the database by anything else has none, and is refused here. */
      char name[64];
      snprintf(name, sizeof name, "schedule %lld", (long long)sc->id);
      plat_peer owner;
      runner_absent_peer(name, sc->programs_allowed, &sc->owner, &owner);
      runner_asker asker = {name, sc->programs_allowed, 0, &owner, &sc->owner};
      if (rc == TS_OK)
        rc = runner_start_run(svc, p, plat_clock_ns() ^ (uint64_t)sc->id, sc->id, &asker, &run_id,
                              &err);
      free(p);
      if (rc != TS_OK) {
        what = STORE_SCHEDULE_SKIPPED;
        snprintf(detail, sizeof detail, "%s", err.text);
      }
    }
  }
  int64_t next = schedule_next(&when, now, svc->started_at);
  plat_mutex_lock(&svc->db_lock);
  store_schedule_event(svc->db, sc->id, what, run_id, detail[0] ? detail : NULL, at, &err);
  store_schedule_update(svc->db, sc->id, next, next != 0, &err);
  plat_mutex_unlock(&svc->db_lock);
  ts_log(what == STORE_SCHEDULE_STARTED ? TS_LOG_INFO : TS_LOG_WARNING,
         "schedule %lld (%s): %s%s%s", (long long)sc->id, sc->spec,
         store_schedule_outcome_name(what), detail[0] ? ": " : "", detail);
}

/* What the wake timer does, for schedule-list (under the server's lock). */
static void say_wake(server *svc, const char *text) {
  plat_mutex_lock(&svc->lock);
  snprintf(svc->wake_state, sizeof svc->wake_state, "%s", text);
  plat_mutex_unlock(&svc->lock);
}

/* Arms the wake timer for the next schedule's due time `due`, or disarms it when none is due
   later (0); only when that time changed. `armed` is the time it holds. */
static void arm_wake(server *svc, plat_wake_timer *timer, int64_t due, int64_t *armed) {
  if (!timer || due == *armed)
    return;
  *armed = due;
  if (due == 0) {
    plat_wake_timer_cancel(timer);
    say_wake(svc, "not armed: no schedule is due later");
    return;
  }
  ts_err err;
  char when[32], text[200];
  schedule_format_local(due, when, sizeof when);
  int rc = plat_wake_timer_arm(timer, due, &err);
  if (rc == TS_OK)
    snprintf(text, sizeof text, "armed: wakes this machine at %s for the next schedule", when);
  else
    snprintf(text, sizeof text, "n/a: %s", err.text);
  say_wake(svc, text);
  if (rc != TS_OK)
    ts_log(TS_LOG_WARNING, "the wake timer for %s: %s", when, err.text);
}

void server_scheduler_main(void *arg) {
  server *svc = arg;
  store_schedule *items = malloc(8 * sizeof *items);
  char state[200];
  plat_wake_timer *timer = plat_wake_timer_open(state, sizeof state);
  if (!timer) {
    say_wake(svc, state);
    ts_log(TS_LOG_WARNING, "schedules do not wake this machine from sleep: %s", state + 5);
  }
  int64_t armed = -1;
  while (items) {
    int64_t now = wall_now();
    due_list due = {0, items, 0, now, 0};
    ts_err err;
    plat_mutex_lock(&svc->db_lock);
    store_schedules(svc->db, collect_schedule, &due, &err);
    plat_mutex_unlock(&svc->db_lock);
    /* Schedules fired now get their next due times in the database; the next turn arms for
       them. */
    arm_wake(svc, timer, due.later, &armed);
    for (int i = 0; i < due.count; i++)
      fire_schedule(svc, &due.items[i], now);
    /* Quiet mode's deadline counts only while an entry is open. */
    int64_t quiet_due = server_quiet_tick(svc, wall_now());
    if (quiet_due && (due.earliest == 0 || quiet_due < due.earliest))
      due.earliest = quiet_due;
    plat_mutex_lock(&svc->lock);
    if (svc->stopping) {
      plat_mutex_unlock(&svc->lock);
      break;
    }
    /* Sleep until the next due time (a schedule's, or quiet mode's deadline), or until something
       changes (a schedule added, quiet mode turned on, a run or a client's load ended, the
       machine woke or its clock was set): the only timer the idle service has. The wait is on
       the wall clock where the OS has one that counts time asleep (Linux); elsewhere the resume
       control wakes it. */
    uint64_t wait = UINT64_MAX;
    if (due.earliest)
      wait = due.earliest > now ? (uint64_t)(due.earliest - now) * TS_NS_PER_S : TS_NS_PER_S;
    plat_cond_wait_wall(&svc->changed, &svc->lock, wait);
    int stop = svc->stopping;
    plat_mutex_unlock(&svc->lock);
    if (stop)
      break;
  }
  /* A stopped service does not wake the machine. */
  plat_wake_timer_close(timer);
  free(items);
}

void server_clock_changed(server *svc, const char *why) {
  ts_log(TS_LOG_INFO, "%s: the scheduler reads the clock again", why);
  plat_mutex_lock(&svc->lock);
  plat_cond_broadcast(&svc->changed);
  plat_mutex_unlock(&svc->lock);
}

/* Boot schedules count from this start. */
int server_arm_boot_schedule(void *ctx, const store_schedule *sc) {
  server *svc = ctx;
  schedule_when when;
  ts_err err;
  if (schedule_parse(sc->spec, &when, &err) == TS_OK && when.kind == SCHEDULE_BOOT)
    store_schedule_update(svc->db, sc->id,
                          schedule_next(&when, svc->started_at - 1, svc->started_at), 1, &err);
  return 0;
}

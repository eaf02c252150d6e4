/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* quiet_guard.c - quiet mode in the service: recovery at start before anything listens, the
   restore deadline the scheduler enforces, quiet-on and quiet-off, and quiet-status answered from
   a cached reading of the machine. All of it under quiet_lock with a database connection of its
   own: a slow PowerShell never holds db_lock (internal.h gives the lock order). */
#include "internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "threadsoup/units.h"

/* How long a reading of Defender and Windows Update answers quiet-status. */
#define QUIET_CACHE_NS (10 * TS_NS_PER_S)
/* A restore that failed at its deadline is tried again this much later. */
#define QUIET_RETRY_S 60

int server_quiet_open(server *svc, ts_err *err) {
  plat_mutex_init(&svc->quiet_lock);
  svc->quiet_lock_ready = 1;
  if (!svc->quiet_ops)
    svc->quiet_ops = svc->config.quiet_ops ? svc->config.quiet_ops : plat_quiet_system();
  int rc = store_open(&svc->quiet_db, svc->db_path, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "cannot open the database for quiet mode");
  server_quiet_recover(svc);
  return TS_OK;
}

void server_quiet_close(server *svc) {
  store_close(svc->quiet_db);
  svc->quiet_db = NULL;
  if (svc->quiet_lock_ready)
    plat_mutex_destroy(&svc->quiet_lock);
  svc->quiet_lock_ready = 0;
}

void server_quiet_recover(server *svc) {
  quiet_outcome outcome;
  ts_err err;
  plat_mutex_lock(&svc->quiet_lock);
  int rc = quiet_recover(svc->quiet_db, svc->quiet_ops, &outcome, &err);
  svc->quiet_cached = 0;
  plat_mutex_unlock(&svc->quiet_lock);
  if (rc != TS_OK)
    ts_log(TS_LOG_ERROR, "quiet mode was still on after the last stop: %s", err.text);
  else if (outcome.text[0])
    ts_log(TS_LOG_WARNING, "quiet mode was still on after the last stop: %s", outcome.text);
}

int64_t server_quiet_tick(server *svc, int64_t now) {
  quiet_outcome outcome;
  ts_err err;
  int64_t next = 0;
  plat_mutex_lock(&svc->quiet_lock);
  int rc = quiet_expire(svc->quiet_db, svc->quiet_ops, now, &next, &outcome, &err);
  if (outcome.text[0])
    svc->quiet_cached = 0;
  plat_mutex_unlock(&svc->quiet_lock);
  if (rc != TS_OK) {
    ts_log(TS_LOG_ERROR, "quiet mode's time ran out: %s", err.text);
    return next ? now + QUIET_RETRY_S : 0;
  }
  if (outcome.text[0]) {
    ts_log(TS_LOG_INFO, "%s", outcome.text);
    server_emit(svc, "quiet-changed", "quiet", "%s", next ? "on" : "off");
  }
  return next;
}

int server_quiet_change(server *svc, int parts, int64_t seconds, const char *who,
                        quiet_outcome *out, ts_err *err) {
  int on = parts != 0;
  plat_mutex_lock(&svc->quiet_lock);
  int rc = on ? quiet_enter(svc->quiet_db, svc->quiet_ops, parts, seconds, who, out, err)
              : quiet_leave(svc->quiet_db, svc->quiet_ops, out, err);
  svc->quiet_cached = 0;
  plat_mutex_unlock(&svc->quiet_lock);
  /* Front ends (the tray) ask for status again and show the new state. */
  if (rc == TS_OK)
    server_emit(svc, "quiet-changed", "quiet", "%s", on ? "on" : "off");
  /* The scheduler takes the new deadline (or drops the old one). */
  plat_mutex_lock(&svc->lock);
  plat_cond_broadcast(&svc->changed);
  plat_mutex_unlock(&svc->lock);
  return rc;
}

int server_quiet_status(server *svc, quiet_state *out, ts_err *err) {
  plat_mutex_lock(&svc->quiet_lock);
  uint64_t now = plat_clock_ns();
  if (!svc->quiet_cached || now - svc->quiet_cached_at >= QUIET_CACHE_NS) {
    quiet_read_machine(svc->quiet_ops, &svc->quiet_machine);
    svc->quiet_cached = 1;
    svc->quiet_cached_at = plat_clock_ns();
  }
  int rc = quiet_describe(svc->quiet_db, &svc->quiet_machine, out, err);
  plat_mutex_unlock(&svc->quiet_lock);
  return rc;
}

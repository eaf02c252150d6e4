/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* quiet.c (POSIX) - quiet mode's system functions where there is nothing to quiet: Linux has no
   Defender or Windows Update, so every function says so. */
#include "threadsoup/plat.h"

static const char quiet_reason[] =
    "Linux has no Defender or Windows Update; quiet mode is Windows-only";

static int quiet_unsupported(ts_err *err) {
  return ts_err_set(err, TS_EUNSUPPORTED, "%s", quiet_reason);
}

static int defender_get(int *realtime_on, ts_err *err) {
  *realtime_on = 0;
  return quiet_unsupported(err);
}

static int defender_set(int realtime_on, ts_err *err) {
  (void)realtime_on;
  return quiet_unsupported(err);
}

static int update_get(int64_t *paused_until_unix, ts_err *err) {
  *paused_until_unix = 0;
  return quiet_unsupported(err);
}

static int update_set(int64_t paused_until_unix, ts_err *err) {
  (void)paused_until_unix;
  return quiet_unsupported(err);
}

static const char *unavailable_reason(void) { return quiet_reason; }

static int update_signal(plat_update_signal *out, ts_err *err) {
  (void)out;
  return quiet_unsupported(err);
}

static int defender_facts(plat_defender_facts *out, ts_err *err) {
  (void)out;
  return quiet_unsupported(err);
}

static const plat_quiet_ops posix_quiet_ops = {defender_get,  defender_set,       update_get,
                                               update_set,    unavailable_reason, update_signal,
                                               defender_facts};

const plat_quiet_ops *plat_quiet_system(void) { return &posix_quiet_ops; }

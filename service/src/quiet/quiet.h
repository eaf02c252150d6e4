/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* quiet.h - quiet mode: Defender's real-time protection off and Windows Update paused for the
   length of a run, journaled in the database first, and always restored to exactly what it was. */
#ifndef THREADSOUP_QUIET_H
#define THREADSOUP_QUIET_H

#include <stdint.h>

#include "store/store.h"
#include "threadsoup/err.h"
#include "threadsoup/plat.h"

/* The pause outlasts the run by this much, so a run that overruns its estimate stays quiet, while
   a pause nobody restores (the machine died for good) still ends on its own within hours. */
#define QUIET_MARGIN_S 3600
#define QUIET_MIN_S 60
/* The longest pause the Settings app offers (5 weeks), margin included. */
#define QUIET_MAX_S (35 * 86400 - QUIET_MARGIN_S)
/* The longest quiet mode asked for by hand (quiet on --hours), in whole hours. */
#define QUIET_MAX_HOURS (QUIET_MAX_S / 3600)

/* What one call did, in words for the user (one line per part) and in numbers for callers. */
typedef struct quiet_outcome {
  int defender_changed; /* enter: turned off; leave/recover: turned back on */
  int update_changed;   /* enter: paused; leave/recover: pause put back as it was */
  int problems;         /* parts that did not work (each has a line in text) */
  char text[1024];
} quiet_outcome;

/* Quiet mode now: the journal's view and the machine's. */
typedef struct quiet_state {
  int on;                  /* an open journal entry: quiet mode will be restored */
  store_quiet_entry entry; /* the open entry, or else the last one (id 0: never used) */
  int defender_known;      /* the machine's state could be read */
  int defender_on;
  int update_known;
  int64_t update_paused_until; /* 0: no pause stored */
  char unavailable[256];       /* "" or why quiet mode cannot (fully) work here */
  char text[1024];             /* a summary for `threadsoup quiet status` */
} quiet_state;

/* Reads the journal and the machine; machine errors are reported in the state, not returned. */
int quiet_status(store *s, const plat_quiet_ops *ops, quiet_state *out, ts_err *err);

/* Turns quiet mode on for `duration_s` seconds (QUIET_MIN_S to QUIET_MAX_S): first journals the
   machine's state, then turns Defender's real-time protection off and pauses Windows Update until
   now + duration_s + QUIET_MARGIN_S, journaling each change before making it. A part that fails
   (Tamper Protection, no Windows Update) is reported in out and the other goes on; TS_OK unless
   nothing at all is quiet afterwards. Refused (TS_EINVAL) while quiet mode is on. */
int quiet_enter(store *s, const plat_quiet_ops *ops, int64_t duration_s, const char *reason,
                quiet_outcome *out, ts_err *err);

/* Restores what the open entry says quiet mode changed and closes it. A part the user changed
   during quiet mode (Defender turned back on, the pause changed) is left as the user set it, and
   out says so. TS_OK with "quiet mode is not on" when there is nothing to restore. When a part
   cannot be restored the entry stays open (retried by the next leave or recover) and the error
   says what is still changed. */
int quiet_leave(store *s, const plat_quiet_ops *ops, quiet_outcome *out, ts_err *err);

/* At service start: restores an entry left open by a crash or a reboot, as quiet_leave does. */
int quiet_recover(store *s, const plat_quiet_ops *ops, quiet_outcome *out, ts_err *err);

#endif

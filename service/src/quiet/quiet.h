/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* quiet.h - quiet mode: Defender's real-time protection off and Windows Update paused for the
   length of a run, journaled in the database first, and always restored to exactly what it was. */
#ifndef THREADSOUP_QUIET_H
#define THREADSOUP_QUIET_H

#include <stdint.h>

#include "../store/store.h"
#include "threadsoup/err.h"
#include "threadsoup/plat.h"

/* The pause outlasts the run by this much, so a run that overruns its estimate stays quiet, while
   a pause nobody restores (the machine died for good) still ends on its own within hours. */
#define QUIET_MARGIN_S 3600
#define QUIET_MIN_S 10
/* The longest pause the Settings app offers (5 weeks), margin included. */
#define QUIET_MAX_S (35 * 86400 - QUIET_MARGIN_S)
/* The longest quiet mode asked for by hand (quiet on --hours), in whole hours. */
#define QUIET_MAX_HOURS (QUIET_MAX_S / 3600)

/* After writing the pause, quiet_enter waits at most this long for the update service's own
   signal (plat_update_signal), looking every QUIET_CONFIRM_POLL_MS. Nothing here measured how
   long the update service takes (no Windows on this machine); a pause written straight to the
   registry may never be picked up before the next scan, and then the run says "written, not
   confirmed" rather than waiting longer. Only quiet mode's own lock waits meanwhile. */
#define QUIET_CONFIRM_WAIT_MS 5000
#define QUIET_CONFIRM_POLL_MS 250

/* Quiet mode's parts, as the words of the plan's `quiet` setting place them (off, defender,
   updates, on): a set of bits. Each part asked is done on its own, best effort: no choice is all
   or nothing, and one part that cannot be done never keeps the other from being done. */
enum { QUIET_DEFENDER = 1, QUIET_UPDATES = 2, QUIET_BOTH = 3 };
/* "off", "defender", "updates", "on". */
const char *quiet_parts_word(int parts);
/* The parts a word names ("defender", "updates", "on"); 0 for anything else. */
int quiet_parts_parse(const char *word);

/* What became of the Windows Update pause quiet mode asked for. */
typedef enum quiet_update_state {
  QUIET_UPDATE_NOT_ASKED = 0, /* no pause asked (left out, or already paused long enough) */
  QUIET_UPDATE_CONFIRMED,     /* written, and the update stack says paused until >= asked */
  QUIET_UPDATE_WRITTEN,       /* written and read back; the update stack does not (yet) agree */
  QUIET_UPDATE_FAILED,        /* could not be written or did not read back */
  QUIET_UPDATE_BLOCKED        /* not written: policy takes the pause away from users */
} quiet_update_state;

/* "not asked", "confirmed", "written, not confirmed", "failed", "blocked by policy". */
const char *quiet_update_state_text(quiet_update_state s);
/* The journal's words: "not-asked", "confirmed", "written", "failed", "blocked". */
const char *quiet_update_state_token(quiet_update_state s);
quiet_update_state quiet_update_state_parse(const char *token);

/* What one call did, in words for the user (one line per part) and in numbers for callers. */
typedef struct quiet_outcome {
  int defender_changed; /* enter: turned off; leave/recover: turned back on */
  int update_changed;   /* enter: paused; leave/recover: pause put back as it was */
  int problems;         /* parts that did not work (each has a line in text) */
  /* quiet_enter only: what was asked and what was confirmed (also kept in the journal). */
  int64_t entry_id;           /* the journal entry, 0 when none was opened */
  int defender_asked;         /* 1: asked Defender's real-time protection off */
  int defender_confirmed;     /* 1 read back off, 0 read back on, -1 could not be read */
  int64_t update_asked_until; /* the pause end asked for (Unix s), 0 none */
  quiet_update_state update_state;
  char update_how[300];   /* which signal confirmed it, or why it is not confirmed */
  int parts_asked;        /* QUIET_DEFENDER, QUIET_UPDATES or QUIET_BOTH */
  char defender_how[300]; /* why Defender was left as it was (Tamper Protection, another
                             antivirus, already off), or "" */
  char text[1024];
} quiet_outcome;

/* The update stack's view of a pause asked until `asked_until`: CONFIRMED when it says paused
   (status 1 or PolicyState paused) and any end it states is >= asked_until; WRITTEN otherwise.
   `how` says which values decided, in words. */
quiet_update_state quiet_update_classify(const plat_update_signal *sig, int64_t asked_until,
                                         char *how, size_t len);
/* A sentence when policy takes the pause away from users (returns 1), or notes a WSUS-managed
   machine (returns 0 with the note in buf); "" and 0 when no policy is in the way. */
int quiet_update_policy(const plat_update_signal *sig, char *buf, size_t len);

/* For `threadsoup doctor`: is the Windows Update pause available and effective here? Reads the
   pause, the update stack's signal and the policy; never changes anything. ok = 1 when a pause can
   be asked for (no blocking policy) and, where a pause is stored, the update stack confirms it. */
typedef struct quiet_update_check {
  int ok;
  int available;            /* Windows Update is there and readable */
  int64_t paused_until;     /* the stored pause (0 none) */
  quiet_update_state state; /* of the stored pause: CONFIRMED/WRITTEN, or NOT_ASKED (none) */
  char text[700];           /* what was read and what it means */
} quiet_update_check;
void quiet_check_update(const plat_quiet_ops *ops, quiet_update_check *out);

/* One line on what an entry asked for and confirmed, for reports and `quiet status`:
   "Defender real-time off asked, confirmed off (read back); Windows Update pause asked until
   2026-12-07 10:00 UTC, confirmed by the update service: …" (or "written, not confirmed: why"). */
void quiet_describe_entry(const store_quiet_entry *e, char *buf, size_t len);

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

/* The machine's side of quiet mode, as read at one moment (slow on Windows: PowerShell). */
typedef struct quiet_machine {
  int defender_known, defender_on;
  int update_known;
  int64_t update_paused_until;
  char defender_error[256], update_error[256]; /* why a part is unknown */
  char unavailable[256];
} quiet_machine;

/* Reads the machine; errors go into the result. May take seconds (PowerShell): callers hold no
   lock that others wait for (the service caches it, server/quiet_guard.c). */
void quiet_read_machine(const plat_quiet_ops *ops, quiet_machine *out);
/* The state from the journal (quick) and a machine reading. */
int quiet_describe(store *s, const quiet_machine *m, quiet_state *out, ts_err *err);
/* Both: reads the journal and the machine; machine errors are reported in the state. */
int quiet_status(store *s, const plat_quiet_ops *ops, quiet_state *out, ts_err *err);

/* Turns the `parts` of quiet mode on for `duration_s` seconds (QUIET_MIN_S to QUIET_MAX_S):
   first journals the machine's state, what was asked, this process and the deadline now +
   duration_s (restore_by, which the service enforces: Defender has no end of its own), then turns
   Defender's real-time protection off and pauses Windows Update until now + duration_s +
   QUIET_MARGIN_S, journaling each change before making it. Best effort per part:
   - Defender is asked only when it is this PC's antivirus (AMRunningMode Normal) and Tamper
     Protection is off; otherwise it is left as is with a line saying why and what the user can do
     (Tamper Protection: turn real-time protection off by hand, or Tamper Protection off).
   - A part that cannot be read, or refuses, is a line (out->problems) and is undone alone; the
     other part goes on.
   - A part this machine does not have at all is left out.
   The entry records what was asked, done and confirmed; it stays open only when something was
   changed. TS_OK when some asked part was done, or none needed doing; TS_EOS when every asked
   part failed or was refused (nothing changed); TS_EUNSUPPORTED when no asked part exists here.
   Refused (TS_EINVAL) while quiet mode is on, and for parts other than QUIET_DEFENDER,
   QUIET_UPDATES and QUIET_BOTH. */
int quiet_enter(store *s, const plat_quiet_ops *ops, int parts, int64_t duration_s,
                const char *reason, quiet_outcome *out, ts_err *err);

/* Restores what the open entry says quiet mode changed and closes it. A part the user changed
   during quiet mode (Defender turned back on, the pause changed) is left as the user set it, and
   out says so. TS_OK with "quiet mode is not on" when there is nothing to restore. When a part
   cannot be restored the entry stays open (retried by the next leave or recover) and the error
   says what is still changed. */
int quiet_leave(store *s, const plat_quiet_ops *ops, quiet_outcome *out, ts_err *err);

/* At service start: restores an entry left open by a crash or a reboot, as quiet_leave does. */
int quiet_recover(store *s, const plat_quiet_ops *ops, quiet_outcome *out, ts_err *err);

/* Whether the process `pid` still runs as ThreadSoup (a pid reused by another program does not
   count). */
typedef int (*quiet_owner_alive_fn)(long pid);
/* The real answer: the process list (plat_census_process) and its name. */
int quiet_owner_alive(long pid);

/* At a foreground start (`threadsoup run`, `threadsoup quiet`): restores, as quiet_recover does, an
   entry left open by a process that no longer runs (a foreground run killed, or its console
   closed before it could restore everything); an entry of a live process, or of this one, is left
   to it. `alive` NULL: quiet_owner_alive. TS_OK with out->text "" when there is nothing to do. */
int quiet_recover_orphan(store *s, const plat_quiet_ops *ops, quiet_owner_alive_fn alive,
                         quiet_outcome *out, ts_err *err);

/* The deadline: restores the open entry when its restore_by is at or before `now`, as
   quiet_leave does. *next_deadline gets the restore_by of the entry still open afterwards (0: none
   open, or one without a deadline), for the caller's next wake-up. */
int quiet_expire(store *s, const plat_quiet_ops *ops, int64_t now, int64_t *next_deadline,
                 quiet_outcome *out, ts_err *err);

#endif

/* SPDX-License-Identifier: MIT - Copyright (c) 2026 The ThreadSoup authors */
/* quiet.c - quiet mode's logic, the same on every platform: journal the machine's state, then
   change it, then restore exactly what was changed; the machine is reached only through
   plat_quiet_ops, so tests drive all of it with a fake. */
#include "quiet.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "threadsoup/civil.h"
#include "threadsoup/plat_knobs.h"

static const char tamper_refusal[] =
    "Defender refused: Tamper Protection is on; turn it off in Windows Security or leave quiet "
    "mode's Defender part off";

/* Appends one line to the outcome's text. */
static void say(char *text, size_t len, const char *fmt, ...) TS_PRINTF(3, 4);
static void say(char *text, size_t len, const char *fmt, ...) {
  size_t used = strlen(text);
  if (used + 2 >= len)
    return;
  if (used > 0)
    text[used++] = '\n';
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text + used, len - used, fmt, ap);
  va_end(ap);
}

static void problem(quiet_outcome *out, const char *fmt, ...) TS_PRINTF(2, 3);
static void problem(quiet_outcome *out, const char *fmt, ...) {
  char line[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  out->problems++;
  say(out->text, sizeof out->text, "%s", line);
}

/* "2026-12-07 10:00 UTC"; gmtime is not thread-safe and the service has many threads. */
static void format_time(int64_t t, char *buf, size_t len) {
  /* Floor division by the remainder alone: t - 86399 or days * 86400 would overflow near
     INT64_MIN, and a time read back from the journal or the registry may be any integer. */
  int64_t secs = t % 86400, days = t / 86400, y;
  if (secs < 0) {
    secs += 86400;
    days--;
  }
  int m, d;
  civil_from_days(days, &y, &m, &d);
  snprintf(buf, len, "%04lld-%02d-%02d %02d:%02d UTC", (long long)y, m, d, (int)(secs / 3600),
           (int)(secs / 60 % 60));
}

/* A pause as words: "not paused", "paused until …", "paused until … (ended)". */
static void describe_pause(int64_t until, int64_t now, char *buf, size_t len) {
  char when[40];
  if (until <= 0) {
    snprintf(buf, len, "not paused");
    return;
  }
  format_time(until, when, sizeof when);
  snprintf(buf, len, "paused until %s%s", when, until <= now ? " (ended)" : "");
}

static int64_t now_unix(void) { return (int64_t)time(NULL); }

/* ---- the update stack's confirmation --------------------------------------------------------- */

static const char *const state_texts[] = {"not asked", "confirmed", "written, not confirmed",
                                          "failed", "blocked by policy"};
static const char *const state_tokens[] = {"not-asked", "confirmed", "written", "failed",
                                           "blocked"};

const char *quiet_update_state_text(quiet_update_state st) {
  return (unsigned)st < 5 ? state_texts[st] : "unknown";
}

const char *quiet_update_state_token(quiet_update_state st) {
  return (unsigned)st < 5 ? state_tokens[st] : "not-asked";
}

quiet_update_state quiet_update_state_parse(const char *token) {
  for (int i = 0; i < 5; i++)
    if (token && strcmp(token, state_tokens[i]) == 0)
      return (quiet_update_state)i;
  return QUIET_UPDATE_NOT_ASKED;
}

int quiet_update_policy(const plat_update_signal *sig, char *buf, size_t len) {
  buf[0] = '\0';
  if (sig->pause_ux_disabled || sig->wu_ux_disabled) {
    snprintf(buf, len,
             "%s sets %s=1: users may not pause Windows Update here, and the update service "
             "does not take a pause from the Settings values; ask the administrator",
             sig->policy_where[0] ? sig->policy_where : "policy",
             sig->pause_ux_disabled ? "SetDisablePauseUXAccess" : "SetDisableUXWUAccess");
    return 1;
  }
  if (sig->wsus)
    snprintf(buf, len,
             "an update server (WSUS, UseWUServer=1 from %s) manages this machine: its approvals "
             "and deadlines may install updates during a pause",
             sig->policy_where[0] ? sig->policy_where : "policy");
  return 0;
}

/* One kind of update (quality or feature): 1 confirms, 0 says nothing, -1 contradicts; why says
   which value, in words. */
static int judge_kind(const char *kind, int status, int paused, int64_t end, int64_t asked,
                      char *why, size_t len) {
  char when[40], asked_text[40];
  format_time(end, when, sizeof when);
  format_time(asked, asked_text, sizeof asked_text);
  if (status == 2) {
    snprintf(why, len, "Paused%sStatus=2: the update service says the pause ended", kind);
    return -1;
  }
  if (end > 0 && end < asked) {
    snprintf(why, len, "PolicyState Pause%sUpdatesEndTime is %s, before the %s asked", kind, when,
             asked_text);
    return -1;
  }
  if (paused == 0 && end == 0 && status != 1) {
    snprintf(why, len, "PolicyState %sUpdatesPaused=0", kind);
    return -1;
  }
  if (status == 1 && end >= asked) {
    snprintf(why, len, "Paused%sStatus=1, PolicyState Pause%sUpdatesEndTime %s", kind, kind, when);
    return 1;
  }
  if (status == 1) {
    snprintf(why, len, "Paused%sStatus=1 (no end stated)", kind);
    return 1;
  }
  if (paused == 1 && end >= asked) {
    snprintf(why, len, "PolicyState %sUpdatesPaused=1 until %s", kind, when);
    return 1;
  }
  snprintf(why, len, "no Paused%sStatus or PolicyState pause", kind);
  return 0;
}

quiet_update_state quiet_update_classify(const plat_update_signal *sig, int64_t asked_until,
                                         char *how, size_t len) {
  char quality[200], feature[200];
  int q = judge_kind("Quality", sig->quality_status, sig->quality_paused, sig->quality_end,
                     asked_until, quality, sizeof quality);
  int f = judge_kind("Feature", sig->feature_status, sig->feature_paused, sig->feature_end,
                     asked_until, feature, sizeof feature);
  if (q > 0 && f >= 0) {
    snprintf(how, len, "the update service: %s%s%s", quality, f > 0 ? "; " : "",
             f > 0 ? feature : "");
    return QUIET_UPDATE_CONFIRMED;
  }
  if (q < 0 || f < 0)
    snprintf(how, len, "%s", q < 0 ? quality : feature);
  else
    snprintf(how, len,
             "the update service has not taken the pause into its state (%s; %s); it reads the "
             "Settings values at its next scan",
             quality, feature);
  return QUIET_UPDATE_WRITTEN;
}

/* Reads the signal until it confirms `until` or QUIET_CONFIRM_WAIT_MS (a test's
   PLAT_KNOB_QUIET_CONFIRM_WAIT_MS) has passed. */
static quiet_update_state wait_for_confirmation(const plat_quiet_ops *ops, int64_t until, char *how,
                                                size_t len) {
  if (!ops->update_signal) {
    snprintf(how, len, "this machine offers no second signal");
    return QUIET_UPDATE_WRITTEN;
  }
  long confirm_wait_ms = plat_knob_number(PLAT_KNOB_QUIET_CONFIRM_WAIT_MS, QUIET_CONFIRM_WAIT_MS);
  int waited = 0;
  for (;;) {
    plat_update_signal sig;
    ts_err e;
    if (ops->update_signal(&sig, &e) != TS_OK) {
      snprintf(how, len, "the update service's signal cannot be read: %s", e.text);
      return QUIET_UPDATE_WRITTEN;
    }
    quiet_update_state st = quiet_update_classify(&sig, until, how, len);
    if (st == QUIET_UPDATE_CONFIRMED || waited >= confirm_wait_ms) {
      if (st != QUIET_UPDATE_CONFIRMED && waited > 0) {
        size_t used = strlen(how);
        snprintf(how + used, len - used, " (after %.1f s)", waited / 1000.0);
      }
      return st;
    }
    plat_sleep_ns((uint64_t)QUIET_CONFIRM_POLL_MS * 1000000u);
    waited += QUIET_CONFIRM_POLL_MS;
  }
}

/* ---- entering -------------------------------------------------------------------------------- */

/* Turns real-time protection off and reads it back: Tamper Protection accepts the request and
   changes nothing, which is a problem in out. Once asked, Defender may still switch later (a slow
   or timed-out request), so the journal keeps the part either way; restoring checks the state
   first and then touches nothing that is already as it was. */
static void defender_quiet(const plat_quiet_ops *ops, quiet_outcome *out) {
  ts_err set_err, get_err;
  ts_err_clear(&set_err);
  int set_rc = ops->defender_set(0, &set_err);
  int on = 1;
  int get_rc = ops->defender_get(&on, &get_err);
  out->defender_asked = 1;
  out->defender_confirmed = get_rc != TS_OK ? -1 : !on;
  if (get_rc != TS_OK) {
    problem(out, "Defender: cannot tell whether real-time protection is off: %s%s%s", get_err.text,
            set_rc != TS_OK ? "; turning it off said: " : "", set_rc != TS_OK ? set_err.text : "");
    return;
  }
  if (!on) {
    out->defender_changed = 1;
    say(out->text, sizeof out->text, "Defender real-time protection: turned off (was on)");
    return;
  }
  if (set_rc != TS_OK)
    problem(out, "Defender: real-time protection stays on: %s", set_err.text);
  else
    problem(out, "%s", tamper_refusal);
}

/* Pauses Windows Update until `until` and reads it back, as defender_quiet does. */
static void update_quiet(const plat_quiet_ops *ops, int64_t until, int64_t was,
                         quiet_outcome *out) {
  ts_err set_err, get_err;
  ts_err_clear(&set_err);
  int set_rc = ops->update_set(until, &set_err);
  int64_t now_until = 0;
  int get_rc = ops->update_get(&now_until, &get_err);
  char when[40];
  format_time(until, when, sizeof when);
  if (get_rc != TS_OK) {
    out->update_asked_until = until;
    out->update_state = QUIET_UPDATE_FAILED;
    snprintf(out->update_how, sizeof out->update_how, "cannot be read back: %s", get_err.text);
    problem(out, "Windows Update: cannot tell whether it is paused: %s%s%s", get_err.text,
            set_rc != TS_OK ? "; pausing it said: " : "", set_rc != TS_OK ? set_err.text : "");
    return;
  }
  out->update_asked_until = until;
  out->update_state = QUIET_UPDATE_FAILED;
  if (now_until == until) {
    char before[64];
    describe_pause(was, now_unix(), before, sizeof before);
    out->update_changed = 1;
    out->update_state = wait_for_confirmation(ops, until, out->update_how, sizeof out->update_how);
    say(out->text, sizeof out->text, "Windows Update: paused until %s (was %s); %s%s%s", when,
        before, quiet_update_state_text(out->update_state),
        out->update_state == QUIET_UPDATE_CONFIRMED ? " by " : ": ", out->update_how);
    return;
  }
  snprintf(out->update_how, sizeof out->update_how, "%s",
           set_rc != TS_OK ? set_err.text : "the pause does not read back as written");
  if (now_until != was)
    problem(out, "Windows Update: asked to pause until %s, the pause now says otherwise%s%s", when,
            set_rc != TS_OK ? ": " : "", set_rc != TS_OK ? set_err.text : "");
  else
    problem(out, "Windows Update: not paused: %s",
            set_rc != TS_OK ? set_err.text : "the pause did not change");
}

static int restore_entry(store *s, const plat_quiet_ops *ops, const store_quiet_entry *entry,
                         quiet_outcome *out, ts_err *err);
static void defender_restore(const plat_quiet_ops *ops, quiet_outcome *out);
static void update_restore(const plat_quiet_ops *ops, const store_quiet_entry *entry,
                           quiet_outcome *out);

/* Keeps what was asked and confirmed in the journal entry; a failure to write it is a line in
   the outcome, not a reason to undo quiet mode. */
static void record_confirmation(store *s, int64_t id, quiet_outcome *out) {
  store_quiet_entry e;
  memset(&e, 0, sizeof e);
  e.defender_asked = out->defender_asked;
  e.defender_confirmed = out->defender_asked ? out->defender_confirmed : -1;
  e.update_asked_until = out->update_asked_until;
  snprintf(e.update_state, sizeof e.update_state, "%s",
           quiet_update_state_token(out->update_state));
  snprintf(e.update_how, sizeof e.update_how, "%s", out->update_how);
  snprintf(e.defender_how, sizeof e.defender_how, "%s", out->defender_how);
  ts_err err;
  if (store_quiet_set_confirmed(s, id, &e, &err) != TS_OK)
    say(out->text, sizeof out->text, "note: what was confirmed is not in the journal: %s",
        err.text);
}

void quiet_describe_entry(const store_quiet_entry *e, char *buf, size_t len) {
  /* Entries from before parts could be chosen asked for both. */
  int parts = e->parts_asked ? e->parts_asked : QUIET_BOTH;
  char defender[400], update[500];
  if (!(parts & QUIET_DEFENDER))
    snprintf(defender, sizeof defender, "Defender not asked");
  else if (e->defender_asked)
    snprintf(defender, sizeof defender, "Defender real-time off asked, %s",
             e->defender_confirmed == 1   ? "confirmed off (read back)"
             : e->defender_confirmed == 0 ? "still on when read back (Tamper Protection?)"
                                          : "not confirmed (could not be read back)");
  else if (e->defender_how[0])
    snprintf(defender, sizeof defender, "Defender real-time off asked, left as is: %s",
             e->defender_how);
  else
    snprintf(defender, sizeof defender, "Defender real-time off not asked");
  quiet_update_state st = quiet_update_state_parse(e->update_state);
  if (!(parts & QUIET_UPDATES)) {
    snprintf(update, sizeof update, "Windows Update pause not asked");
  } else if (st == QUIET_UPDATE_NOT_ASKED) {
    snprintf(update, sizeof update, "Windows Update pause not asked");
  } else {
    char when[40];
    format_time(e->update_asked_until, when, sizeof when);
    snprintf(update, sizeof update, "Windows Update pause asked until %s, %s%s%s", when,
             st == QUIET_UPDATE_CONFIRMED ? "confirmed by " : quiet_update_state_text(st),
             st == QUIET_UPDATE_CONFIRMED ? "" : ": ", e->update_how);
  }
  snprintf(buf, len, "%s; %s", defender, update);
}

/* ---- which part, and whether to touch it -------------------------------------------------- */

static const char *const parts_words[] = {"off", "defender", "updates", "on"};

const char *quiet_parts_word(int parts) {
  return parts >= 0 && parts <= QUIET_BOTH ? parts_words[parts] : "off";
}

int quiet_parts_parse(const char *word) {
  for (int i = 1; i <= QUIET_BOTH; i++)
    if (word && strcmp(word, parts_words[i]) == 0)
      return i;
  return 0;
}

/* What quiet_enter makes of one part before it changes anything. */
typedef enum part_plan {
  PART_NOT_ASKED,  /* the caller did not ask for it */
  PART_ABSENT,     /* this machine does not have it */
  PART_UNREADABLE, /* there, but its state cannot be read: a problem, left alone */
  PART_LEAVE,      /* nothing to do, or must not be done (a line says why) */
  PART_CHANGE      /* to be changed */
} part_plan;

/* Whether Defender may be asked off, from the probe of who protects this PC: leaves `how` empty
   when it may, or says why it is left as is; 1 when Tamper Protection refuses what was asked. */
static int judge_defender(const plat_defender_facts *f, char *how, size_t len) {
  how[0] = '\0';
  if (f->running_mode[0] && strcmp(f->running_mode, "Normal") != 0) {
    if (f->antivirus[0])
      snprintf(how, len, "Defender is not this PC's antivirus (%s is; Defender: %s)", f->antivirus,
               f->running_mode);
    else
      snprintf(how, len,
               "Defender is not this PC's antivirus (Defender: %s; Security Center names no "
               "other)",
               f->running_mode);
  } else if (f->realtime_on == 0) {
    snprintf(how, len, "real-time protection is already off");
  } else if (f->tamper == 1) {
    snprintf(how, len,
             "Tamper Protection is on, and Windows then ignores a program's request to turn "
             "real-time protection off; for a run with Defender off, turn real-time protection "
             "off by hand in Windows Security (Virus & threat protection settings) before the "
             "run, or turn Tamper Protection off there");
    return 1;
  }
  return 0;
}

/* Reads Defender's state and decides; *on gets real-time protection's state when read. */
static part_plan plan_defender(const plat_quiet_ops *ops, int *on, int *refused, char *how,
                               size_t len, ts_err *e) {
  how[0] = '\0';
  plat_defender_facts f;
  int rc = ops->defender_facts ? ops->defender_facts(&f, e) : TS_OK;
  if (rc == TS_EUNSUPPORTED)
    return PART_ABSENT;
  if (rc != TS_OK)
    return PART_UNREADABLE;
  if (!ops->defender_facts) {
    memset(&f, 0, sizeof f);
    f.realtime_on = f.tamper = -1;
  }
  if (f.realtime_on < 0) {
    rc = ops->defender_get(&f.realtime_on, e);
    if (rc == TS_EUNSUPPORTED)
      return PART_ABSENT;
    if (rc != TS_OK)
      return PART_UNREADABLE;
  }
  *on = f.realtime_on;
  *refused = judge_defender(&f, how, len);
  return how[0] ? PART_LEAVE : PART_CHANGE;
}

/* A part's change that did not take is put back alone (it may have half-taken: a slow request, a
   write that did not read back); what cannot be put back stays in the journal for the next
   restore. Returns 1 when the part is back as it was. */
static int undo_part(const plat_quiet_ops *ops, const store_quiet_entry *entry, int defender,
                     quiet_outcome *out) {
  quiet_outcome undo;
  memset(&undo, 0, sizeof undo);
  if (defender)
    defender_restore(ops, &undo);
  else
    update_restore(ops, entry, &undo);
  say(out->text, sizeof out->text, "  undone: %s", undo.text);
  return undo.problems == 0;
}

int quiet_enter(store *s, const plat_quiet_ops *ops, int parts, int64_t duration_s,
                const char *reason, quiet_outcome *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  if (duration_s < QUIET_MIN_S || duration_s > QUIET_MAX_S)
    return ts_err_set(err, TS_EINVAL,
                      "quiet mode's duration: %lld s is out of range (accepted: %d s to %d s, "
                      "about 5 weeks)",
                      (long long)duration_s, QUIET_MIN_S, QUIET_MAX_S);
  if (parts < QUIET_DEFENDER || parts > QUIET_BOTH)
    return ts_err_set(err, TS_EINVAL,
                      "quiet mode's parts: %d is not one (accepted: defender, updates, on)", parts);
  store_quiet_entry open;
  int found = 0;
  int rc = store_quiet_open_entry(s, &open, &found, err);
  if (rc != TS_OK)
    return rc;
  if (found)
    return ts_err_set(err, TS_EINVAL,
                      "quiet mode is already on since %s (%s); turn it off first (threadsoup "
                      "quiet off)",
                      open.started_at, open.reason);
  out->parts_asked = parts;

  /* The state before anything changes, part by part. */
  ts_err defender_err, update_err;
  ts_err_clear(&defender_err);
  ts_err_clear(&update_err);
  int defender_on = 0, tamper_refused = 0;
  int64_t paused_until = 0;
  part_plan dplan = PART_NOT_ASKED, uplan = PART_NOT_ASKED;
  if (parts & QUIET_DEFENDER)
    dplan = plan_defender(ops, &defender_on, &tamper_refused, out->defender_how,
                          sizeof out->defender_how, &defender_err);
  if (parts & QUIET_UPDATES) {
    rc = ops->update_get(&paused_until, &update_err);
    uplan = rc == TS_EUNSUPPORTED ? PART_ABSENT : rc != TS_OK ? PART_UNREADABLE : PART_CHANGE;
  }
  if ((dplan == PART_ABSENT || dplan == PART_NOT_ASKED) &&
      (uplan == PART_ABSENT || uplan == PART_NOT_ASKED)) {
    const ts_err *first = dplan == PART_ABSENT ? &defender_err : &update_err;
    if (dplan == PART_ABSENT && uplan == PART_ABSENT &&
        strcmp(defender_err.text, update_err.text) != 0)
      return ts_err_set(err, TS_EUNSUPPORTED, "quiet mode cannot change anything here: %s; %s",
                        defender_err.text, update_err.text);
    return ts_err_set(err, TS_EUNSUPPORTED, "quiet mode cannot change anything here: %s",
                      first->text);
  }
  int64_t now = now_unix();
  int64_t until = now + duration_s + QUIET_MARGIN_S;
  /* Policy that takes the pause away from users: the Settings values would be written and then
     ignored, so the part is left out and the run says why. */
  char policy[400] = "";
  int blocked = 0;
  plat_update_signal sig;
  ts_err sig_err;
  if (uplan == PART_CHANGE && ops->update_signal && ops->update_signal(&sig, &sig_err) == TS_OK)
    blocked = quiet_update_policy(&sig, policy, sizeof policy);
  if (uplan == PART_CHANGE && (blocked || paused_until >= until))
    uplan = PART_LEAVE;

  store_quiet_entry entry;
  memset(&entry, 0, sizeof entry);
  plat_utc_timestamp(entry.started_at, sizeof entry.started_at);
  snprintf(entry.reason, sizeof entry.reason, "%s", reason && reason[0] ? reason : "by hand");
  entry.defender_was = dplan == PART_CHANGE || dplan == PART_LEAVE ? defender_on : -1;
  entry.update_paused_until_was = uplan == PART_CHANGE || uplan == PART_LEAVE ? paused_until : -1;
  /* Defender has no end of its own: the service restores everything by this time. */
  entry.restore_by = now + duration_s;
  entry.parts_asked = parts;
  entry.owner_pid = plat_self_pid();
  int64_t id = 0;
  rc = store_quiet_begin(s, &entry, &id, err);
  if (rc != TS_OK)
    return ts_err_prefix(err, "quiet mode changed nothing");
  out->entry_id = id;

  /* What will change is journaled before it changes: a crash right after a change still finds
     it in the journal. Restoring a part that did not change in the end is harmless. */
  int change_defender = dplan == PART_CHANGE, change_update = uplan == PART_CHANGE;
  rc = store_quiet_set_changed(s, id, change_defender, change_update, change_update ? until : 0,
                               err);
  if (rc != TS_OK) {
    char at[32];
    ts_err ignored;
    plat_utc_timestamp(at, sizeof at);
    store_quiet_end(s, id, at, "the journal could not be written; nothing was changed", &ignored);
    return ts_err_prefix(err, "quiet mode changed nothing");
  }

  int defender_failed = 0, update_failed = 0;
  switch (dplan) {
  case PART_NOT_ASKED:
    say(out->text, sizeof out->text, "Defender: not asked; left as is");
    break;
  case PART_ABSENT:
    snprintf(out->defender_how, sizeof out->defender_how, "not on this machine (%s)",
             defender_err.text);
    say(out->text, sizeof out->text, "Defender: %s; left out", out->defender_how);
    break;
  case PART_UNREADABLE:
    snprintf(out->defender_how, sizeof out->defender_how, "its state cannot be read: %s",
             defender_err.text);
    problem(out, "Defender: left as is: %s", out->defender_how);
    defender_failed = 1;
    break;
  case PART_LEAVE:
    say(out->text, sizeof out->text, "Defender real-time protection: left as is: %s",
        out->defender_how);
    /* Refused by Tamper Protection: what was asked was not done. */
    defender_failed = tamper_refused;
    break;
  case PART_CHANGE: {
    int before = out->problems;
    defender_quiet(ops, out);
    defender_failed = out->problems > before;
    break;
  }
  }
  switch (uplan) {
  case PART_NOT_ASKED:
    say(out->text, sizeof out->text, "Windows Update: not asked; left as is");
    break;
  case PART_ABSENT:
    say(out->text, sizeof out->text, "Windows Update: not on this machine (%s); left out",
        update_err.text);
    break;
  case PART_UNREADABLE:
    problem(out, "Windows Update: left as is: the pause cannot be read: %s", update_err.text);
    update_failed = 1;
    break;
  case PART_LEAVE:
    if (blocked) {
      out->update_asked_until = until;
      out->update_state = QUIET_UPDATE_BLOCKED;
      snprintf(out->update_how, sizeof out->update_how, "%s", policy);
      say(out->text, sizeof out->text, "Windows Update: not paused: %s; left out", policy);
      update_failed = 1;
    } else {
      char pause[64];
      describe_pause(paused_until, now, pause, sizeof pause);
      say(out->text, sizeof out->text, "Windows Update: already %s; left as is", pause);
    }
    break;
  case PART_CHANGE: {
    int before = out->problems;
    update_quiet(ops, until, paused_until, out);
    update_failed = out->problems > before;
    if (policy[0])
      say(out->text, sizeof out->text, "Windows Update: note: %s", policy);
    break;
  }
  }

  /* A change that did not take is put back alone; the journal then keeps only what was done
     (and what could not be put back), so restoring undoes only that. */
  entry.id = id;
  entry.update_paused_until_set = until;
  int keep_defender = out->defender_changed, keep_update = out->update_changed;
  if (change_defender && !out->defender_changed && !undo_part(ops, &entry, 1, out))
    keep_defender = 1;
  if (change_update && !out->update_changed && !undo_part(ops, &entry, 0, out))
    keep_update = 1;
  ts_err journal_err;
  if ((keep_defender != change_defender || keep_update != change_update) &&
      store_quiet_set_changed(s, id, keep_defender, keep_update, keep_update ? until : 0,
                              &journal_err) != TS_OK)
    say(out->text, sizeof out->text, "note: %s", journal_err.text);
  record_confirmation(s, id, out);

  int done = out->defender_changed || out->update_changed;
  if (!keep_defender && !keep_update) {
    /* Nothing to restore: the entry keeps what was asked and why, closed. */
    char at[32];
    plat_utc_timestamp(at, sizeof at);
    store_quiet_end(s, id, at, out->problems ? out->text : NULL, &journal_err);
  }
  int all_failed = (dplan == PART_NOT_ASKED || dplan == PART_ABSENT || defender_failed) &&
                   (uplan == PART_NOT_ASKED || uplan == PART_ABSENT || update_failed);
  if (!done && all_failed)
    return ts_err_set(err, TS_EOS, "quiet mode changed nothing:\n%s", out->text);
  if (keep_defender || keep_update) {
    char deadline[40];
    format_time(entry.restore_by, deadline, sizeof deadline);
    say(out->text, sizeof out->text, "restored by the service at %s at the latest", deadline);
  }
  return TS_OK;
}

/* ---- restoring ------------------------------------------------------------------------------- */

/* Turns real-time protection back on unless it is on already (the user's or Windows' doing). */
static void defender_restore(const plat_quiet_ops *ops, quiet_outcome *out) {
  ts_err e;
  int on = 0;
  int get_rc = ops->defender_get(&on, &e);
  if (get_rc == TS_EUNSUPPORTED) {
    say(out->text, sizeof out->text,
        "Defender: gone since quiet mode began (%s); nothing to "
        "restore",
        e.text);
    return;
  }
  if (get_rc == TS_OK && on) {
    say(out->text, sizeof out->text,
        "Defender real-time protection: already back on (turned on by hand or by Windows during "
        "quiet mode, or it never went off); left as is");
    return;
  }
  /* Off, or unknown: turning on what was on before is always right. */
  int set_rc = ops->defender_set(1, &e);
  if (set_rc != TS_OK) {
    problem(out, "Defender: could not turn real-time protection back on: %s", e.text);
    return;
  }
  if (ops->defender_get(&on, &e) != TS_OK) {
    problem(out,
            "Defender: asked to turn real-time protection back on, but cannot tell that it "
            "is: %s",
            e.text);
    return;
  }
  if (!on) {
    problem(out, "Defender: real-time protection is still off after turning it back on; turn it "
                 "on in Windows Security");
    return;
  }
  out->defender_changed = 1;
  say(out->text, sizeof out->text, "Defender real-time protection: turned back on");
}

/* Puts the pause back as it was, unless it was changed since quiet mode set it. */
static void update_restore(const plat_quiet_ops *ops, const store_quiet_entry *entry,
                           quiet_outcome *out) {
  ts_err e;
  int64_t now = now_unix(), current = 0, was = entry->update_paused_until_was;
  char was_text[64], now_text[64];
  describe_pause(was, now, was_text, sizeof was_text);
  int get_rc = ops->update_get(&current, &e);
  if (get_rc == TS_EUNSUPPORTED) {
    say(out->text, sizeof out->text,
        "Windows Update: gone since quiet mode began (%s); nothing "
        "to restore",
        e.text);
    return;
  }
  if (get_rc == TS_OK && current == was) {
    say(out->text, sizeof out->text, "Windows Update: already as before (%s); left as is",
        was_text);
    return;
  }
  if (get_rc == TS_OK && current != entry->update_paused_until_set) {
    describe_pause(current, now, now_text, sizeof now_text);
    say(out->text, sizeof out->text,
        "Windows Update: the pause was changed during quiet mode (now %s; before quiet mode %s); "
        "left as it was set",
        now_text, was_text);
    return;
  }
  /* Ours, or unknown: restoring is the promise. */
  if (ops->update_set(was, &e) != TS_OK) {
    problem(out, "Windows Update: could not put the pause back (%s): %s", was_text, e.text);
    return;
  }
  if (ops->update_get(&current, &e) != TS_OK || current != was) {
    problem(out, "Windows Update: asked to put the pause back (%s), but it does not read back so",
            was_text);
    return;
  }
  out->update_changed = 1;
  if (was > 0)
    say(out->text, sizeof out->text, "Windows Update: pause put back as before (%s)", was_text);
  else
    say(out->text, sizeof out->text, "Windows Update: resumed (was not paused)");
}

static int restore_entry(store *s, const plat_quiet_ops *ops, const store_quiet_entry *entry,
                         quiet_outcome *out, ts_err *err) {
  if (entry->defender_changed)
    defender_restore(ops, out);
  if (entry->update_changed)
    update_restore(ops, entry, out);
  if (!entry->defender_changed && !entry->update_changed)
    say(out->text, sizeof out->text, "quiet mode had changed nothing; nothing to restore");
  char at[32];
  plat_utc_timestamp(at, sizeof at);
  if (out->problems) {
    /* Stays open: the next leave or service start tries again. */
    ts_err ignored;
    store_quiet_end(s, entry->id, NULL, out->text, &ignored);
    return ts_err_set(err, TS_EOS,
                      "quiet mode could not restore everything; it stays on and is retried at "
                      "the next start or `threadsoup quiet off`:\n%s",
                      out->text);
  }
  int rc = store_quiet_end(s, entry->id, at, NULL, err);
  return rc == TS_OK ? TS_OK : ts_err_prefix(err, "restored, but the journal says otherwise");
}

int quiet_leave(store *s, const plat_quiet_ops *ops, quiet_outcome *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  store_quiet_entry entry;
  int found = 0;
  int rc = store_quiet_open_entry(s, &entry, &found, err);
  if (rc != TS_OK)
    return rc;
  if (!found) {
    say(out->text, sizeof out->text, "quiet mode is not on; nothing to restore");
    return TS_OK;
  }
  return restore_entry(s, ops, &entry, out, err);
}

int quiet_recover(store *s, const plat_quiet_ops *ops, quiet_outcome *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  store_quiet_entry entry;
  int found = 0;
  int rc = store_quiet_open_entry(s, &entry, &found, err);
  if (rc != TS_OK || !found)
    return rc;
  say(out->text, sizeof out->text, "quiet mode left on since %s (%s); restoring", entry.started_at,
      entry.reason);
  return restore_entry(s, ops, &entry, out, err);
}

int quiet_owner_alive(long pid) {
  plat_process_census p;
  ts_err ignored;
  if (pid <= 0 || plat_census_process(pid, &p, &ignored) != TS_OK)
    return 0;
  return plat_process_name_matches(p.name, "threadsoup");
}

int quiet_recover_orphan(store *s, const plat_quiet_ops *ops, quiet_owner_alive_fn alive,
                         quiet_outcome *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  store_quiet_entry entry;
  int found = 0;
  int rc = store_quiet_open_entry(s, &entry, &found, err);
  if (rc != TS_OK || !found || entry.owner_pid <= 0)
    return rc;
  /* This process's own pid in an entry is a pid reused: its owner is gone too. */
  if (entry.owner_pid != plat_self_pid() && (alive ? alive : quiet_owner_alive)(entry.owner_pid))
    return TS_OK;
  say(out->text, sizeof out->text,
      "quiet mode left on since %s (%s) by process %ld, which no longer runs; restoring",
      entry.started_at, entry.reason, entry.owner_pid);
  return restore_entry(s, ops, &entry, out, err);
}

int quiet_expire(store *s, const plat_quiet_ops *ops, int64_t now, int64_t *next_deadline,
                 quiet_outcome *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  *next_deadline = 0;
  store_quiet_entry entry;
  int found = 0;
  int rc = store_quiet_open_entry(s, &entry, &found, err);
  if (rc != TS_OK || !found || entry.restore_by == 0)
    return rc;
  if (entry.restore_by > now) {
    *next_deadline = entry.restore_by;
    return TS_OK;
  }
  char deadline[40];
  format_time(entry.restore_by, deadline, sizeof deadline);
  say(out->text, sizeof out->text, "quiet mode since %s (%s) ran out at %s; restoring",
      entry.started_at, entry.reason, deadline);
  rc = restore_entry(s, ops, &entry, out, err);
  if (rc != TS_OK)
    *next_deadline = entry.restore_by; /* still open: the caller retries later */
  return rc;
}

/* ---- status ---------------------------------------------------------------------------------- */

void quiet_read_machine(const plat_quiet_ops *ops, quiet_machine *out) {
  memset(out, 0, sizeof *out);
  const char *reason = ops->unavailable_reason();
  snprintf(out->unavailable, sizeof out->unavailable, "%s", reason ? reason : "");
  ts_err e;
  out->defender_known = ops->defender_get(&out->defender_on, &e) == TS_OK;
  if (!out->defender_known)
    snprintf(out->defender_error, sizeof out->defender_error, "%s", e.text);
  out->update_known = ops->update_get(&out->update_paused_until, &e) == TS_OK;
  if (!out->update_known)
    snprintf(out->update_error, sizeof out->update_error, "%s", e.text);
}

int quiet_describe(store *s, const quiet_machine *m, quiet_state *out, ts_err *err) {
  memset(out, 0, sizeof *out);
  int found = 0;
  int rc = store_quiet_open_entry(s, &out->entry, &found, err);
  if (rc == TS_OK && !found)
    rc = store_quiet_last_entry(s, &out->entry, &found, err);
  if (rc != TS_OK)
    return rc;
  out->on = found && out->entry.restored_at[0] == '\0';
  snprintf(out->unavailable, sizeof out->unavailable, "%s", m->unavailable);
  out->defender_known = m->defender_known;
  out->defender_on = m->defender_on;
  out->update_known = m->update_known;
  out->update_paused_until = m->update_paused_until;

  char defender[300], update[300], pause[64], deadline[64] = "";
  if (out->defender_known)
    snprintf(defender, sizeof defender, "%s", out->defender_on ? "on" : "off");
  else
    snprintf(defender, sizeof defender, "unknown (%s)", m->defender_error);
  if (out->update_known) {
    describe_pause(out->update_paused_until, now_unix(), pause, sizeof pause);
    snprintf(update, sizeof update, "%s", pause);
  } else {
    snprintf(update, sizeof update, "unknown (%s)", m->update_error);
  }
  if (out->on && out->entry.restore_by) {
    char when[40];
    format_time(out->entry.restore_by, when, sizeof when);
    snprintf(deadline, sizeof deadline, "; restored at %s", when);
  }

  if (out->on)
    say(out->text, sizeof out->text, "quiet mode: on since %s (%s)%s%s%s", out->entry.started_at,
        out->entry.reason, deadline, out->entry.restore_error[0] ? "; restoring failed: " : "",
        out->entry.restore_error);
  else if (found)
    say(out->text, sizeof out->text, "quiet mode: off (last on %s to %s)", out->entry.started_at,
        out->entry.restored_at);
  else
    say(out->text, sizeof out->text, "quiet mode: off (never used)");
  if (found && (out->entry.defender_asked || out->entry.update_state[0])) {
    char asked[700];
    quiet_describe_entry(&out->entry, asked, sizeof asked);
    say(out->text, sizeof out->text, "asked and confirmed: %s", asked);
  }
  say(out->text, sizeof out->text, "Defender real-time protection: %s", defender);
  say(out->text, sizeof out->text, "Windows Update: %s", update);
  if (m->unavailable[0])
    say(out->text, sizeof out->text, "note: %s", m->unavailable);
  return TS_OK;
}

int quiet_status(store *s, const plat_quiet_ops *ops, quiet_state *out, ts_err *err) {
  quiet_machine m;
  quiet_read_machine(ops, &m);
  return quiet_describe(s, &m, out, err);
}

/* ---- the doctor's check ---------------------------------------------------------------------- */

void quiet_check_update(const plat_quiet_ops *ops, quiet_update_check *out) {
  memset(out, 0, sizeof *out);
  ts_err e;
  if (ops->update_get(&out->paused_until, &e) != TS_OK) {
    snprintf(out->text, sizeof out->text, "Windows Update pause: not available: %s", e.text);
    return;
  }
  out->available = 1;
  plat_update_signal sig;
  if (!ops->update_signal || ops->update_signal(&sig, &e) != TS_OK) {
    if (!ops->update_signal)
      snprintf(e.text, sizeof e.text, "this machine offers no second signal");
    out->ok = 0;
    snprintf(out->text, sizeof out->text,
             "Windows Update pause: can be written, but cannot be confirmed: %s", e.text);
    return;
  }
  char policy[400], how[300];
  if (quiet_update_policy(&sig, policy, sizeof policy)) {
    snprintf(out->text, sizeof out->text, "Windows Update pause: blocked: %s", policy);
    out->state = QUIET_UPDATE_BLOCKED;
    return;
  }
  int64_t now = now_unix();
  if (out->paused_until <= now) {
    out->ok = 1;
    snprintf(out->text, sizeof out->text,
             "Windows Update pause: available (no pause now; no policy takes it away)%s%s",
             policy[0] ? "; note: " : "", policy);
    return;
  }
  out->state = quiet_update_classify(&sig, out->paused_until, how, sizeof how);
  out->ok = out->state == QUIET_UPDATE_CONFIRMED;
  char pause[64];
  describe_pause(out->paused_until, now, pause, sizeof pause);
  snprintf(out->text, sizeof out->text, "Windows Update pause: %s, %s%s%s%s%s", pause,
           out->ok ? "confirmed by " : quiet_update_state_text(out->state), out->ok ? "" : ": ",
           how, policy[0] ? "; note: " : "", policy);
}
